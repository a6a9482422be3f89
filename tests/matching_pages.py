"""Three judges of one page: the Python text model, the in-page probe, and Chromium itself.

Pages are served to a real Chromium through Playwright's router (nothing leaves the
browser); the probe is injected exactly as the browser gate injects it.
"""
from __future__ import annotations

import itertools

from trigsight.gates.browser_check import PROBE
from trigsight.matching.directives import directive_matches, parse_directive
from trigsight.matching.textmodel import page_haystack, segments_from_html

HOST = "http://127.0.0.1:9"
# Our templates lay chips out as inline-blocks (site/static/style.css); the model knows them by class.
CHIP_CSS = ".cite, .chip { display: inline-block; }"


def document(body: str) -> str:
    return (f"<!doctype html><html lang=en><head><meta charset=utf-8><style>{CHIP_CSS}</style></head>"
            f"<body>{body}</body></html>")


class Tab:
    """One Chromium page that can be given any HTML, with the probe in every document."""

    def __init__(self, browser):
        self.page = browser.new_page()
        self.page.add_init_script(PROBE)
        self.html = ""
        self.page.route(f"{HOST}/**", lambda route, request: route.fulfill(
            body=self.html, content_type="text/html; charset=utf-8"))
        self.serial = itertools.count()

    def load(self, html: str, fragment: str = "") -> None:
        self.html = html
        self.page.goto(f"{HOST}/case{next(self.serial)}{fragment}", wait_until="load")

    def probe_counts(self, directives: list[str]) -> list[int | None]:
        """The probe's count per directive (None when it refuses the directive as malformed)."""
        counted = self.page.evaluate("(ds) => window.__trigsight.count(ds)", directives)
        return [c["count"] if c["valid"] else None for c in counted]

    def chromium_matches(self, directive: str, frames: int) -> bool:
        """Chromium's own verdict: does activating the directive mark a :target?"""
        return self.page.evaluate("""async ([d, frames]) => {
            location.hash = "#__reset"; location.hash = ":~:" + d;
            for (let k = 0; k < frames; k++) {
              await new Promise((r) => requestAnimationFrame(r));
              if (document.querySelector(":target")) return true;
            }
            return false; }""", [directive, frames])

    def close(self) -> None:
        self.page.close()


def model_counts(html: str, directives: list[str]) -> list[int | None]:
    """The Python model's count per directive (None when it refuses the directive as malformed)."""
    return counts_in(page_haystack(segments_from_html(html)), directives)


def counts_in(haystack: str, directives: list[str]) -> list[int | None]:
    counts = []
    for directive in directives:
        try:
            parsed = parse_directive(directive)
        except ValueError:
            counts.append(None)
            continue
        counts.append(len(directive_matches(haystack, parsed)))
    return counts
