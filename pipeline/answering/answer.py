"""From model text to shown sentences: inert text, sentence cuts, handle resolution (pure).

Everything the model writes is text. Links, images and HTML are cut out and counted,
never passed on; what is left is only ever rendered escaped. A sentence is shown with a
chip only to a passage that was issued in this request, is in the published allowlist,
and supports it (`trigsight.answering.attribution`: its words, or across languages its
meaning, with numbers, names and negation agreeing). The model's handle says where to
look first; a sentence without one, or whose cited source does not support it, gets the
chip of the issued passage that does. Only a sentence that no issued source supports is
removed in strict mode; lenient mode shows it marked unverified. Chip URLs come from the
allowlist alone.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Callable, Sequence

from ..matching.sentences import split_sentences
from .attribution import HELPER_SHARE, Evidence, judge, judge_together, language_of, word_share
from .evidence import block_contexts, table_rows
from .handles import (
    HANDLE_GROUP,
    PARTIAL_HANDLE,
    HandleTable,
    parse_citations,
    split_leading_handles,
)
from .support import explain

STRICT, LENIENT = "strict", "lenient"
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
# Uncited, the issued passages carrying most of a sentence's words that are tried two by two.
PAIR_POOL = 6


@dataclass(frozen=True)
class Citation:
    id: str
    url: str          # the allowlist's text-fragment link, never anything the model wrote
    quote: str        # the passage, verbatim
    page: str         # URL path of the page
    title: str        # the page's title
    language: str

    def to_json(self) -> dict:
        return {"id": self.id, "url": self.url, "quote": self.quote, "page": self.page,
                "title": self.title, "language": self.language}


@dataclass(frozen=True)
class AnswerSentence:
    text: str
    citations: tuple[Citation, ...] = ()
    status: str = SUPPORTED      # supported | unverified | refusal

    def to_json(self) -> dict:
        return {"text": self.text, "citations": [c.to_json() for c in self.citations], "status": self.status}


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
    return Citation(passage.id, passage.url, passage.text, passage.page,
                    page.title if page else passage.page, page.language if page else "")


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


Similarity = Callable[[str, Sequence[str]], dict[str, float]]


@dataclass
class Resolver:
    """Resolve model sentences against one request's issued sources and the allowlist.

    `similarity(text, passage_ids)` gives the cosine of the sentence and each passage in the
    index's vector space (the retriever's); without it, only words can support a sentence,
    and only in its own language.
    """

    table: HandleTable
    release: object
    mode: str = STRICT
    ignore: tuple[str, ...] = ()        # tokens that are evidence of nothing (the site's name)
    similarity: Similarity | None = None
    question: str = ""                  # what the sentences answer: restating it is their frame, not a claim
    tally: Tally = field(default_factory=Tally)

    def resolve(self, raw: str) -> AnswerSentence | None:
        """The sentence as shown, or None when it is dropped (or was only markup)."""
        inert, links, markup = make_inert(raw)
        self.tally.links += links
        self.tally.markup += markup
        cited = parse_citations(inert)
        text = tidy(cited.text)
        self.tally.emitted += len(cited.labels) + cited.stray
        groups = []                      # the allowlisted passages behind each distinct handle
        for label in dict.fromkeys(cited.labels):
            found = self._passages(self.table.get(label))
            if found:
                self.tally.resolved += cited.labels.count(label)
                groups.append(found)
        if not has_words(text):
            self.tally.unsupported += len(groups)   # handles with no sentence to back
            return None
        evidence = self._evidence(text)
        backing = self.supporting(text, groups, evidence)
        self.tally.unsupported += sum(not any(p in backing for p in group) for group in groups)
        if not backing:
            backing = self.supporting(text, [self._passages(source) for source in self.table], evidence,
                                      cited=False)
            if backing:
                if groups:
                    self.tally.reattributed += 1
                else:
                    self.tally.attributed += 1
        if backing:
            return AnswerSentence(text, tuple(citation_for(p, self.release) for p in backing), SUPPORTED)
        if self.mode == LENIENT:
            return AnswerSentence(text, (), UNVERIFIED)
        self.tally.sentences += 1
        return None

    def _passages(self, source) -> list:
        if source is None:
            return []
        return [p for p in (self.release.passage(pid) for pid in source.passage_ids) if p is not None]

    def _blocks(self, passages: list) -> str:
        found = block_contexts(self.release) if self.question else {}
        return " ".join(dict.fromkeys(found.get((p.page, p.block), "") for p in passages))

    def _evidence(self, text: str) -> Callable[[object], Evidence]:
        """What each issued passage offers this sentence, judged once per passage."""
        language = language_of(text)
        cosines: dict[str, float] | None = None
        judged: dict[str, Evidence] = {}

        def of(passage) -> Evidence:
            nonlocal cosines
            if passage.id not in judged:
                page = self.release.page(passage.page)
                cross = language != ((page.language if page and page.language else language_of(passage.text))
                                     .split("-")[0])
                if cosines is None:
                    issued = [pid for source in self.table for pid in source.passage_ids]
                    cosines = self.similarity(text, issued) if self.similarity else {}
                context = " ".join(passage.headings) + " " + (page.title if page else "")
                block = block_contexts(self.release).get((passage.page, passage.block), "") if self.question else ""
                # A table cell is judged with its row; its own words still rank it among the row's cells.
                row = table_rows(self.release).get(passage.id)
                found = judge(text, row or passage.text, cosine=cosines.get(passage.id), cross=cross,
                              ignore=self.ignore, context=context, question=self.question, block=block)
                if row:
                    found = replace(found, share=word_share(text, passage.text, self.ignore))
                judged[passage.id] = found
            return judged[passage.id]
        return of

    def supporting(self, text: str, groups: list[list], evidence, cited: bool = True) -> list:
        """The passages that back the sentence, [] when it has no support.

        Each group is one source (a chunk of a few sentences); its best passage for this
        sentence is the one that supports it most, else the one carrying most of its words.
        A best passage that supports the sentence alone always counts. For cited sources,
        another cited source's best passage counts too when it carries a real share of the
        sentence (one sentence, two facts), and when none supports it alone, the cited
        passages carrying a real share may support it together (a model often folds two
        neighbouring sentences into one). Uncited, the server takes the single passage that
        supports the sentence best, or else the two carrying most of its words if together
        they carry every one of them (the model did not point at these two).
        """
        def key(p):   # a paragraph that supports the sentence quotes it better than a table cell
            found = evidence(p)
            return found.supported, p.kind != "td", found.strength, found.share

        best = list({p.id: p for p in (max(group, key=key) for group in groups if group)}.values())
        alone = sorted((p for p in best if evidence(p).supported), key=key, reverse=True)
        if alone and not cited:
            return alone[:1]
        if alone:
            return alone + [p for p in best if p not in alone and evidence(p).share >= HELPER_SHARE
                            and language_of(p.text) == language_of(text)]
        pool = list({p.id: p for group in groups for p in group if evidence(p).share >= HELPER_SHARE}.values())
        if not cited:
            return self._pair(text, sorted(pool, key=lambda p: evidence(p).share, reverse=True)[:PAIR_POOL])
        if len(pool) > 1 and judge_together(text, [p.text for p in pool], self.ignore, 0.8, self.question,
                                            self._blocks(pool)):
            return pool
        return []

    def _pair(self, text: str, pool: list) -> list:
        """Of the issued passages, two of one section that together carry every word of the sentence,
        [] when no two do. Pairs are tried by how many of its words they carry together: the two
        that each carry most of them often say the same half of it. Two sections never join: "This
        method is only implemented on macOS." and a passage naming fs.watch() elsewhere do not say
        that fs.watch is."""
        words = {p.id: set(explain(text, p.text, self.ignore).matched) for p in pool}
        pairs = sorted(((a, b) for a, b in combinations(pool, 2) if (a.page, a.headings) == (b.page, b.headings)),
                       key=lambda pair: -len(words[pair[0].id] | words[pair[1].id]))
        for pair in pairs:
            if judge_together(text, [p.text for p in pair], self.ignore, 1.0, self.question, self._blocks(pair)):
                return list(pair)
        return []
