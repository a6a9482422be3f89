"""The `trigsight` command. Errors become `path:line: message` and an exit code here only."""
from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from . import __version__
from .errors import TrigsightError, UsageError
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


@main.command()
@click.option("--content", "content_dir", type=click.Path(path_type=Path), default=None,
              help="Markdown folder [TRIGSIGHT_CONTENT_DIR, default: content].")
@click.option("--out", "out_dir", type=click.Path(path_type=Path), default=None,
              help="Where to publish [TRIGSIGHT_RELEASE_DIR, default: release].")
@click.option("--no-cache", is_flag=True, help="Re-check every page in the browser and re-embed every passage, ignoring cached proofs and vectors.")
@click.option("--budget", type=click.IntRange(min=BY_NAME["TRIGSIGHT_JS_BUDGET"].kind.low), default=None,
              help="JS bytes (brotli) allowed per page [TRIGSIGHT_JS_BUDGET].")
@click.pass_obj
def release(settings: Settings, content_dir, out_dir, no_cache, budget):
    """Render CONTENT, run every gate, and publish only if all pass."""
    from .release import ReleaseConfig, run

    config = ReleaseConfig(
        content_dir=_folder(content_dir, settings.content_dir, "TRIGSIGHT_CONTENT_DIR", "--content"),
        out_dir=_folder(out_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--out"),
        site_title=settings.site_title, language=settings.language,
        use_cache=not no_cache, cache_dir=settings.cache_dir,
        chromium=settings.chromium, js_budget=budget if budget is not None else settings.js_budget,
        site_css=settings.site_css, embeddings=settings.embeddings, rrf_k=settings.rrf_k,
        openai_api_key=settings.openai_api_key, openai_base_url=settings.openai_base_url)
    run(config)


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
@click.pass_obj
def serve(settings: Settings, release_dir, host, port, workers):
    """Serve a published release with gunicorn."""
    from .publishing.published import Release

    # Every setting was checked by the group before this line, so a malformed one never
    # reaches gunicorn; the workers parse the same environment again (another process).
    release_dir = _folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release").resolve()
    Release.load(release_dir)  # fail here, clearly, rather than in every worker
    os.environ["TRIGSIGHT_RELEASE_DIR"] = str(release_dir)
    args = [sys.executable, "-m", "gunicorn", "--bind", f"{host}:{port}", "--workers", str(workers),
            "--threads", "4", "--access-logfile", "-", "trigsight_site:create_app()"]
    click.echo(f"serving {release_dir} at http://{host}:{port}", err=True)
    os.execv(sys.executable, args)


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
