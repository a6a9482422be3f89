"""The page's text as a browser's text-fragment matcher sees it (pure, no browser).

A page becomes a list of segments: runs of rendered text that the browser matches
within (a block element's inline content, cut again at `<br>` and inline-block
elements). Matching is case-insensitive with whitespace collapsed and accents folded,
and a match must start and end on word boundaries. Where our model cannot be exact it
errs towards counting *more* matches, so a directive we call unique really is; the
browser gate referees the rest.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Declaration, Doctype, ProcessingInstruction

BLOCK_TAGS = frozenset("""
address article aside blockquote body caption center dd details dialog dir div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li
main menu nav ol p pre section summary table tbody td tfoot th thead tr ul
""".split())
# Form controls and atomic boxes: the matcher treats them as a block break (measured in
# Chromium 156). Their own text (button labels) is kept as a segment so counts stay high.
INLINE_BLOCK_TAGS = frozenset("button textarea input canvas svg".split())
# Replaced elements Chromium skips whole: no text, and text runs on across them.
SKIPPED_TAGS = frozenset("head script style template noscript title meta link "
                         "img video audio iframe object embed meter progress select".split())
# Classes our own templates lay out as inline-block (citation chips).
INLINE_BLOCK_CLASSES = frozenset({"cite", "chip"})
PASSAGE_TAGS = frozenset("p li h1 h2 h3 h4 h5 h6 td th dt dd figcaption caption blockquote summary".split())

_SPACE = re.compile(r"[ \t\n\r\f\v\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
_IGNORED = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"), None)
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201a": "'", "\u201b": "'",
                         "\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2032": "'"})


@dataclass(frozen=True)
class Segment:
    """A run of text the matcher treats as one block."""

    text: str          # whitespace collapsed, original case
    tag: str           # nearest block element's tag
    block: int         # index of that block element in document order
    in_main: bool      # inside <main> (where citable passages come from)
    preformatted: bool = False


def collapse(text: str) -> str:
    return _SPACE.sub(" ", text.translate(_IGNORED)).strip()


def normalise(text: str) -> str:
    """Fold text the way the matcher compares it: case, accents, width, quotes, spaces."""
    text = unicodedata.normalize("NFKD", text.translate(_IGNORED))
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return collapse(text.translate(_QUOTES).casefold())


def is_word_char(ch: str) -> bool:
    """True for letters that glue to their neighbours into one word.

    Han, kana and Thai are split into words by a dictionary in the browser; we treat
    every such character as standing alone, which can only make us count more matches.
    """
    if not (ch.isalnum() or ch == "_"):
        return False
    code = ord(ch)
    return not (0x2E80 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF or 0x0E00 <= code <= 0x0EFF
                or 0xFF66 <= code <= 0xFF9F or 0x20000 <= code <= 0x3FFFF)


def segments_from_html(html: str) -> list[Segment]:
    """Split a rendered page into the segments the browser matches within."""
    soup = BeautifulSoup(html, "html.parser")
    root = soup.body or soup
    walker = _Walker()
    walker.visit(root, in_main=root.name == "main")
    walker.flush()
    return walker.segments


class _Walker:
    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.parts: list[str] = []
        # (tag, block index, preformatted, inside <main>) of the enclosing block elements
        self.block_stack: list[tuple[str, int, bool, bool]] = [("body", 0, False, False)]
        self.blocks = 0

    def flush(self, citable: bool = True) -> None:
        text = collapse("".join(self.parts))
        self.parts = []
        if text:
            tag, block, pre, in_main = self.block_stack[-1]
            self.segments.append(Segment(text, tag, block, in_main and citable, pre))

    def visit(self, node: Tag, in_main: bool) -> None:
        for child in node.children:
            if isinstance(child, (Comment, Declaration, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                self.parts.append(str(child))
                continue
            if not isinstance(child, Tag) or _is_hidden(child):
                continue
            name = child.name.lower()
            child_main = in_main or name == "main"
            if name == "br":
                self.flush()
            elif name in INLINE_BLOCK_TAGS or INLINE_BLOCK_CLASSES & set(child.get("class") or ()):
                self.flush()
                self.parts.append(child.get_text(" "))
                self.flush(citable=False)  # chips and controls are never citable passages
            elif name in BLOCK_TAGS or name == "main":
                self.flush()
                self.blocks += 1
                pre = name == "pre" or self.block_stack[-1][2]
                self.block_stack.append((name, self.blocks, pre, child_main))
                self.visit(child, child_main)
                self.flush()
                self.block_stack.pop()
            else:
                self.visit(child, child_main)


def _is_hidden(tag: Tag) -> bool:
    if tag.name.lower() in SKIPPED_TAGS:
        return True
    hidden = tag.get("hidden")
    if hidden is not None and str(hidden).lower() != "until-found":
        return True
    style = re.sub(r"\s+", "", str(tag.get("style") or "")).lower()
    return "display:none" in style or "visibility:hidden" in style


def page_haystack(segments: list[Segment]) -> str:
    """All segments, normalised, one per line: the string matches are counted in."""
    return "\n".join(normalise(s.text) for s in segments)


def _boundary_before(haystack: str, index: int) -> bool:
    return index == 0 or not (is_word_char(haystack[index - 1]) and is_word_char(haystack[index]))


def _boundary_after(haystack: str, index: int) -> bool:
    return index >= len(haystack) or not (is_word_char(haystack[index - 1]) and is_word_char(haystack[index]))


def find_matches(haystack: str, text: str, prefix: str = "", suffix: str = "") -> list[int]:
    """Offsets in `haystack` where the directive (prefix-,text,-suffix) matches.

    All arguments are already normalised. Prefix and suffix may sit in a neighbouring
    block, separated by whitespace only, as in the specification.
    """
    if not text or "\n" in text:
        return []
    hits = []
    start = haystack.find(text)
    while start != -1:
        end = start + len(text)
        if _context_matches(haystack, start, end, text, prefix, suffix):
            hits.append(start)
        start = haystack.find(text, start + 1)
    return hits


def _context_matches(haystack: str, start: int, end: int, text: str, prefix: str, suffix: str) -> bool:
    if prefix:
        before = haystack[:start].rstrip(" \n")
        if not before.endswith(prefix) or not _boundary_before(haystack, len(before) - len(prefix)):
            return False
    elif not _boundary_before(haystack, start):
        return False
    if suffix:
        after_start = len(haystack) - len(haystack[end:].lstrip(" \n"))
        if not haystack.startswith(suffix, after_start) or not _boundary_after(haystack, after_start + len(suffix)):
            return False
    elif not _boundary_after(haystack, end):
        return False
    return True


def count_matches(haystack: str, text: str, prefix: str = "", suffix: str = "") -> int:
    return len(find_matches(haystack, normalise(text), normalise(prefix), normalise(suffix)))
