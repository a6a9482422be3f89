"""A content folder's AsciiDoc pages: which files are pages and what reading them found.

An AsciiDoc file another one includes (`include::partials/intro.adoc[]`, git's
`include::diff-options.adoc[]`) is part of that page, as Antora and git's manual publish it,
not a page of its own. The includes that could not be read are named in one warning.
"""
from __future__ import annotations

import re
from pathlib import Path

from . import asciidoc

_INCLUDE = re.compile(r"^include::([^\s\[{]+)\[", re.M)


class AsciidocPages:
    def __init__(self, content_dir: Path):
        self.content_dir = content_dir
        self.unread: list[str] = []

    def included(self, files: list[Path]) -> set[Path]:
        """The AsciiDoc files among `files` that another file includes (by a path without attributes)."""
        found: set[Path] = set()
        for file in files:
            if file.suffix.lower() not in asciidoc.SUFFIXES:
                continue
            text = file.read_text("utf-8", errors="replace")
            found.update((file.parent / target).resolve() for target in _INCLUDE.findall(text))
        return {file for file in files if file.resolve() in found}

    def markdown(self, text: str, file: Path) -> tuple[str, list[tuple[int, str, int]]]:
        converted = asciidoc.markdown(text, file, self.content_dir)
        self.unread += converted.warnings
        return converted.text, converted.lines

    @property
    def warnings(self) -> list[str]:
        if not self.unread:
            return []
        more = len(self.unread) - 3
        return [f"AsciiDoc includes left out: {'; '.join(self.unread[:3])}" + (f" and {more} more" if more > 0 else "")]
