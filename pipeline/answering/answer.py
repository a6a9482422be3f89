"""From model text to sentences: inert text, sentence cuts, and what a shown sentence is (pure).

Everything the model writes is text. Links, images and HTML are cut out and counted,
never passed on; what is left is only ever rendered escaped. Which sentences are shown,
and with which chips, is `trigsight.answering.resolver`'s to decide.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterator

from ..matching.sentences import split_sentences
from .handles import HANDLE_GROUP, PARTIAL_HANDLE, split_leading_handles, strip_handles

STRICT, LENIENT = "strict", "lenient"
LOOP_REPEATS = 3     # a model that writes one sentence this many times is looping: it is not read further
MOST_SENTENCES = 10  # twice the five the prompt asks for: a model still writing after these is not read further
SUPPORTED, UNVERIFIED, REFUSAL = "supported", "unverified", "refusal"

_BLOCK_MARKUP = re.compile(r"<(script|style|iframe|object|embed|svg|math|template|noscript)\b.*?(?:</\1\s*>|$)",
                           re.I | re.S)
_TAG = re.compile(r"<!--.*?(?:-->|$)|</?[A-Za-z!][^<>]*(?:>|$)", re.S)
_PARENTHESISED = r"\((?:[^()\n]|\([^()\n]*\))*\)"   # one level of nesting: (javascript:f(1))
_MD_IMAGE = re.compile(rf"!\[[^\]\n]*\]{_PARENTHESISED}")
_MD_LINK = re.compile(rf"\[([^\[\]\n]+)\]{_PARENTHESISED}")
_MD_REFERENCE = re.compile(r"^\s*\[([^\[\]\n]+)\]:\s*(?:<[^>\n]*>|\S+)\s*$", re.M)   # [ref]: target
_URL = re.compile(r"(?:\b[a-z][a-z0-9+.-]*://|\b(?:javascript|data|vbscript|mailto|file|tel):|\bwww\.)"
                  r"[^\s<>\"'`]*", re.I)
_TRAILING_PUNCTUATION = re.compile(r"[.,;:!?)\]】。！？]+$")
_EMPTY_BRACKETS = re.compile(r"\(\s*\)|\[\s*\]|【\s*】")
_EMPHASIS = re.compile(r"\*\*|__|`+|~~")
_LIST_MARKER = re.compile(r"^\s*(?:#{1,6}|[-*+•>]|\d{1,2}[.)])\s+")
_SPACE_BEFORE_PUNCTUATION = re.compile(r"\s+([.,;:!?。！？、])")
_SPACES = re.compile(r"\s+")
_INLINE_SPACE = re.compile(r"[^\S\n]")
# A sentence end glued to its handle: "Claim.[S1] Next" ends after the handle.
_END_AFTER_HANDLES = re.compile(rf"[.!?…。！？](?:\s*{HANDLE_GROUP.pattern})+(?= \S)")


@dataclass(frozen=True)
class Citation:
    id: str
    url: str          # the allowlist's text-fragment link, never anything the model wrote
    quote: str        # the passage, verbatim
    page: str         # URL path of the page
    title: str        # the page's title
    language: str
    section: str = ""  # the headings that name its section below the title (Release.section_of)

    def to_json(self) -> dict:
        return {"id": self.id, "url": self.url, "quote": self.quote, "page": self.page,
                "title": self.title, "section": self.section, "language": self.language}


@dataclass(frozen=True)
class AnswerSentence:
    text: str
    citations: tuple[Citation, ...] = ()
    status: str = SUPPORTED      # supported | unverified | refusal
    item: bool = False           # an item of the list the sentence before it leads into

    def to_json(self) -> dict:
        return {"text": self.text, "citations": [c.to_json() for c in self.citations], "status": self.status,
                "item": self.item}


@dataclass
class Tally:
    """What resolution did to one answer; `dropped()` goes into the response."""

    emitted: int = 0       # citation tokens the model wrote (handles and look-alikes)
    resolved: int = 0      # of those, handles issued in this request with allowlisted passages
    unsupported: int = 0   # resolved, but the passage does not support the sentence
    attributed: int = 0    # sentences without a handle, given the chip of an issued passage that supports them
    reattributed: int = 0  # sentences whose cited sources did not support them, given another issued source's chip
    links: int = 0         # URLs, markdown links and images cut out
    markup: int = 0        # HTML tags cut out
    sentences: int = 0     # sentences removed for want of a supporting citation

    def dropped(self) -> dict:
        return {"citations": self.emitted - self.resolved + self.unsupported,
                "unknown_handles": self.emitted - self.resolved, "unsupported": self.unsupported,
                "links": self.links, "markup": self.markup, "sentences": self.sentences}

    def resolution(self) -> dict:
        return {"emitted": self.emitted, "resolved": self.resolved, "attributed": self.attributed,
                "reattributed": self.reattributed}


def citation_for(passage, release) -> Citation:
    page = release.page(passage.page)
    title = page.title if page else passage.page
    # "Default: false" says little alone; under "npm-install › global" it answers.
    return Citation(passage.id, passage.url, passage.text, passage.page, title,
                    page.language if page else "", release.section_of(passage))


def make_inert(text: str) -> tuple[str, int, int]:
    """(plain text, links cut, tags cut): links and markup become nothing, handles stay."""
    links = markup = 0

    def cut_markup(_: re.Match) -> str:
        nonlocal markup
        markup += 1
        return " "

    def cut_link(match: re.Match) -> str:
        nonlocal links
        links += 1
        inner = match.group(1) if match.groups() else ""
        return f"[{inner}]" if inner and HANDLE_GROUP.fullmatch(f"[{inner}]") else (inner or " ")

    def cut_url(match: re.Match) -> str:
        nonlocal links
        links += 1
        tail = _TRAILING_PUNCTUATION.search(match.group())
        return tail.group() if tail else " "

    text = _BLOCK_MARKUP.sub(cut_markup, text)
    text = _MD_IMAGE.sub(cut_link, text)
    text = _MD_LINK.sub(cut_link, text)
    text = _MD_REFERENCE.sub(cut_link, text)
    text = _TAG.sub(cut_markup, text)
    text = _URL.sub(cut_url, text)
    return text, links, markup


def tidy(text: str) -> str:
    text = _LIST_MARKER.sub("", _EMPHASIS.sub("", _EMPTY_BRACKETS.sub(" ", text)))
    return _SPACE_BEFORE_PUNCTUATION.sub(r"\1", _SPACES.sub(" ", text)).strip()


def has_words(text: str) -> bool:
    return sum(ch.isalnum() for ch in text) >= 2


class SentenceAssembler:
    """Buffer streamed text and hand out each sentence once it is complete.

    A sentence is complete when text that is not a handle follows it: handles written
    after the full stop ("Claim. [S1] Next…") belong to the sentence before them.
    """

    def __init__(self) -> None:
        self.buffer = ""

    def feed(self, text: str) -> list[str]:
        self.buffer += text
        return self._cut(final=False)

    def finish(self) -> list[str]:
        return self._cut(final=True)

    def _spans(self) -> list[tuple[int, int]]:
        spans, offset = [], 0
        for line in self.buffer.split("\n"):
            flat = _INLINE_SPACE.sub(" ", line)   # one for one: offsets stay valid
            for start, end in split_sentences(flat):
                cuts = [m.end() for m in _END_AFTER_HANDLES.finditer(flat, start, end)]
                for cut in cuts + [end]:
                    if flat[start:cut].strip():
                        spans.append((offset + start, offset + cut))
                    start = cut
            offset += len(line) + 1
        return spans

    def _cut(self, final: bool) -> list[str]:
        spans = self._spans()
        if final:
            texts = [self.buffer[s:e] for s, e in spans]
            self.buffer = ""
            return _attach_handles(texts)
        if not spans:
            return []
        lead, rest = split_leading_handles(self.buffer[spans[-1][0]:])
        rest = rest.strip()
        if not rest or PARTIAL_HANDLE.fullmatch(rest):
            done, keep_from, lead = spans[:-2], spans[-2][0] if len(spans) > 1 else spans[-1][0], ""
        else:
            done, keep_from = spans[:-1], spans[-1][0] + len(lead)
        if not done:
            return []
        texts = [self.buffer[s:e] for s, e in done]
        if lead:
            texts[-1] = texts[-1].rstrip() + " " + lead.strip()
        self.buffer = self.buffer[keep_from:]
        return _attach_handles(texts)


def _attach_handles(texts: list[str]) -> list[str]:
    """Move handles that open a sentence onto the sentence before it."""
    out: list[str] = []
    for text in texts:
        lead, rest = split_leading_handles(text)
        if lead and out:
            out[-1] = out[-1].rstrip() + " " + lead.strip()
            text = rest
        if text.strip():
            out.append(text.strip())
    return out


def distinct_sentences(pieces: Iterator[str]) -> Iterator[str]:
    """The model's sentences as they complete, each once, at most MOST_SENTENCES. A small model at
    temperature 0 may write one sentence over and over until its token limit; at its
    LOOP_REPEATS-th time, or after MOST_SENTENCES sentences, the stream is closed (the server
    stops generating) and nothing more is read."""
    assembler = SentenceAssembler()
    times: Counter = Counter()

    def first_time(raw: str) -> int:
        key = " ".join(re.findall(r"\w+", strip_handles(raw).casefold()))
        times[key] += 1
        return times[key]

    shown = 0
    try:
        for piece in pieces:
            for raw in assembler.feed(piece):
                count = first_time(raw)
                if count >= LOOP_REPEATS or shown >= MOST_SENTENCES:
                    return
                if count == 1:
                    shown += 1
                    yield raw
        for raw in assembler.finish():
            if first_time(raw) == 1 and shown < MOST_SENTENCES:
                shown += 1
                yield raw
    finally:
        close = getattr(pieces, "close", None)
        if close is not None:
            close()
