"""reStructuredText's `.. include::` and `.. literalinclude::`, put in place before docutils reads a page.

Files are found and read by included_files.py's rules (beside the file, the content folder, the
project's root; never hidden, large or binary files), docutils' own sets (`<isonum.txt>`) from
docutils; at most 20 deep (SQLAlchemy's changelog pages each include the one before, 9 deep),
never in a cycle, 20 MB a page. The options Sphinx and docutils give
them: `:start-after:`, `:end-before:`, `:start-line:`, `:end-line:`, `:lines:`, `:literal:`,
`:code:`, `:language:` and `:parser:` (a markdown file included with MyST's parser is read as markdown).
An include not read stays, and rst_source.py names it in a warning.
"""
from __future__ import annotations

import re
from pathlib import Path

from docutils.parsers.rst.directives.misc import Include

from .include_pieces import cut_myst, option
from .included_files import IncludedFiles

DEEPEST = 20
MOST_CHARACTERS = 20_000_000     # included text a page may take in (includes of includes multiply)
# a paragraph ending in `::`, or a code directive: indented lines after it are shown as written
_LITERAL_START = re.compile(r"^(?![ \t]*\.\.[ \t]).*::[ \t]*$|^[ \t]*\.\.[ \t]+(?:code-block|sourcecode|code|"
                            r"parsed-literal|doctest|testcode)::")
_INCLUDE = re.compile(r"^([ \t]*)\.\.[ \t]+(include|literalinclude)::[ \t]*(\S.*?)[ \t]*$")


_MARKDOWN_PARSER = re.compile(r"(?i)myst|markdown|commonmark|^md$")    # Sphinx's include `:parser:`
_PIECE = ("start-after", "end-before", "start-line", "end-line", "lines")     # options that cut a piece


class Expander:
    """`.. include::` and `.. literalinclude::` put in place, with the map of where each line came from."""

    def __init__(self, files: IncludedFiles) -> None:
        self.files, self.room = files, MOST_CHARACTERS
        self.outside: set[str] = set()

    def expand(self, text: str, file: Path, first_line: int, seen: set[str], depth: int = 0):
        lines, out, origins, index = text.split("\n"), [], [], 0
        own = self.files.label(file)
        literal = None      # the indentation a literal block's lines go beyond: an include there is an example
        while index < len(lines):
            line = lines[index]
            shift = len(line) - len(line.lstrip())
            if literal is not None and line.strip() and shift <= literal:
                literal = None
            match = _INCLUDE.match(line) if literal is None else None
            if match is None or depth >= DEEPEST or self.room <= 0:
                if literal is None and _LITERAL_START.search(line):
                    literal = shift
                out.append(line)
                index += 1
                continue
            indent, kind, target = match.groups()
            end = index + 1
            while end < len(lines) and re.match(r"^[ \t]+:[\w-]+:", lines[end]) and \
                    len(lines[end]) - len(lines[end].lstrip()) > len(indent):
                end += 1
            options = dict(option(line) for line in lines[index + 1:end])
            path, piece, first = self._read(target, file)
            # a piece of a file may come from that file itself (Scrapy's settings.rst takes the lines
            # between two comments of its own); the same piece inside itself again is a cycle
            included = self.files.label(path) if path is not None else ""
            cut = "|".join(f"{name}={options[name]}" for name in _PIECE if name in options)
            key = f"{included}|{cut}" if cut else included
            if path is None or key in seen:
                out += lines[index:end]     # _Unreadable names it
                index = end
                continue
            piece, first = cut_myst(piece, first, options)
            piece, first = _lines(piece, first, options.get("lines", ""))
            self.room -= len(piece)
            code = options.get("language", options.get("code", "")) if kind == "literalinclude" or \
                "code" in options or "literal" in options else None
            if code is None and _MARKDOWN_PARSER.search(options.get("parser", "")):
                # `:parser: myst_parser.sphinx_`: a markdown file read as markdown, not as rST
                out += [f"{indent}.. raw:: markdown", ""]
                origins.append((len(out), included, first))
                out += [f"{indent}   {line}" if line.strip() else "" for line in piece.split("\n")]
            elif code is not None:
                out += [f"{indent}.. code-block:: {code}".rstrip(), ""]
                origins.append((len(out), included, first))
                out += [f"{indent}   {line}" if line.strip() else "" for line in piece.split("\n")]
            else:
                inner, inner_origins = self.expand(piece, path, first, seen | {included, key}, depth + 1)
                origins.append((len(out), included, first))
                origins += [(len(out) + at, name, line) for at, name, line in inner_origins]
                out += [indent + line if line.strip() else line for line in inner.split("\n")]
            out.append("")
            origins.append((len(out), own, first_line + end))
            index = end
        return "\n".join(out), origins

    def _read(self, target: str, file: Path):
        if target.startswith("<") and target.endswith(">"):    # docutils' own sets: `.. include:: <isonum.txt>`
            path = (Path(Include.standard_include_path) / target[1:-1]).resolve()
            if path.parent == Path(Include.standard_include_path).resolve() and path.is_file():
                return path, path.read_text(encoding="utf-8"), 1
            return None, None, 0
        path, text, first = self.files.text(target, file)
        if text is None:
            return None, None, 0
        if not path.is_relative_to(self.files.content_dir):
            self.outside.add(self.files.label(path))
        return path, text, first


def _lines(text: str, first: int, spec: str) -> tuple[str, int]:
    """Sphinx's `:lines: 1-5,8,10-`: those lines (1-based) of the piece."""
    if not re.fullmatch(r"\s*\d*-?\d*(\s*,\s*\d*-?\d*)*\s*", spec or "x"):
        return text, first
    lines, kept = text.split("\n"), []
    for part in spec.split(","):
        low, dash, high = part.strip().partition("-")
        start = int(low) - 1 if low else 0
        stop = (int(high) if high else len(lines)) if dash else start + 1
        kept += lines[max(start, 0):stop]
    start = int(spec.split(",")[0].split("-")[0] or 1) - 1
    return "\n".join(kept), first + max(start, 0)
