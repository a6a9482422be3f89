"""A pool of headless Chromium browsers, several tabs each, taking page jobs until none is left.

    with BrowserPool(endpoints, chromium=configured, tabs_per_browser=2, site=base,
                     context_options={"viewport": {...}}, init_script=PROBE) as pool:
        results = pool.map(jobs, work, on_result=finished)   # one result per job, in job order

Browsers. Without `endpoints` one local Chromium is launched through Playwright
(`chromium.launch`), or a release's `shared` one is used (shared_chromium.py, left running when
the pool closes), and its tabs load `site`, the gate's gunicorn on loopback, directly.
Otherwise every endpoint is a remote browser: `ws://…` a Playwright browser server
(`playwright run-server`, `launch_server`, browserless…) reached with `browser_type.connect`,
`http://host:port` a Chromium DevTools endpoint reached with `connect_over_cdp` (pool_browsers.py).
They must all run the same Chromium version and behave as a browser Playwright launched (checked
on connect).

Delivery. A remote browser cannot reach this machine's loopback, and nothing is opened to the
network: each remote tab routes every request for `site` back to this process, which answers
it from the local gunicorn (delivery.py).

Work. `work(page, job)` is a coroutine on Playwright's async API that runs one job on one tab
and returns its result. Tabs take jobs from one queue. When a browser dies or disconnects, the
jobs in flight on it go back to the front of the queue for the others; a result is handed on
(`on_result`, then `map`'s list) only when `work` returned normally, so nothing half-done is
kept. `map` raises NoBrowserLeft when jobs remain and no browser is left. An exception from
`work` on a browser that still answers is the job's own and propagates, ending the map.
"""
from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Awaitable, Callable

from ..errors import TrigsightError
from . import chromium, pool_browsers
from .delivery import Delivery, DeliveryFailed, first_line
from .pool_browsers import CONNECT_TIMEOUT_MS, ENVIRONMENT, NAVIGATIONS, SETTING, PoolBrowser
from .shared_chromium import SharedChromium

__all__ = ["ANSWER_TIMEOUT_S", "CONNECT_TIMEOUT_MS", "ENVIRONMENT", "LOSSES_BEFORE_BLAME", "NAVIGATIONS", "SETTING",
           "BrowserPool", "DeliveryFailed", "NoBrowserLeft", "PoolBrowser"]

ANSWER_TIMEOUT_S = 10          # a browser that cannot open a context in this long after a failure is lost
LOSSES_BEFORE_BLAME = 3        # a job in flight on this many lost browsers is blamed, not retried again


class NoBrowserLeft(TrigsightError):
    """Jobs remain and every browser of the pool is lost (or none answered at the start)."""


@dataclass
class _Tab:
    owner: PoolBrowser
    context: Any
    page: Any
    undelivered: list[str] = field(default_factory=list)


class _Lost(Exception):
    """The browser under a job went away."""


