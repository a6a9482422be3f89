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
"""
from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Declaration, Doctype, ProcessingInstruction

from . import rules

PASSAGE_TAGS = frozenset("p li h1 h2 h3 h4 h5 h6 td th dt dd figcaption caption blockquote summary".split())

# What an edge between two folded characters is (Folded.glue).
EDGE = 0      # a word edge: a match may start or end here
JOINED = 1    # between two characters of one word
INSIDE = 2    # inside the folding of one character (ß → ss): not an edge at all

_COLLAPSIBLE_RUN = re.compile(f"[{re.escape(rules.COLLAPSIBLE)}]+")
_DISPLAY = str.maketrans({**dict.fromkeys(map(ord, rules.IGNORED), None), **dict.fromkeys(map(ord, rules.SPACES), " ")})
_KATAKANA = {code: code + rules.KATAKANA_TO_HIRAGANA for code in range(rules.KATAKANA[0], rules.KATAKANA[1] + 1)}
_STRIP = rules.COLLAPSIBLE + rules.SPACES


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


@dataclass(frozen=True)
class Segment:
    """A run of text the matcher treats as one block."""

    text: str          # as displayed: white space collapsed, invisible characters removed, original case
    tag: str           # nearest block element's tag
    block: int         # index of that block element in document order
    in_main: bool      # inside <main> and not in a chip or control (where citable passages come from)
    preformatted: bool = False
    ordinal: int = 0   # that element's position among the same-tag elements under <body>
    hidden_in: tuple[int, ...] = ()   # the runs of hidden content (closed <details>, hidden=until-found) holding it
    folded: Folded = field(default=Folded("", bytes([EDGE])), compare=False, repr=False)

    @property
    def locator(self) -> dict | None:
        """Where the browser finds the block element: {tag, ordinal} (None for <body> itself)."""
        return None if self.tag == "body" else {"tag": self.tag, "ordinal": self.ordinal}


# ---- folding -------------------------------------------------------------------------

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
    return _css_collapse(text).translate(_DISPLAY).strip(" ")


def normalise(text: str) -> Folded:
    """Fold written text (a quotation, a passage) the way the matcher compares it."""
    return fold(collapse(text))


def _css_collapse(raw: str) -> str:
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


# ---- the page ------------------------------------------------------------------------

def segments_from_html(html: str) -> list[Segment]:
    """Split a rendered page into the segments the browser matches within."""
    soup = BeautifulSoup(html, "html.parser")
    root = soup.body or soup
    walker = _Walker()
    walker.visit(root, in_main=root.name == "main")
    walker.flush()
    return walker.segments


@dataclass(frozen=True)
class _Block:
    tag: str
    index: int
    ordinal: int
    preformatted: bool
    in_main: bool
    citable: bool


class _Walker:
    """One walk over the page: segments, and each element's ordinal among its tag."""

    def __init__(self) -> None:
        self.segments: list[Segment] = []
        self.parts: list[str] = []
        self.stack: list[_Block] = [_Block("body", 0, 0, False, False, True)]
        self.blocks = 0
        self.ordinals: dict[str, int] = {}
        self.hidden: list[int] = []   # the runs of hidden content being walked, outermost first
        self.runs = 0

    def flush(self) -> None:
        raw = "".join(self.parts)
        self.parts = []
        top = self.stack[-1]
        if top.preformatted:   # the HTML parser turns CR LF and CR into LF
            lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        else:
            lines = [_css_collapse(raw)]
        for line in lines:   # in a <pre> each line is matched on its own, white space kept
            text = line.translate(_DISPLAY).strip(_STRIP)
            if text:
                self.segments.append(Segment(text, top.tag, top.index, top.in_main and top.citable,
                                             top.preformatted, top.ordinal, tuple(self.hidden), fold(line)))

    def _ordinal(self, name: str) -> int:
        ordinal = self.ordinals.get(name, 0)
        self.ordinals[name] = ordinal + 1
        return ordinal

    def _count(self, node: Tag) -> None:
        """Count the elements of a subtree that shows no text (the browser's DOM still has them)."""
        if node.name.lower() in ("template", "noscript"):
            return   # their content is not part of the document's element tree
        for child in node.children:
            if isinstance(child, Tag):
                self._ordinal(child.name.lower())
                self._count(child)

    def visit(self, node: Tag, in_main: bool, svg: str = "") -> None:
        """`svg` is "" outside SVG, "svg" inside it, "text" inside one of its <text> elements."""
        for child in node.children:
            if isinstance(child, (Comment, Declaration, Doctype, ProcessingInstruction)):
                continue
            if isinstance(child, NavigableString):
                if svg != "svg":
                    self.parts.append(str(child))
                continue
            if not isinstance(child, Tag):
                continue
            name = child.name.lower()
            ordinal = self._ordinal(name)
            if _is_hidden(child) or name in rules.ATOMIC_TAGS:
                if name in rules.ATOMIC_TAGS:
                    self.flush()
                self._count(child)
                continue
            child_main = in_main or name == "main"
            if svg == "svg":
                if name == rules.SVG_TEXT_TAG:
                    self._block(child, name, ordinal, child_main, True, "text")
                else:
                    self.visit(child, child_main, svg)
            elif name == "br":
                self.flush()
            elif name == rules.SVG_TAG and not svg:
                self.flush()
                self.visit(child, child_main, "svg")
                self.flush()
            elif name in rules.INLINE_BLOCK_TAGS or rules.INLINE_BLOCK_CLASSES & set(child.get("class") or ()):
                self._block(child, name, ordinal, child_main, False, svg)   # chips and controls: never cited
            elif name in rules.BLOCK_TAGS or name == "main":
                self._block(child, name, ordinal, child_main, True, svg)
            else:
                self.visit(child, child_main, svg)

    def _block(self, node: Tag, name: str, ordinal: int, in_main: bool, citable: bool, svg: str) -> None:
        self.flush()
        self.blocks += 1
        top = self.stack[-1]
        self.stack.append(_Block(name, self.blocks, ordinal, name == "pre" or top.preformatted,
                                 in_main, citable and top.citable))
        if name == rules.CLOSED_DETAILS_TAG and not node.has_attr("open"):
            self._closed_details(node, in_main, svg)
        elif _until_found(node):
            self._found_only(list(node.children), in_main, svg)
        else:
            self.visit(node, in_main, svg)
        self.flush()
        self.stack.pop()

    def _closed_details(self, node: Tag, in_main: bool, svg: str) -> None:
        """Its summary as usual, then the content it hides, as a run of hidden content."""
        children = list(node.children)
        first = next((i for i, c in enumerate(children) if isinstance(c, Tag)), None)
        cut = first + 1 if first is not None and children[first].name.lower() == "summary" else 0
        self.visit(_Children(children[:cut]), in_main, svg)
        self._found_only(children[cut:], in_main, svg)

    def _found_only(self, children: list, in_main: bool, svg: str) -> None:
        """Content the browser finds but does not show (a closed <details>, hidden=until-found): a run
        of hidden content, which context from outside it skips."""
        self.flush()
        self.runs += 1
        self.hidden.append(self.runs)
        self.visit(_Children(children), in_main, svg)
        self.flush()
        self.hidden.pop()


