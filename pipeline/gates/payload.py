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
"""
from __future__ import annotations

import asyncio
import re
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import BudgetExceeded, GateFailed, Problem

QUIET_SECONDS = 0.5        # network silent this long = settled (Playwright's "networkidle")
SETTLE_LIMIT_SECONDS = 15  # a page that never goes quiet is measured as it stands then
CONCURRENCY = 2
RELEASE_RUNS = 1           # bytes of a given release do not vary between loads; the bench uses 3
LOAD_TIMEOUT_SECONDS = 30.0
# Chromium's network errors (net/base/net_error_list.h) a reader of a CI log should not have to look up.
NET_ERRORS = {
    "ERR_NAME_NOT_RESOLVED": "no such host: DNS found no address for it",
    "ERR_NAME_RESOLUTION_FAILED": "DNS lookup failed",
    "ERR_CONNECTION_REFUSED": "connection refused: nothing listens there",
    "ERR_CONNECTION_TIMED_OUT": "the connection timed out",
    "ERR_TIMED_OUT": "the request timed out",
    "ERR_CONNECTION_RESET": "the server reset the connection",
    "ERR_CONNECTION_CLOSED": "the server closed the connection",
    "ERR_EMPTY_RESPONSE": "the server closed the connection without answering",
    "ERR_ADDRESS_UNREACHABLE": "the address is unreachable",
    "ERR_INTERNET_DISCONNECTED": "there is no network",
    "ERR_TOO_MANY_REDIRECTS": "too many redirects",
    "ERR_SSL_PROTOCOL_ERROR": "the TLS handshake failed",
    "ERR_UNSAFE_PORT": "Chromium refuses to connect to this port (it is reserved for another protocol)",
}
MEASURED = "encoded body bytes on the wire, response headers excluded"
CACHED_BASE = "http://127.0.0.1"   # the address of figures all taken from the cache (shown relative to it)


@dataclass(frozen=True)
class Script:
    url: str
    bytes: int          # body bytes as transferred
    header_bytes: int
    encoding: str       # Content-Encoding as served ("" = identity)
    lazy: bool          # requested after the load event

    def to_json(self, base: str = "") -> dict:
        return {"url": _shown(self.url, base), "bytes": self.bytes, "encoding": self.encoding or "identity",
                "lazy": self.lazy}


@dataclass
class PageLoad:
    url: str
    status: int
    scripts: list[Script]
    inline_script_bytes: int     # script text inside the HTML: paid within the page, not counted here
    error: str = ""              # why the page could not be loaded ("" when it was)

    @property
    def initial(self) -> int:
        return sum(s.bytes for s in self.scripts if not s.lazy)

    @property
    def lazy(self) -> int:
        return sum(s.bytes for s in self.scripts if s.lazy)

    @property
    def total(self) -> int:
        return self.initial + self.lazy


@dataclass
class PageFigures:
    url: str
    loads: list[PageLoad]

    def _median(self, attribute: str) -> int:
        return statistics.median_low(getattr(load, attribute) for load in self.loads)

    @property
    def initial(self) -> int:
        return self._median("initial")

    @property
    def lazy(self) -> int:
        return self._median("lazy")

    @property
    def total(self) -> int:
        return self._median("total")

    @property
    def typical(self) -> PageLoad:
        return next(load for load in self.loads if load.total == self.total)

    @property
    def error(self) -> str:
        """Why a load of this page failed, if one did: one failed load fails the page."""
        return next((load.error for load in self.loads if load.error), "")

    def budgeted(self, lazy: bool = True) -> int:
        """The bytes the budget covers: every script, or (`lazy=False`) the initial load's only."""
        return self.total if lazy else self.initial

    def to_json(self, base: str = "") -> dict:
        return {"page": _shown(self.url, base), "initial": self.initial, "lazy": self.lazy, "total": self.total,
                "error": self.error, "runs": [load.total for load in self.loads],
                "inline_script_bytes": self.typical.inline_script_bytes,
                "scripts": [s.to_json(base) for s in self.typical.scripts]}


