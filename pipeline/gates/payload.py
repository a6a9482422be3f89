"""Payload gate: the JavaScript each page really costs a reader, measured on the wire.

Each page is loaded in headless Chromium with a cold cache (the HTTP cache is disabled
through CDP for every load, so every script comes over the network). Chrome DevTools
Protocol network events give, for every response, the bytes that arrived on the socket; a
script's figure is its body as transferred (encoded, so brotli when the server negotiated
brotli), response headers excluded. Scripts requested before the load event are the
initial load; scripts requested after it (the page's own lazy loading, given a network
quiet for QUIET_SECONDS after the load event and again after a scroll to the bottom, when
the page is taller than the window) are reported as lazy. The budget applies to both
together: a lazy script is still paid for by the reader. Script text inline in the HTML
travels inside the page, not as a script response: it is reported (`inline_script_bytes`,
uncompressed) but not in the total. Not seen: scripts of out-of-process (cross-site)
iframes, and scripts a page requests later than QUIET_SECONDS after the scroll with its
network quiet.

A page that cannot be loaded (no such host, connection refused, an HTTP error status, no
load event within the timeout) is reported with the reason, in one line, and fails the
check like a page over budget.

The figures and their report are in payload_figures.py, one page's load in payload_load.py;
this module measures a list of pages and runs the gate in a release. Their names are
importable from here.
"""
from __future__ import annotations

import asyncio
from pathlib import Path

from ..errors import BudgetExceeded, GateFailed, Problem
from .payload_figures import MEASURED, Measurement, PageFigures, PageLoad, Script, problems, report_lines
from .payload_load import NET_ERRORS, QUIET_SECONDS, SETTLE_LIMIT_SECONDS, load_page, unreachable

__all__ = ["CACHED_BASE", "CONCURRENCY", "LOAD_TIMEOUT_SECONDS", "MEASURED", "NET_ERRORS", "QUIET_SECONDS",
           "RELEASE_RUNS", "SETTLE_LIMIT_SECONDS", "Measurement", "PageFigures", "PageLoad", "Script", "measure",
           "problems", "release_stage", "report_lines", "unreachable"]

# Pages loaded at once. A load mostly waits for the network to go quiet (QUIET_SECONDS after the load event and
# again after the scroll), so more tabs than cores pay: 40 of SQLAlchemy's pages took 75.1 s with 2, 41.9 s with 4
# and 33.4 s with 6 on 2 cores, with the same figures (bench/payload/concurrency.py, results/concurrency-2026-12-07.md).
CONCURRENCY = 4
RELEASE_RUNS = 1           # bytes of a given release do not vary between loads; the bench uses 3
LOAD_TIMEOUT_SECONDS = 30.0
CACHED_BASE = "http://127.0.0.1"   # the address of figures all taken from the cache (shown relative to it)


def measure(urls: list[str], runs: int = 3, chromium: str = "", reduced_motion: bool = False,
            concurrency: int = CONCURRENCY, browser_args: tuple[str, ...] = (),
            timeout: float = LOAD_TIMEOUT_SECONDS, shared=None) -> Measurement:
    """Load every URL `runs` times with a cold cache; return the JS bytes each load transferred.

    `browser_args` are extra Chromium flags, e.g. to stand in for a browser without a feature.
    `timeout` is how long each load may take to reach its load event. `shared`: a release's
    SharedChromium to load in, instead of a Chromium of this call's own (not with `browser_args`).
    """
    options = (list(urls), runs, reduced_motion, concurrency, timeout)
    if shared is not None and not browser_args:
        return shared.run(_measure_in_shared(shared, *options))
    return asyncio.run(_measure(chromium, tuple(browser_args), *options))


async def _measure(chromium, browser_args, *options) -> Measurement:
    from playwright.async_api import async_playwright

    from . import chromium as chromium_launcher

    async with async_playwright() as playwright:
        browser = await chromium_launcher.launch(playwright, chromium, args=list(browser_args))
        try:
            return await _measure_in(browser, *options, browser_args=list(browser_args))
        finally:
            await browser.close()


async def _measure_in_shared(shared, *options) -> Measurement:
    return await _measure_in(await shared.browser(), *options)


