"""Included files: the text a page pulls in from other files, put in its place before the page is read.

Docs folders keep shared text in files their pages include, written as their generator reads it:
- MyST/Sphinx: ```` ```{include} ../CHANGES.md ```` (or `:::{include}`), with `:start-line:`,
  `:end-line:`, `:start-after:`, `:end-before:` and `:heading-offset:`; `{literalinclude}` becomes a
  code block of the file (`:language:`);
- pymdown snippets: `--8<-- "file.md"` (`file.md:3:10` for lines, `file.md:name` for the lines between
  `--8<-- [start:name]` and `--8<-- [end:name]`), one or several in a `--8<--` block;
- markdown-include `{!file.md!}`; mkdocs-include-markdown `{% include-markdown "file.md" %}` and
  `{% include "file.md" %}` (`start="…"`, `end="…"`); mdBook `{{#include file.md}}` (`:2:10`, `:anchor`);
  Quarto `{{< include _file.qmd >}}`;
- MDX (Docusaurus): a component imported from a markdown file (`import Setup from './_setup.mdx';`)
  and written alone on its line (`<Setup />`).

Which files may be read, and from where, is included_files.py's: beside the including file, the
content folder, the project's root, never hidden, large or binary files. An include it cannot read keeps its directive, which shows nothing and is named in the warning about generator
syntax, as before. Includes nest (at most 5 deep, never in a cycle), and a page takes in at most
20 MB of them.

The page keeps a map from each line of its new body to the file and line it came from
(`PageSource.origins`), so a content error inside an included file names that file and line.
"""
from __future__ import annotations

import dataclasses
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from .content import shorten
from .generators import fence_after
from .include_pieces import between, cut_myst, myst_options, piece_of, shift_headings
from .included_files import IncludedFiles, project_root
from .page_source import PageSource

MOST_BYTES_A_PAGE = 20_000_000     # includes of includes multiply: a page stops taking more after this
DEEPEST = 5
_MYST = re.compile(r"^ {0,3}(`{3,}|:{3,})\s*\{(include|literalinclude)\}\s+(\S.*?)\s*$")
_SNIPPET = re.compile(r"""^\s*-{1,3}8<-{1,3}\s+(["'])([^"'\n]+)\1\s*$""")
_SNIPPET_BLOCK = re.compile(r"^\s*-{1,3}8<-{1,3}\s*$")
_MARKDOWN_INCLUDE = re.compile(r"\{![+>]?\s*([^!\n]+?)\s*!\}")     # mdx_include's {!> file!} too (FastAPI)
_INCLUDE_MARKDOWN = re.compile(r"""\{%-?\s*include(?:-markdown)?\s+(["'])([^"'\n]+)\1([^%\n]*)-?%\}""")
_MDBOOK = re.compile(r"\{\{#include\s+([^}\s]+)\s*\}\}")
_QUARTO = re.compile(r"\{\{<\s*include\s+(\S+?)\s*>\}\}")      # Quarto's shortcode
_MDX_IMPORT = re.compile(r"""^import\s+([A-Za-z_$][\w$]*)\s+from\s+['"](\.{1,2}/[^'"\n]+\.mdx?)['"];?\s*$""", re.M)
_MDX_USE = re.compile(r"^\s*<([A-Z][\w$]*)\s*/>\s*$")
# a markdown link or image target, a reference definition's, or an HTML src/href
_RELATIVE = re.compile(r"""(\]\(\s*)([^)\s]+)((?:\s+"[^"\n]*")?\s*\))|(^\s*\[[^\]\n]+\]:\s*)(\S+)()"""
                       r"""|(\b(?:src|href)\s*=\s*")([^"\n]+)(")""", re.M)
_ARGUMENT = re.compile(r"""\b(start|end)\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')""")


@dataclass
class IncludesResult:
    pages: list[PageSource]
    outside: dict[str, list[str]] = field(default_factory=dict)   # file read outside the folder → pages
    unread: list[str] = field(default_factory=list)               # "page.md:3: ../CHANGES.md", not read

    @property
    def warnings(self) -> list[str]:
        lines = []
        if self.outside:
            parts = [f"{file} ({shorten(pages, 2)})" for file, pages in sorted(self.outside.items())]
            lines.append(f"included files read from outside the content folder: {len(parts)}: " + _some(parts))
        if self.unread:
            lines.append("includes not read (no such file, or hidden, over 2 MB, outside the project or binary), "
                         f"shown as nothing: {len(self.unread)}: " + _some(self.unread))
        return lines


