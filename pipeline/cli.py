"""The `trigsight` command. Errors become `path:line: message` and an exit code here only.

Here: the command group and the commands that release, verify, serve, list and roll back a
release and find Chromium. The commands that measure (`payload`, `eval`) are in cli_measure.py,
what the commands share (folders, report files) in cli_options.py.
"""
from __future__ import annotations

import faulthandler
import os
import signal
import sys
from pathlib import Path

import click

from . import __version__
from .cli_measure import eval_command, payload
from .cli_options import REPORT_FILE, chosen_folder, reporting
from .errors import TrigsightError, UsageError
from .math_threads import with_one_math_thread
from .settings import BY_NAME, Settings

__all__ = ["TrigsightGroup", "browser", "eval_command", "main", "payload", "release", "releases_command", "rollback",
           "serve", "verify"]


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
    # numpy is not loaded yet: its math library takes one thread, in this process and in the gunicorn workers
    # `serve` starts, which would otherwise spin against each other (math_threads.py)
    os.environ.update(with_one_math_thread(dict(os.environ)))
    signal.signal(signal.SIGTERM, _stopped)
    if hasattr(signal, "SIGUSR1"):      # `kill -USR1 PID`: where each thread of a command that seems stuck is, on stderr
        faulthandler.register(signal.SIGUSR1, all_threads=True)


def _stopped(signum, frame) -> None:
    """SIGTERM (`kill`, a CI job's timeout, a service manager) unwinds as Ctrl-C does: the gate's
    server and browser are stopped and the staging folder removed, not left running (they run in
    sessions of their own, which the signal does not reach)."""
    click.echo(f"trigsight: stopped ({signal.Signals(signum).name})", err=True)
    raise SystemExit(128 + signum)


main.add_command(payload)        # the commands that measure (cli_measure.py)
main.add_command(eval_command)


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Where to publish [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--no-cache", is_flag=True, help="Re-check every page in the browser and re-embed every passage, ignoring cached proofs and vectors.")
@click.option("--budget", type=click.IntRange(min=BY_NAME["TRIGSIGHT_JS_BUDGET"].kind.low), default=None,
              help="JS bytes (brotli) allowed per page [TRIGSIGHT_JS_BUDGET].")
@click.option("--report-junit", "junit_file", type=REPORT_FILE, default=None,
              help="Write JUnit XML: one test case per page and gate, refused or not.")
@click.option("--report-json", "json_file", type=REPORT_FILE, default=None,
              help="Write the same report as JSON (schema trigsight.ci-report/1).")
@click.pass_obj
def release(settings: Settings, content_dir, out_dir, no_cache, budget, junit_file, json_file):
    """Render CONTENT, run every gate, and publish only if all pass."""
    from .gates.ci_report import Report
    from .release import ReleaseConfig, run

    config = ReleaseConfig(
        content_dir=chosen_folder(content_dir, settings.content_dir, "TRIGSIGHT_CONTENT_DIR", "--content"),
        out_dir=chosen_folder(out_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--out"),
        site_title=settings.site_title, language=settings.language,
        use_cache=not no_cache, cache_dir=settings.cache_dir,
        chromium=settings.chromium, browsers=settings.browsers, browser_tabs=settings.browser_tabs,
        js_budget=budget if budget is not None else settings.js_budget,
        site_css=settings.site_css, embeddings=settings.embeddings, rrf_k=settings.rrf_k,
        openai_api_key=settings.openai_api_key, openai_base_url=settings.openai_base_url,
        keep_releases=settings.keep_releases)
    with reporting(settings, Report("release"), json_file, junit_file) as report:
        run(config, report=report)


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
@click.pass_obj
def verify(settings: Settings, content_dir):
    """Run the source gate alone: every author citation must be found exactly once."""
    from .build.builder import BuildConfig, run

    build = run(BuildConfig(chosen_folder(content_dir, settings.content_dir, "TRIGSIGHT_CONTENT_DIR", "--content"),
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
    release_dir = chosen_folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release").absolute()
    Release.load(release_dir)  # fail here, clearly, rather than in every worker
    os.environ["TRIGSIGHT_RELEASE_DIR"] = str(release_dir)
    args = [sys.executable, "-m", "gunicorn", *GUNICORN_CONFIG, "--bind", f"{host}:{port}", "--workers", str(workers),
            "--access-logfile", "-", "trigsight_site:create_app()"]
    click.echo(f"serving {release_dir} at http://{host}:{port}", err=True)
    os.execv(sys.executable, args)     # main() gave each worker one math thread


@main.command("releases")
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="The release link [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.pass_obj
def releases_command(settings: Settings, release_dir):
    """List the published releases kept for rollback, newest first; * marks the live one."""
    from .publishing import publish

    out = chosen_folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release")
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

    out = chosen_folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release")
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


if __name__ == "__main__":
    main()
