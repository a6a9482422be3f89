"""Launching headless Chromium the same way everywhere (gates, benches, tests)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
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
