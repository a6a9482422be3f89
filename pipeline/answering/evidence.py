"""Find the published passages that support a claim, or none (pure over a release).

Retrieval ranks; it never decides. Every passage of the release that could reach the
threshold is scored lexically by `support.explain`, so a passage the retriever missed can
still be found and a passage the retriever liked can never be confirmed on similarity
alone. The retriever's rank only orders passages with equal support. Which passages could
is read off an index of each passage's content words, built once per release: a passage
sharing fewer of the claim's words than `support.fewest_shared` cannot score enough, and
leaving it out changes no result (on the 65-page Node.js docs, scoring all 26,625 passages
took about 5 s a claim; bench/mcp/latency.py).
A passage whose words a claim carries is still no evidence when the two disagree the
way the chat's support check tells (`agreement.disagreement`, `roles.swapped`): an opposite,
a unit, a dotted name found only in parts, a direction turned round, names in swapped roles.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

import numpy as np

from ..publishing.published import PublishedPassage, Release
from ..retrieval.tokenize import tokenize
from . import roles
from .agreement import disagreement, names_in
from .support import DEFAULT_THRESHOLD, content_words, explain, fewest_shared

log = logging.getLogger(__name__)
RETRIEVAL_DEPTH = 50
_CONTEXTS: dict[str, dict[tuple[str, int], str]] = {}
_ROWS: dict[str, dict[str, str]] = {}
_WORDS: dict[str, dict[str, np.ndarray]] = {}
_WORDS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Evidence:
    passage: PublishedPassage
    score: float
    matched: tuple[str, ...]
    retrieval_rank: int | None   # 1-based rank from the retriever, None if it did not return it


@dataclass
class EvidenceResult:
    claim: str
    threshold: float
    backend: str                 # retrieval backend that ordered the candidates
    scored: int                  # passages scored lexically (those that could reach the threshold)
    evidence: list[Evidence] = field(default_factory=list)

    @property
    def supported(self) -> bool:
        return bool(self.evidence)


def subject_words(site_title: str = "trigsight") -> frozenset[str]:
    """Words every page is about (the site's name): they are no evidence for anything."""
    return frozenset(tokenize(site_title)) | frozenset(tokenize("trigsight"))


def block_contexts(release: Release) -> dict[tuple[str, int], str]:
    """(page, block) → the block's whole text with its page title and headings, where a
    passage's subject may be named (names in a claim may be found there)."""
    if release.release_id not in _CONTEXTS:
        titles = {p.path: p.title for p in release.pages}
        blocks: dict[tuple[str, int], list[str]] = {}
        for passage in release.passages:
            parts = blocks.setdefault((passage.page, passage.block), [titles.get(passage.page, "")])
            parts.extend(h for h in passage.headings if h not in parts)
            parts.append(passage.text)
        if len(_CONTEXTS) > 8:
            _CONTEXTS.clear()
        _CONTEXTS[release.release_id] = {key: "\n".join(parts) for key, parts in blocks.items()}
    return _CONTEXTS[release.release_id]


def table_rows(release: Release) -> dict[str, str]:
    """Passage id of a table cell → the text of its row (the cells of consecutive blocks): a cell
    alone rarely states a claim ("%2D"), its row does."""
    if release.release_id not in _ROWS:
        rows: dict[str, str] = {}
        run: list[PublishedPassage] = []

        def close() -> None:
            text = " ".join(cell.text for cell in run)
            rows.update({cell.id: text for cell in run})
            run.clear()

        for passage in sorted(release.passages, key=lambda p: (p.page, p.block, p.order)):
            if run and (passage.kind != "td" or passage.page != run[-1].page or passage.block > run[-1].block + 1):
                close()
            if passage.kind == "td":
                run.append(passage)
        close()
        if len(_ROWS) > 8:
            _ROWS.clear()
        _ROWS[release.release_id] = rows
    return _ROWS[release.release_id]


def passages_with_word(release: Release) -> dict[str, np.ndarray]:
    """Content word → the rows (in `release.passages`) of the passages that contain it."""
    with _WORDS_LOCK:
        if release.release_id not in _WORDS:
            rows: dict[str, list[int]] = {}
            for row, passage in enumerate(release.passages):
                for word in content_words(passage.text):
                    rows.setdefault(word, []).append(row)
            if len(_WORDS) > 8:
                _WORDS.clear()
            _WORDS[release.release_id] = {word: np.array(found, dtype=np.int32) for word, found in rows.items()}
        return _WORDS[release.release_id]


def candidates(release: Release, claim: str, threshold: float, ignore: frozenset[str]) -> list[PublishedPassage]:
    """The passages, in release order, that share enough of the claim's words to reach `threshold`."""
    fewest = fewest_shared(claim, threshold, ignore)
    if fewest is None:
        return []
    if fewest == 0:
        return list(release.passages)
    index = passages_with_word(release)
    found = [index[word] for word in content_words(claim) - ignore if word in index]
    if not found:
        return []
    shared = np.bincount(np.concatenate(found), minlength=len(release.passages))
    return [release.passages[row] for row in np.flatnonzero(shared >= fewest)]


def retrieval_ranks(retriever, claim: str) -> tuple[dict[str, int], str]:
    if retriever is None:
        return {}, "none (lexical scan only)"
    backend = str(getattr(retriever, "backend", type(retriever).__name__))
    try:
        hits = retriever.search_passages(claim, RETRIEVAL_DEPTH)
    except Exception as error:  # retrieval only orders; support is decided without it
        log.warning("retrieval failed, ordering by support alone: %s", error)
        return {}, f"{backend} (failed: {type(error).__name__})"
    return {passage_id: rank for rank, (passage_id, _score) in enumerate(hits, start=1)}, backend


def _disagrees(claim: str, passage: str, context: str, ignore: frozenset[str]) -> bool:
    # Negation is `explain`'s to judge here: the chat's parity reading needs its clause-by-clause
    # rescue ("matched" about "… matched without trouble"), which a claim check has no use for.
    # Names in swapped roles are told as the chat's judge tells them (`attribution.judge`).
    return (disagreement(claim, passage, context, ignore) not in ("", "negation")
            or bool(roles.swapped(claim, passage, _names, _names)))


def _names(text: str) -> frozenset[str]:
    return names_in(text, True)


def find_evidence(release: Release, claim: str, retriever=None, threshold: float | None = None,
                  limit: int = 5, site_title: str = "trigsight") -> EvidenceResult:
    """Passages of `release` that support `claim` at `threshold`, best first, at most `limit`."""
    threshold = DEFAULT_THRESHOLD if threshold is None else threshold
    ranks, backend = retrieval_ranks(retriever, claim)
    ignore = subject_words(site_title)
    contexts = block_contexts(release)
    found = []
    scored = candidates(release, claim, threshold, ignore)
    for passage in scored:
        context = contexts[(passage.page, passage.block)]
        support = explain(claim, passage.text, ignore, context)
        if support.score > 0 and support.score >= threshold and not _disagrees(claim, passage.text, context, ignore):
            found.append(Evidence(passage, support.score, support.matched, ranks.get(passage.id)))
    found.sort(key=lambda e: (-e.score, e.retrieval_rank or len(release.passages) + 1, e.passage.order))
    return EvidenceResult(claim, threshold, backend, len(scored), found[:limit])
