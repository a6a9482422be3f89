"""Drive headless Chromium over pages: count each directive's matches, let Chromium referee.

One load per page: the probe (matching/probe.js, given the rules of matching/rules.py)
counts every directive in the rendered DOM, then activates each one in the same document
and reads `:target`. Author citations get a fresh navigation too, and their highlight is
checked in a screenshot.
Pages run on the tabs of a BrowserPool (browser_pool.py): a local Chromium, or remote
browsers; `check_page` is the pool's work for one page on one tab (Playwright's async API).
"""
from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from typing import Callable

from ..errors import TrigsightError
from ..matching.rules import probe_script

PROBE = probe_script()
SAME_DOCUMENT_FRAMES = 20    # :target appears on the 2nd frame; a loaded machine may take longer
FRESH_FRAMES = 120
MAGENTA_TOLERANCE_PX = 3


@dataclass(frozen=True)
class Check:
    """One directive to prove on one page."""

    key: str                     # passage id, or "cite:<source>:<line>" for an author citation
    directive: str               # "text=..."
    intended: dict | None        # {"tag", "ordinal"}: the block the sentence belongs to
    fresh: bool = False          # author citation: also a fresh navigation + highlight


def citation_key(resolved) -> str:
    """The check key of an author citation: where it was written, and what it quotes."""
    return f"cite:{resolved.citation.source}:{resolved.citation.line}:{resolved.citation.key}"


@dataclass
class PageJob:
    path: str                    # URL path on the site
    url: str                     # absolute URL on the loopback server
    checks: list[Check]
    part: tuple[int, int] = (1, 1)   # (n, of): a big page's checks are shared out over tabs

    def __str__(self) -> str:
        return f"page {self.path}" + (f" (part {self.part[0]} of {self.part[1]})" if self.part[1] > 1 else "")


@dataclass
class Outcome:
    key: str
    directive: str
    count: int
    ok: bool
    reason: str = ""
    matched: str = ""            # text of the first match, as rendered
    target: dict | None = None   # the element Chromium marked :target
    fresh: dict | None = None    # the fresh-navigation verdict (citations)

    def to_json(self) -> dict:
        return {k: v for k, v in vars(self).items()}


def same_document_reason(counted: dict, judged: dict, intended: dict | None, directive: str = "") -> str:
    """Why a directive is not proven ("" when it is), from the probe's and Chromium's view."""
    if not counted.get("valid", True):
        return "the directive is malformed"
    count = counted["count"]
    if count == 0:
        if judged["target"]:
            return f"our probe found no match but Chromium marked {_name(judged['target'])}: probe and browser disagree"
        context = "; the words around it that tell it apart (prefix/suffix) must be visible too" \
            if "-," in directive or ",-" in directive else ""
        return ("Chromium finds no match in the rendered page (hidden by CSS, split by a block or "
                f"inline-block, or missing){context}")
    if count > 1:
        return f"matches {count} places in the rendered page; Chromium highlights only the first"
    if not judged["probeInBlock"]:
        return f"the only match is in {_name(counted['block'])}, not in the passage's own {_name(intended)}"
    if not judged["target"]:
        return "our probe counts one match but Chromium did not activate it (no :target)"
    if not judged["lands"] or not judged["inBlock"]:
        return (f"Chromium marked {_name(judged['target'])}, which does not hold the expected match "
                f"in {_name(counted['block'])}")
    return ""


def _name(element: dict | None) -> str:
    if not element:
        return "nothing"
    label = f"<{element['tag']}>" + (f"#{element['id']}" if element.get("id") else f"[{element.get('ordinal', '?')}]")
    text = element.get("text", "")
    return f'{label} "{text[:60]}{"…" if len(text) > 60 else ""}"' if text else label


def probe_page(page, directives: list[str], intended: list[dict | None] | None = None) -> list[dict]:
    """Count and activate `directives` on an already loaded `page` (tests, conformance).

    Each result holds the probe's count and first match plus Chromium's verdict
    (`target`, `lands`, `inBlock`) and `reason` ("" when the directive is proven).
    """
    intended = intended or [None] * len(directives)
    if not page.evaluate("() => !!window.__trigsight"):
        page.evaluate(PROBE)
    counted = page.evaluate("(ds) => window.__trigsight.count(ds)", directives)
    judged = page.evaluate("([ds, i, f]) => window.__trigsight.activate(ds, i, f)",
                           [directives, intended, SAME_DOCUMENT_FRAMES])
    return [{**c, **j, "reason": same_document_reason(c, j, want, d)}
            for c, j, want, d in zip(counted, judged, intended, directives)]