@dataclass
class Measurement:
    browser: str
    webgl: str                   # renderer, or "unavailable": a scene that needs WebGL did not load without it
    runs: int
    reduced_motion: bool
    pages: list[PageFigures] = field(default_factory=list)
    browser_args: list[str] = field(default_factory=list)

    @property
    def median_total(self) -> int:
        loaded = [p.total for p in self.pages if not p.error]
        return statistics.median_low(loaded) if loaded else 0

    def over(self, budget: int, lazy: bool = True) -> list[PageFigures]:
        return [p for p in self.pages if p.budgeted(lazy) > budget]

    def to_json(self, base: str = "", budget: int | None = None, lazy: bool = True) -> dict:
        return {"measured": MEASURED, "browser": self.browser, "browser_args": self.browser_args,
                "webgl": self.webgl, "runs": self.runs, "reduced_motion": self.reduced_motion, "budget": budget,
                "budgeted": "initial + lazy" if lazy else "initial", "median_total": self.median_total,
                "pages": [p.to_json(base) for p in self.pages]}


def _shown(url: str, base: str) -> str:
    return url[len(base):] or "/" if base and url.startswith(base) else url


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
                loads.append(await _load(context, queue.get_nowait(), timeout))
        finally:
            await context.close()

    await asyncio.gather(*(worker() for _ in range(max(1, min(concurrency, len(urls) * runs)))))
    webgl = await _webgl(browser)
    name = f"{browser.browser_type.name} {browser.version}"
    pages = [PageFigures(url, [load for load in loads if load.url == url]) for url in urls]
    return Measurement(name, webgl, runs, reduced_motion, pages, list(browser_args))


async def _load(context, url: str, timeout: float) -> PageLoad:
    from playwright.async_api import Error as PlaywrightError
    from playwright.async_api import TimeoutError as PlaywrightTimeout

    page = await context.new_page()
    try:
        cdp = await context.new_cdp_session(page)
        log = _NetworkLog()
        for event in ("requestWillBeSent", "responseReceived", "loadingFinished", "loadingFailed"):
            cdp.on(f"Network.{event}", getattr(log, event))
        cdp.on("Page.loadEventFired", log.loadEventFired)
        await cdp.send("Network.enable")
        await cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
        await cdp.send("Page.enable")
        try:
            response = await page.goto(url, wait_until="load", timeout=timeout * 1000)
        except PlaywrightTimeout:
            return PageLoad(url, 0, log.scripts(), 0, f"no load event within {timeout:g} s (timed out)")
        except PlaywrightError as error:
            return PageLoad(url, 0, [], 0, unreachable(str(error)))
        await log.quiet()
        if await _scroll_through(page):
            log.mark()   # quiet from the scroll on: a script asked for as the bottom shows is waited for
            await log.quiet()
        inline = await page.evaluate(
            "() => [...document.scripts].filter(s => !s.src).reduce((n, s) => n + s.text.length, 0)")
        status = response.status if response else 0
        error = f"answered HTTP {status}{' ' + response.status_text if response.status_text else ''}" \
            if status >= 400 else ""
        return PageLoad(url, status, log.scripts(), inline, error)
    finally:
        await page.close()


def unreachable(message: str) -> str:
    """A navigation error as one line: what happened, then Chromium's own code."""
    code = re.search(r"net::(ERR_[A-Z_]+)", message)
    if code is None:
        return message.splitlines()[0].removeprefix("Page.goto: ") if message else "the page could not be loaded"
    name = code.group(1)
    reason = NET_ERRORS.get(name) or ("the TLS certificate was refused" if name.startswith("ERR_CERT_")
                                      else "the page could not be loaded")
    return f"{reason} (net::{name})"


async def _scroll_through(page) -> bool:
    """Scroll a viewport at a time so scripts loaded on visibility are requested too; whether the
    page scrolled at all (one no taller than the window shows everything at the load event)."""
    return await page.evaluate("""async () => {
        for (let y = innerHeight; y < document.documentElement.scrollHeight + innerHeight; y += innerHeight) {
            scrollTo(0, y);
            await new Promise(done => requestAnimationFrame(() => setTimeout(done, 30)));
        }
        return scrollY > 0;
    }""")


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


