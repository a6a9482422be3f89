"""Text-fragment directives: encode, parse, and generate the shortest unique one (pure)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from . import rules
from .textmodel import find_matches, fold

MAX_CONTEXT_STEPS = 8
# Positions where a prefix may start / a suffix may end: after/before spaces, and after
# CJK sentence or clause punctuation (the browser's dictionary puts a word edge there),
# unless more punctuation follows: inside a run such as "。。" or "..", Chromium 156 has no
# edge after every mark ("。-,直接…" does not match after "…です。。", "。" after "…です。" does).
_CJK_BREAK = "。！？、，；：「」『』（）"


def encode_part(text: str) -> str:
    """Percent-encode one directive part; `-` `,` `&` `%` and every non-ASCII byte included."""
    encoded = quote(text, safe="")   # leaves only letters, digits and `_.-~`
    for ch in rules.DIRECTIVE_FORBIDDEN + rules.DIRECTIVE_SEPARATOR:
        encoded = encoded.replace(ch, f"%{ord(ch):02X}")
    return encoded


@dataclass(frozen=True)
class TextDirective:
    text: str
    prefix: str = ""
    suffix: str = ""
    end: str = ""

    def __str__(self) -> str:
        parts = []
        if self.prefix:
            parts.append(encode_part(self.prefix) + "-")
        parts.append(encode_part(self.text))
        if self.end:
            parts.append(encode_part(self.end))
        if self.suffix:
            parts.append("-" + encode_part(self.suffix))
        return "text=" + ",".join(parts)


def parse_directive(directive: str) -> TextDirective:
    """Parse `text=[prefix-,]start[,end][,-suffix]`; raise ValueError when Chromium would ignore it.

    The syntax is rules.py's: no part may be empty or hold a raw `-` or `&`, and every
    percent-escape must decode to UTF-8.
    """
    if not directive.startswith(rules.DIRECTIVE_START):
        raise ValueError(f"a text directive starts with {rules.DIRECTIVE_START!r}")
    raw = directive[len(rules.DIRECTIVE_START):].split(rules.DIRECTIVE_SEPARATOR)
    prefix = suffix = None
    if raw and raw[0].endswith(rules.PREFIX_MARK):
        prefix = raw.pop(0)[:-len(rules.PREFIX_MARK)]
    if raw and raw[-1].startswith(rules.SUFFIX_MARK):
        suffix = raw.pop()[len(rules.SUFFIX_MARK):]
    parts = [p for p in (prefix, *raw, suffix) if p is not None]
    if len(raw) not in (1, 2) or not all(parts) or any(c in p for p in parts for c in rules.DIRECTIVE_FORBIDDEN):
        raise ValueError(f"malformed text directive: {directive!r}")
    if re.search(rules.DIRECTIVE_BAD_PERCENT, directive):
        raise ValueError(f"malformed percent-encoding in text directive: {directive!r}")
    try:
        decoded = [unquote(p, errors="strict") if p else "" for p in (prefix, raw[0], raw[1] if len(raw) == 2 else "", suffix)]
    except UnicodeDecodeError:
        raise ValueError(f"percent-encoding that is not UTF-8 in text directive: {directive!r}") from None
    prefix_, text, end, suffix_ = decoded
    return TextDirective(text, prefix_, suffix_, end)


def directive_matches(haystack: str, directive: TextDirective) -> list[int]:
    """Where a directive matches in a page's haystack (its parts folded exactly, as the browser does).

    A range (`start,end`) is counted by its start alone: never fewer matches than the browser.
    """
    return find_matches(haystack, fold(directive.text), fold(directive.prefix), fold(directive.suffix))


def prefix_candidates(before: str) -> list[str]:
    """Tails of `before` that start on a safe word edge, shortest first."""
    before = before.rstrip()
    starts = [i + 1 for i, ch in enumerate(before)
              if ch == " " or (ch in _CJK_BREAK and not _is_mark(before[i + 1:i + 2]))]
    candidates = [before[i:].strip() for i in sorted(set(starts), reverse=True)] + [before.strip()]
    return _unique_nonempty(candidates)


def suffix_candidates(after: str) -> list[str]:
    """Heads of `after` that end on a safe word edge, shortest first."""
    after = after.lstrip()
    ends = [i for i, ch in enumerate(after) if ch == " "] + \
           [i + 1 for i, ch in enumerate(after) if ch in _CJK_BREAK and not _is_mark(after[i + 1:i + 2])]
    candidates = [after[:i].strip() for i in sorted(set(ends))] + [after.strip()]
    return _unique_nonempty(candidates)


def _is_mark(ch: str) -> bool:
    """A punctuation mark or symbol (not a letter, digit or space; "" is none)."""
    return bool(ch) and not (ch.isalnum() or ch.isspace())


def _unique_nonempty(items: list[str]) -> list[str]:
    seen, out = set(), []
    for item in items:
        if item and item not in seen and fold(item).strip():
            seen.add(item)
            out.append(item)
    return out


def unique_directive(haystack: str, text: str, before: str, after: str) -> TextDirective | None:
    """The shortest directive for `text` that matches exactly once in `haystack`.

    `before`/`after` are the text around this occurrence (same block first, then the
    neighbouring block), used for prefix and suffix words when the text alone repeats.
    Returns None when no context up to MAX_CONTEXT_STEPS words makes it unique.
    """
    if len(directive_matches(haystack, TextDirective(text))) == 1:
        return TextDirective(text)
    prefixes = prefix_candidates(before)[:MAX_CONTEXT_STEPS]
    suffixes = suffix_candidates(after)[:MAX_CONTEXT_STEPS]
    for step in range(MAX_CONTEXT_STEPS):
        options = []
        if step < len(prefixes):
            options.append(TextDirective(text, prefix=prefixes[step]))
        if step < len(suffixes):
            options.append(TextDirective(text, suffix=suffixes[step]))
        if step < len(prefixes) and step < len(suffixes):
            options.append(TextDirective(text, prefix=prefixes[step], suffix=suffixes[step]))
        for option in options:
            if len(directive_matches(haystack, option)) == 1:
                return option
    return None

