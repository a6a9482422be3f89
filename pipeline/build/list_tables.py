"""MyST's `{list-table}`: a list of lists drawn as the table it stands for (pure).

The directive's body is a bullet list whose items are bullet lists: each outer item a row,
each inner item a cell. `:header-rows: N` puts the first N rows in the table's head and
`:stub-columns: N` makes the first N cells of every row header cells, as Sphinx draws them.
A cell of one paragraph shows its text alone; a cell of several blocks keeps them. A body of
any other shape is not a table: `as_table` returns None and the caller shows it as it is.
"""
from __future__ import annotations

import re

from markdown_it.token import Token

_OPTION = re.compile(r"^\s*:?(header-rows|stub-columns):\s*(\d+)\s*$")


def options(lines: str) -> tuple[int, int]:
    """(header rows, stub columns) from a directive's option lines, `:header-rows: 1` or YAML's `header-rows: 1`."""
    found = {"header-rows": 0, "stub-columns": 0}
    for line in lines.split("\n"):
        match = _OPTION.match(line)
        if match:
            found[match.group(1)] = int(match.group(2))
    return found["header-rows"], found["stub-columns"]


def _children(tokens: list[Token], open_type: str) -> list[list[Token]] | None:
    """The runs of `tokens` between each `open_type` at the outermost level and its close; None when
    anything else sits at that level."""
    runs: list[list[Token]] = []
    depth = 0
    for token in tokens:
        if depth == 0:
            if token.type != open_type:
                return None
            runs.append([])
        elif not (depth == 1 and token.nesting == -1 and token.type == open_type.replace("_open", "_close")):
            runs[-1].append(token)
        depth += token.nesting
    return runs if depth == 0 else None


def _rows(tokens: list[Token]) -> list[list[list[Token]]] | None:
    """Each row's cells, each cell its block tokens; None unless the tokens are one list of lists."""
    if len(tokens) < 2 or tokens[0].type != "bullet_list_open" or tokens[-1].type != "bullet_list_close":
        return None
    items = _children(tokens[1:-1], "list_item_open")
    if not items:
        return None
    rows = []
    for item in items:
        if len(item) < 2 or item[0].type != "bullet_list_open" or item[-1].type != "bullet_list_close":
            return None
        cells = _children(item[1:-1], "list_item_open")
        if cells is None:
            return None
        rows.append(cells)
    return rows


def _tag(kind: str, tag: str, nesting: int, level: int, line: list[int] | None = None) -> Token:
    return Token(kind, tag, nesting, map=line, level=level, block=True)


def as_table(tokens: list[Token], header_rows: int = 0, stub_columns: int = 0) -> list[Token] | None:
    """`tokens` (a list of lists) as table tokens, at the first token's level; None if they are not one."""
    rows = _rows(tokens)
    if rows is None:
        return None
    level = tokens[0].level
    out = [_tag("table_open", "table", 1, level, tokens[0].map)]
    sections = (("thead", rows[:header_rows]), ("tbody", rows[header_rows:]))
    for section, section_rows in sections:
        if not section_rows:
            continue
        out.append(_tag(f"{section}_open", section, 1, level + 1))
        for cells in section_rows:
            out.append(_tag("tr_open", "tr", 1, level + 2))
            for column, cell in enumerate(cells):
                tag = "th" if section == "thead" or column < stub_columns else "td"
                out.append(_tag(f"{tag}_open", tag, 1, level + 3))
                one_paragraph = len(cell) == 3 and cell[0].type == "paragraph_open"
                for token in cell:
                    if one_paragraph and token.type in ("paragraph_open", "paragraph_close"):
                        token.hidden = True
                    token.level = level + 4 + token.level - cell[0].level
                    out.append(token)
                out.append(_tag(f"{tag}_close", tag, -1, level + 3))
            out.append(_tag("tr_close", "tr", -1, level + 2))
        out.append(_tag(f"{section}_close", section, -1, level + 1))
    out.append(_tag("table_close", "table", -1, level))
    return out
