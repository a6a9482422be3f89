"""An AsciiDoc table (`|===`) as a markdown pipe table (pure).

Cells start at each `|` (`a|`, `2+|` and `.^|` specifiers dropped), a cell's text may go on over
the next lines, rows are as wide as the `cols` attribute counts or the first line's cells. The
first row is a header when `options="header"` (or `%header`) says so, or when it stands alone on
the table's first line, a blank line after it, as Asciidoctor reads it; else the header is empty.
"""
from __future__ import annotations

import re
from typing import Callable

_CELLS = re.compile(r"^\s*(?:\d*(?:\.\d+)?[+*]?[<^>]?(?:\.[<^>])?[adehlmsv]?)?\|")   # `|`, `a|`, `2+|`, `.^|`


def table(texts: list[str], style: list[str], read: Callable[[str], str]) -> list[str]:
    """The table's markdown lines (none for a table without cells), each cell's text through `read`."""
    options = " ".join(style)
    width = _first_row_width(texts)
    columns = _columns(style) or width
    cells: list[str] = []
    for text in texts:
        if _CELLS.match(text):
            cells += [part.strip() for part in re.split(r"(?<!\\)\|", text)[1:]]
        elif text.strip() and cells:
            cells[-1] += " " + text.strip()
    if not columns or not cells:
        return []
    rows = [cells[n:n + columns] for n in range(0, len(cells), columns)]
    rows[-1] += [""] * (columns - len(rows[-1]))
    implicit = len(texts) > 1 and width == columns and bool(texts[0].strip()) and not texts[1].strip()
    header = ("header" in options or implicit) and "noheader" not in options and len(rows) > 1
    head = rows.pop(0) if header else [""] * columns

    def render(row: list[str]) -> str:
        return "| " + " | ".join(read(cell).replace("|", "\\|") for cell in row) + " |"
    return ["", render(head), "|" + "---|" * columns, *(render(row) for row in rows), ""]


def _columns(style: list[str]) -> int:
    spec = next((s.split("=", 1)[1].strip().strip('"') for s in style if s.startswith("cols=")), "")
    if not spec:
        return 0
    if re.fullmatch(r"\d+\*.*", spec):
        return int(spec.split("*")[0])
    return len([part for part in re.split(r"[,;]", spec) if part.strip()])


def _first_row_width(texts: list[str]) -> int:
    first = next((text for text in texts if text.strip()), "")
    return len(re.split(r"(?<!\\)\|", first)) - 1 if _CELLS.match(first) else 0
