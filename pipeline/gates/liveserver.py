"""Run the real site (gunicorn on loopback) over a release folder, for gates and tests."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from trigsight_site.gunicorn_conf import PARENT_VARIABLE

from ..errors import TrigsightError
from ..math_threads import with_one_math_thread

# The site's own gunicorn settings (worker class, timeouts, limits), the same `trigsight serve` uses.
GUNICORN_CONFIG = ("--config", "python:trigsight_site.gunicorn_conf")
# The same settings without loading the question encoder first: a gate never asks a question.
GATE_CONFIG = ("--config", "python:trigsight_site.gunicorn_gate_conf")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def serve_release(release_dir: Path, workers: int = 2, env: dict | None = None, timeout: float = 30.0,
                  gate: bool = False):
    """Yield the base URL of gunicorn serving `release_dir`; stop it (by PID) afterwards.

    `gate`: for a gate's pages and scripts only (GATE_CONFIG), the question encoder is not loaded.
    The server is killed (SIGKILL to its process group), not stopped gracefully: a request still
    running when the caller is done has no reader left, gunicorn keeps nothing on disk that a
    kill would leave behind, and even its quick stop (SIGQUIT) took 0.7 s (bench/scale/servers.py).
    """
    port = free_port()
    # absolute, not resolved: a `release` symlink must stay a link, so the site follows it when it moves
    # one math thread per worker: the workers are the parallelism (math_threads.py)
    environment = with_one_math_thread({**os.environ, **(env or {}),
                                        "TRIGSIGHT_RELEASE_DIR": str(Path(release_dir).absolute()),
                                        PARENT_VARIABLE: str(os.getpid())})
    # A file, not a pipe: nobody reads gunicorn's stderr while it runs, and a full pipe would block it.
    log = tempfile.TemporaryFile()
    config = GATE_CONFIG if gate else GUNICORN_CONFIG
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *config, "--bind", f"127.0.0.1:{port}", "--workers", str(workers),
         "--log-level", "warning", "trigsight_site:create_app()"],
        env=environment, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(base, process, log, timeout)
        yield base
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        log.close()


@contextlib.contextmanager
def serve_gate(release_dir: Path):
    """The server a gate loads pages from: one worker (plenty for a browser, and it starts in half the
    time on two cores), production headers whatever TRIGSIGHT_DEV says, no question encoder."""
    with serve_release(release_dir, workers=1, env={"TRIGSIGHT_DEV": ""}, gate=True) as base:
        yield base


class GateSite:
    """One release's gate server, shared by its gates: started when a gate first asks for its
    address, stopped when the release is done. A release whose pages all come from the caches
    starts none; one that proves and measures pages starts one, not one per gate."""

    def __init__(self, staging: Path):
        self.staging = staging
        self._stack = contextlib.ExitStack()
        self._base = ""
        self._starting = threading.Lock()     # gates may run at once (release._run_group)

    @property
    def base(self) -> str:
        with self._starting:
            if not self._base:
                self._base = self._stack.enter_context(serve_gate(self.staging))
            return self._base

    def __enter__(self) -> "GateSite":
        return self

    def __exit__(self, *exc) -> None:
        self._base = ""
        self._stack.close()


def _wait_until_up(base: str, process: subprocess.Popen, log, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            log.seek(0)
            error = log.read().decode(errors="replace")[-2000:]
            raise TrigsightError(f"the site did not start: {error.strip()}", "gunicorn")
        try:
            with urllib.request.urlopen(base + "/", timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except OSError:
            time.sleep(0.1)
    raise TrigsightError(f"the site did not answer on {base} within {timeout:.0f}s", "gunicorn")
