"""Gate two: headless Chromium proves every published link lands on exactly its sentence.

The staged release is served by the real site (gunicorn on loopback) and every page is
loaded once in Chromium (browser_check.py): a local one, or the remote browsers of
TRIGSIGHT_BROWSERS, to which the pages are delivered from here (browser_pool.py). An author citation that fails refuses the
release; an ordinary passage that fails is left out of the allowlist and reported.
A page's proof is taken from the cache (proof_cache.py) when its content, assets and
checks were proven before with the same browser and probe, and the navigation around it
cannot change what its directives match.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import posixpath
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import progress as progress_bar
from ..errors import GateFailed, Problem
from ..matching.directives import directive_matches, parse_directive
from ..matching.textmodel import find_matches, normalise, segment_at
from . import browser_check, browser_pool, browser_report, chromium, proof_cache
from .browser_check import citation_key

NAME = "browser"
# Pages checked at once: a tab per core, and at least two, so that one tab's frame waits overlap
# the other's work (bench/scale/gate.py: on 2 cores two tabs beat one on Node's API docs).
WORKERS = max(2, min(4, os.cpu_count() or 2))
# Tabs per remote browser (TRIGSIGHT_BROWSERS) unless TRIGSIGHT_BROWSER_TABS says otherwise.
REMOTE_TABS = 2
# The probe as injected (its logic and the rules) and the code that judges its answers.
PROBE_VERSION = hashlib.sha256((browser_check.PROBE + Path(browser_check.__file__).read_text("utf-8"))
                               .encode()).hexdigest()[:12]


@dataclass
class PagePlan:
    job: browser_check.PageJob
    html_sha256: str
    cache_key: str = ""
    predicted: dict = field(default_factory=dict)     # check key → matches our source model counts
    parts: proof_cache.PageParts | None = None
    assets_sha256: str = ""
    loose: bool = False          # the proof may outlive a change of the chrome around <main>

    @property
    def directives(self) -> list[str]:
        return [c.directive for c in self.job.checks]


@dataclass
class GateResult:
    outcomes: dict[str, list[browser_check.Outcome]]  # page path → outcome per check
    cached: set[str]
    chromium: str
    stats: browser_check.RunStats | None
    seconds: float


def plan(build, passages, base_url: str) -> list[PagePlan]:
    """One job per page: its allowed passages, plus the author citations that point at it."""
    allowed = {p.id for p in passages}
    assets_sha256 = proof_cache.assets_digest(build.assets)
    # Author CSS could style <main> by what surrounds it (or stop it being a block), which the
    # argument for reusing a proof across navigation changes does not cover.
    loose = not getattr(build.config, "site_css", None)
    plans = []
    for page in build.pages:
        text = build.texts[page.path]
        locate = {segment.block: segment.locator for segment in text.segments}
        checks, predicted = [], {}
        for passage in text.passages:
            if passage.id not in allowed:
                continue
            checks.append(browser_check.Check(passage.id, passage.directive, locate.get(passage.block)))
            # The source gate chose this directive because it counted it once on this very haystack
            # (`unique_directive`); counting it again repeated that for every passage, cached pages too.
            predicted[passage.id] = 1
        for resolved in build.gate.resolved:
            if resolved.target != page.path:
                continue
            directive = resolved.url.split("#:~:", 1)[1]
            block = _citation_block(text, resolved)
            key = citation_key(resolved)
            checks.append(browser_check.Check(key, directive, locate.get(block), fresh=True))
            predicted[key] = _predicted_count(text.haystack, directive)
        job = browser_check.PageJob(page.path, base_url + page.path, checks)
        parts = proof_cache.split_page(page.html)
        plans.append(PagePlan(job, parts.html_sha256, predicted=predicted, parts=parts,
                              assets_sha256=assets_sha256, loose=loose))
    return plans


def _predicted_count(haystack: str, directive: str) -> int:
    return len(directive_matches(haystack, parse_directive(directive)))


def _citation_block(text, resolved) -> int | None:
    if resolved.passage:
        return next((p.block for p in text.passages if p.id == resolved.passage), None)
    hits = find_matches(text.haystack, normalise(resolved.citation.text))
    return text.segments[segment_at(text.haystack, hits[0])].block if hits else None


def chromium_version(configured: str = "") -> str:
    """The browser's version string without starting a browser session (cache key part)."""
    path = chromium.executable(configured)
    if path:
        done = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
        return done.stdout.strip() or path
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        return playwright.chromium.executable_path


def cache_key(plan_: PagePlan, version: str) -> str:
    parts = plan_.parts or proof_cache.split_page("")
    return proof_cache.key(parts, plan_.assets_sha256, plan_.job.checks, version, PROBE_VERSION)


