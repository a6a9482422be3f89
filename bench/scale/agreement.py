"""Predictor/browser agreement: passages Python calls unique that Chromium refuses, and why.

    .venv/bin/python bench/scale/agreement.py --content DIR [--release DIR] [--pages fs,http | --report browser.json]
                                               [--no-gate] [--repeats] [--counts] [--label before]

Builds the content in-process (the source gate: the Python predictor picks every passage's
directive), stages it, serves it with the real site, and runs the browser gate's own check
(`browser_check.run`, the probe and Chromium's `:target`) on every page, or on the pages
named (`--pages`), or on the pages with a failure in an earlier gate report (`--report`,
a reports/browser.json). Every refusal is put in a category by its reason; the agreement is
the gate's own (browser_report.summarise): predicted unique == proven.

`--release` serves an existing release of the same content (its pages must be the build's,
byte for byte) instead of staging the build; with `--from-release` the predictor reads the
release's pages instead of building the content (what the builder does with the same HTML,
for a quick re-check after a predictor change); `--no-gate` skips the gate's check.

With `--counts` it compares counts, not verdicts: the bare text of every sentence on the
page (published or left out) is counted by Python and by the probe in Chromium (no
activation, so this is quick). Python counting fewer than the probe is the kind of error
that makes Chromium refuse a passage; counting more is the deliberate caution of
textmodel.py (ICU word edges Python does not model).

With `--repeats` it also sends every sentence the predictor left out as repeated ("no
nearby words tell it apart") as its bare text, and counts how many Chromium finds exactly
once in its own block: passages the predictor was too cautious about.

Appends a section to bench/scale/results/agreement-<date>.md and writes the refusals to
agreement-<date>-<label>.json next to it.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime, timezone
from pathlib import Path
from types import SimpleNamespace

from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.build.passages import build_page_text
from trigsight.gates import browser as browser_gate
from trigsight.gates import browser_check, browser_report
from trigsight.gates.browser_pool import BrowserPool
from trigsight.gates.liveserver import serve_release
from trigsight.matching.directives import TextDirective, directive_matches
from trigsight.matching.textmodel import PASSAGE_TAGS
from trigsight.publishing import publish
from trigsight.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

# A refusal's reason (browser_check.same_document_reason) → what it says about the predictor.
CATEGORIES = [
    (r"^matches \d+ places", "matches N places: the predictor missed text Chromium sees"),
    (r"^Chromium finds no match", "no match: the predictor sees text Chromium does not"),
    (r"^the only match is in", "lands in another block: the predictor's block is not Chromium's"),
    (r"^Chromium marked", "Chromium marked another element"),
    (r"did not activate", "counted once, Chromium did not activate it"),
    (r"^our probe found no match", "probe and Chromium disagree"),
    (r"malformed", "malformed directive"),
]


def category(reason: str) -> str:
    return next((name for pattern, name in CATEGORIES if re.search(pattern, reason)), f"other: {reason[:60]}")


def pages_with_failures(report: Path) -> set[str]:
    return {f["page"] for f in json.loads(report.read_text("utf-8"))["failures"]}


def repeat_plans(built, plans: list[browser_gate.PagePlan]) -> list[browser_gate.PagePlan]:
    """For each page, one check per sentence left out as repeated: its bare text, in its own block."""
    out = []
    for plan in plans:
        text = built.texts[plan.job.path]
        checks, predicted = [], {}
        for number, skipped in enumerate(text.skipped):
            segment = next((s for s in text.segments if s.in_main and not s.preformatted and s.tag in PASSAGE_TAGS
                            and skipped.text in s.text), None)
            directive = TextDirective(skipped.text)
            key = f"repeat:{number}"
            checks.append(browser_check.Check(key, str(directive), segment.locator if segment else None))
            predicted[key] = len(directive_matches(text.haystack, directive))
        if checks:
            job = browser_check.PageJob(plan.job.path, plan.job.url, checks)
            out.append(browser_gate.PagePlan(job, plan.html_sha256, predicted=predicted))
    return out


@dataclass
class _Page:
    path: str
    html: str


@dataclass
class ReleasedPages:
    """The predictor's view of an existing release's pages (what the builder computes from the
    same HTML: build_page_text), without rendering the content again; no author citations."""

    pages: list
    texts: dict
    gate: object = field(default_factory=lambda: SimpleNamespace(resolved=[]))
    assets: dict = field(default_factory=dict)   # the plan's proof-cache key only; not used here
    config: object = None

    @property
    def passages(self):
        return [p for page in self.pages for p in self.texts[page.path].passages]


def from_release(release: Path, wanted: set[str]) -> ReleasedPages:
    allowlist = json.loads((release / "allowlist.json").read_text("utf-8"))
    listed = [p for p in allowlist["pages"] if not wanted or p["path"].strip("/") in wanted]
    pages = [_Page(p["path"], (release / p["file"]).read_text("utf-8")) for p in listed]
    texts = {page.path: build_page_text(page.path, page.html) for page in pages}
    for entry in listed:
        if not entry["source"]:   # a generated page (contents): nothing to cite, as in the builder
            texts[entry["path"]].passages, texts[entry["path"]].skipped = [], []
    return ReleasedPages(pages, texts)


def same_pages(built, release: Path) -> None:
    for page in built.pages:
        served = release / publish.page_file(page.path)
        if not served.is_file() or served.read_text("utf-8") != page.html:
            sys.exit(f"{release} is not a release of this build: {page.path} differs")


def git_commit() -> str:
    done = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "pipeline"], cwd=ROOT, capture_output=True, text=True)
    return done.stdout.strip() + (" (pipeline/ modified)" if dirty.stdout.strip() else "")


def sentence_counts(pool, built, plans) -> list[dict]:
    """Python's and the probe's count of every sentence's bare text, page by page."""
    jobs = []
    for plan in plans:
        text = built.texts[plan.job.path]
        sentences = sorted({p.text for p in text.passages} | {s.text for s in text.skipped})
        directives = [str(TextDirective(s)) for s in sentences]
        jobs.append(browser_check.PageJob(plan.job.path, plan.job.url,
                                          [browser_check.Check(s, d, None) for s, d in zip(sentences, directives)]))

    async def count(page, job):
        await page.goto(job.url, wait_until="load")
        return await page.evaluate("(ds) => window.__trigsight.count(ds)", [c.directive for c in job.checks])

    rows = []
    for job, counted in zip(jobs, pool.map(jobs, count)):
        haystack = built.texts[job.path].haystack
        for c, probe in zip(job.checks, counted):
            python = len(directive_matches(haystack, TextDirective(c.key)))
            rows.append({"page": job.path, "text": c.key, "python": python, "probe": probe["count"]})
    return rows


