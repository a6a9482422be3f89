"""The `trigsight` command. Errors become `path:line: message` and an exit code here only."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from . import __version__
from .errors import TrigsightError, UsageError
from .settings import setting


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
            if os.environ.get("TRIGSIGHT_DEBUG"):
                raise
            click.echo(f"trigsight: internal error: {type(error).__name__}: {error} "
                       "(set TRIGSIGHT_DEBUG=1 for details)", err=True)
            sys.exit(1)


@click.group(cls=TrigsightGroup)
@click.version_option(__version__, prog_name="trigsight")
def main() -> None:
    """Build, gate and serve a site whose every citation a browser has proven."""


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Where to publish [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--no-cache", is_flag=True, help="Re-check every page in the browser and re-embed every passage, ignoring cached proofs and vectors.")
@click.option("--budget", type=int, default=None, help="JS bytes (brotli) allowed per page [TRIGSIGHT_JS_BUDGET].")
def release(content_dir, out_dir, no_cache, budget):
    """Render CONTENT, run every gate, and publish only if all pass."""
    from .release import ReleaseConfig, run

    config = ReleaseConfig(
        content_dir=content_dir or Path(setting("TRIGSIGHT_CONTENT_DIR")),
        out_dir=out_dir or Path(setting("TRIGSIGHT_RELEASE_DIR")),
        site_title=setting("TRIGSIGHT_SITE_TITLE"), language=setting("TRIGSIGHT_LANGUAGE"),
        use_cache=not no_cache, cache_dir=Path(setting("TRIGSIGHT_CACHE_DIR")), chromium=setting("TRIGSIGHT_CHROMIUM"),
        js_budget=budget if budget is not None else int(setting("TRIGSIGHT_JS_BUDGET")))
    if config.js_budget < 0:
        raise UsageError("--budget must be zero or more bytes", "trigsight release")
    run(config)


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
def verify(content_dir):
    """Run the source gate alone: every author citation must be found exactly once."""
    from .build.builder import BuildConfig, run

    build = run(BuildConfig(content_dir or Path(setting("TRIGSIGHT_CONTENT_DIR")),
                            language=setting("TRIGSIGHT_LANGUAGE")))
    for resolved in build.gate.resolved:
        c = resolved.citation
        click.echo(f"{c.source}:{c.line}: ok {resolved.url}")
    click.echo(f"source gate passed: {len(build.gate.resolved)} citations, {len(build.pages)} pages, "
               f"{len(build.passages)} passages")


@main.command()
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="Published release to serve [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--workers", type=click.IntRange(1, 64), default=2, show_default=True)
def serve(release_dir, host, port, workers):
    """Serve a published release with gunicorn."""
    from .publishing.published import Release

    release_dir = (release_dir or Path(setting("TRIGSIGHT_RELEASE_DIR"))).resolve()
    Release.load(release_dir)  # fail here, clearly, rather than in every worker
    os.environ["TRIGSIGHT_RELEASE_DIR"] = str(release_dir)
    args = [sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}", "--workers", str(workers),
            "--threads", "4", "--access-logfile", "-", "trigsight_site:create_app()"]
    click.echo(f"serving {release_dir} at http://{host}:{port}", err=True)
    os.execv(sys.executable, args)


@main.command()
@click.option("--install", is_flag=True, help="Install Chromium when none is found.")
def browser(install):
    """Say which Chromium the browser gate will drive; with --install, get one if missing."""
    from .gates.chromium import ensure

    click.echo(ensure(setting("TRIGSIGHT_CHROMIUM"), install=install))


@main.command("eval")
@click.option("--release", "release_dir", type=click.Path(path_type=Path), default=None,
              help="Published release to evaluate [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--golden", "golden_file", type=click.Path(path_type=Path, dir_okay=False),
              default=Path("bench/retrieval/golden.json"), show_default=True, help="Golden questions and floors.")
@click.option("--results", "results_dir", type=click.Path(path_type=Path, file_okay=False),
              default=Path("bench/retrieval/results"), show_default=True,
              help="Folder for the dated markdown report.")
def eval_command(release_dir, golden_file, results_dir):
    """Measure retrieval on the golden set: recall@5, MRR@10, nDCG@10 per leg and level."""
    from .errors import Problem
    from .retrieval.evaluate import BelowThreshold, lines, run, write_report

    if not golden_file.is_file():
        raise UsageError(f"no golden set at {golden_file}", str(golden_file))
    evaluation = run(release_dir or Path(setting("TRIGSIGHT_RELEASE_DIR")), golden_file)
    for line in lines(evaluation):
        click.echo(line)
    report = write_report(evaluation, golden_file, results_dir)
    for goal in evaluation.unmet_goals:
        click.echo(f"goal not met (reported, not enforced): {goal}")
    click.echo(f"{len(evaluation.outcomes)} questions on release {evaluation.release_id}; report: {report}")
    if evaluation.failures:
        raise BelowThreshold("retrieval below its floors",
                             problems=[Problem(str(golden_file), None, failure) for failure in evaluation.failures])


if __name__ == "__main__":
    main()
