"""reStructuredText pages of a folder, read as markdown (rst_source.py parses, rst_markdown.py writes).

Keeps what the folder's pages tell the author: docutils' warnings, each at its file and line, and
the included files read from outside the content folder.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..errors import ContentError
from . import rst_markdown, rst_project, rst_source
from .included_files import IncludedFiles, project_root
from .sphinx_conf import SphinxConf

SHOWN = 5


class RstPages:
    def __init__(self, content_dir: Path, conf: SphinxConf | None = None) -> None:
        content_dir = Path(content_dir).resolve()
        self.files = IncludedFiles(content_dir, project_root(content_dir))
        self.project = rst_project.project(conf)
        self.problems: list[tuple[str, int, str]] = []
        self.outside: dict[str, list[str]] = {}     # file read from outside the content folder → pages

    def markdown(self, text: str, file: Path, relative: str) -> tuple[str, list[tuple[int, str, int]]]:
        """(the page as markdown, with front matter when it has Sphinx's `:orphan:`, origins of its lines)."""
        try:
            source = rst_source.run(text, Path(file).resolve(), self.files, self.project)
            written = rst_markdown.run(source)
        except RecursionError:
            raise ContentError("nested too deeply to read as reStructuredText", str(file), 1) from None
        except ContentError as error:     # named as the folder's other pages are
            raise ContentError(error.problems[0].message, str(file), error.problems[0].line) from None
        self.problems += source.problems
        for name in sorted(source.outside):
            self.outside.setdefault(name, []).append(relative)
        fields = ["orphan: true"] * written.orphan + [f"redirect_to: {json.dumps(written.moved_to)}"] * bool(written.moved_to)
        front = "---\n" + "".join(f"{line}\n" for line in fields) + "---\n" if fields else ""
        shift = front.count("\n")
        return front + written.text, [(index + shift, name, line) for index, name, line in written.origins]

    @property
    def warnings(self) -> list[str]:
        lines = []
        if self.problems:
            shown = [f"{file}:{line}: {message}" for file, line, message in self.problems[:SHOWN]]
            more = len(self.problems) - SHOWN
            lines.append(f"reStructuredText problems, shown as docutils reads them: {len(self.problems)}: "
                         + "; ".join(shown) + (f" and {more} more" if more > 0 else ""))
        if self.outside:
            parts = [f"{file} ({', '.join(pages[:2])})" for file, pages in sorted(self.outside.items())]
            lines.append(f"files .rst pages include from outside the content folder: {len(parts)}: "
                         + "; ".join(parts[:SHOWN]))
        return lines
