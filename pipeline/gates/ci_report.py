"""Gate results as CI systems read them: one case per page and gate, as JSON and JUnit XML.

A `Report` is the collector the release stages feed (`with report.stage("browser"): ...`):
a stage that raises is recorded with the problems it carried, mapped onto the page each
one names (by its markdown file or its URL path); the pages of a stage that returns
passed; the gates the release never reached are skipped. `trigsight payload` feeds one
the same way, with one case per URL. Writing files and printing is the CLI's job; this
module only shapes the data (pure, no IO). Workflow annotations are in `annotations.py`.
"""
from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ElementTree
from contextlib import contextmanager
from dataclasses import dataclass, field

from ..errors import GateFailed, Problem, TrigsightError, UsageError

SCHEMA = "trigsight.ci-report/1"
RELEASE_GATES = ("source", "browser", "payload")
STAGE_ORDER = ("source", "browser", "index", "payload")   # the index and the payload gate run at once
DETAILS = ("initial", "lazy", "total", "runs", "error")   # per-page figures a case carries


@dataclass(frozen=True)
class Finding:
    """One reason a case failed: where (file and line, URL path or URL) and why."""

    message: str
    path: str = ""              # as the problem named it: content/a.md, /notes, https://…
    line: int | None = None
    file: str = ""              # the file in the repository it is about ("" for a URL)
    kind: str = "failure"       # failure: the check found a fault; error: the check could not run

    def __str__(self) -> str:
        return str(Problem(self.path or self.file or "trigsight", self.line, self.message))

    def to_json(self) -> dict:
        return {"kind": self.kind, "path": self.path, "line": self.line, "file": self.file,
                "message": self.message, "text": str(self)}


@dataclass
class Case:
    gate: str
    name: str                    # the page's URL path (release) or the URL measured (payload)
    file: str = ""               # the markdown file the page is made from
    findings: list[Finding] = field(default_factory=list)
    skipped: str = ""            # why the check did not run
    details: dict = field(default_factory=dict)   # this page's figures for this gate

    @property
    def status(self) -> str:
        if self.skipped:
            return "skipped"
        if any(f.kind == "error" for f in self.findings):
            return "error"
        return "failed" if self.findings else "passed"

    def to_json(self) -> dict:
        return {"gate": self.gate, "name": self.name, "file": self.file, "status": self.status,
                "problems": [f.to_json() for f in self.findings], "skipped": self.skipped, "details": self.details}


@dataclass
class Suite:
    """One gate (or a stage that failed): its cases, time and figures."""

    name: str
    cases: list[Case] = field(default_factory=list)
    ran: bool = False
    seconds: float = 0.0

    def count(self, status: str) -> int:
        return sum(case.status == status for case in self.cases)

    @property
    def status(self) -> str:
        if not self.ran:
            return "skipped"
        for status in ("error", "failed"):
            if self.count(status):
                return status
        return "passed"


