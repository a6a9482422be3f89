"""A content folder's AsciiDoc pages: which files are pages and what reading them found.

An AsciiDoc file another one includes (`include::partials/intro.adoc[]`, git's
`include::diff-options.adoc[]`) is part of that page, as Antora and git's manual publish it,
not a page of its own; in an Antora component only its modules' `pages/` are pages. Every page sees the attributes
Antora's settings set (antora.py). The includes that could not be read are named in one warning.
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from . import antora, asciidoc

_INCLUDE = re.compile(r"^include::([^\s\[{]+)\[", re.M)


class AsciidocPages:
    def __init__(self, content_dir: Path):
        self.content_dir = content_dir
        self.unread: list[str] = []
        self.components = antora.components(content_dir)
        self.attributes = antora.attributes(content_dir, self.components)

    def included(self, files: list[Path]) -> set[Path]:
        """The AsciiDoc files among `files` that another file includes (by a path without attributes, or
        an Antora resource ID), and those an Antora component does not publish."""
        found: set[Path] = set()
        for file in files:
            if file.suffix.lower() not in asciidoc.SUFFIXES:
                continue
            text = file.read_text("utf-8", errors="replace")
            found.update((antora.resolve(target, file) or file.parent / target).resolve()
                         for target in _INCLUDE.findall(text))
        inside = self.content_dir.resolve()
        found = {path for path in found if path.is_relative_to(inside)}    # what an include may read at all
        return {file for file in files if file.resolve() in found} | antora.not_pages(self.components, files)

    def named(self, file: Path) -> tuple[str, str] | None:
        """(the path Antora serves an Antora page at, no language), or None for another file."""
        path = antora.page_path(file, self.components) if self.components else ""
        return (path, "") if path else None

    def start_page_as_home(self, pages: list) -> list:
        """The pages, Antora's start page at the home address when no page holds it."""
        start = antora.start_page(self.components)
        if start is None or any(page.slug == "index" for page in pages):
            return pages
        home = start.resolve()
        return [dataclasses.replace(page, slug="index") if (self.content_dir / page.source).resolve() == home
                else page for page in pages]

    def markdown(self, text: str, file: Path) -> tuple[str, list[tuple[int, str, int]]]:
        converted = asciidoc.markdown(text, file, self.content_dir, self.attributes)
        self.unread += converted.warnings
        return converted.text, converted.lines

    @property
    def warnings(self) -> list[str]:
        if not self.unread:
            return []
        more = len(self.unread) - 3
        return [f"AsciiDoc includes left out: {'; '.join(self.unread[:3])}" + (f" and {more} more" if more > 0 else "")]
