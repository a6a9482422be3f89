"""Launching headless Chromium the same way everywhere (gates, benches, tests).

Besides `launch` (through Playwright, the default), two local browser endpoints of the kinds
TRIGSIGHT_BROWSERS connects to, for tests, benches and trying a pool on one machine:
`devtools_endpoint` (Chromium with a DevTools port) and `browser_server` (Playwright's own
browser server).
"""
from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# A Chromium that Playwright did not launch lacks the switches Playwright adds, and some of them
# change what a page does: without the first, Chromium drops most of a fast run of same-document
# navigations (the gate's activations); the next two change layout and CSS media queries; the rest
# keep hidden tabs and their timers running. A DevTools endpoint for the gate needs them all
# (browser_pool checks the first three on every browser it connects to).
DEVTOOLS_FLAGS = FLAGS + [
    "--headless", "--disable-ipc-flooding-protection", "--hide-scrollbars",
    "--blink-settings=primaryHoverType=2,availableHoverTypes=2,primaryPointerType=4,availablePointerTypes=4",
    "--disable-renderer-backgrounding", "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows", "--force-color-profile=srgb", "--mute-audio",
    "--disable-back-forward-cache"]
DEBIAN_CHROMIUM = "/usr/bin/chromium"


def executable(configured: str = "") -> str | None:
    """The Chromium to drive: `configured` (TRIGSIGHT_CHROMIUM), else Debian's, else Playwright's own (None)."""
    if configured:
        found = shutil.which(configured) or (configured if Path(configured).is_file() else None)
        if found is None:
            from ..errors import UsageError
            raise UsageError(f"TRIGSIGHT_CHROMIUM={configured} is not an executable", "TRIGSIGHT_CHROMIUM")
        return found
    return DEBIAN_CHROMIUM if Path(DEBIAN_CHROMIUM).is_file() else None


def ensure(configured: str = "", install: bool = False) -> str:
    """Describe the Chromium in use; with `install`, fetch one when there is none.

    As root on Debian: `apt-get install chromium`. Elsewhere: `playwright install chromium`.
    """
    path = executable(configured)
    if path:
        return f"chromium: {path}"
    if _playwright_browser_present():
        return "chromium: Playwright's own build"
    if not install:
        from ..errors import UsageError
        raise UsageError("no Chromium found: run `trigsight browser --install`, or set TRIGSIGHT_CHROMIUM",
                         "chromium")
    if os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env)
    else:
        subprocess.run([sys.executable, "-m", "playwright", "install", "chromium"], check=True)
    return ensure(configured, install=False)


def _playwright_browser_present() -> bool:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        return Path(playwright.chromium.executable_path).is_file()


def launch(playwright, configured: str = "", **options):
    """Start headless Chromium through Playwright; options go to `chromium.launch`."""
    path = executable(configured)
    args = FLAGS + list(options.pop("args", []))
    return playwright.chromium.launch(headless=True, executable_path=path, args=args, **options)


def version(browser) -> str:
    return f"{browser.browser_type.name} {browser.version}"


