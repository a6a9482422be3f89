"""The page's text as Chromium's text-fragment matcher sees it (pure, no browser).

A page becomes a list of segments: runs of rendered text that the browser matches within
(a block element's inline content, cut again at `<br>`, inline-blocks and atomic boxes;
a line of a `<pre>`). Text is folded one character at a time by the rules in rules.py
(case, accents, width, quotes, spaces, kana), and a match must start and end on a word
edge. The walk that finds the segments also notes where each block element is in the
browser's DOM (`Segment.locator`), so the browser gate can point at the same element.

Where the model cannot be exact it errs towards counting *more* matches, so a directive
we call unique really is; the browser gate referees the rest. The known cases: word
edges inside CJK, Thai and other dictionary scripts (we put one around every character),
and around punctuation inside a word in scripts where Chromium's joining was not
measured (rules.LETTER_JOINERS: "don't" and "3.5" are one word, as in the browser).

The parts: folding.py folds text and marks its word edges, segments.py walks the HTML into
segments and their haystack, and this module finds a directive's matches in a haystack. Every
name of the three is importable from here.
"""
from __future__ import annotations

from .folding import EDGE, INSIDE, JOINED, Folded, collapse, fold, fold_char, is_word_char, normalise, word_class
from .segments import PASSAGE_TAGS, Segment, page_haystack, segment_at, segments_from_html

__all__ = ["EDGE", "INSIDE", "JOINED", "PASSAGE_TAGS", "Folded", "Segment", "collapse", "count_matches", "find_matches",
           "fold", "fold_char", "is_word_char", "normalise", "page_haystack", "segment_at", "segments_from_html",
           "word_class"]


def _glue_of(haystack: str) -> bytes:
    """The glue of a plain folded string (no page behind it): edges from its own characters."""
    if isinstance(haystack, Folded):
        return haystack.glue
    glue = bytearray([EDGE])
    classes = [word_class(ch) for ch in haystack]
    glue.extend(JOINED if a and a == b else EDGE for a, b in zip(classes, classes[1:]))
    glue.append(EDGE)
    return bytes(glue) if haystack else bytes([EDGE])


_GAP = " \t\n"   # what may lie between a prefix and the text, or the text and a suffix


def find_matches(haystack: str, text: str, prefix: str = "", suffix: str = "") -> list[int]:
    """Offsets in `haystack` where the directive (prefix-,text,-suffix) matches.

    All arguments are already folded. The text must start on a word edge (or follow its
    prefix), and end on one unless a suffix follows; prefix and suffix may sit in a
    neighbouring block, separated by white space only, as in the specification.
    """
    if not text or "\n" in text:
        return []
    glue = _glue_of(haystack)
    hidden = getattr(haystack, "hidden", {})
    end = len(haystack)

    def at(part: str, j: int) -> bool:
        return haystack.startswith(part, j) and glue[j] != INSIDE and glue[j + len(part)] != INSIDE

    def occurrences(part: str):
        j = haystack.find(part)
        while j != -1:
            if at(part, j):
                yield j
            j = haystack.find(part, j + 1)

    def skip(j: int) -> int:
        # Hidden content is skipped whole by context coming from outside it: a prefix before a closed
        # <details> reaches the text after it, never the text it hides (measured in Chromium 156).
        while True:
            while j < end and haystack[j] in _GAP:
                j += 1
            if j not in hidden:
                return j
            j = hidden[j]

    if prefix:
        starts = sorted({q for p in occurrences(prefix) if glue[p] == EDGE
                         for q in [skip(p + len(prefix))] if at(text, q)})
    else:
        starts = [q for q in occurrences(text) if glue[q] == EDGE]
    hits = []
    for q in starts:
        after = q + len(text)
        if suffix:
            r = skip(after)
            if at(suffix, r) and glue[r + len(suffix)] == EDGE:
                hits.append(q)
        elif glue[after] == EDGE:
            hits.append(q)
    return hits


def count_matches(haystack: str, text: str, prefix: str = "", suffix: str = "") -> int:
    """Matches of written text (collapsed and folded first) in a page's haystack."""
    return len(find_matches(haystack, normalise(text), normalise(prefix), normalise(suffix)))