class _Children:
    """A stand-in parent for `_Walker.visit`: some of a node's children, in order."""

    def __init__(self, children: list) -> None:
        self.children = children


def _until_found(tag: Tag) -> bool:
    return str(tag.get("hidden", "")).lower() == rules.UNTIL_FOUND


def _is_hidden(tag: Tag) -> bool:
    if tag.name.lower() in rules.SKIPPED_TAGS:
        return True
    if tag.get("hidden") is not None and not _until_found(tag):
        return True
    style = re.sub(r"\s+", "", str(tag.get("style") or "")).lower()
    return "display:none" in style or "visibility:hidden" in style


def page_haystack(segments: list[Segment]) -> Folded:
    """All segments, folded, one per line: the string matches are counted in, with where each run of
    hidden content starts and ends (the farthest end of the runs starting at one place)."""
    text, glue = [], bytearray()
    runs: dict[int, list[int]] = {}
    offset = 0
    for segment in segments:
        if text:
            glue.append(EDGE)  # the newline between two segments
            offset += 1
        text.append(segment.folded)
        glue.extend(segment.folded.glue[:-1])
        for run in segment.hidden_in:
            runs.setdefault(run, [offset, 0])[1] = offset + len(segment.folded)
        offset += len(segment.folded)
    glue.append(EDGE)
    hidden: dict[int, int] = {}
    for start, end in runs.values():
        hidden[start] = max(end, hidden.get(start, 0))
    return Folded("\n".join(text), bytes(glue), hidden)


def segment_at(haystack: str, offset: int) -> int:
    """The number of the segment that holds `offset` of a page's haystack."""
    return haystack.count("\n", 0, offset)


# ---- matching ------------------------------------------------------------------------

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