class PageNotServed(TrigsightError):
    """The site did not serve a page the gate was to prove: its checks would say nothing about it."""


def served(response, job: PageJob) -> None:
    """Raise PageNotServed unless the page's navigation answered 2xx (a 404 page has no passages to
    find, and its "no match" must neither leave passages out nor be cached as proof)."""
    if response is not None and not response.ok:
        raise PageNotServed(f"the site answered HTTP {response.status} for it; nothing was proven on it",
                            job.path)


class _PageCheck:
    """One job on one tab (Playwright's async API): the page's checks, then the fresh navigations."""

    def __init__(self, page, job: PageJob):
        self.page, self.job = page, job
        self.counted: list[dict] = []

    async def same_document(self) -> list[Outcome]:
        job = self.job
        served(await self.page.goto(job.url, wait_until="load"), job)
        directives = [c.directive for c in job.checks]
        self.counted = await self.page.evaluate("(ds) => window.__trigsight.count(ds)", directives)
        judged = await self._settled("""([ds, intended, frames]) => window.__trigsight.activate(ds, intended, frames)
            .catch(e => String(e))""", [directives, [c.intended for c in job.checks], SAME_DOCUMENT_FRAMES])
        return self.finish_page(judged)

    async def fresh(self, check: Check) -> dict:
        self.check = check
        await self.page.goto("about:blank")
        served(await self.page.goto(f"{self.job.url}#:~:{check.directive}", wait_until="load"), self.job)
        arrived = await self._settled("""([d, intended, frames]) => window.__trigsight.arrived(d, intended, frames)
            .catch(e => String(e))""", [check.directive, check.intended, FRESH_FRAMES])
        return await self.finish_fresh(arrived)

    async def _settled(self, script: str, arguments: list):
        result = await self.page.evaluate(script, arguments)
        if isinstance(result, str):
            raise RuntimeError(f"probe failed on {self.job.url}: {result}")
        return result

    def finish_page(self, judged: list[dict]) -> list[Outcome]:
        outcomes = []
        for check, counted, verdict in zip(self.job.checks, self.counted, judged):
            reason = same_document_reason(counted, verdict, check.intended, check.directive)
            outcomes.append(Outcome(check.key, check.directive, counted["count"], not reason, reason,
                                    counted.get("text", ""), verdict["target"]))
        return outcomes

    async def finish_fresh(self, arrived: dict) -> dict:
        reason = same_document_reason(arrived, arrived, self.check.intended, self.check.directive)
        if not reason and not arrived["inView"]:
            reason = "after a fresh navigation the sentence is not scrolled into view"
        if not reason:
            reason = await self._highlight_reason(arrived["rects"])
        return {"ok": not reason, "reason": reason, "count": arrived["count"], "target": arrived["target"]}

    async def _highlight_reason(self, rects: list[list[float]]) -> str:
        """Paint ::target-text magenta and compare the magenta box with the match's box."""
        await self.page.evaluate("() => window.__trigsight.markHighlight()")
        await self.page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
        viewport = self.page.viewport_size
        want = _union([r for r in rects if r[3] > 0 and r[1] < viewport["height"]])
        if want is None:
            return "the highlighted sentence has no box on screen"
        margin = 16
        clip = [max(0, int(want[0]) - margin), max(0, int(want[1]) - margin),
                min(viewport["width"], int(want[2]) + margin + 1), min(viewport["height"], int(want[3]) + margin + 1)]
        shot = await self.page.screenshot(type="png", clip={"x": clip[0], "y": clip[1], "width": clip[2] - clip[0],
                                                            "height": clip[3] - clip[1]})
        got = await self.page.evaluate("(png) => window.__trigsight.magentaBox(png)", base64.b64encode(shot).decode())
        if got is None:
            return "Chromium did not highlight the sentence (no ::target-text paint)"
        expected = [max(0, want[0]) - clip[0], max(0, want[1]) - clip[1],
                    min(viewport["width"], want[2]) - clip[0], min(viewport["height"], want[3]) - clip[1]]
        off = max(abs(a - b) for a, b in zip(got, expected))
        if off > MAGENTA_TOLERANCE_PX:
            return (f"the highlight box {got} differs from the sentence's box "
                    f"{[round(v) for v in expected]} by {off:.0f}px")
        return ""


