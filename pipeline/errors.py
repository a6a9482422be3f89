"""The project's errors. Only the CLI turns them into `path:line: message` and exit codes."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    """One located complaint about the author's input or a gate's finding."""

    path: str
    line: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.path}:{self.line}" if self.line else self.path
        return f"{where}: {self.message}"


class TrigsightError(Exception):
    """Base error; carries one or more located problems."""

    exit_code = 1

    def __init__(self, message: str, path: str = "", line: int | None = None,
                 problems: list[Problem] | None = None):
        super().__init__(message)
        self.problems = problems or [Problem(path or "trigsight", line, message)]

    def __str__(self) -> str:
        return "\n".join(str(p) for p in self.problems)


class ContentError(TrigsightError):
    """The content folder cannot be read or rendered (front matter, slugs, encoding)."""


class GateFailed(TrigsightError):
    """A release gate refused the build; nothing was published.

    `subjects` lists what the gate examined, as (name, file) pairs, when the caller cannot
    know them otherwise (the source gate fails before the build hands its pages over), so
    a CI report can show the pages that passed beside those that failed.
    """

    def __init__(self, gate: str, problems: list[Problem], subjects: list[tuple[str, str]] | None = None):
        super().__init__(f"{gate} gate failed", problems=problems)
        self.gate = gate
        self.subjects = subjects or []


class BudgetExceeded(GateFailed):
    """The JavaScript sent over the wire is larger than the configured budget."""

    def __init__(self, problems: list[Problem]):
        super().__init__("payload", problems)


class CheckFailed(TrigsightError):
    """A check run on its own, outside a release (`trigsight payload`), found a fault."""


class UsageError(TrigsightError):
    """The command was called wrongly (bad option, missing folder)."""

    exit_code = 2


class ReleaseNotFound(UsageError):
    """There is no published release where one was expected."""
