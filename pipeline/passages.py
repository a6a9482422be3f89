"""Stage 3: split a rendered page into citable sentences, each with a unique directive (pure)."""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from .fragments import unique_directive
from .textmodel import PASSAGE_TAGS, Segment, normalise, page_haystack, segments_from_html

ABBREVIATIONS = frozenset("e.g i.e etc vs cf mr mrs ms dr st no fig approx al eq ch sec "
                          "jan feb mar apr jun jul aug sep sept oct nov dec т.е т.д т.п др г".split())
_LATIN_END = re.compile(r"[.!?…]+[\"'”’»)\]]*")
_CJK_END = re.compile(r"[。！？]+[」』）\"'”’]*")


@dataclass(frozen=True)
class Passage:
    id: str
    page: str              # URL path of the page
    text: str              # exact rendered text, whitespace collapsed
    directive: str         # "text=..." — matches this sentence and nothing else on the page
    block: int             # index of its block element in the page
    kind: str              # tag of that block (p, li, h2, td, ...)
    headings: tuple[str, ...]
    order: int             # position among the page's passages
    start: int             # character offsets in the page's main text
    end: int

    @property
    def url(self) -> str:
        return f"{self.page}#:~:{self.directive}"

    def to_json(self) -> dict:
        return {"id": self.id, "page": self.page, "text": self.text, "url": self.url,
                "directive": self.directive, "block": self.block, "kind": self.kind,
                "headings": list(self.headings), "order": self.order,
                "start": self.start, "end": self.end}


@dataclass(frozen=True)
class Skipped:
    page: str
    text: str
    reason: str


@dataclass
class PageText:
    """Everything the matcher knows about one rendered page."""

    path: str
    segments: list[Segment]
    haystack: str                      # normalised segments, one per line
    main_text: str                     # citable segments, one per line, original case
    passages: list[Passage] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)


def _sentence_ends(text: str):
    for match in _CJK_END.finditer(text):
        yield_at = match.end()
        if yield_at < len(text):
            yield yield_at
    for match in _LATIN_END.finditer(text):
        end = match.end()
        if end >= len(text) or text[end] != " " or end + 1 >= len(text):
            continue
        word = text[:match.start()].rsplit(" ", 1)[-1].lower()
        abbreviated = word in ABBREVIATIONS or (len(word) == 1 and word.isalpha()) or \
            ("." in word and text[end + 1].islower())  # "U.S. law", "a.k.a. foo"
        if text[match.start()] == "." and abbreviated:
            continue
        yield end


def _sentence_ends_sorted(text: str) -> list[int]:
    return sorted(set(_sentence_ends(text)))


def build_page_text(path: str, html: str) -> PageText:
    """Extract the passages of one rendered page, with directives unique on that page."""
    segments = segments_from_html(html)
    haystack = page_haystack(segments)
    page = PageText(path, segments, haystack, "")
    main_parts: list[str] = []
    offset = 0
    headings: list[str] = []
    seen_ids: dict[str, int] = {}
    for index, segment in enumerate(segments):
        if not segment.in_main:
            continue
        if segment.tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
            level = int(segment.tag[1])
            headings = headings[:level - 1] + [""] * (level - 1 - len(headings)) + [segment.text]
        if not segment.preformatted and segment.tag in PASSAGE_TAGS:
            spans = [(0, len(segment.text))] if segment.tag.startswith("h") else split_sentences(segment.text)
            for start, end in spans:
                text = segment.text[start:end]
                if sum(ch.isalnum() for ch in text) < 2:
                    continue  # lone letters and symbols are nothing to cite
                before = segment.text[:start] or _neighbour(segments, index, -1)
                after = segment.text[end:] or _neighbour(segments, index, +1)
                directive = unique_directive(haystack, text, before, after)
                if directive is None:
                    page.skipped.append(Skipped(path, text, "repeats on the page and no nearby words tell it apart"))
                    continue
                page.passages.append(Passage(
                    _passage_id(path, text, seen_ids), path, text, str(directive), segment.block,
                    segment.tag, tuple(h for h in headings if h), len(page.passages),
                    offset + start, offset + end))
        main_parts.append(segment.text)
        offset += len(segment.text) + 1
    page.main_text = "\n".join(main_parts)
    return page


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences in one collapsed segment of text."""
    spans, start = [], 0
    for end in _sentence_ends_sorted(text) + [len(text)]:
        chunk = text[start:end]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            spans.append((start + lead, start + len(chunk.rstrip())))
        start = end
    return spans


def _neighbour(segments: list[Segment], index: int, step: int) -> str:
    other = index + step
    return segments[other].text if 0 <= other < len(segments) else ""


def _passage_id(path: str, text: str, seen: dict[str, int]) -> str:
    digest = hashlib.sha1(f"{path}\x00{normalise(text)}".encode()).hexdigest()[:10]
    seen[digest] = seen.get(digest, 0) + 1
    return f"p{digest}" if seen[digest] == 1 else f"p{digest}-{seen[digest]}"