class _NetworkLog:
    """CDP Network events of one page load, kept per request."""

    def __init__(self):
        self.requests: dict[str, dict] = {}
        self.in_flight: set[str] = set()
        self.changed = time.monotonic()
        self.load_time: float | None = None

    def mark(self):
        self.changed = time.monotonic()

    def requestWillBeSent(self, event):
        self.requests[event["requestId"]] = {"url": event["request"]["url"], "type": event.get("type", ""),
                                             "sent": event["timestamp"], "mime": "", "encoding": "",
                                             "header_bytes": 0, "total": None}
        self.in_flight.add(event["requestId"])
        self.mark()

    def responseReceived(self, event):
        request = self.requests.get(event["requestId"])
        if request is None:
            return
        response = event["response"]
        headers = {k.lower(): v for k, v in response.get("headers", {}).items()}
        request.update(mime=response.get("mimeType", ""), encoding=headers.get("content-encoding", ""),
                       type=event.get("type") or request["type"],
                       # bytes received when the headers were complete: the header block
                       header_bytes=int(response.get("encodedDataLength") or 0))

    def loadingFinished(self, event):
        request = self.requests.get(event["requestId"])
        if request is not None:
            request["total"] = int(event["encodedDataLength"])
        self.in_flight.discard(event["requestId"])
        self.mark()

    def loadingFailed(self, event):
        self.in_flight.discard(event["requestId"])
        self.mark()

    def loadEventFired(self, event):
        self.load_time = event["timestamp"]
        self.mark()

    async def quiet(self) -> None:
        deadline = time.monotonic() + SETTLE_LIMIT_SECONDS
        while time.monotonic() < deadline:
            if not self.in_flight and time.monotonic() - self.changed >= QUIET_SECONDS:
                return
            await asyncio.sleep(0.05)

    def scripts(self) -> list[Script]:
        found = []
        for request in self.requests.values():
            if request["total"] is None or not _is_script(request):
                continue
            lazy = self.load_time is not None and request["sent"] > self.load_time
            found.append(Script(request["url"], max(request["total"] - request["header_bytes"], 0),
                                request["header_bytes"], request["encoding"], lazy))
        return found


def _is_script(request: dict) -> bool:
    return request["type"] == "Script" or "javascript" in request["mime"] or "ecmascript" in request["mime"]


def report_lines(measurement: Measurement, budget: int | None, base: str = "", lazy: bool = True) -> list[str]:
    lines = [f"payload: {measurement.browser}, WebGL {measurement.webgl}, {measurement.runs} run(s) per page, "
             f"cold cache{', reduced motion' if measurement.reduced_motion else ''}"
             f"{''.join(' ' + a for a in measurement.browser_args)}; {MEASURED}"]
    width = max((len(_shown(p.url, base)) for p in measurement.pages), default=1)
    for figures in measurement.pages:
        shown = _shown(figures.url, base)
        if figures.error:
            lines.append(f"  {shown:<{width}}  cannot be loaded: {figures.error}")
            continue
        counted = figures.budgeted(lazy)
        verdict = "" if budget is None else (" OVER budget" if counted > budget else " ok")
        scripts = ", ".join(f"{_name(s.url)} {s.bytes} B {s.encoding or 'identity'}{' lazy' if s.lazy else ''}"
                            for s in figures.typical.scripts) or "no scripts"
        limit = "" if budget is None else f" / {budget} B"
        split = f"initial {figures.initial} B, lazy {figures.lazy} B" if lazy else \
            f"initial load only; lazy {figures.lazy} B not budgeted"
        lines.append(f"  {shown:<{width}}  JS {counted:>6} B{limit} ({split}){verdict}  [{scripts}]")
    loaded = sum(not p.error for p in measurement.pages)
    lines.append(f"median over {loaded} page(s): {measurement.median_total} B of JavaScript"
                 + (f"; {len(measurement.pages) - loaded} could not be loaded" if loaded < len(measurement.pages) else ""))
    return lines


def problems(measurement: Measurement, budget: int, base: str = "", lazy: bool = True) -> list[Problem]:
    """Each page that could not be loaded or is over budget, as a located problem, in page order."""
    scope = "JavaScript on the wire" if lazy else "JavaScript on the wire before the load event"
    found = []
    for page in measurement.pages:
        if page.error:
            found.append(Problem(_shown(page.url, base), None, f"cannot be loaded: {page.error}"))
        elif page.budgeted(lazy) > budget:
            found.append(Problem(_shown(page.url, base), None,
                                 f"{page.budgeted(lazy)} bytes of {scope} > budget {budget} bytes"))
    return found


def _name(url: str) -> str:
    return urlsplit(url).path.rsplit("/", 1)[-1] or url


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