class Report:
    """Collects what each gate found about each page; `close()` before reading it."""

    def __init__(self, command: str, gates: tuple[str, ...] = RELEASE_GATES):
        self.command = command
        self.suites: dict[str, Suite] = {name: Suite(name) for name in gates}
        self.pages: list[tuple[str, str]] = []        # (name, file): URL path and markdown file
        self.figures: dict = {}                       # gate → its figures (the manifest's `gates`)
        self.stopped_by = ""                          # the stage that stopped the run

    def set_pages(self, pages: list[tuple[str, str]]) -> None:
        self.pages = list(pages)

    @contextmanager
    def stage(self, name: str):
        """Run one stage; record its pages as passed, or the problems of what it raised."""
        started = time.perf_counter()
        try:
            yield
        except TrigsightError as error:
            kind = "error" if isinstance(error, UsageError) else "failure"
            if isinstance(error, GateFailed) and error.subjects and not self.pages:
                self.pages = list(error.subjects)
            self._record(name, error.problems, kind, time.perf_counter() - started)
            raise
        except Exception as error:
            problem = Problem(name, None, f"internal error: {type(error).__name__}: {error}")
            self._record(name, [problem], "error", time.perf_counter() - started)
            raise
        else:
            if name in self.suites:
                self._record(name, [], "failure", time.perf_counter() - started)

    def _record(self, name: str, problems: list[Problem], kind: str, seconds: float) -> None:
        gate = name in self.suites             # a gate has a case per page; another stage only its failures
        suite = self.suites.setdefault(name, Suite(name))
        suite.ran, suite.seconds = True, seconds
        cases = {page: Case(name, page, file) for page, file in self.pages} if gate else {}
        by_file = {file: page for page, file in self.pages if file}
        for problem in problems:
            page = problem.path if problem.path in cases else by_file.get(problem.path)
            if page is None:            # not about one page: a case of its own, named for what it names
                page = problem.path
                cases[page] = cases.get(page) or Case(name, page, "" if _is_url(page) else page)
            case = cases[page]
            file = problem.path if problem.path == case.file or not _is_url(problem.path) else case.file
            case.findings.append(Finding(problem.message, problem.path, problem.line, file, kind))
        if kind == "error":                     # the gate broke off: the pages it names nothing about went unchecked
            for case in cases.values():
                if not case.findings:
                    case.skipped = f"not checked: the {name} gate stopped with an error"
        suite.cases = list(cases.values())
        if problems and (not self.stopped_by or _earlier(name, self.stopped_by)):
            self.stopped_by = name       # the first in stage order, whichever of two at once ended first

    def close(self) -> "Report":
        """Skip the gates never reached; attach each page's figures from the gates' own."""
        for suite in self.suites.values():
            if not suite.ran and not suite.cases:
                what = "gate" if self.stopped_by in RELEASE_GATES else "stage"
                why = f"not run: stopped at the {self.stopped_by} {what}" if self.stopped_by else "not run"
                suite.cases = [Case(suite.name, page, file, skipped=why) for page, file in self.pages]
            figures = self.figures.get(suite.name) or {}
            pages = figures.get("pages")        # the payload gate's per-page rows (the browser gate's is a count)
            rows = {row.get("page"): row for row in pages if isinstance(row, dict)} if isinstance(pages, list) else {}
            for case in suite.cases:
                row = rows.get(case.name)
                if row:
                    case.details = {k: row[k] for k in DETAILS if row.get(k) not in (None, "")}
                    if figures.get("budget") is not None:
                        case.details["budget"] = figures["budget"]
        return self

    @property
    def cases(self) -> list[Case]:
        return [case for suite in self.suites.values() for case in suite.cases]

    def counts(self) -> dict:
        cases = self.cases
        return {"tests": len(cases), **{key: sum(c.status == status for c in cases) for key, status in
                                        (("passed", "passed"), ("failures", "failed"), ("errors", "error"),
                                         ("skipped", "skipped"))}}

    @property
    def ok(self) -> bool:
        counts = self.counts()
        return not self.stopped_by and not counts["failures"] and not counts["errors"]


def _earlier(name: str, than: str) -> bool:
    rank = {stage: n for n, stage in enumerate(STAGE_ORDER)}
    return rank.get(name, len(rank)) < rank.get(than, len(rank))


def _is_url(path: str) -> bool:
    return path.startswith("/") and not path.endswith(".md") or "://" in path


def to_json(report: Report) -> dict:
    return {
        "schema": SCHEMA, "command": report.command, "ok": report.ok, "stopped_by": report.stopped_by or None,
        "summary": report.counts(),
        "gates": [{"name": s.name, "status": s.status, "seconds": round(s.seconds, 3), "tests": len(s.cases),
                   "failures": s.count("failed"), "errors": s.count("error"), "skipped": s.count("skipped"),
                   "figures": report.figures.get(s.name) or {}} for s in report.suites.values()],
        "cases": [case.to_json() for case in report.cases],
    }


# XML 1.0 cannot carry most control characters, even escaped; a finding quoting content might.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _x(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def to_junit(report: Report) -> bytes:
    """JUnit XML as Jenkins, GitLab and most CI tools read it (valid against Jenkins' junit-10.xsd)."""
    counts = report.counts()
    root = ElementTree.Element("testsuites", {
        "name": f"trigsight {report.command}", "tests": str(counts["tests"]), "failures": str(counts["failures"]),
        "errors": str(counts["errors"]), "time": _seconds(sum(s.seconds for s in report.suites.values()))})
    for suite in report.suites.values():
        element = ElementTree.SubElement(root, "testsuite", {
            "name": f"trigsight.{suite.name}", "tests": str(len(suite.cases)), "failures": str(suite.count("failed")),
            "errors": str(suite.count("error")), "skipped": str(suite.count("skipped")),
            "time": _seconds(suite.seconds)})
        for case in suite.cases:
            name = f"{case.name} ({case.file})" if case.file and case.file != case.name else case.name
            testcase = ElementTree.SubElement(element, "testcase", {"classname": f"trigsight.{suite.name}",
                                                                    "name": _x(name)})
            if case.skipped:
                ElementTree.SubElement(testcase, "skipped", {"message": case.skipped})
            elif case.findings:
                tag = "error" if case.status == "error" else "failure"
                first = str(case.findings[0])
                message = first if len(case.findings) == 1 else f"{len(case.findings)} problems; first: {first}"
                fault = ElementTree.SubElement(testcase, tag, {"type": suite.name, "message": _x(message)})
                fault.text = _x("\n".join(str(f) for f in case.findings))
            if case.details:
                out = ElementTree.SubElement(testcase, "system-out")
                out.text = _x("\n".join(f"{key}: {value}" for key, value in case.details.items()))
    ElementTree.indent(root)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n").encode()


def _seconds(value: float) -> str:
    return f"{max(value, 0.0):.3f}"