def check(pool, plans, version: str):
    started = time.perf_counter()
    found, stats = browser_check.run(pool, [p.job for p in plans])
    return browser_gate.GateResult(found, set(), version, stats, time.perf_counter() - started)


def refusals(plans, result, texts) -> list[dict]:
    rows = []
    for plan in plans:
        by_key = {o.key: o for o in result.outcomes[plan.job.path]}
        for c in plan.job.checks:
            o = by_key[c.key]
            if not o.ok:
                rows.append({"page": plan.job.path, "key": c.key, "text": texts.get(c.key, ""),
                             "directive": c.directive, "predicted": plan.predicted.get(c.key), "count": o.count,
                             "category": category(o.reason), "reason": o.reason, "matched": o.matched,
                             "intended": c.intended, "target": o.target})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, required=True, help="the docs folder to release")
    parser.add_argument("--pages", default="", help="comma-separated page paths or slugs (default: every page)")
    parser.add_argument("--report", type=Path, help="a reports/browser.json: check the pages it has failures on")
    parser.add_argument("--release", type=Path, help="serve this release of the content instead of staging the build")
    parser.add_argument("--from-release", action="store_true",
                        help="with --release: take the pages from the release instead of building the content")
    parser.add_argument("--no-gate", action="store_true", help="skip the gate's check (with --counts)")
    parser.add_argument("--counts", action="store_true", help="compare every sentence's count, Python vs probe")
    parser.add_argument("--repeats", action="store_true", help="also check the sentences left out as repeated")
    parser.add_argument("--label", default="run", help="names this run in the results (e.g. before, after)")
    parser.add_argument("--tabs", type=int, default=1, help="tabs of the local Chromium")
    args = parser.parse_args()
    settings = Settings.from_environ(os.environ)
    start_line = common.machine()
    tick = time.perf_counter()
    wanted = {p.strip().strip("/") for p in args.pages.split(",") if p.strip()}
    if args.report:
        wanted |= {p.strip("/") for p in pages_with_failures(args.report)}
    if args.release and args.from_release:
        built = from_release(args.release, wanted)
    else:
        built = build(BuildConfig(args.content))
    build_seconds = time.perf_counter() - tick
    texts = {p.id: p.text for p in built.passages}
    with tempfile.TemporaryDirectory(prefix="trigsight-agreement-") as scratch:
        staging = args.release or publish.stage(built, Path(scratch) / "release")
        if args.release and not args.from_release:
            same_pages(built, args.release)
        with serve_release(staging, workers=1, env={"TRIGSIGHT_DEV": ""}) as base:
            plans = [p for p in browser_gate.plan(built, built.passages, base)
                     if not wanted or p.job.path.strip("/") in wanted]
            with BrowserPool((), chromium=settings.chromium, tabs_per_browser=args.tabs, site=base,
                             **browser_check.TAB) as pool:
                version = pool.version
                result = check(pool, [] if args.no_gate else plans, version)
                repeats = repeat_plans(built, plans) if args.repeats else []
                repeated = check(pool, repeats, version) if repeats else None
                counts = sentence_counts(pool, built, plans) if args.counts else []
    gated = [] if args.no_gate else plans
    rows = refusals(gated, result, texts)
    summary = browser_report.summarise(gated, result, {r["key"] for r in rows})
    agreement = summary["agreement"]
    rate = 100.0 * agreement["agree"] / max(1, agreement["checks"])
    command = " ".join(sys.argv[1:])
    lines = [
        f"## {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC: {args.label}",
        "",
        f"Command: `.venv/bin/python bench/scale/agreement.py {command}`",
        f"Machine at start: {start_line}",
        f"Machine at end: {common.machine()}",
        f"Commit: {git_commit()}; {version}; build {build_seconds:.0f} s, gate check {result.seconds:.0f} s",
        "",
        f"- pages: {len(plans)} of {len(built.pages)}; sentences left out by the predictor as repeated: "
        f"{sum(len(built.texts[p.job.path].skipped) for p in plans)}",
    ]
    if args.report:
        earlier = json.loads(args.report.read_text("utf-8"))
        lines.append(f"- the gate report {args.report}: {browser_report.headline(earlier['summary'])}; refusals by "
                     f"category: {dict(Counter(category(f['reason']) for f in earlier['failures'])) or 'none'}")
    if gated:
        lines += [
            f"- gate check: directives {agreement['checks']}; predicted unique {agreement['predicted_unique']}; "
            f"proven {agreement['browser_proven']}",
            f"- **agreement {agreement['agree']}/{agreement['checks']} ({rate:.3f}%)**; refused {len(rows)}",
        ]
    if repeated is not None:
        proven = [o for p in repeats for o in repeated.outcomes[p.job.path] if o.ok]
        counted = Counter(min(o.count, 2) for p in repeats for o in repeated.outcomes[p.job.path])
        lines.append(f"- left out as repeated, their bare text in Chromium: {counted[0]} no match, {counted[1]} "
                     f"exactly once ({len(proven)} proven in their own block), {counted[2]} more than once")
    if counts:
        under = [c for c in counts if c["python"] < c["probe"]]
        over = [c for c in counts if c["python"] > c["probe"]]
        lines.append(f"- sentence counts, bare text (Python vs probe): {len(counts)} sentences, "
                     f"{len(counts) - len(under) - len(over)} equal, {len(over)} Python higher (cautious), "
                     f"**{len(under)} Python lower (would be refused)**; where it decides uniqueness: "
                     f"{sum(c['python'] > 1 and c['probe'] == 1 for c in counts)} Python >1 but probe 1, "
                     f"{sum(c['python'] == 1 and c['probe'] != 1 for c in counts)} Python 1 but probe not 1")
        lines += [f"  - lower: {c['page']} \"{c['text'][:90]}\" python {c['python']}, probe {c['probe']}"
                  for c in under[:20]]
        lines += [f"  - higher: {c['page']} \"{c['text'][:90]}\" python {c['python']}, probe {c['probe']}"
                  for c in over[:10]]
    if gated:
        lines += ["", "| refusal category | count |", "|---|---|"]
        lines += [f"| {name} | {n} |" for name, n in Counter(r["category"] for r in rows).most_common()]
        lines += ["", "Refusals (first 40):", ""] if rows else []
        lines += [f"- {r['page']} `{r['directive'][:100]}`: {r['reason'][:160]}" for r in rows[:40]]
    text = "\n".join(lines) + "\n"
    print(text)
    folder = ROOT / "bench" / "scale" / "results"
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / f"agreement-{date.today().isoformat()}.md"
    head = "" if out.is_file() else (f"# Predictor/browser agreement, {date.today().isoformat()}\n\n"
                                     "Written by bench/scale/agreement.py (see its docstring). Load figures are "
                                     "the 1/5/15-minute load averages on a 2-core machine shared with other work.\n\n")
    with out.open("a", encoding="utf-8") as file:
        file.write(head + text + "\n")
    (folder / f"agreement-{date.today().isoformat()}-{args.label}.json").write_text(
        json.dumps({"summary": summary, "refusals": rows,
                    "counts_differ": [c for c in counts if c["python"] != c["probe"]]}, ensure_ascii=False, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
