"""Text-fragment directives: encode, parse, and generate a short unique one a browser finds fast (pure)."""
from __future__ import annotations

import functools
import itertools
import re
from dataclasses import dataclass
from urllib.parse import quote, unquote

from . import rules
from .textmodel import find_matches, fold

MAX_CONTEXT_STEPS = 8
# How a browser finds a directive (Chromium's TextFragmentFinder): it looks for the first part
# (the prefix, else the text) from the top of the page; from each place it finds, it looks
# forward for the next part (the text after a prefix, the suffix after the text), and when
# that does not follow right there, goes on to the first part's next place. Each forward look
# runs on to the next part's next occurrence, however far. After the match the search goes on
# to the end of the page, to tell an ambiguous directive, so every link pays one pass alike.
# A common first part before a rare second part thus reads the page over and over:
# "pytest-,pytest-beartype" took 808 ms to land on a 250-row table page, and
# "pytest-beartype,-Pytest plugin" 26 ms (bench/scale/link_search.py).
CHEAP_SCANS = 0.25           # extra reads of the page that cost next to nothing
# A link is too costly to publish when finding it reads the page more than MAX_EXTRA_SCANS times
# over beyond its one pass (nine plain links' worth) and more than MAX_EXTRA_SEARCH characters
# in all (~70 ms of Chromium's search on this machine): on a short page, no link is.
MAX_EXTRA_SCANS = 8
MAX_EXTRA_SEARCH = 500_000
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
    return find_matches(haystack, _folded(directive.text), _folded(directive.prefix), _folded(directive.suffix))


def prefix_candidates(before: str, limit: int = MAX_CONTEXT_STEPS) -> list[str]:
    """The first `limit` tails of `before` that start on a safe word edge, shortest first."""
    before = before.rstrip()
    starts = [i + 1 for i, ch in enumerate(before)
              if ch == " " or (ch in _CJK_BREAK and not _is_mark(before[i + 1:i + 2]))]
    candidates = (before[i:].strip() for i in sorted(set(starts), reverse=True))
    return _unique_nonempty(itertools.chain(candidates, [before.strip()]), limit)


def suffix_candidates(after: str, limit: int = MAX_CONTEXT_STEPS) -> list[str]:
    """The first `limit` heads of `after` that end on a safe word edge, shortest first."""
    after = after.lstrip()
    ends = [i for i, ch in enumerate(after) if ch == " "] + \
           [i + 1 for i, ch in enumerate(after) if ch in _CJK_BREAK and not _is_mark(after[i + 1:i + 2])]
    candidates = (after[:i].strip() for i in sorted(set(ends)))
    return _unique_nonempty(itertools.chain(candidates, [after.strip()]), limit)


def _is_mark(ch: str) -> bool:
    """A punctuation mark or symbol (not a letter, digit or space; "" is none)."""
    return bool(ch) and not (ch.isalnum() or ch.isspace())


def _unique_nonempty(items, limit: int) -> list[str]:
    """The first `limit` distinct items that fold to something (folding a long one is slow: stop early)."""
    seen, out = set(), []
    for item in items:
        if len(out) == limit:
            break
        if item and item not in seen and _folded(item).strip():
            seen.add(item)
            out.append(item)
    return out


def unique_directive(haystack: str, text: str, before: str, after: str) -> TextDirective | None:
    """A directive for `text` that matches exactly once in `haystack`, short and quick to find.

    `before`/`after` are the text around this occurrence (same block first, then the
    neighbouring block), used for prefix and suffix words when the text alone repeats.
    Context grows a word at a time (prefix, suffix, both). The first unique option is
    replaced by a later one only when that halves the browser's search (`search_scans`),
    and the search stops once it is cheap. Returns None when no context up to
    MAX_CONTEXT_STEPS words makes it unique.
    """
    if len(directive_matches(haystack, TextDirective(text))) == 1:
        return TextDirective(text)
    prefixes = prefix_candidates(before)
    suffixes = suffix_candidates(after)
    best, best_cost = None, 0.0
    for step in range(MAX_CONTEXT_STEPS):
        options = []
        if step < len(prefixes):
            options.append(TextDirective(text, prefix=prefixes[step]))
        if step < len(suffixes):
            options.append(TextDirective(text, suffix=suffixes[step]))
        if step < len(prefixes) and step < len(suffixes):
            options.append(TextDirective(text, prefix=prefixes[step], suffix=suffixes[step]))
        for option in options:
            cost = search_scans(haystack, option)
            if best is not None and cost > best_cost / 2:
                continue
            if len(directive_matches(haystack, option)) == 1:
                best, best_cost = option, cost
        if best is not None and best_cost <= CHEAP_SCANS:
            break
    return best


def search_scans(haystack: str, directive: TextDirective) -> float:
    """Roughly how many extra times a browser reads the page through to find `directive`.

    Each place of a part is followed by a forward look for the next part, which reads on
    for the page's length over (occurrences of that part + 1) on average.
    """
    def occurrences(part: str) -> int:
        return _occurrences(haystack, _folded(part)) if part else 0

    text = occurrences(directive.text)
    scans, tried = 0.0, text
    if directive.prefix:
        prefix = occurrences(directive.prefix)
        scans += prefix / (text + 1)
        tried = min(prefix, text)
    if directive.suffix:
        scans += tried / (occurrences(directive.suffix) + 1)
    return scans


def too_costly(haystack: str, directive: TextDirective) -> bool:
    """Whether a browser would read too much of the page over and over to find `directive`."""
    scans = search_scans(haystack, directive)
    return scans > MAX_EXTRA_SCANS and scans * len(haystack) > MAX_EXTRA_SEARCH


@functools.lru_cache(maxsize=4096)   # the same words come back as context of many passages
def _folded(part: str) -> str:
    return fold(part)


@functools.lru_cache(maxsize=4096)   # many passages of one page ask about the same words
def _occurrences(haystack: str, folded: str) -> int:
    """Places of `folded` as a whole word or words: a browser passes over the others at once."""
    return len(find_matches(haystack, folded))
