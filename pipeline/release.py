"""`trigsight release`: build, gate, and only then publish — atomically."""
from __future__ import annotations

import posixpath
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from .build import builder as build_stage
from .gates import ci_report
from .gates.liveserver import GateSite
from .gates.shared_chromium import SharedChromium
from .progress import Progress
from .publishing import publish
from .publishing.published import ALLOWLIST


@dataclass
class ReleaseConfig:
    content_dir: Path = Path("content")
    out_dir: Path = Path("release")
    site_title: str = ""          # "": the name the folder's generator gives the site
    language: str = ""            # "": the language the folder's generator states, else en
    use_cache: bool = True
    cache_dir: Path | None = Path(".cache/trigsight")   # None: nothing kept between releases
    chromium: str = ""
    browsers: tuple[str, ...] = ()   # remote browser endpoints for the browser gate; none: a local Chromium
    browser_tabs: int = 0            # pages in flight per browser; 0: the gate's default
    js_budget: int = 8192
    site_css: Path | None = None
    embeddings: str = "auto"
    rrf_k: int = 60
    openai_api_key: str = ""
    openai_base_url: str = ""
    keep_releases: int = 5         # published releases kept under releases/ for rollback


@dataclass
class ReleaseContext:
    """What the gates after the source gate work on: a staged release folder."""

    config: ReleaseConfig
    build: build_stage.Build
    staging: Path
    say: Callable[[str], None]
    site: GateSite                                  # the staged folder served on loopback, when asked for
    chromium: SharedChromium                        # the gates' local Chromium, launched when asked for
    passages: list = field(default_factory=list)    # still allowed; gates may remove some
    gates: dict = field(default_factory=dict)       # gate name → figures for the manifest

    def republish_allowlist(self) -> None:
        publish.write_json(self.staging / ALLOWLIST, publish.allowlist(self.build, self.passages))


@dataclass
class ReleaseResult:
    out_dir: Path
    manifest: dict


def _stages() -> list[list[tuple[str, Callable[[ReleaseContext], None]]]]:
    """The gates run on the staged folder, group after group; each raises GateFailed to stop the release.

    The browser gate goes first: it removes passages Chromium could not prove, so the
    retrieval index is built from proven passages only. The index and the payload gate then
    run at once: one embeds texts into `index/`, the other loads `pages/` and `static/` in
    Chromium and mostly waits for a quiet network, and neither reads what the other writes.
    """
    from .gates import browser as browser_gate
    from .gates import payload
    from .retrieval import index

    return [[("browser", browser_gate.release_stage)],
            [("index", index.release_stage), ("payload", payload.release_stage)]]


def _run_group(group, context: ReleaseContext, report: ci_report.Report, timings: dict) -> None:
    """Run a group's stages at once: the first in this thread, the others each in a thread of its
    own whose lines are held and said after the first's, so the log reads as if one ran after the
    other. Every stage runs to its end; the first failure, in stage order, is raised."""
    outcomes: dict[str, BaseException | None] = {}
    held: dict[str, list[str]] = {name: [] for name, _ in group[1:]}

    def run_stage(name, gate, stage_context) -> None:
        tick = time.perf_counter()
        try:
            with report.stage(name):
                gate(stage_context)
            outcomes[name] = None
        except BaseException as error:   # handed to the caller's thread below
            outcomes[name] = error
        finally:
            timings[name] = time.perf_counter() - tick

    threads = [threading.Thread(target=run_stage, args=(name, gate, replace(context, say=held[name].append)),
                                name=f"release-{name}", daemon=True) for name, gate in group[1:]]
    for thread in threads:
        thread.start()
    run_stage(*group[0], context)
    if isinstance(outcomes[group[0][0]], KeyboardInterrupt):
        raise outcomes[group[0][0]]     # Ctrl-C: stop now, not when the other stages are done
    for thread in threads:
        thread.join()
    for lines in held.values():
        for line in lines:
            context.say(line)
    for name, _ in group:
        if outcomes[name] is not None:
            raise outcomes[name]


def run(config: ReleaseConfig, say: Callable[[str], None] | None = None,
        report: ci_report.Report | None = None) -> ReleaseResult:
    """Build, gate and publish; `report` (for CI) is fed what each gate found on each page."""
    say = say or (lambda line: print(line, file=sys.stderr, flush=True))
    report = report if report is not None else ci_report.Report("release")
    started = time.perf_counter()
    timings: dict[str, float] = {}

    tick = time.perf_counter()
    with report.stage("source"), Progress("source gate", 0, "steps", say) as bar:
        build = build_stage.run(build_stage.BuildConfig(Path(config.content_dir), config.site_title,
                                                       config.language, config.site_css,
                                                       config.cache_dir if config.use_cache else None), bar.track)
        report.set_pages([(page.path, "" if page.generated else posixpath.join(str(config.content_dir),
                                                                               page.source.source))
                          for page in build.pages])
    timings["build"] = time.perf_counter() - tick
    for line in build.warnings:
        say(f"warning: {line}")
    say(f"source gate: {len(build.authored)} pages, {len(build.passages)} passages, "
        f"{len(build.gate.resolved)} author citations resolved")
    uncited = [s for t in build.texts.values() for s in t.skipped]
    if uncited:
        pages = Counter(s.page for s in uncited)
        say(f"warning: {len(uncited)} sentences are not citable, each repeated on its page where no nearby words "
            f"tell it apart or a browser would read the page over many times to find it ("
            + ", ".join(f"{page}: {n}" for page, n in pages.most_common(3)) + (", …" if len(pages) > 3 else "")
            + "); --report-json lists them")

    staging = publish.stage(build, Path(config.out_dir))
    site, local = GateSite(staging), SharedChromium(config.chromium)
    context = ReleaseContext(config, build, staging, say, site, local, list(build.passages),
                             {"source": {"pages": len(build.authored), "passages": len(build.passages),
                                         "generated_pages": len(build.pages) - len(build.authored),
                                         "warnings": build.warnings, "excluded": build.excluded,
                                         "citations": len(build.gate.resolved),
                                         "skipped": [vars(s) for s in uncited]}})
    report.figures = context.gates
    try:
        with site, local:
            for group in _stages():
                _run_group(group, context, report, timings)
        context.republish_allowlist()
        manifest = _manifest(config, context, timings, time.perf_counter() - started)
        publish.write_manifest(staging, manifest)
        publish.publish(staging, Path(config.out_dir), keep=config.keep_releases)
    except BaseException:
        publish.discard(staging)
        raise
    say(f"published {manifest['release_id']} to {config.out_dir}: {manifest['counts']['passages']} passages "
        f"in {manifest['seconds']:.2f}s")
    return ReleaseResult(Path(config.out_dir), manifest)


def _manifest(config: ReleaseConfig, context: ReleaseContext, timings: dict, seconds: float) -> dict:
    allowlist = publish.allowlist(context.build, context.passages)
    return {
        "release_id": allowlist["release_id"],
        "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "content_dir": str(config.content_dir),
        "content_sha256": publish.content_hash(Path(config.content_dir)),
        "counts": {"pages": len(allowlist["pages"]), "passages": len(allowlist["passages"]),
                   "citations": len(allowlist["citations"])},
        "gates": context.gates,
        "timings": {name: round(value, 3) for name, value in timings.items()},
        "seconds": round(seconds, 3),
    }