def run(staging: Path, plans: list[PagePlan], cache_dir: Path | None, configured: str = "",
        progress=None, browsers: tuple[str, ...] = (), tabs: int = 0, say=None, site=None,
        local=None) -> GateResult:
    """Prove every plan in Chromium (or take it from the cache); return the outcomes.

    `browsers`: endpoints of remote browsers (TRIGSIGHT_BROWSERS) to spread the pages over,
    several `tabs` each; none: a local Chromium, as before. Their version keys the cache, so
    they are connected to first. `site`: the release's GateSite; none: a server of its own.
    `local`: the release's SharedChromium; none: a Chromium of the pool's own.
    """
    started = time.perf_counter()
    say = say or (lambda line: None)
    store = Path(cache_dir) / "browser" if cache_dir else None
    outcomes, cached = {}, set()
    with contextlib.ExitStack() as stack:
        pool = None
        if browsers:
            pool = stack.enter_context(_pool(browsers, configured, tabs or REMOTE_TABS, say))
            version = pool.version
        else:
            version = chromium_version(configured)
        for p in plans:
            p.cache_key = cache_key(p, version)
            entry = proof_cache.load(store, p.cache_key) if store and p.parts else None
            if proof_cache.reusable(entry, p.parts, p.directives, p.loose):
                outcomes[p.job.path] = [browser_check.Outcome(**o) for o in entry.outcomes]
                cached.add(p.job.path)
                progress and progress(p.job.path, True)
        todo = [p for p in plans if p.job.path not in cached]
        stats = None
        if todo:
            from .liveserver import serve_gate

            by_path = {p.job.path: p for p in todo}

            def finished(job, results) -> None:
                # Every page the pool hands on is complete, proven or not: keep its whole verdict.
                p = by_path[job.path]
                if store and p.parts:
                    proof_cache.save(store, p.cache_key, proof_cache.entry_for(
                        p.parts, p.directives, [o.to_json() for o in results]))
                progress and progress(job.path, False)

            if pool is None and local is not None:
                local.start()      # Chromium launches while the gate server starts
            base = site.base if site else stack.enter_context(serve_gate(staging))
            if pool is None:
                pool = stack.enter_context(_pool((), configured, tabs or WORKERS, say, local))
                version = f"{version} ({pool.version})"
            pool.site = base
            for p in todo:
                p.job.url = base + p.job.path
            found, stats = browser_check.run(pool, [p.job for p in todo], on_page=finished)
            outcomes.update(found)
            if browsers:
                for b in pool.browsers:
                    say(f"{b.name} proved {b.jobs} pages ({b.requests} requests delivered)"
                        + (f", then was lost: {b.lost}" if b.lost else ""))
    return GateResult(outcomes, cached, version, stats, time.perf_counter() - started)


def _pool(browsers, configured: str, tabs: int, say, local=None) -> browser_pool.BrowserPool:
    return browser_pool.BrowserPool(browsers, chromium=configured, tabs_per_browser=tabs, say=say, shared=local,
                                    **browser_check.TAB)


def release_stage(context) -> None:
    """The `trigsight release` stage: prove, drop unproven passages, refuse on bad citations."""
    build, config = context.build, context.config
    plans = plan(build, context.passages, "")
    bar = progress_bar.Progress("browser gate", len(plans), "pages", context.say)

    def progress(path: str, cached: bool) -> None:
        bar.advance(1, cached=cached)

    try:
        result = run(context.staging, plans, config.cache_dir if config.use_cache else None,
                     config.chromium, progress, config.browsers, config.browser_tabs,
                     lambda line: context.say(f"browser gate: {line}"), context.site, context.chromium)
    except (browser_pool.NoBrowserLeft, browser_pool.DeliveryFailed, browser_check.PageNotServed) as error:
        raise GateFailed(NAME, error.problems) from error
    finally:
        bar.close()
    citations = {citation_key(r): r for r in build.gate.resolved}
    label = str(config.content_dir)
    failed_passages, problems = set(), []
    for path, outcomes in result.outcomes.items():
        for outcome in outcomes:
            if outcome.ok:
                continue
            if outcome.key in citations:
                c = citations[outcome.key].citation
                problems.append(Problem(posixpath.join(label, c.source), c.line,
                                        f'citation of {path} "{" ".join(c.text.split())}": {outcome.reason}'))
            else:
                failed_passages.add(outcome.key)
    summary = browser_report.summarise(plans, result, failed_passages)
    report = browser_report.build(plans, result, summary, build)
    written = browser_report.write(report, context.staging / "reports", _last_report_dir(config))
    for line in browser_report.failure_lines(report):
        context.say(line)
    context.say(browser_report.headline(summary))
    context.gates[NAME] = summary
    if problems:
        context.say(f"browser gate report: {written}")
        raise GateFailed(NAME, problems)
    context.passages = [p for p in context.passages if p.id not in failed_passages]


def _last_report_dir(config) -> Path | None:
    """Reports outlive a refused release here (the staging folder is discarded)."""
    return Path(config.cache_dir) / "browser" / "last-report" if config.cache_dir else None
