"""Retrieval chunks cut along passage boundaries (pure).

A chunk is a few neighbouring sentences of one block (paragraph, list item, cell) under
one heading trail, so every hit maps onto passages the gates have already proven. Long
paragraphs are cut into near-equal runs of at most MAX_SENTENCES sentences and
MAX_WEIGHT characters (a CJK character weighs double: it carries about as much as two
Latin letters); the original's one persistent miss was a clause lost inside a
1,340-character, five-topic chunk. Headings are not chunks of their own: their text is
the trail carried by the chunks below them. A table row is one chunk, its cells joined by
" | ".

A chunk's context names its page and its nearest heading. When that heading is a generic label
the page gives GENERIC_REPEATS sections or more (a changelog's "Bug Fixes" under every version,
"Event: 'close'" under each class), the headings above it that tell the section from the others
come too: "7.8.1 / Bug Fixes" is what its chunks are about. A heading two sections share is
usually one topic of two siblings (assert.deepEqual's and deepStrictEqual's "Comparison
details") and says what it is about by itself; naming its parent there cost the development
questions an answering sentence.
"""
from __future__ import annotations

import hashlib
import math
from collections import Counter
from dataclasses import dataclass, replace
from typing import Iterable, Sequence

MAX_SENTENCES = 3
MAX_WEIGHT = 480
GENERIC_REPEATS = 3
HEADING_KINDS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
TABLE_CELLS = frozenset({"td", "th"})


@dataclass(frozen=True)
class Chunk:
    id: str
    page: str
    passage_ids: tuple[str, ...]     # in page order
    headings: tuple[str, ...]        # heading trail above the chunk
    text: str                        # the passages' text joined by spaces
    title: str = ""                  # the page's title
    levels: int = 1                  # trailing headings the context names

    @property
    def context(self) -> str:
        """Page title and the section's headings ("Title / 7.8.1 / Bug Fixes"), or "" for neither."""
        named = [h for h in self.headings[-self.levels:] if h != self.title] if self.headings else []
        return " / ".join(part for part in (self.title, *named) if part)

    @property
    def indexed_text(self) -> str:
        """What the keyword and vector legs see: page title and nearest heading, then the
        sentences (a chunk of three sentences rarely says what it is about by itself)."""
        return f"{self.context}: {self.text}" if self.context else self.text

    def to_json(self) -> dict:
        return {"id": self.id, "page": self.page, "title": self.title, "passage_ids": list(self.passage_ids),
                "headings": list(self.headings), "text": self.text, "levels": self.levels}

    @classmethod
    def from_json(cls, data: dict) -> "Chunk":
        return cls(data["id"], data["page"], tuple(data["passage_ids"]), tuple(data["headings"]), data["text"],
                   data.get("title", ""), data.get("levels", 1))


def weight(text: str) -> int:
    return sum(2 if _is_cjk(ch) else 1 for ch in text)


def _is_cjk(ch: str) -> bool:
    code = ord(ch)
    return 0x3040 <= code <= 0x9FFF or 0xAC00 <= code <= 0xD7AF or 0xF900 <= code <= 0xFAFF


def is_heading(passage) -> bool:
    return passage.kind in HEADING_KINDS


def build_chunks(passages: Iterable, titles: dict[str, str] | None = None) -> list[Chunk]:
    """Chunks of the release's passages (any objects with id, page, text, block, kind, headings);
    `titles` maps a page's path to its title.

    A chunk never spans two blocks, except the cells of one table row: a lone cell ("%2D")
    means nothing without its row. Cells are consecutive blocks and each row element is a
    block of its own, so a gap in block numbers is where a row ends.
    """
    chunks: list[Chunk] = []
    group: list = []
    for passage in passages:
        if group and not _same_group(group[-1], passage):
            chunks.extend(_split_block(group, titles or {}))
            group = []
        if not is_heading(passage):
            group.append(passage)
    if group:
        chunks.extend(_split_block(group, titles or {}))
    return _named_apart(chunks)


def _named_apart(chunks: list[Chunk]) -> list[Chunk]:
    levels = section_levels((c.page, c.headings) for c in chunks)
    return [replace(c, levels=levels[(c.page, c.headings)]) for c in chunks]


def section_levels(sections: Iterable[tuple[str, tuple[str, ...]]]) -> dict[tuple[str, tuple[str, ...]], int]:
    """For each (page, heading trail): 1, or for a trail whose last heading is generic (ends
    GENERIC_REPEATS of the page's trails or more) the fewest trailing headings that no other trail
    of the page ends with (at most the whole trail)."""
    trails = set(sections)
    ends = Counter((page, trail[-k:]) for page, trail in trails for k in range(1, len(trail) + 1))
    levels = {}
    for page, trail in trails:
        count = 1
        if ends[(page, trail[-1:])] >= GENERIC_REPEATS:
            while count < len(trail) and ends[(page, trail[-count:])] > 1:
                count += 1
        levels[(page, trail)] = count
    return levels


def _same_group(previous, passage) -> bool:
    if (previous.page, tuple(previous.headings)) != (passage.page, tuple(passage.headings)):
        return False
    if previous.block == passage.block:
        return True
    cells = previous.kind in TABLE_CELLS and passage.kind in TABLE_CELLS
    return cells and passage.block == previous.block + 1


def _split_block(block: Sequence, titles: dict[str, str]) -> list[Chunk]:
    """Cut one block's passages into the fewest near-equal runs that fit both limits.

    Runs are as even as possible in sentence count; while a run of several sentences is
    still too heavy, one more cut is made (a single long sentence stays whole).
    """
    total = sum(weight(p.text) for p in block)
    most = len(block) if block[0].kind in TABLE_CELLS else MAX_SENTENCES   # a row's cells are short
    parts = min(len(block), max(math.ceil(len(block) / most), math.ceil(total / MAX_WEIGHT), 1))
    while True:
        runs = _even_runs(block, parts)
        if parts == len(block) or all(len(r) == 1 or sum(weight(p.text) for p in r) <= MAX_WEIGHT for r in runs):
            return [_chunk(run, titles.get(run[0].page, "")) for run in runs]
        parts += 1


def _even_runs(block: Sequence, parts: int) -> list[Sequence]:
    size, extra = divmod(len(block), parts)
    runs, start = [], 0
    for index in range(parts):
        end = start + size + (1 if index < extra else 0)
        runs.append(block[start:end])
        start = end
    return runs


def _chunk(run: Sequence, title: str) -> Chunk:
    first = run[0]
    digest = hashlib.sha1("\x00".join(p.id for p in run).encode()).hexdigest()[:10]
    text = run[0].text
    for previous, passage in zip(run, run[1:]):
        text += (" | " if passage.block != previous.block else " ") + passage.text
    return Chunk(f"c{digest}", first.page, tuple(p.id for p in run), tuple(first.headings), text, title)
