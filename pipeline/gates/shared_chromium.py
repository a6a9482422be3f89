"""One local Chromium for a release's gates: the browser gate's tabs and the payload gate's loads.

    with SharedChromium(configured) as local:
        local.start()             # the launch begins and this returns: start the gate server meanwhile
        local.run(coroutine)      # on the browser's loop; the coroutine awaits `local.browser()`

Launching Chromium through Playwright costs a driver process and a browser start, and a
release used to pay it once per gate. Here it is paid once, the first
time a gate asks, and not at all by a release whose pages all come from the caches. The
Playwright objects live on an event loop of their own thread (as browser_pool's do), so the
browser gate's pool and the payload gate, which runs in a thread of its own, can both use them.
Each gate opens browser contexts of its own and closes them; only the browser is shared.
"""
from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import threading

from . import chromium

STOP_TIMEOUT_S = 15      # closing the browser and Playwright's driver, at most


class SharedChromium:
    def __init__(self, configured: str = ""):
        self.configured = configured
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._launched = None            # concurrent.futures.Future of the browser
        self._playwright = None

    def start(self) -> None:
        """Begin launching (once); return without waiting for the browser."""
        with self._lock:
            if self._launched is not None:
                return
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, name="gate-chromium", daemon=True)
            self._thread.start()
            self._launched = asyncio.run_coroutine_threadsafe(self._launch(), self._loop)

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the browser lives on (started by `start`)."""
        self.start()
        return self._loop

    async def _launch(self):
        from playwright.async_api import async_playwright

        self._playwright = await async_playwright().start()
        return await chromium.launch(self._playwright, self.configured)

    async def browser(self):
        """The launched browser; to be awaited on `loop` (a failed launch raises here)."""
        return await asyncio.wrap_future(self._launched)

    def run(self, coroutine):
        """Run `coroutine` on the browser's loop and return its result; Ctrl-C cancels it."""
        future = asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()
            raise

    def __enter__(self) -> "SharedChromium":
        return self

    def __exit__(self, *exc) -> None:
        with self._lock:
            loop, self._loop = self._loop, None
            launched, self._launched = self._launched, None
        if loop is None:
            return
        try:
            # bounded: a release stopped by SIGTERM while Chromium still launches must not wait on it for
            # minutes; a browser left behind exits with Playwright's driver, which exits with this process
            asyncio.run_coroutine_threadsafe(self._stop(launched), loop).result(timeout=STOP_TIMEOUT_S)
        except concurrent.futures.TimeoutError:
            pass
        finally:
            loop.call_soon_threadsafe(loop.stop)
            self._thread.join()
            loop.close()

    async def _stop(self, launched) -> None:
        # A launch that failed, or was cancelled by Ctrl-C, has no browser to close; its driver still stops.
        with contextlib.suppress(Exception, asyncio.CancelledError):
            browser = await asyncio.wrap_future(launched)
            await browser.close()
        if self._playwright is not None:
            with contextlib.suppress(Exception):
                await self._playwright.stop()
            self._playwright = None