async def check_page(page, job: PageJob) -> list[Outcome]:
    """Prove one page on one tab (a BrowserPool `work`): load it once, count and activate every
    directive; then a fresh navigation for each author citation."""
    checking = _PageCheck(page, job)
    outcomes = await checking.same_document()
    # One match counted but no verdict from Chromium can be a slow frame: load once more.
    if any(o.count == 1 and not o.ok for o in outcomes):
        outcomes = await checking.same_document()
    for check in (c for c in job.checks if c.fresh):
        outcome = next(o for o in outcomes if o.key == check.key)
        outcome.fresh = await checking.fresh(check)
        if outcome.ok and not outcome.fresh["ok"]:
            outcome.ok, outcome.reason = False, "fresh navigation: " + outcome.fresh["reason"]
    return outcomes


# What each tab of the gate's pool is: a context with this viewport and the probe in every document.
TAB = {"context_options": {"viewport": {"width": 1280, "height": 800}, "device_scale_factor": 1},
       "init_script": PROBE}


def _union(rects: list[list[float]]) -> list[float] | None:
    if not rects:
        return None
    return [min(r[0] for r in rects), min(r[1] for r in rects), max(r[2] for r in rects), max(r[3] for r in rects)]


@dataclass
class RunStats:
    pages: int = 0
    directives: int = 0
    fresh: int = 0
    seconds: float = 0.0
    parts: int = 0               # jobs run: pages, a big page counting once per part


# A part is never smaller than this: each part loads the whole page once more.
SMALLEST_PART = 200


def parts_of(jobs: list[PageJob], tabs: int, smallest: int | None = None) -> list[PageJob]:
    """The jobs, each page with more checks than the tabs' even share of all checks cut in parts.

    Chromium searches a whole page for each directive, so one page far bigger than the rest
    (a long changelog) would keep one tab busy long after the others are done: its parts, each
    about an even share and none under `smallest` checks, go to several tabs, each loading the
    page and proving a run of its checks.
    """
    smallest = SMALLEST_PART if smallest is None else smallest
    share = -(-sum(len(job.checks) for job in jobs) // max(1, tabs))
    out = []
    for job in jobs:
        pieces = min(-(-len(job.checks) // max(1, share)), len(job.checks) // max(1, smallest))
        if pieces <= 1:
            out.append(job)
            continue
        size = -(-len(job.checks) // pieces)
        out.extend(PageJob(job.path, job.url, job.checks[n * size:(n + 1) * size], (n + 1, pieces))
                   for n in range(pieces))
    return out


def run(pool, jobs: list[PageJob],
        on_page: Callable[[PageJob, list[Outcome]], None] | None = None) -> tuple[dict[str, list[Outcome]], RunStats]:
    """Check every job on a BrowserPool opened with TAB; return outcomes by page path.

    `on_page(job, outcomes)` is called as each page is complete, all its parts proven (never
    for a page a lost browser left half done: the pool runs that part again elsewhere).
    """
    started = time.perf_counter()
    stats = RunStats()
    by_path = {job.path: job for job in jobs}
    done: dict[str, dict[int, list[Outcome]]] = {}   # page path → part number → its outcomes

    def whole(path: str) -> list[Outcome]:
        return [o for n in sorted(done[path]) for o in done[path][n]]

    def finished(part: PageJob, outcomes: list[Outcome]) -> None:
        done.setdefault(part.path, {})[part.part[0]] = outcomes
        if len(done[part.path]) < part.part[1]:
            return
        outcomes = whole(part.path)
        stats.pages += 1
        stats.directives += len(outcomes)
        stats.fresh += sum(o.fresh is not None for o in outcomes)
        if on_page:
            on_page(by_path[part.path], outcomes)

    # Largest first: a big page taken last would leave the other tabs idle at the end.
    ordered = sorted(parts_of(jobs, pool.tabs), key=lambda job: -len(job.checks))
    stats.parts = len(ordered)
    pool.map(ordered, check_page, on_result=finished)
    stats.seconds = time.perf_counter() - started
    return {job.path: whole(job.path) for job in jobs}, stats
