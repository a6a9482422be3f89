"""The commands that measure: `trigsight payload` (any site's JavaScript on the wire) and `trigsight eval`.

`payload` loads URLs in headless Chromium and fails those over the JavaScript budget (the
payload gate's measurement, gates/payload.py); `eval` scores retrieval on the golden set, or
with --answers the offline answer per language, and writes a dated report. cli.py adds both
to the `trigsight` command.
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlsplit

import click

from .cli_options import REPORT_FILE, chosen_folder, reporting
from .errors import CheckFailed, UsageError
from .settings import BY_NAME, Settings


def _web_addresses(ctx, param, values: tuple[str, ...]) -> list[str]:
    """Each URL once, in order; anything but an http(s) address with a host is a usage error."""
    for value in values:
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise click.BadParameter(f"{value!r} is not an http:// or https:// URL with a host", ctx, param)
    return list(dict.fromkeys(values))


@click.command()
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
@click.option("--json", "json_file", type=REPORT_FILE, default=None,
              help="Write the report and every figure as JSON (schema trigsight.ci-report/1).")
@click.option("--junit", "junit_file", type=REPORT_FILE, default=None,
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
    with reporting(settings, Report("payload", gates=("payload",)), json_file, junit_file) as report:
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


@click.command("eval")
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

    release_dir = chosen_folder(release_dir, settings.release_dir, "TRIGSIGHT_RELEASE_DIR", "--release")
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

