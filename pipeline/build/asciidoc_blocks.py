"""The block boundaries of AsciiDoc: delimiters, block attribute lines, list items and what a `+` attaches (pure).

asciidoc.py reads blocks with these: a delimiter line (`----`, `....`, `====`, `****`, `____`,
`++++`, `////`, `--`, `|===`, a fence) opens a block closed by the same line; a list item is a
bullet (`*` … `*****`, `-`), a numbered item (`.` … `.....`, `1.`), a listing's callout (`<1>`)
or a term (`term::`, `:::`, `::::`, `;;`), whose mark says its list; a `+` line attaches the
block after it (a delimited block, or lines up to a blank one) to the item before.
"""
from __future__ import annotations

import re

Line = tuple[str, str, int]      # text, file, line

DELIMITER = re.compile(r"^(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|--|\|===+|`{3}[\w+-]*)\s*$")
BLOCK_ATTRIBUTES = re.compile(r"^\[([^\[\]].*)\]$")
_BULLET = re.compile(r"^\s*(\*{1,5}|-)\s+(\S.*)$")
_NUMBERED = re.compile(r"^\s*(\.{1,5}|\d+\.)\s+(\S.*)$")
_CALLOUT = re.compile(r"^<(?:\d+|\.)>\s+(\S.*)$")
TERM = re.compile(r"^\s*(\S.*?)(:{2,4}|;;)(?:[ \t]+(\S.*))?$")
INDENTS = {"bullet": "  ", "numbered": "   ", "term": "  "}


def list_kind(mark: str) -> str:
    return "bullet" if mark[0] in "*-" else "numbered" if mark[0] in ".0123456789<" else "term"


def list_item(text: str) -> tuple[str, object] | None:
    """(its mark, its text) for a list item line; a term's text is (term, definition)."""
    if (found := _BULLET.match(text)) and not DELIMITER.match(text.strip()):
        return found.group(1), found.group(2)
    if (found := _NUMBERED.match(text)):
        return ("1." if found.group(1)[0].isdigit() else found.group(1)), found.group(2)
    if (found := _CALLOUT.match(text)):       # a listing's callouts, explained in a numbered list
        return "<>", found.group(1)
    if (found := TERM.match(text)) and not text.lstrip().startswith("//") \
            and not BLOCK_ATTRIBUTES.match(text.strip()):       # a term may open with its anchor: [[def_x]]x::
        return found.group(2), (found.group(1).strip(), found.group(3) or "")
    return None


def attached_end(lines: list[Line], index: int) -> int:
    """The end of the block a `+` line attaches: a delimited block, or lines up to a blank one."""
    start = index
    while start < len(lines) and BLOCK_ATTRIBUTES.match(lines[start][0].strip()):
        start += 1
    if start < len(lines) and DELIMITER.match(lines[start][0].strip()):
        mark = lines[start][0].strip()
        return next((n + 1 for n in range(start + 1, len(lines)) if lines[n][0].rstrip() == mark), len(lines))
    end = start
    while end < len(lines) and lines[end][0].strip() and lines[end][0].strip() != "+":
        end += 1
    return end
