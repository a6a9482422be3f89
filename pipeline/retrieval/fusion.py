"""The pure parts of the hybrid ranking: reciprocal rank fusion, a leg's first items, and how many
of a question's terms its coverage is held to (pure)."""
from __future__ import annotations

from typing import Sequence

import numpy as np

from . import lexicon


def rrf(rankings: Sequence[Sequence[int]], k: int = 60) -> list[tuple[int, float]]:
    """Reciprocal rank fusion of ranked lists of item numbers (rank 1 first).

    score(item) = Σ 1 / (k + rank). Ties go to the item with the better single best rank,
    then to the lower item number (corpus order), so equal inputs give equal outputs.
    """
    scores: dict[int, float] = {}
    best: dict[int, int] = {}
    for ranking in rankings:
        for rank, item in enumerate(ranking, start=1):
            item = int(item)
            scores[item] = scores.get(item, 0.0) + 1.0 / (k + rank)
            best[item] = min(best.get(item, rank), rank)
    return sorted(scores.items(), key=lambda pair: (-pair[1], best[pair[0]], pair[0]))


def top(scores: np.ndarray, depth: int, positive_only: bool = False) -> list[int]:
    """Item numbers of the `depth` highest scores, ties in corpus order."""
    candidates = np.flatnonzero(scores > 0) if positive_only else np.arange(len(scores))
    if len(candidates) > depth:
        # Keep every item tied with the depth-th score, then order stably.
        cutoff = np.partition(scores[candidates], len(candidates) - depth)[len(candidates) - depth]
        candidates = candidates[scores[candidates] >= cutoff]
    order = np.lexsort((candidates, -scores[candidates]))
    return [int(i) for i in candidates[order][:depth]]


def focus_terms(question: str, bridged: str, tokens: Sequence[str], focus: int) -> int | None:
    """Of how many of its weightiest terms a question's coverage is a share (None: of all of them).

    `focus` for a question read as written, in words; all terms for a bridged one (the bridge
    writes up to two page words for each of its own) and for one cut into character pairs
    (Japanese, Korean: several tokens to a word), whose term counts say nothing of its length."""
    in_words = all(lexicon.script(token) in ("latin", "cyrillic", "other") for token in tokens)
    return focus if bridged == question and in_words else None
