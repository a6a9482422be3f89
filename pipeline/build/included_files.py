"""Which files a page may pull in, and their text: the rules every include syntax shares.

A path is read beside the including file, then from the content folder's root, then from the
project's root: the nearest folder at most three above the content folder that holds a project's
marker (`.git`, `pyproject.toml`, `package.json`, …), since a changelog or a README usually sits
there (`../CHANGES.md`), unless the content folder lies in a hidden folder of it (`.cache/docs`).
Nothing outside that root, in a hidden folder, over 2 MB or not text is ever read. Used by
includes.py (markdown's include syntaxes) and rst_source.py (reStructuredText's `.. include::`).
"""
from __future__ import annotations

import posixpath
import re
from pathlib import Path

from ..errors import ContentError
from .front_matter import decode

MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg", "package.json", "Cargo.toml", "go.mod", "book.toml")
LEVELS_UP = 3
MOST_BYTES = 2_000_000


def project_root(content_dir: Path) -> Path:
    """The folder includes may read from: the nearest project root above the content folder, else the folder."""
    content_dir = content_dir.resolve()
    for folder in (content_dir, *content_dir.parents[:LEVELS_UP]):
        if any((folder / marker).exists() for marker in MARKERS):
            # a folder kept in a hidden one (`.cache/corpora/x`) is not that project's docs
            hidden = any(part.startswith(".") for part in content_dir.relative_to(folder).parts)
            return content_dir if hidden else folder
    return content_dir


def origin_of(origins, index: int, file: str, first: int) -> tuple[str, int]:
    """(file, line) of line `index` (0-based) of a text whose lines come from `origins`: (line index
    where a run of lines starts, its file, that file's line), each until the next; lines before the
    first run come from `file`, starting at its line `first`."""
    start = 0
    for at, other, other_first in origins:
        if at > index:
            break
        start, file, first = at, other, other_first
    return file, first + index - start


class IncludedFiles:
    """Finds and reads the files a folder's pages include."""

    def __init__(self, content_dir: Path, root: Path) -> None:
        self.content_dir, self.root = content_dir, root

    def label(self, path: Path) -> str:
        """The file as a content error names it: relative to the content folder (`../CHANGES.md` above it)."""
        return posixpath.relpath(path.resolve().as_posix(), self.content_dir.as_posix())

    def text(self, target: str, file: Path, beside_only: bool = False) -> tuple[Path | None, str | None, int]:
        """(the file `target` names, its text, the line the text starts on); text None when none is readable."""
        path = self.find(target, file, beside_only)
        return (path, *self.read(path)) if path else (None, None, 0)

    def find(self, target: str, file: Path, beside_only: bool = False) -> Path | None:
        """The readable file `target` names: beside `file`, then from the content folder, then the project root."""
        target = target.strip().strip("\"'")
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            return None
        bases = [self.content_dir] if target.startswith("/") else \
            [file.parent] + ([] if beside_only else [self.content_dir, self.root])
        for base in bases:
            path = (base / target.lstrip("/")).resolve()
            if self.allowed(path):
                return path
        return None

    def allowed(self, path: Path) -> bool:
        if not path.is_relative_to(self.root) or not path.is_file():
            return False
        inside = path.relative_to(self.root).parts
        return not any(part.startswith(".") for part in inside) and path.stat().st_size <= MOST_BYTES

    @staticmethod
    def read(path: Path) -> tuple[str | None, int]:
        try:
            text = decode(path.read_bytes(), str(path)).replace("\r\n", "\n")
        except ContentError:      # not text: the directive stays
            return None, 0
        if "\x00" in text:
            return None, 0
        if text.startswith("---\n") and (close := text.find("\n---\n", 4)) != -1:   # its own front matter
            return text[close + 5:], text[:close + 5].count("\n") + 1
        return text, 1
