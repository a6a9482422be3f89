"""AsciiDoc pages (`.adoc`, `.asciidoc`) read as the markdown of what Asciidoctor draws (pure but for includes).

After the preprocessor (asciidoc_includes.py) the lines are read as blocks:
- the document title `= Title` (its author and revision lines dropped) and section titles
  `== Section` … `====== Section` or `## Section`, and the older two-line titles underlined
  with `=`, `-`, `~`, `^` or `+`, are headings; attribute entries (`:name: value`) set what
  `{name}` shows and are not shown; comments (`//`, `////` blocks) are dropped;
- listing (`----`), literal (`....`), fenced and `[source,lang]` blocks, indented literal
  paragraphs and `[synopsis]` paragraphs are code (with `{name}` replaced when `subs` says
  `attributes`); `NOTE:`, `[TIP]` paragraphs and
  `[WARNING]`-styled example or open blocks are admonitions; quote blocks (`____`, `[quote]`)
  are blockquotes and `[verse]` keeps its line breaks; example (`====`), sidebar (`****`)
  and open (`--`) blocks show what they hold; passthrough blocks (`++++`) are not shown;
- `*`/`-` and `.` lists nest by their marks' length (a listing's `<1>` callouts are a numbered list), `term:: definition` lists (`:::`,
  `::::`, `;;` nested) are definition lists whose consecutive terms share one definition, and
  a `+` line attaches the next block to the item before it;
- `|===` tables are tables (asciidoc_tables.py);
- `image::file.png[alt]` is the image, `'''` a rule, `<<<` and `toc::[]` nothing.

Inline markup is asciidoc_inline.py's. What no rule reads is shown as its text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import antora
from . import asciidoc_inline as inline
from .asciidoc_blocks import BLOCK_ATTRIBUTES, DELIMITER, INDENTS, TERM, Line, attached_end, list_item, list_kind
from .asciidoc_includes import ATTRIBUTE, UNDERLINE, expand, relative_name, underlines
from .asciidoc_tables import table

SUFFIXES = (".adoc", ".asciidoc")
ADMONITIONS = ("NOTE", "TIP", "IMPORTANT", "WARNING", "CAUTION")
_TITLE = re.compile(r"^(={1,6}|#{1,6})\s+(\S.*?)(?:\s+=+)?\s*$")
_ANCHOR = re.compile(r"^\[\[([\w:.-]+)(?:,[^\]]*)?\]\]$|^\[#([\w:.-]+)[^\]]*\]$")
_BLOCK_TITLE = re.compile(r"^\.([^.\s\d].*)$")
_ADMONITION = re.compile(rf"^({'|'.join(ADMONITIONS)}):\s+(.*)$")
_IMAGE = re.compile(r"^image::([^\s\[]+)\[([^\],]*)[^\]]*\]\s*$")
_NOTHING = re.compile(r"^(?:<<<|toc::\[.*\])\s*$")
_FRONT_MATTER = re.compile(r"\A---[ \t]*\r?\n(?:.*\r?\n)*?---[ \t]*\r?\n")
_RULE = re.compile(r"^'''+\s*$")


@dataclass
class Converted:
    text: str
    lines: list[tuple[int, str, int]]    # (first line of a run in `text`, file, its line as written)
    warnings: list[str] = field(default_factory=list)


def markdown(text: str, file: Path, content_dir: Path, attributes: dict[str, str] | None = None) -> Converted:
    """The page as markdown, with where its lines were written. Front matter (Jekyll's AsciiDoc pages
    carry it) stays in front, as written, for the page reader."""
    front = _FRONT_MATTER.match(text)
    if front:
        text = "\n" * front.group().count("\n") + text[front.end():]
    expanded = expand(text, file, content_dir, attributes)
    titles = _section_titles([line for line, _, _ in expanded.lines])
    reader = _Reader(expanded.attributes, titles, antora.up_to_modules(file))
    out = reader.blocks(expanded.lines, top=True)
    if front:
        name = relative_name(file, content_dir)
        out = [(line, (name, number)) for number, line in enumerate(front.group().split("\n")[:-1], start=1)] + out
    runs: list[tuple[int, str, int]] = []
    for number, (_, origin) in enumerate(out):
        if origin and not (runs and runs[-1][1] == origin[0] and runs[-1][2] + number - runs[-1][0] == origin[1]):
            runs.append((number, *origin))
    return Converted("\n".join(line for line, _ in out) + "\n", runs, expanded.warnings)


def _section_titles(lines: list[str]) -> dict[str, str]:
    """Each `[[id]]` or `[#id]` anchor before a section title, with that title (for `<<id>>`)."""
    titles, anchor = {}, ""
    for line in lines:
        if (found := _ANCHOR.match(line.strip())):
            anchor = found.group(1) or found.group(2)
        elif anchor and (title := _TITLE.match(line)):
            titles[anchor] = title.group(2)
            anchor = ""
        elif line.strip():
            anchor = ""
    return titles


class _Reader:
    def __init__(self, attributes: dict[str, str], titles: dict[str, str], modules: str = ""):
        self.attributes, self.titles, self.modules = attributes, titles, modules

    def inline(self, text: str) -> str:
        return inline.markdown(text, self.attributes, self.titles, self.modules)

    def blocks(self, lines: list[Line], top: bool = False) -> list[tuple[str, tuple[str, int] | None]]:
        out: list[tuple[str, tuple[str, int] | None]] = []
        style: list[str] = []
        title = ""
        index, header = 0, top
        while index < len(lines):
            text, name, number = lines[index]
            origin = (name, number)
            stripped = text.strip()
            if not stripped:
                out.append(("", origin))
                index, header = index + 1, False
                continue
            if stripped.startswith("//") and not stripped.startswith("///"):
                index += 1
                continue
            if ATTRIBUTE.match(text) or _NOTHING.match(stripped) or _ANCHOR.match(stripped):
                entry = ATTRIBUTE.match(text)
                if entry:
                    unset, key, unset_after, value = entry.groups()
                    if unset or unset_after:
                        self.attributes.pop(key, None)
                    else:
                        self.attributes[key] = inline.attributes_in(value or "", self.attributes)
                index += 1
                continue
            if header and out:           # the author and revision lines under the document title
                index += 1
                continue
            if text[:1] == "[" and (attributes := BLOCK_ATTRIBUTES.match(stripped)) and not DELIMITER.match(stripped):
                style = [part.strip().strip('"') for part in attributes.group(1).split(",")]
                index += 1
                continue
            if (named := _BLOCK_TITLE.match(stripped)):
                title = named.group(1)
                index += 1
                continue
            if (heading := _TITLE.match(text)):
                level = len(heading.group(1))
                out.append(("#" * level + " " + self.inline(heading.group(2)), origin))
                index, header, style, title = index + 1, top and level == 1 and len(out) == 1, [], ""
                continue
            if index + 1 < len(lines) and underlines(lines[index + 1][0], text):
                level = UNDERLINE.index(lines[index + 1][0].strip()[0]) + 1
                out.append(("#" * level + " " + self.inline(stripped), origin))
                index, header, style, title = index + 2, top and level == 1 and len(out) == 1, [], ""
                continue
            header = False
            if title:
                out += [(f"**{self.inline(title)}**", origin), ("", origin)]
                title = ""
            if DELIMITER.match(stripped):
                end = next((n for n in range(index + 1, len(lines)) if lines[n][0].rstrip() == stripped
                            or (stripped.startswith("```") and lines[n][0].strip() == "```")), len(lines))
                out += self.delimited(stripped, lines[index + 1:end], style, origin)
                index, style = end + 1, []
                continue
            if (image := _IMAGE.match(stripped)):
                out.append((f"![{image.group(2)}]({image.group(1)})", origin))
                index, style = index + 1, []
                continue
            if _RULE.match(stripped):
                out += [("", origin), ("* * *", origin), ("", origin)]
                index += 1
                continue
            if list_item(text) is not None:
                end, items = self.list_block(lines, index)
                out += items
                index, style = end, []
                continue
            end = _paragraph_end(lines, index)
            out += self.paragraph(lines[index:end], style)
            index, style = end, []
        return out

    def delimited(self, mark: str, body: list[Line], style: list[str], origin) -> list:
        kind = style[0] if style else ""
        if mark.startswith(("/", "+")):               # comment, passthrough: nothing shown
            return []
        if mark.startswith("|"):
            return [(line, origin) for line in table([text for text, _, _ in body], style, self.inline)]
        if mark.startswith(("-", ".", "`")) and mark != "--" or kind in ("source", "listing", "literal"):
            language = mark[3:] if mark.startswith("```") else style[1] if kind == "source" and len(style) > 1 else ""
            substituted = any(part.startswith("subs=") and "attributes" in part for part in style)
            return _code([inline.attributes_in(text, self.attributes) if substituted else text for text, _, _ in body],
                         language, origin)
        inner = self.blocks(body)
        if kind.upper() in ADMONITIONS:
            return _quoted(inner, f"[!{kind.upper()}]", origin)
        if mark.startswith("_") or kind in ("quote", "verse"):
            if kind == "verse":
                inner = _broken(inner)
            return _quoted(inner, "", origin)
        return [("", origin), *inner, ("", origin)]

    def paragraph(self, body: list[Line], style: list[str]) -> list:
        origin = (body[0][1], body[0][2])
        kind = style[0] if style else ""
        texts = [text for text, _, _ in body]
        if kind in ("source", "listing", "literal", "synopsis") or (not kind and texts[0][:1] in " \t"):
            language = style[1] if kind == "source" and len(style) > 1 else ""
            indent = min(len(t) - len(t.lstrip()) for t in texts if t.strip())
            return _code([t[indent:] if t.strip() else "" for t in texts], language, origin)
        if kind == "verse":
            return _quoted(_broken([(self.inline(t.strip()), (n, line)) for t, n, line in body]), "", origin)
        admonition = _ADMONITION.match(texts[0])
        if admonition or kind.upper() in ADMONITIONS:
            if admonition:
                kind, texts = admonition.group(1), [admonition.group(2), *texts[1:]]
            return _quoted([(self.joined(texts), origin)], f"[!{kind.upper()}]", origin)
        if kind == "quote":
            return _quoted([(self.joined(texts), origin)], "", origin)
        return [(inline.line_start_escaped(self.joined(texts)), origin)]

    def joined(self, texts: list[str]) -> str:
        """A paragraph's lines as one line (a hard break, ` +` at a line's end, as a space)."""
        return self.inline(" ".join(re.sub(r"\s\+$", "", t.strip()) for t in texts))

    def list_block(self, lines: list[Line], index: int) -> tuple[int, list]:
        """The list starting at `index`: (the index after it, its markdown lines)."""
        out: list = []
        levels: list[str] = []           # each open list's mark ("*", "**", ".", "::" …)
        attached = False                 # the last item had a block attached with `+`
        inner_indent = ""
        while index < len(lines):
            text = lines[index][0]
            origin = (lines[index][1], lines[index][2])
            item = list_item(text)
            if item is None:
                if not text.strip():
                    following = next((n for n in range(index, len(lines)) if lines[n][0].strip()), len(lines))
                    if following < len(lines) and (list_item(lines[following][0]) is not None
                                                   or (out and lines[following][0].strip() == "+")):
                        index = following
                        continue
                if text.strip() == "+" and out:     # after a blank line: attached to the item before
                    index = self.attach(lines, index, inner_indent, origin, out)
                    continue
                break
            mark, first = item
            while mark in levels and levels[-1] != mark:
                levels.pop()
            if mark not in levels:
                levels.append(mark)
            depth = levels.index(mark)
            indent = "".join(INDENTS[list_kind(m)] for m in levels[:depth])
            index += 1
            terms = []
            if list_kind(mark) == "term":
                terms.append(first[0])
                while index < len(lines) and (more := TERM.match(lines[index][0])) and not more.group(3) \
                        and more.group(2) == mark:
                    terms.append(more.group(1).strip())
                    index += 1
                first = first[1]
            texts = [first] if first else []
            if terms and not first:      # a term's text may follow after blank lines, indented or not
                following = next((n for n in range(index, len(lines)) if lines[n][0].strip()), len(lines))
                if following < len(lines) and list_item(lines[following][0]) is None \
                        and not DELIMITER.match(lines[following][0].strip()) and lines[following][0].strip() != "+":
                    index = following
            while index < len(lines) and lines[index][0].strip() and lines[index][0].strip() != "+" \
                    and list_item(lines[index][0]) is None and not DELIMITER.match(lines[index][0].strip()):
                texts.append(lines[index][0])
                index += 1
            body = self.joined(texts) if texts else ""
            if out and out[-1][0].strip() and (terms or attached):
                out.append(("", origin))     # else markdown reads the item as the last one's lazy line
            if terms:
                out += [(indent + inline.line_start_escaped(self.inline(", ".join(terms))), origin),
                        (indent + ": " + body if body else indent + ": ", origin)]
            else:
                marker = "1. " if list_kind(mark) == "numbered" else "- "
                out.append((indent + marker + body, origin))
            inner_indent = indent + INDENTS[list_kind(mark)]
            attached = False
            while index + 1 < len(lines) and lines[index][0].strip() == "+":
                attached = True
                index = self.attach(lines, index, inner_indent, origin, out)
        out.append(("", None))
        return index, out

    def attach(self, lines: list[Line], index: int, indent: str, origin, out: list) -> int:
        """The block after the `+` line at `index`, indented under its item into `out`; the index after it."""
        end = attached_end(lines, index + 1)
        block = self.blocks(lines[index + 1:end])
        out += [("", origin)] + [(indent + line if line.strip() else "", o) for line, o in block]
        return end


def _paragraph_end(lines: list[Line], index: int) -> int:
    end = index + 1
    while end < len(lines) and lines[end][0].strip() and not DELIMITER.match(lines[end][0].strip()) \
            and not (lines[index][0][:1] not in " \t" and (list_item(lines[end][0]) is not None)):
        end += 1
    return end


def _code(texts: list[str], language: str, origin) -> list:
    fence = "````" if any(t.lstrip().startswith("```") for t in texts) else "```"
    return [("", origin), (fence + language, origin), *((t, origin) for t in texts), (fence, origin), ("", origin)]


def _broken(lines: list) -> list:
    """A verse's lines, each but the last of a stanza ending in markdown's hard break."""
    return [(line + "\\" if line.strip() and n + 1 < len(lines) and lines[n + 1][0].strip() else line, o)
            for n, (line, o) in enumerate(lines)]


def _quoted(inner: list, first: str, origin) -> list:
    lines = [("> " + first, origin)] if first else []
    lines += [("> " + line if line.strip() else ">", o) for line, o in inner]
    return [("", origin), *lines, ("", origin)]
