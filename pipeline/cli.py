"""The `trigsight` command. Errors become `path:line: message` and an exit code here only."""
from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import click

from . import __version__
from .errors import CheckFailed, TrigsightError, UsageError
from .settings import BY_NAME, Settings


def _fail(error: TrigsightError) -> None:
    for problem in error.problems:
        click.echo(str(problem), err=True)
    gate = getattr(error, "gate", None)
    if gate:
        click.echo(f"release refused by the {gate} gate: nothing was published", err=True)
    sys.exit(error.exit_code)


class TrigsightGroup(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except TrigsightError as error:
            _fail(error)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except Exception as error:  # never a traceback for the user; TRIGSIGHT_DEBUG shows one
            if isinstance(ctx.obj, Settings) and ctx.obj.debug:
                raise
            click.echo(f"trigsight: internal error: {type(error).__name__}: {error} "
                       "(set TRIGSIGHT_DEBUG=1 for details)", err=True)
            sys.exit(1)


@click.group(cls=TrigsightGroup)
@click.version_option(__version__, prog_name="trigsight")
@click.pass_context
def main(ctx) -> None:
    """Build, gate and serve a site whose every citation a browser has proven."""
    # The one place the command reads the environment: a malformed setting stops here, exit 2.
    ctx.obj = Settings.from_environ(os.environ)


def _folder(option: Path | None, configured: Path | None, name: str, flag: str) -> Path:
    """The folder an option names, else the setting's; empty both ways is a usage error."""
    if option is not None:
        return option
    if configured is None:
        raise UsageError(f"no folder given: pass {flag} or set {name}", name)
    return configured


@contextmanager
def _reporting(settings: Settings, report, json_file: Path | None, junit_file: Path | None):
    """Hand `report` to the body; whatever happens, write it as asked and print the annotations.

    The files are written also (above all) when a gate refuses or content stops the run; a
    report that cannot be written then never hides why the run stopped.
    """
    try:
        yield report
    except BaseException:
        try:
            _write_report(settings, report, json_file, junit_file)
        except Exception as error:
            click.echo(f"trigsight: could not write the report: {error}", err=True)
        raise
    _write_report(settings, report, json_file, junit_file)


def _write_report(settings: Settings, report, json_file: Path | None, junit_file: Path | None) -> None:
    from .gates import annotations, ci_report

    report.close()
    if json_file is not None:
        json_file.parent.mkdir(parents=True, exist_ok=True)
        json_file.write_text(json.dumps(ci_report.to_json(report), ensure_ascii=False, indent=1) + "\n", "utf-8")
    if junit_file is not None:
        junit_file.parent.mkdir(parents=True, exist_ok=True)
        junit_file.write_bytes(ci_report.to_junit(report))
    if settings.github_actions:
        cwd = Path.cwd()
        for line in annotations.annotations(report, settings.github_workspace or cwd, cwd):
            click.echo(line)


_REPORT_FILE = click.Path(path_type=Path, dir_okay=False)


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Where to publish [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--no-cache", is_flag=True, help="Re-check every page in the browser and re-embed every passage, ignoring cached proofs and vectors.")
@click.option("--budget", type=click.IntRange(min=BY_NAME["TRIGSIGHT_JS_BUDGET"].kind.low), default=None,
              help="JS bytes (brotli) allowed per page [TRIGSIGHT_JS_BUDGET].")
@click.option("--report-junit", "junit_file", type=_REPORT_FILE, default=None,
              help="Write JUnit XML: one test case per page and gate, refused or not.")
@click.option("--report-json", "json_file", type=_REPORT_FILE, default=None,
              help="Write the same report as JSON (schema trigsight.ci-report/1).")
@click.pass_obj
def release(settings: Settings, content_dir, out_dir, no_cache, budget, junit_file, json_file):
    """Render CONTENT, run every gate, and publish only if all pass."""
    from .gates.ci_report import Report
    from .release import ReleaseConfig, run

    config = ReleaseConfig(
        content_dir=_folder(content_dir, settings.content_dir, "TRIGSIGHT_CONTENT_DIR", "--content"),
        out_dir=_folder(out_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--out"),
        site_title=settings.site_title, language=settings.language,
        use_cache=not no_cache, cache_dir=settings.cache_dir,
        chromium=settings.chromium, browsers=settings.browsers, browser_tabs=settings.browser_tabs,
        js_budget=budget if budget is not None else settings.js_budget,
        site_css=settings.site_css, embeddings=settings.embeddings, rrf_k=settings.rrf_k,
        openai_api_key=settings.openai_api_key, openai_base_url=settings.openai_base_url,
        keep_releases=settings.keep_releases)
    with _reporting(settings, Report("release"), json_file, junit_file) as report:
        run(config, report=report)


def _web_addresses(ctx, param, values: tuple[str, ...]) -> list[str]:
    """Each URL once, in order; anything but an http(s) address with a host is a usage error."""
    for value in values:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise click.BadParameter(f"{value!r} is not an http:// or https:// URL with a host", ctx, param)
    return list(dict.fromkeys(values))


@main.command()
@click.argument("urls", nargs=-1, required=True, callback=_web_addresses, metavar="URL [URL ...]")
@click.option("--budget", type=click.IntRange(min=BY_NAME["TRIGSIGHT_JS_BUDGET"].kind.low), default=None,
              help="JS bytes allowed per page, as transferred [TRIGSIGHT_JS_BUDGET, default 8192].")
@click.option("--runs", type=click.IntRange(1, 50), default=3, show_default=True,
              help="Cold loads per page; the median is reported.")
@click.option("--lazy/--no-lazy", default=True, show_default=True,
              help="Count scripts requested after the load event (lazy) toward the budget; "
                   "with --no-lazy they are still measured and shown.")
@click.option("--reduced-motion", is_flag=True,
              help="Emulate prefers-reduced-motion: reduce (pages may skip decorative scripts).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              help="Seconds each page may take to reach its load event.")
@click.option("--chromium-arg", "chromium_args", multiple=True, metavar="FLAG",
              help="Extra Chromium flag, repeatable (e.g. --disable-blink-features=TextFragmentIdentifiers).")
@click.option("--json", "json_file", type=_REPORT_FILE, default=None,
              help="Write the report and every figure as JSON (schema trigsight.ci-report/1).")
@click.option("--junit", "junit_file", type=_REPORT_FILE, default=None,
              help="Write JUnit XML: one test case per URL.")
@click.pass_obj
def payload(settings: Settings, urls, budget, runs, lazy, reduced_motion, timeout, chromium_args, json_file,
            junit_file):
    """Measure the JavaScript each URL costs on the wire, in headless Chromium; exit 1 over budget.

    Works against any site, local or remote. Each URL is loaded --runs times with a cold
    cache; its figure is the median, every script's body bytes as transferred (brotli when
    the server negotiated it), headers excluded. A URL that cannot be loaded fails too.
    """
    from .gates import payload as payload_gate
    from .gates.ci_report import Report

    budget = settings.js_budget if budget is None else budget
    with _reporting(settings, Report("payload", gates=("payload",)), json_file, junit_file) as report:
        report.set_pages([(url, "") for url in urls])
        with report.stage("payload"):
            measurement = payload_gate.measure(urls, runs=runs, chromium=settings.chromium,
                                               reduced_motion=reduced_motion, browser_args=chromium_args,
                                               timeout=timeout)
            report.figures["payload"] = measurement.to_json(budget=budget, lazy=lazy)
            for line in payload_gate.report_lines(measurement, budget, lazy=lazy):
                click.echo(line)
            problems = payload_gate.problems(measurement, budget, lazy=lazy)
            if problems:
                raise CheckFailed(f"{len(problems)} of {len(urls)} page(s) failed the payload check",
                                  problems=problems)


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
@click.pass_obj
def verify(settings: Settings, content_dir):
    """Run the source gate alone: every author citation must be found exactly once."""
    from .build.builder import BuildConfig, run

    build = run(BuildConfig(_folder(content_dir, settings.content_dir, "TRIGSIGHT_CONTENT_DIR", "--content"),
                            site_title=settings.site_title, language=settings.language,
                            site_css=settings.site_css))
    for line in build.warnings:
        click.echo(f"warning: {line}", err=True)
    for resolved in build.gate.resolved:
        c = resolved.citation
        click.echo(f"{c.source}:{c.line}: ok {resolved.url}")
    click.echo(f"source gate passed: {len(build.gate.resolved)} citations, {len(build.authored)} pages, "
               f"{len(build.passages)} passages")


@main.command()
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="Published release to serve [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
@click.pass_obj
def serve(settings: Settings, release_dir, host, port, workers):
    """Serve a published release with gunicorn."""
    from .gates.liveserver import GUNICORN_CONFIG
    from .publishing.published import Release

    # Every setting was checked by the group before this line, so a malformed one never
    # reaches gunicorn; the workers parse the same environment again (another process).
    # Absolute but not resolved: when `release` is a symlink the workers follow it as it moves.
    release_dir = _folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release").absolute()
    Release.load(release_dir)  # fail here, clearly, rather than in every worker
    os.environ["TRIGSIGHT_RELEASE_DIR"] = str(release_dir)
    args = [sys.executable, "-m", "gunicorn", *GUNICORN_CONFIG, "--bind", f"{host}:{port}", "--workers", str(workers),
            "--access-logfile", "-", "trigsight_site:create_app()"]
    click.echo(f"serving {release_dir} at http://{host}:{port}", err=True)
    os.execv(sys.executable, args)


@main.command("releases")
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="The release link [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.pass_obj
def releases_command(settings: Settings, release_dir):
    """List the published releases kept for rollback, newest first; * marks the live one."""
    from .publishing import publish

    out = _folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release")
    listed = publish.releases(out)
    if not listed:
        raise UsageError(f"no releases kept beside {out} (a release published before symlinks is "
                         "moved there by the next `trigsight release`)", str(out))
    for published in listed:
        click.echo(f"{'*' if published.live else ' '} {published.name:<24} {published.created_at}")


@main.command()
@click.argument("to", required=False)
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="The release link to switch [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.pass_obj
def rollback(settings: Settings, to, release_dir):
    """Point the release link back at release TO (an id or its prefix), else the one before the live one.

    One rename; running servers switch on their next request.
    """
    from .publishing import publish

    out = _folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release")
    if not out.is_symlink():
        raise UsageError(f"{out} is not a release link: nothing to roll back (publish once to create it)", str(out))
    try:
        chosen = publish.rollback(out, to)
    except LookupError as error:
        raise UsageError(str(error), str(out)) from None
    click.echo(f"{out} -> {chosen.folder} (release {chosen.release_id}, published {chosen.created_at})")


@main.command()
@click.option("--install", is_flag=True, help="Install Chromium when none is found.")
@click.pass_obj
def browser(settings: Settings, install):
    """Say which Chromium the browser gate will drive; with --install, get one if missing."""
    from .gates.chromium import ensure

    click.echo(ensure(settings.chromium, install=install))


@main.command("eval")
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="Published release to evaluate [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--golden", "golden_file", type=click.Path(path_type=Path, dir_okay=False),
              default=Path("bench/retrieval/golden.json"), show_default=True, help="Golden questions and floors.")
@click.option("--answers", "answers_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
              help="Instead of retrieval: score the offline answer on these questions "
                   "(e.g. bench/answers/questions.json) per language.")
@click.option("--split", type=click.Choice(["dev", "test", "all"]), default="test", show_default=True,
              help="With --answers: which split of the questions to answer.")
@click.option("--results", "results_dir", type=click.Path(path_type=Path, file_okay=False), default=None,
              help="Folder for the dated markdown report [bench/retrieval/results, with --answers "
                   "bench/answers/results].")
@click.pass_obj
def eval_command(settings: Settings, release_dir, golden_file, answers_file, split, results_dir):
    """Measure retrieval on the golden set (recall@5, MRR@10, nDCG@10 per leg and level), or with
    --answers the offline answer per language (answered correctly, refused, latency)."""
    from .errors import Problem

    release_dir = _folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release")
    if answers_file is not None:
        from .answering import evaluate as answers

        if not answers_file.is_file():
            raise UsageError(f"no question set at {answers_file}", str(answers_file))
        evaluation = answers.run(release_dir, answers_file, split, api_key=settings.openai_api_key,
                                 base_url=settings.openai_base_url)
        for line in answers.lines(evaluation):
            click.echo(line)
        report = answers.write_report(evaluation, answers_file, results_dir or Path("bench/answers/results"),
                                      _load_line())
        click.echo(f"{len(evaluation.outcomes)} {split} questions on release {evaluation.release_id}; "
                   f"report: {report}")
        return

    from .retrieval.evaluate import BelowThreshold, lines, run, write_report

    if not golden_file.is_file():
        raise UsageError(f"no golden set at {golden_file}", str(golden_file))
    evaluation = run(release_dir, golden_file, api_key=settings.openai_api_key, base_url=settings.openai_base_url)
    for line in lines(evaluation):
        click.echo(line)
    report = write_report(evaluation, golden_file, results_dir or Path("bench/retrieval/results"))
    for goal in evaluation.unmet_goals:
        click.echo(f"goal not met (reported, not enforced): {goal}")
    click.echo(f"{len(evaluation.outcomes)} questions on release {evaluation.release_id}; report: {report}")
    if evaluation.failures:
        raise BelowThreshold("retrieval below its floors",
                             problems=[Problem(str(golden_file), None, failure) for failure in evaluation.failures])


def _load_line() -> str:
    load = " / ".join(f"{value:.1f}" for value in os.getloadavg())
    return f"{os.cpu_count()} cores, load average {load}"


if __name__ == "__main__":
    main()
