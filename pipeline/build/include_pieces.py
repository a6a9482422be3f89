"""The part of an included file a directive asks for (pure): lines, a named section, the text between markers.

`includes` reads the files; these cut them as MyST (`:start-line:`, `:start-after:`, …), pymdown
snippets (`file.md:3:10`, `file.md:section`), mkdocs-include-markdown (`start=`, `end=`) and
mdBook (`file:2:10`, `file:anchor`) do. Each returns the piece and the file's line it starts on.
"""
from __future__ import annotations

import re


def option(line: str) -> tuple[str, str]:
    name, _, value = line.strip()[1:].partition(":")
    return name.strip(), value.strip()


def myst_options(lines: list[str]) -> dict[str, str]:
    """A MyST directive's options, as `:name: value` lines or a `---` YAML block. Their values are YAML:
    a quoted one (`:start-after: '### Usage'`, quoted so YAML does not read a comment) is unquoted."""
    if lines and lines[0].strip() == "---":
        end = next((n for n in range(1, len(lines)) if lines[n].strip() == "---"), len(lines))
        pairs = [line.strip().partition(":")[::2] for line in lines[1:end] if ":" in line]
    else:
        pairs = [option(line) for line in lines if line.strip().startswith(":")]
    return {name.strip(): _unquoted(value.strip()) for name, value in pairs}


def _unquoted(value: str) -> str:
    if len(value) >= 2 and value[0] == value[-1] == "'":
        return value[1:-1].replace("''", "'")
    if len(value) >= 2 and value[0] == value[-1] == '"':
        return re.sub(r'\\(["\\])', r"\1", value[1:-1])
    return value


def cut_myst(text: str, first: int, options: dict[str, str]) -> tuple[str, int]:
    text, first = between(text, first, options.get("start-after"), options.get("end-before"))
    lines = text.split("\n")
    start = int(options["start-line"]) if options.get("start-line", "").lstrip("-").isdigit() else 0
    stop = int(options["end-line"]) if options.get("end-line", "").lstrip("-").isdigit() else len(lines)
    start = max(start if start >= 0 else len(lines) + start, 0)
    return "\n".join(lines[start:stop]), first + start


def between(text: str, first: int, start: str | None, end: str | None) -> tuple[str, int]:
    """The text after the first `start` and before the next `end` (either may be absent)."""
    if start and start in text:
        cut = text.index(start) + len(start)
        first += text[:cut].count("\n")
        text = text[cut:]
    if end and end in text:
        text = text[:text.index(end)]
    return text, first


def piece_of(text: str, first: int, piece: str, opening: str, closing: str) -> tuple[str, int]:
    """Lines `3:10` (either end may be left out), or the lines between a named section's markers."""
    lines = text.split("\n")
    if re.fullmatch(r"\d*(?::\d*)?", piece):
        low, _, high = piece.partition(":")
        start = max(int(low) - 1, 0) if low else 0
        stop = int(high) if high else len(lines)
        return "\n".join(lines[start:stop]), first + start
    starts = [n for n, line in enumerate(lines) if opening.format(piece) in line]
    if not starts:
        return text, first
    stop = next((n for n in range(starts[0] + 1, len(lines)) if closing.format(piece) in lines[n]), len(lines))
    return "\n".join(lines[starts[0] + 1:stop]), first + starts[0] + 1


def shift_headings(text: str, offset: int) -> str:
    out, fence = [], ""
    for line in text.split("\n"):
        marker = re.match(r"^\s*(`{3,}|~{3,})", line)
        if marker and (not fence or marker.group(1).startswith(fence)):
            fence = "" if fence else marker.group(1)[:3]
        elif not fence and re.match(r"^#{1,6}\s", line):
            line = "#" * offset + line
        out.append(line)
    return "\n".join(out)