class BrowserPool:
    """Browsers to run page jobs on; see the module's docstring. Use it as a context manager."""

    def __init__(self, endpoints: tuple[str, ...] | list[str] = (), *, chromium: str = "", tabs_per_browser: int = 1,
                 site: str = "", context_options: dict | None = None, init_script: str = "",
                 say: Callable[[str], None] | None = None, shared: SharedChromium | None = None):
        self.endpoints = tuple(endpoints)
        self.shared = None if endpoints else shared
        self.configured = chromium
        self.tabs_per_browser = max(1, tabs_per_browser)
        self.delivery = Delivery(site)
        self.context_options = context_options or {}
        self.init_script = init_script
        self.say = say or (lambda line: None)
        self.browsers: list[PoolBrowser] = []
        self._tabs: list[_Tab] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._playwright = None
        self._closing = False

    # --- lifecycle -----------------------------------------------------------------------------

    def __enter__(self) -> "BrowserPool":
        # The pool's own event loop, in its own thread: usable from plain code, from inside
        # Playwright's sync API (a test's `page`) and from a running asyncio loop alike.
        # A shared Chromium brings its loop (its thread) with it.
        if self.shared is not None:
            self._loop = self.shared.loop
        else:
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, name="browser-pool", daemon=True)
            self._thread.start()
        try:
            self._run(self._start())
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return self

    def __exit__(self, *exc) -> None:
        if self._loop is None:
            return
        try:
            self._run(self._stop())
            if self._thread is not None:
                self._run(self._loop.shutdown_default_executor())
        finally:
            if self._thread is not None:
                self._loop.call_soon_threadsafe(self._loop.stop)
                self._thread.join()
                self._loop.close()
            self._loop, self._thread = None, None

    def _run(self, coroutine):
        future = asyncio.run_coroutine_threadsafe(coroutine, self._loop)
        try:
            return future.result()
        except BaseException:
            future.cancel()        # Ctrl-C here: stop the pool's work too
            raise

    @property
    def version(self) -> str:
        """The browsers' Chromium, e.g. "chromium 156.0.8078.114" (the same for all, checked on connect)."""
        return next(f"chromium {b.version}" for b in self.browsers if b.version)

    @property
    def site(self) -> str:
        """The staged site's base URL on loopback; may be set after connecting, before `map`."""
        return self.delivery.site

    @site.setter
    def site(self, base: str) -> None:
        self.delivery.site = base

    @property
    def tabs(self) -> int:
        """Tabs of the browsers still in the pool: how many jobs run at once."""
        return sum(not tab.owner.lost for tab in self._tabs)

    @property
    def remote(self) -> bool:
        return bool(self.endpoints)

    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        if not self.remote:
            browser = await self._local()
            self.browsers = [PoolBrowser("local chromium", browser.version, browser=browser)]
        else:
            self._playwright = await async_playwright().start()
            found = await asyncio.gather(*(pool_browsers.connect(self._playwright, e) for e in self.endpoints),
                                       return_exceptions=True)
            names = pool_browsers.endpoint_names(self.endpoints)
            for name, got in zip(names, found):
                if isinstance(got, BaseException):
                    self.say(f"{name} does not answer ({pool_browsers.connection_error(got)}); going on without it")
                else:
                    self.browsers.append(PoolBrowser(name, got.version, browser=got))
            if not self.browsers:
                reasons = "; ".join(f"{n}: {pool_browsers.connection_error(g)}" for n, g in zip(names, found))
                raise NoBrowserLeft(f"no browser in {SETTING} answered ({reasons})", SETTING)
            await self._check_alike()
        for owner in self.browsers:
            owner.on_disconnect = lambda _, owner=owner: self._mark_lost(owner, "it disconnected")
            owner.browser.on("disconnected", owner.on_disconnect)
            for _ in range(self.tabs_per_browser):
                self._tabs.append(await self._open_tab(owner))

    async def _local(self):
        if self.shared is not None:
            return await self.shared.browser()
        from playwright.async_api import async_playwright

        self._playwright = await async_playwright().start()
        return await chromium.launch(self._playwright, self.configured)

    async def _check_alike(self) -> None:
        await pool_browsers.check_alike(self.browsers)   # a method of the pool's own: bench/scale/connect.py times it

    async def _open_tab(self, owner: PoolBrowser) -> _Tab:
        context = await owner.browser.new_context(**self.context_options)
        if self.init_script:
            await context.add_init_script(self.init_script)
        tab = _Tab(owner, context, None)
        if self.remote:
            await context.route("**/*", lambda route: self.delivery.handle(route, tab.owner, tab.undelivered))
        tab.page = await context.new_page()
        return tab

    async def _stop(self) -> None:
        self._closing = True
        for tab in self._tabs:
            with contextlib.suppress(Exception):
                await tab.context.close()
        for owner in self.browsers:
            if self.shared is not None:      # it outlives the pool: stop listening, leave it running
                with contextlib.suppress(Exception):
                    owner.browser.remove_listener("disconnected", owner.on_disconnect)
                continue
            with contextlib.suppress(Exception):
                await owner.browser.close()   # a connected browser is only disconnected from, never stopped
        if self._playwright:
            with contextlib.suppress(Exception):
                await self._playwright.stop()
        self._tabs, self._playwright = [], None

    # --- spreading jobs --------------------------------------------------------------------------

    def map(self, jobs, work: Callable[[Any, Any], Awaitable[Any]],
            on_result: Callable[[Any, Any], None] | None = None) -> list:
        """Run `work(page, job)` for every job on the pool's tabs; return the results in job order.

        `on_result(job, result)` is called as each job completes (for a cache, a progress bar),
        on the pool's thread while `map` waits. A job is named by `str(job)` in messages.
        """
        return self._run(self._map(list(jobs), work, on_result))

    async def _map(self, jobs: list, work, on_result) -> list:
        queue, results = deque(range(len(jobs))), [None] * len(jobs)
        lost_on: dict[int, set[str]] = {}
        state = {"in_flight": 0}
        changed = asyncio.Condition()

        async def take(tab: _Tab) -> None:
            while True:
                async with changed:
                    await changed.wait_for(lambda: tab.owner.lost or queue or not state["in_flight"])
                    if tab.owner.lost or not queue:
                        return
                    index = queue.popleft()
                    state["in_flight"] += 1
                try:
                    result = await self._attempt(tab, jobs[index], work)
                except _Lost:
                    lost_on.setdefault(index, set()).add(tab.owner.name)
                    if len(lost_on[index]) >= LOSSES_BEFORE_BLAME and self._left():
                        raise NoBrowserLeft(f"{jobs[index]} was in flight on {len(lost_on[index])} browsers that "
                                            f"were lost ({', '.join(sorted(lost_on[index]))}); not tried again",
                                            self._source()) from None
                    queue.appendleft(index)
                    return
                else:
                    results[index] = result
                    tab.owner.jobs += 1
                    if on_result:
                        on_result(jobs[index], result)
                finally:
                    async with changed:
                        state["in_flight"] -= 1
                        changed.notify_all()

        tasks = [asyncio.ensure_future(take(tab)) for tab in self._tabs if not tab.owner.lost]
        try:
            await asyncio.gather(*tasks)
        except BaseException:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        if queue:
            lost = "; ".join(f"{b.name}: {b.lost}" for b in self.browsers)
            raise NoBrowserLeft(f"every browser is lost and {len(queue)} of {len(jobs)} pages are not proven "
                                f"({lost})", self._source())
        return results

    async def _attempt(self, tab: _Tab, job, work):
        tab.undelivered.clear()
        try:
            result = await work(tab.page, job)
        except Exception as error:
            if not await self._answers(tab.owner, error):
                raise _Lost from error
            raise
        if tab.undelivered:
            raise DeliveryFailed(f"could not deliver {tab.undelivered[0]} to {tab.owner.name} for {job}", self._source())
        return result

    async def _answers(self, owner: PoolBrowser, error: Exception) -> bool:
        """After `work` failed: is the browser still there? If not, it leaves the pool."""
        if not owner.lost and owner.browser.is_connected():
            try:
                context = await asyncio.wait_for(owner.browser.new_context(), ANSWER_TIMEOUT_S)
                await asyncio.wait_for(context.close(), ANSWER_TIMEOUT_S)
                return True
            except Exception:
                pass
        self._mark_lost(owner, owner.lost or f"it stopped answering ({first_line(error)})")
        return False

    def _mark_lost(self, owner: PoolBrowser, reason: str) -> None:
        if owner.lost or self._closing:
            return
        owner.lost = reason
        left = self._left()
        self.say(f"lost {owner.name}: {reason}; "
                 + (f"its pages go to the {left} other browser(s)" if left else "no browser is left"))

    def _left(self) -> int:
        return sum(not b.lost for b in self.browsers)

    def _source(self) -> str:
        return SETTING if self.remote else "chromium"