def _some(parts: list[str], shown: int = 5) -> str:
    more = len(parts) - shown
    return "; ".join(parts[:shown]) + (f" and {more} more" if more > 0 else "")


def run(content_dir: Path, pages: list[PageSource]) -> IncludesResult:
    content_dir = Path(content_dir).resolve()
    reader = _Reader(content_dir, project_root(content_dir))
    result = IncludesResult(pages)
    expanded = []
    for page in pages:
        if page.origins or not _may_include(page.body):     # a notebook keeps its own map of lines
            expanded.append(page)
            continue
        reader.page_dir, reader.room = (content_dir / page.source).parent, MOST_BYTES_A_PAGE
        body, origins = reader.expand(page.body, content_dir / page.source, page.body_line, {page.source})
        for file in reader.outside:
            result.outside.setdefault(file, []).append(page.source)
        reader.outside.clear()
        result.unread += reader.unread
        reader.unread.clear()
        expanded.append(dataclasses.replace(page, body=body, origins=tuple(origins)) if origins else page)
    result.pages = expanded
    return result


def _may_include(text: str) -> bool:
    return any(mark in text for mark in ("include", "8<", "{!", "import "))


class _Reader(IncludedFiles):
    def __init__(self, content_dir: Path, root: Path) -> None:
        super().__init__(content_dir, root)
        self.outside: set[str] = set()         # files read from outside the content folder
        self.unread: list[str] = []            # "file:line: target" of each include no file answered
        self.partials: dict[str, str] = {}     # MDX: component name → the markdown file it was imported from
        self.page_dir = content_dir            # the folder of the page being expanded
        self.room = MOST_BYTES_A_PAGE          # characters the page may still take in

    def expand(self, text: str, file: Path, first_line: int, seen: set[str], depth: int = 0):
        """(text with its includes in place, origins): each origin is (line index in the new text, file,
        that file's line) where the text starts coming from another file, or back from this one; none
        when nothing was included."""
        lines, out, origins = text.split("\n"), [], []
        own, index = self.label(file), 0
        outer, self.partials = self.partials, dict(_MDX_IMPORT.findall(text))
        fence = ""     # the code fence open here: inside code, only the preprocessors' syntaxes are read
        while index < len(lines):
            found = self._directive(lines, index, file, bool(fence), first_line + index) \
                if depth < DEEPEST and self.room > 0 else None
            if found is None or any(self.label(path) in seen for path, *_ in found[1]):   # none, or a cycle
                fence = fence_after(lines[index], fence)
                out.append(lines[index])
                index += 1
                continue
            end, included = found
            indent = re.match(r"[ \t]*", lines[index]).group()   # inside a list, a tab or an admonition: stays there
            for path, piece, piece_line, code in included:
                self.room -= len(piece)
                label = self.label(path)
                if not path.is_relative_to(self.content_dir):
                    self.outside.add(label)
                inner, inner_origins = (piece, []) if code else \
                    self.expand(self._relinked(piece, path.parent), path, piece_line, seen | {label}, depth + 1)
                out += [indent + code] if code else []
                origins.append((len(out), label, piece_line))
                origins += [(len(out) + at, name, line) for at, name, line in inner_origins]
                out += [indent + text_line if text_line.strip() else text_line for text_line in inner.split("\n")]
                out += [indent + code[:3]] if code else []
            origins.append((len(out), own, first_line + end))
            index = end
        self.partials = outer
        return "\n".join(out), origins

    def _relinked(self, text: str, folder: Path) -> str:
        """`text` from a file in `folder` with each relative link or image that names a file there, and
        not from the page's folder, rewritten to name it from the page (what mkdocs-include-markdown does)."""
        if folder == self.page_dir:
            return text

        def relink(match: re.Match) -> str:
            at = next(i for i in (0, 3, 6) if match.groups()[i] is not None)    # which of the three forms
            before, target, after = match.groups()[at:at + 3]
            path, mark, anchor = target.partition("#")
            if not path or re.match(r"^[a-z][a-z0-9+.-]*:|^/|^<", path, re.I) or (self.page_dir / path).exists():
                return match.group(0)
            found = (folder / path).resolve()
            if not found.exists() or not found.is_relative_to(self.root):
                return match.group(0)
            moved = posixpath.relpath(found.as_posix(), self.page_dir.resolve().as_posix())
            return before + moved + mark + anchor + (after or "")

        return _RELATIVE.sub(relink, text)

    def _directive(self, lines: list[str], index: int, file: Path, in_code: bool, line_number: int):
        """(index after the directive, [(path, text, its first line, code fence or "")]) or None; an
        include no file answers is noted in `unread` with its `line_number` in `file`."""
        found = self._include(lines, index, file, in_code)
        if isinstance(found, str):
            self.unread.append(f"{self.label(file)}:{line_number}: {found}")
            return None
        return found

    def _include(self, lines: list[str], index: int, file: Path, in_code: bool):
        """What `_directive` returns, or the target of an include that names a file not read."""
        line = lines[index]
        if (myst := _MYST.match(line)) and not in_code:
            fence = myst.group(1)
            end = next((n for n in range(index + 1, len(lines))
                        if lines[n].strip().startswith(fence) and not lines[n].strip().strip(fence[0])), len(lines))
            options = myst_options(lines[index + 1:end])
            path, text, first = self.text(myst.group(3), file, beside_only=True)
            if text is None:
                return myst.group(3)
            text, first = cut_myst(text, first, options)
            if myst.group(2) == "literalinclude":
                return end + 1, [(path, text, first, "```" + options.get("language", ""))]
            offset = int(options["heading-offset"]) if options.get("heading-offset", "").isdigit() else 0
            return end + 1, [(path, shift_headings(text, offset) if offset else text, first, "")]
        if (snippet := _SNIPPET.match(line)):
            return self._snippets([snippet.group(2)], file, index + 1)
        if (use := _MDX_USE.match(line)) and use.group(1) in self.partials and not in_code:
            path, text, first = self.text(self.partials[use.group(1)], file, beside_only=True)
            return self.partials[use.group(1)] if text is None else (index + 1, [(path, text, first, "")])
        if _SNIPPET_BLOCK.match(line):
            end = next((n for n in range(index + 1, len(lines)) if _SNIPPET_BLOCK.match(lines[n])), None)
            if end is None:
                return None
            names = [item.strip() for item in lines[index + 1:end] if item.strip() and not item.strip().startswith(";")]
            return self._snippets(names, file, end + 1)
        for pattern, group in ((_MARKDOWN_INCLUDE, 1), (_INCLUDE_MARKDOWN, 2), (_MDBOOK, 1), (_QUARTO, 1)):
            match = pattern.fullmatch(line.strip())
            if match is None:
                continue
            target, piece = match.group(group), None
            if pattern is _MDBOOK:
                target, _, piece = target.partition(":")
            path, text, first = self.text(target, file)
            if text is None:     # `{% include "x" %}` may be a template's own include: named with the template tags
                return target if pattern is not _INCLUDE_MARKDOWN or "include-markdown" in line else None
            if pattern is _INCLUDE_MARKDOWN:
                arguments = {m.group(1): m.group(2) if m.group(2) is not None else m.group(3)
                             for m in _ARGUMENT.finditer(match.group(3))}
                text, first = between(text, first, arguments.get("start"), arguments.get("end"))
            elif piece:
                text, first = piece_of(text, first, piece, "ANCHOR: {0}", "ANCHOR_END: {0}")
            return index + 1, [(path, text, first, "")]
        return None

    def _snippets(self, names: list[str], file: Path, after: int):
        included = []
        for name in names:
            target, _, piece = name.partition(":")
            path, text, first = self.text(target, file)
            if text is None:
                return target
            if piece:
                text, first = piece_of(text, first, piece, "--8<-- [start:{0}]", "--8<-- [end:{0}]")
            included.append((path, text, first, ""))
        return (after, included) if included else None
