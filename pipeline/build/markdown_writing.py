"""Writing markdown from text that is not markdown (pure): words that stay words, code that stays code.

Used by rst_markdown.py: a reStructuredText page's words may hold `*`, `[`, `<` or a leading `1.`
that markdown would read as markup; its inline literals may hold backticks; its directive bodies
may hold fences of their own.
"""
from __future__ import annotations

import re

_SPECIAL = re.compile(r"([\\`*_\[\]{}<>|~&])")
_LINE_START = re.compile(r"^(#|[-+*=>]|\d+[.)]|:::)")


def escape(text: str, line_start: bool = True) -> str:
    """`text` on one line, shown as written; `line_start`: it may begin a line (`1.`, `#`, `-`)."""
    text = _SPECIAL.sub(r"\\\1", re.sub(r"\s*\n\s*", " ", text))
    start = _LINE_START.match(text) if line_start else None
    if start is None:
        return text
    at = start.end() - 1          # `1.` becomes `1\.`: a backslash before a digit would be shown
    return text[:at] + "\\" + text[at:]


def code_span(text: str) -> str:
    text = re.sub(r"\s*\n\s*", " ", text)
    ticks = "`" * (max((len(run) for run in re.findall(r"`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{ticks}{pad}{text}{pad}{ticks}" if text else ""


def fenced(opening: str, body: list[tuple[str, int | None]], marker: str = "`") -> list[tuple[str, int | None]]:
    """`body` inside a fence longer than any fence in it."""
    longest = max((len(m.group()) for text, _ in body if (m := re.match(r"^\s*(`{3,}|~{3,}|:{3,})", text))),
                  default=2)
    fence = marker * max(3, longest + 1)
    return [(fence + opening, None), *body, (fence, None)]
