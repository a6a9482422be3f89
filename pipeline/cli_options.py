"""What the `trigsight` commands share: a folder from its option or its setting, and the report files.

`chosen_folder` takes the folder an option names, else the setting's. `reporting` hands a
command's CI report to its body and writes it as the options ask (JSON, JUnit XML, GitHub
annotations) however the run ends; REPORT_FILE is the type of those options.
"""
from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path

import click

from .errors import UsageError
from .settings import Settings


def chosen_folder(option: Path | None, configured: Path | None, name: str, flag: str) -> Path:
    """The folder an option names, else the setting's; empty both ways is a usage error."""
    if option is not None:
        return option
    if configured is None:
        raise UsageError(f"no folder given: pass {flag} or set {name}", name)
    return configured


@contextmanager
def reporting(settings: Settings, report, json_file: Path | None, junit_file: Path | None):
    """Hand `report` to the body; whatever happens, write it as asked and print the annotations.

    The files are written also (above all) when a gate refuses or content stops the run; a
    report that cannot be written then never hides why the run stopped.
    """
    try:
        yield report
    except BaseException:
        try:
            write_report(settings, report, json_file, junit_file)
        except Exception as error:
            click.echo(f"trigsight: could not write the report: {error}", err=True)
        raise
    write_report(settings, report, json_file, junit_file)


def write_report(settings: Settings, report, json_file: Path | None, junit_file: Path | None) -> None:
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


REPORT_FILE = click.Path(path_type=Path, dir_okay=False)
