"""The browsers of a BrowserPool: what the pool keeps of each, and reaching the remote ones.

A `PoolBrowser` is one browser of the pool and what it did. A remote one, an endpoint of
TRIGSIGHT_BROWSERS, is reached with `connect`; `endpoint_names` and `connection_error` say
endpoints and failed connections in messages; `check_alike` refuses browsers that run
different Chromium versions or do not behave as a browser Playwright launched (the proofs
would differ). browser_pool.py runs the pool.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import UsageError
from . import chromium
from .delivery import first_line

SETTING = "TRIGSIGHT_BROWSERS"
CONNECT_TIMEOUT_MS = 20_000
# How a browser Playwright launched behaves (chromium.DEVTOOLS_FLAGS gives a bare Chromium the same):
# every one of NAVIGATIONS quick same-document navigations lands, no scrollbar takes layout width,
# and the primary pointer is a fine one that can hover (CSS media queries). Without
# --disable-ipc-flooding-protection Chromium lets 200 of them through, so 250 tell the two apart
# (test_browser_pool refuses a bare Chromium); each costs about 8 ms, on every browser's connect
# (bench/scale/connect.py: 400 → 250 took the check from 3.74 s to 2.58 s).
NAVIGATIONS = 250
ENVIRONMENT = {"navigations": NAVIGATIONS, "scrollbar": 0, "hover": True, "pointer": "fine"}
_ENVIRONMENT_JS = """(count) => {
  document.body.innerHTML = Array.from({length: count}, (_, i) => `<p id=n${i}>.</p>`).join("");
  let navigations = 0;
  for (let i = 0; i < count; i++) { location.hash = "#n" + i; navigations += document.querySelector(":target")?.id === "n" + i; }
  const box = document.createElement("div");
  box.style.cssText = "width:100px;height:100px;overflow:scroll";
  document.body.append(box);
  return {navigations, scrollbar: box.offsetWidth - box.clientWidth, hover: matchMedia("(hover: hover)").matches,
          pointer: ["none", "coarse", "fine"].find(p => matchMedia(`(pointer: ${p})`).matches) || "none"};
}"""


@dataclass
class PoolBrowser:
    """One browser of the pool, and what it did."""

    name: str                  # the endpoint, or "local chromium"
    version: str = ""
    jobs: int = 0              # jobs whose result it produced
    requests: int = 0          # requests delivered to it from `site`
    lost: str = ""             # why it left the pool; "" while it is in
    browser: Any = field(default=None, repr=False)
    on_disconnect: Any = field(default=None, repr=False)


async def connect(playwright, endpoint: str):
    """A remote browser: a Playwright browser server (`ws://`, `wss://`), else a Chromium DevTools endpoint."""
    browser_type = playwright.chromium
    if endpoint.startswith(("ws://", "wss://")):
        return await browser_type.connect(endpoint, timeout=CONNECT_TIMEOUT_MS)
    return await browser_type.connect_over_cdp(endpoint, timeout=CONNECT_TIMEOUT_MS)


async def check_alike(browsers: list[PoolBrowser]) -> None:
    """One Chromium version, and each behaves as a Playwright launch (or the proofs would differ)."""
    versions = {b.version for b in browsers}
    if len(versions) > 1:
        listed = ", ".join(f"{b.name}: {b.version}" for b in browsers)
        raise UsageError(f"the browsers run different Chromium versions ({listed}); one version proves a "
                         "release", SETTING)
    for owner in browsers:
        context = await owner.browser.new_context()
        try:
            await context.route("**/*", lambda route: route.fulfill(body="<!doctype html><body>",
                                                                   content_type="text/html"))
            page = await context.new_page()
            await page.goto("http://trigsight.invalid/environment")
            found = await page.evaluate(_ENVIRONMENT_JS, NAVIGATIONS)
        finally:
            await context.close()
        wrong = {k: v for k, v in found.items() if ENVIRONMENT[k] != v}
        if wrong:
            raise UsageError(f"{owner.name} does not behave as a browser Playwright launches ({wrong}, expected "
                             f"{ {k: ENVIRONMENT[k] for k in wrong} }): start it with these flags: "
                             + " ".join(chromium.DEVTOOLS_FLAGS), SETTING)


def endpoint_names(endpoints: tuple[str, ...]) -> list[str]:
    """Each endpoint's name in messages; one listed twice (two browsers of one server) gets [2]."""
    seen: dict[str, int] = {}
    names = []
    for endpoint in endpoints:
        seen[endpoint] = seen.get(endpoint, 0) + 1
        names.append(endpoint if seen[endpoint] == 1 else f"{endpoint} [{seen[endpoint]}]")
    return names


def connection_error(error: BaseException) -> str:
    """Why a connection failed, in a line; a Playwright server of another version says so in a box."""
    versions = re.findall(r"(server|client) version: (v[\d.]+)", str(error))
    if versions:
        return "Playwright version mismatch: " + ", ".join(f"{who} {version}" for who, version in versions) + \
            " (install the server's version here, or run a server of this one)"
    return first_line(error)