@dataclass
class Endpoint:
    """A browser endpoint started here: its URL for TRIGSIGHT_BROWSERS and the process to stop."""

    url: str
    pid: int            # leader of the endpoint's process group

    def kill(self) -> None:
        """Kill the endpoint at once (SIGKILL to its process group), as a crash would."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, signal.SIGKILL)


@contextlib.contextmanager
def devtools_endpoint(configured: str = "", args: tuple[str, ...] = (), flags: list[str] | None = None,
                      timeout: float = 30.0):
    """Yield an Endpoint: headless Chromium with DevTools on a free loopback port (`http://127.0.0.1:N`).

    `flags` replaces DEVTOOLS_FLAGS (a test's bare Chromium); `args` are added to them.
    """
    path = executable(configured)
    if path is None:
        from ..errors import UsageError
        raise UsageError("a DevTools endpoint needs a Chromium executable: set TRIGSIGHT_CHROMIUM", "chromium")
    scratch = Path(tempfile.mkdtemp(prefix="trigsight-devtools-"))
    profile = scratch / "profile"
    # Port 0: Chromium picks a free port and writes it to DevToolsActivePort in its profile.
    process = subprocess.Popen([path, *(DEVTOOLS_FLAGS if flags is None else flags), *args, "--remote-debugging-port=0", f"--user-data-dir={profile}",
                                "about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=_temporary_files_in(scratch), start_new_session=True)
    try:
        port_file = profile / "DevToolsActivePort"
        port = _wait_for(lambda: port_file.is_file() and port_file.read_text().split("\n")[0].strip(), process,
                         timeout, "Chromium's DevTools port")
        yield Endpoint(f"http://127.0.0.1:{port}", process.pid)
    finally:
        _stop(process, scratch)


@contextlib.contextmanager
def browser_server(configured: str = "", args: tuple[str, ...] = (), timeout: float = 30.0):
    """Yield an Endpoint: Playwright's browser server over headless Chromium (`ws://127.0.0.1:N/…`).

    The same server `browser_type.launch_server` starts (here through the Python package's
    driver: `playwright launch-server`), so the client and server versions always match. `args`
    are added to FLAGS.
    """
    options = {"headless": True, "args": FLAGS + list(args), "host": "127.0.0.1"}
    path = executable(configured)
    if path:
        options["executablePath"] = path
    folder = Path(tempfile.mkdtemp(prefix="trigsight-server-"))
    (folder / "config.json").write_text(json.dumps(options), "utf-8")
    log = folder / "server.log"
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
                                    "--config", str(folder / "config.json")], stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.PIPE, env=_temporary_files_in(folder), start_new_session=True)
    try:
        url = _wait_for(lambda: next((line.strip() for line in log.read_text().splitlines()
                                      if line.startswith("ws://")), ""), process, timeout, "Playwright's browser server")
        yield Endpoint(url, process.pid)
    finally:
        _stop(process, folder)


def _temporary_files_in(folder: Path) -> dict:
    """The environment for an endpoint whose temporary files (Playwright's profile and artifacts
    folders, Chromium's singleton socket folder) go into `folder`: stopping it with a signal, or
    killing it as a test does, leaves none of them behind in the system's temporary folder.

    Not where the socket's path would not fit a socket address (104 bytes on macOS, whose
    temporary folder is long): there Chromium would not start, so it keeps the system's."""
    if len(str(folder)) + len("/org.chromium.Chromium.XXXXXX/SingletonSocket") >= 104:
        return dict(os.environ)
    return {**os.environ, "TMPDIR": str(folder)}


def _outlive(folder: Path, patience: float = 10.0) -> None:
    """Wait until no process uses an endpoint's folder. Playwright starts Chromium detached, outside
    the browser server's process group, so it can still be exiting (and writing its profile into
    the folder) after the server is gone. Killed if it takes longer than `patience`."""
    deadline = time.monotonic() + patience
    while processes_using(folder) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in processes_using(folder):
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _remove(folder: Path, patience: float = 3.0) -> None:
    """Remove an endpoint's folder. Where no /proc tells which processes still use it, its
    browser may still be exiting and write a last file meanwhile: try again for a moment."""
    deadline = time.monotonic() + patience
    while True:
        shutil.rmtree(folder, ignore_errors=True)
        if not folder.exists() or time.monotonic() > deadline:
            return
        time.sleep(0.1)


def processes_using(folder: Path) -> list[int]:
    """The running processes (not zombies) whose command line names `folder`: a browser whose
    profile is inside it. [] where there is no /proc to read."""
    needle, found = (str(folder).rstrip("/") + "/").encode(), []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            running = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
            if running and needle in (entry / "cmdline").read_bytes():
                found.append(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


def _wait_for(found, process: subprocess.Popen, timeout: float, what: str) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = found()
        if value:
            return value
        if process.poll() is not None:
            break
        time.sleep(0.05)
    from ..errors import TrigsightError
    raise TrigsightError(f"{what} did not start within {timeout:.0f}s", "chromium")


def _stop(process: subprocess.Popen, folder: Path) -> None:
    """Stop an endpoint's process group, wait for every browser process using its folder, remove it."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    if process.stdin:
        process.stdin.close()
    _outlive(folder)
    _remove(folder)


# For tests and benches: a browser on this machine that, like one on another machine, cannot
# reach this machine's loopback (every connection goes to a proxy that is not there).
NO_LOOPBACK = ("--proxy-server=socks5://127.0.0.1:9", "--proxy-bypass-list=<-loopback>")
