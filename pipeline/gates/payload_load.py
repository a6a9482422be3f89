"""One page load of the payload gate: a cold load in Chromium, its scripts read from CDP network events.

`load_page` loads a page in a tab with the HTTP cache disabled, waits for the network to go
quiet after the load event and again after a scroll to the bottom, and returns the scripts
that arrived (`_NetworkLog`: body bytes as transferred, requested before or after the load
event). A page that cannot be loaded is a `PageLoad` with the reason, in one line
(`unreachable` for Chromium's network errors).
"""
from __future__ import annotations

import asyncio
import re
import time

from .payload_figures import PageLoad, Script

QUIET_SECONDS = 0.5        # network silent this long = settled (Playwright's "networkidle")
SETTLE_LIMIT_SECONDS = 15  # a page that never goes quiet is measured as it stands then
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


async def load_page(context, url: str, timeout: float) -> PageLoad:
    """One cold load of `url` in a new tab of `context`: its scripts, or why it could not be loaded."""
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
