"""Text folded as Chromium's text-fragment matcher compares it, with its word edges (pure).

Each character is folded by the rules in rules.py (case, accents, width, quotes, spaces,
kana) into a `Folded` string that also carries, for every edge between two folded
characters, whether it is a word edge (a match may start or end there), inside one word, or
inside the folding of one character. Written text is first collapsed as the browser displays
it (`collapse`, `normalise`). The page's segments (segments.py) and the matching
(textmodel.py) are built on these.
"""
from __future__ import annotations

import functools
import unicodedata

from . import rules

# What an edge between two folded characters is (Folded.glue).
EDGE = 0      # a word edge: a match may start or end here
JOINED = 1    # between two characters of one word
INSIDE = 2    # inside the folding of one character (ß → ss): not an edge at all

DISPLAY = str.maketrans({**dict.fromkeys(map(ord, rules.IGNORED), None), **dict.fromkeys(map(ord, rules.SPACES), " ")})
_KATAKANA = {code: code + rules.KATAKANA_TO_HIRAGANA for code in range(rules.KATAKANA[0], rules.KATAKANA[1] + 1)}


class Folded(str):
    """Folded text, plus `glue`: for each of its len + 1 edges, EDGE, JOINED or INSIDE; and
    `hidden`: where each run of hidden content starts, and where it ends (`find_matches`)."""

    glue: bytes
    hidden: dict[int, int]

    def __new__(cls, text: str, glue: bytes, hidden: dict[int, int] | None = None):
        folded = super().__new__(cls, text)
        folded.glue = glue
        folded.hidden = hidden or {}
        return folded

    def __reduce__(self):      # pickled with its glue (the source gate's page cache keeps segments)
        return (Folded, (str(self), self.glue, self.hidden))


@functools.lru_cache(maxsize=8192)
def fold_char(ch: str) -> str:
    """One character as the matcher compares it (rules.py); "" for an invisible one."""
    if ch in rules.IGNORED:
        return ""
    out = []
    for c in ch if ch in rules.DISTINCT_LETTERS else unicodedata.normalize("NFKD", ch):
        if c in rules.SPACE_SET:
            out.append(" ")
        elif c in rules.QUOTES:
            out.append(rules.QUOTES[c])
        elif not rules.is_stripped_mark(c):
            out.append("".join(rules.LETTER_FOLDS.get(f, f) for f in c.casefold()).translate(_KATAKANA))
    return "".join(out)


def is_word_char(ch: str) -> bool:
    """True for characters that glue to their neighbours into one word.

    Han, kana, Thai and the other dictionary scripts are split into words by ICU in the
    browser; we treat every such character as standing alone, which can only make us
    count more matches.
    """
    return bool(word_class(ch))


def word_class(ch: str) -> int:
    """0 for a character outside words; otherwise which characters it joins into one word: Hangul
    joins Hangul only (a word edge lies between "float" and "타입" in "float타입이다", measured in
    Chromium 156), every other word character joins the others."""
    if not (ch.isalpha() or ch.isdecimal() or ch == "_"):
        return 0
    code = ord(ch)
    if any(low <= code <= high for low, high in rules.DICTIONARY_SCRIPTS):
        return 0
    return 2 if any(low <= code <= high for low, high in rules.HANGUL) else 1


def _joins_previous(ch: str) -> bool:
    """Marks and joiners belong to the character before them (never a word edge)."""
    return unicodedata.category(ch)[0] == "M" or ch in rules.IGNORED_JOINING


@functools.lru_cache(maxsize=16384)
def _char(ch: str) -> tuple[str, bool, int, bool]:
    return fold_char(ch), _joins_previous(ch), word_class(ch), ch in rules.RUN_SPACES


def _joining_kind(ch: str) -> int:
    """1 for a letter, 2 for a digit that LETTER_JOINERS / NUMBER_JOINERS join (rules.py), else 0."""
    code = ord(ch)
    if ch.isalpha() and any(low <= code <= high for low, high in rules.JOINED_LETTER_SCRIPTS):
        return 1
    if any(low <= code <= high for low, high in rules.JOINED_DIGITS):
        return 2
    return 0


def fold(text: str) -> Folded:
    """Fold `text` exactly as the browser folds a directive part or the page's text."""
    out: list[str] = []
    glue = bytearray()
    word = 0              # the word class of the last visible character (0: not in a word)
    space = False         # the last visible character was a run space
    broken = True         # a word edge is due before the next character
    bases: list[tuple[str, int, bool]] = []   # visible characters: (character, glue index, edge forced before it)
    for ch in text:
        if ch in rules.IGNORED_BREAKING:
            broken = True
            continue
        piece, joins, current, spacing = _char(ch)
        if not joins:
            edge = JOINED if ((word and word == current) or (space and spacing)) and not broken else EDGE
            if piece:
                bases.append((ch, len(glue), broken))
            word, space, broken = current, spacing, False
        else:
            edge = EDGE if broken else JOINED
        if piece:
            out.append(piece)
            glue.append(edge)
            glue.extend([INSIDE] * (len(piece) - 1))
    glue.append(EDGE)
    # "don't", "3.5": a joiner between two letters (two digits) is inside one word
    for (a, _, _), (mid, at, cut), (b, after, cut_after) in zip(bases, bases[1:], bases[2:]):
        if cut or cut_after:
            continue
        kind = _joining_kind(a)
        if kind and kind == _joining_kind(b) and mid in (rules.LETTER_JOINERS if kind == 1 else rules.NUMBER_JOINERS):
            glue[at] = glue[after] = JOINED
    return Folded("".join(out), bytes(glue))


def collapse(text: str) -> str:
    """Text as displayed: collapsible white space runs become one space, invisible
    characters go, other spaces (NBSP) become plain spaces one for one, ends trimmed."""
    return css_collapse(text).translate(DISPLAY).strip(" ")


def normalise(text: str) -> Folded:
    """Fold written text (a quotation, a passage) the way the matcher compares it."""
    return fold(collapse(text))


def css_collapse(raw: str) -> str:
    """CSS white-space collapsing of one block's text; invisible characters are kept."""
    out: list[str] = []
    pending = started = False
    for ch in raw:
        if ch in rules.COLLAPSIBLE:
            pending = True
            continue
        if ch not in rules.IGNORED:
            if pending and started:
                out.append(" ")
            pending, started = False, True
        out.append(ch)
    return "".join(out)