async def _measure_in(browser, urls, runs, reduced_motion, concurrency, timeout, browser_args=()) -> Measurement:
    queue = asyncio.Queue()
    for _ in range(runs):
        for url in urls:
            queue.put_nowait(url)
    loads: list[PageLoad] = []

    async def worker():
        # One context per worker; every load is still cold: the cache is disabled
        # for each page through CDP, so no response is ever served from it.
        context = await browser.new_context(reduced_motion="reduce" if reduced_motion else "no-preference")
        try:
            while not queue.empty():
                loads.append(await load_page(context, queue.get_nowait(), timeout))
        finally:
            await context.close()

    await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, len(urls) * runs)))))
    webgl = await _webgl(browser)
    name = f"{browser.browser_type.name} {browser.version}"
    pages = [PageFigures(url, [load for load in loads if load.url == url]) for url in urls]
    return Measurement(name, webgl, runs, reduced_motion, pages, list(browser_args))


async def _webgl(browser) -> str:
    page = await browser.new_page()
    try:
        return await page.evaluate("""() => {
            const gl = document.createElement('canvas').getContext('webgl');
            if (!gl) return 'unavailable';
            const info = gl.getExtension('WEBGL_debug_renderer_info');
            return info ? gl.getParameter(info.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER);
        }""")
    finally:
        await page.close()


def release_stage(context) -> None:
    """Measure every staged page over real HTTP; refuse the release when one is over budget."""
    from ..publishing import compress

    stale = compress.stale(context.staging)
    if stale:
        raise GateFailed("payload", [Problem(name, None, "pre-compressed copy differs from the file "
                                             "(a stage rewrote it after compression)") for name in stale])
    budget = context.config.js_budget
    measurement, base, kept = _measure_or_reuse(context)
    if kept:
        context.say(f"payload: {kept} of {len(measurement.pages)} pages' figures from the cache "
                    "(same HTML, static files, server, gate and browser)")
    for line in report_lines(measurement, budget, base):
        context.say(line)
    if measurement.webgl == "unavailable":
        context.say("payload: this Chromium has no WebGL, so scripts a page loads only with WebGL "
                    "(the home page's scene) were not requested and are not in these figures")
    context.gates["payload"] = measurement.to_json(base, budget)
    found = problems(measurement, budget, base)
    if any(p.message.startswith("cannot be loaded") for p in found):
        raise GateFailed("payload", found)
    if found:
        raise BudgetExceeded(found)


def _measure_or_reuse(context) -> tuple[Measurement, str, int]:
    """Measure the pages the payload cache (payload_cache.py) has no figures for; how many it had."""
    from . import payload_cache
    from .browser import chromium_version

    config, pages = context.config, context.build.pages
    store = Path(config.cache_dir) / "payload" if config.use_cache and config.cache_dir else None
    keys, kept = {}, {}
    if store:
        digest = payload_cache.release_digest(context.staging, chromium_version(config.chromium))
        for page in pages:
            keys[page.path] = payload_cache.page_key(page.html, digest, RELEASE_RUNS)
            found = payload_cache.load(store, keys[page.path], CACHED_BASE)
            if found:
                kept[page.path] = found
    todo = [page.path for page in pages if page.path not in kept]
    if not todo:
        _, browser, webgl = next(iter(kept.values()))
        return Measurement(browser, webgl, RELEASE_RUNS, False,
                           [kept[page.path][0] for page in pages]), CACHED_BASE, len(kept)
    context.chromium.start()       # launching while the gate server starts, if neither is up yet
    base = context.site.base
    fresh = measure([base + path for path in todo], runs=RELEASE_RUNS, chromium=config.chromium,
                    shared=context.chromium)
    figures = {path: figure for path, figure in zip(todo, fresh.pages)}
    for path, figure in figures.items():
        if store:
            payload_cache.save(store, keys[path], figure, base, fresh.browser, fresh.webgl)
    for path, (figure, _, _) in kept.items():   # the kept figures, under this server's address
        figures[path] = payload_cache.load(store, keys[path], base)[0]
    fresh.pages = [figures[page.path] for page in pages]
    return fresh, base, len(kept)
