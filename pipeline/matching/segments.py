"""A rendered page as the segments Chromium's text-fragment matcher matches within (pure).

One walk over the page's HTML cuts its rendered text into segments: a block element's inline
content, cut again at `<br>`, inline-blocks and atomic boxes; a line of a `<pre>`; hidden
content left out, and the content a browser finds but does not show (a closed `<details>`,
`hidden=until-found`) marked as a run of hidden content. Each segment keeps where its block
element is in the browser's DOM (`Segment.locator`), and its text folded (folding.py); all
of them, one per line, make the haystack matches are counted in (`page_haystack`).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from bs4 import BeautifulSoup, NavigableString, Tag
from bs4.element import Comment, Declaration, Doctype, ProcessingInstruction

from . import rules
from .folding import DISPLAY, EDGE, Folded, css_collapse, fold

PASSAGE_TAGS = frozenset("p li h1 h2 h3 h4 h5 h6 td th dt dd figcaption caption blockquote summary".split())
CODE_TAGS = frozenset({"code", "kbd", "samp"})
_STRIP = rules.COLLAPSIBLE + rules.SPACES
# Where inline code starts and ends in a block's raw text; noncharacters, so no page holds them.
_CODE_OPEN, _CODE_CLOSE = "\ufdd0", "\ufdd1"
_NO_MARKS = str.maketrans(dict.fromkeys(map(ord, _CODE_OPEN + _CODE_CLOSE), None))


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
    code: tuple[tuple[int, int], ...] = ()   # (start, end) of each run of inline code in `text`
    folded: Folded = field(default=Folded("", bytes([EDGE])), compare=False, repr=False)

    @property
    def locator(self) -> dict | None:
        """Where the browser finds the block element: {tag, ordinal} (None for <body> itself)."""
        return None if self.tag == "body" else {"tag": self.tag, "ordinal": self.ordinal}


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
        marked = "".join(self.parts)
        raw = marked.translate(_NO_MARKS)
        self.parts = []
        top = self.stack[-1]
        if top.preformatted:   # the HTML parser turns CR LF and CR into LF
            lines = raw.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        else:
            lines = [css_collapse(raw)]
        for line in lines:   # in a <pre> each line is matched on its own, white space kept
            text = line.translate(DISPLAY).strip(_STRIP)
            if text:
                code = () if top.preformatted or marked == raw else code_runs(marked, text)
                self.segments.append(Segment(text, top.tag, top.index, top.in_main and top.citable,
                                             top.preformatted, top.ordinal, tuple(self.hidden), code, fold(line)))

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
            elif name in CODE_TAGS and not svg and not self.stack[-1].preformatted:
                self.parts.append(_CODE_OPEN)
                self.visit(child, child_main, svg)
                self.parts.append(_CODE_CLOSE)
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


def code_runs(marked: str, text: str) -> tuple[tuple[int, int], ...]:
    """Where the inline code of a block's `marked` raw text lies in its displayed `text` (nested code
    counts once); () when the marks do not carry over exactly (text and `marked` disagree)."""
    out: list[str] = []
    pending = started = False
    for ch in marked:   # css_collapse, with the marks taking no room
        if ch in rules.COLLAPSIBLE:
            pending = True
            continue
        if ch not in rules.IGNORED and ch not in (_CODE_OPEN, _CODE_CLOSE):
            if pending and started:
                out.append(" ")
            pending, started = False, True
        out.append(ch)
    shown = "".join(out).translate(DISPLAY).strip(_STRIP)
    if shown.translate(_NO_MARKS) != text:
        return ()
    runs, depth, start, position = [], 0, 0, 0
    for ch in shown:
        if ch == _CODE_OPEN:
            depth += 1
            start = position if depth == 1 else start
        elif ch == _CODE_CLOSE:
            depth = max(0, depth - 1)
            if depth == 0 and position > start:
                runs.append((start, position))
        else:
            position += 1
    return tuple(runs)


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
