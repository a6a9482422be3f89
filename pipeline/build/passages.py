"""Stage 3: split a rendered page into citable sentences, each with a unique directive (pure)."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..matching.directives import search_scans, too_costly, unique_directive
from ..matching.sentences import ISSUE_NUMBERS, split_sentences
from ..matching.textmodel import (
    PASSAGE_TAGS,
    Segment,
    normalise,
    page_haystack,
    segments_from_html,
)


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
            spans = [(0, len(segment.text))] if segment.tag.startswith("h") else split_sentences(segment.text, segment.code)
            for start, end in spans:
                text = segment.text[start:end]
                if sum(ch.isalnum() for ch in text) < 2 or ISSUE_NUMBERS.fullmatch(text):
                    continue  # lone letters and symbols, or issue numbers alone, are nothing to cite
                before = segment.text[:start] or _neighbour(segments, index, -1)
                after = segment.text[end:] or _neighbour(segments, index, +1)
                directive = unique_directive(haystack, text, before, after)
                if directive is None:
                    page.skipped.append(Skipped(path, text, "repeats on the page and no nearby words tell it apart"))
                    continue
                if too_costly(haystack, directive):
                    scans = search_scans(haystack, directive)
                    page.skipped.append(Skipped(path, text, f"repeats on the page: a browser would read the page about "
                                                            f"{scans:.0f} times over to find it"))
                    continue
                page.passages.append(Passage(
                    _passage_id(path, text, seen_ids), path, text, str(directive), segment.block,
                    segment.tag, tuple(h for h in headings if h), len(page.passages),
                    offset + start, offset + end))
        main_parts.append(segment.text)
        offset += len(segment.text) + 1
    page.main_text = "\n".join(main_parts)
    return page


def _neighbour(segments: list[Segment], index: int, step: int) -> str:
    other = index + step
    return segments[other].text if 0 <= other < len(segments) else ""


def _passage_id(path: str, text: str, seen: dict[str, int]) -> str:
    digest = hashlib.sha1(f"{path}\x00{normalise(text)}".encode()).hexdigest()[:10]
    seen[digest] = seen.get(digest, 0) + 1
    return f"p{digest}" if seen[digest] == 1 else f"p{digest}-{seen[digest]}"
