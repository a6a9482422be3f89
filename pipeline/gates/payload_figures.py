"""The payload gate's figures: the scripts each load of a page transferred, and their report (pure).

A `Script` is one script response of a load, a `PageLoad` one load of a page, `PageFigures`
all loads of one page (their median), a `Measurement` every page of one run; each turns into
the JSON the release manifest and the CI report keep. `report_lines` says a measurement in
the log, `problems` names the pages that fail the budget or could not be loaded. URLs are
shown relative to the server measured (`base`) when they are under it.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

from ..errors import Problem

MEASURED = "encoded body bytes on the wire, response headers excluded"


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


def report_lines(measurement: Measurement, budget: int | None, base: str = "", lazy: bool = True) -> list[str]:
    lines = [f"payload: {measurement.browser}, WebGL {measurement.webgl}, {measurement.runs} run(s) per page, "
             f"cold cache{', reduced motion' if measurement.reduced_motion else ''}"
             f"{''.join(' ' + a for a in measurement.browser_args)}; {MEASURED}"]
    # "/入門" for a person to read, not "/%E5%85%A5%E9%96%80"
    width = max((len(unquote(_shown(p.url, base))) for p in measurement.pages), default=1)
    for figures in measurement.pages:
        shown = unquote(_shown(figures.url, base))
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
