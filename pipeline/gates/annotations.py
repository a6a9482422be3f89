"""GitHub Actions workflow commands for a report's failures: `::error file=…,line=…::…`.

GitHub reads these lines from a step's output and shows each on the pull request's diff,
at the file and line it names; a file must be given relative to the repository root
(`GITHUB_WORKSPACE`). A finding about a URL has no file: it is annotated on the run.
"""
from __future__ import annotations

from pathlib import Path

from .ci_report import Report


def escape_data(text: str) -> str:
    """The message after `::`: `%`, CR and LF are percent-encoded (GitHub's toolkit rules)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A `key=value` property: as the message, and `:` and `,` too, which end a value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(message: str, file: str = "", line: int | None = None, title: str = "", level: str = "error") -> str:
    properties = [("file", file), ("line", str(line) if line and file else ""), ("title", title)]
    shown = ",".join(f"{key}={escape_property(value)}" for key, value in properties if value)
    return f"::{level}{' ' + shown if shown else ''}::{escape_data(message)}"


def repository_path(file: str, workspace: Path, cwd: Path) -> str:
    """`file` relative to the repository root, or "" when it is not a file inside it."""
    if not file:
        return ""
    path = Path(file) if Path(file).is_absolute() else cwd / file
    try:
        relative = path.resolve().relative_to(workspace.resolve())
    except ValueError:
        return ""
    return relative.as_posix() if path.is_file() else ""


def annotations(report: Report, workspace: Path, cwd: Path) -> list[str]:
    """One `::error` line per finding of every failed case, in the report's order."""
    lines = []
    for case in report.cases:
        for finding in case.findings:
            file = repository_path(finding.file or case.file, workspace, cwd)
            if not file:
                message = str(finding)               # path:line or URL, then the reason
            elif finding.path == finding.file:
                message = finding.message            # the diff shows the file and line already
            else:
                message = f"{finding.path}: {finding.message}"   # a page's URL path, annotated on its file
            lines.append(command(message, file, finding.line if file else None, f"trigsight {case.gate} gate"))
    return lines
