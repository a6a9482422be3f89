"""Fitting the relevance model and its gate: logistic regression with sign-held weights (pure).

Used by bench/answers/fit.py on the development questions; the fitted weights are stored in
relevance.json and read at request time by `trigsight.answering.relevance`.
"""
from __future__ import annotations

import numpy as np

# The direction each feature can only push, by what it means: more similarity, overlap or
# coverage never makes a passage less likely to answer, an unknown name never more. A fitted
# weight of the other sign is a correlation of the corpus it was fitted on (on the Node.js
# dev questions, unanswerable ones are on-topic, so their nearest chunks are closer than
# an answerable question's), and it would reverse on another site; such a feature is
# dropped and the rest refitted. Features not listed (named, cross, rare_asked) are free.
SIGNS = {"cos_passage": 1, "cos_chunk": 1, "cos_heading": 1, "gap_passage": 1, "gap_chunk": 1, "bm25_passage": 1,
         "bm25_chunk": 1, "coverage_passage": 1, "coverage_chunk": 1, "overlap": 1, "names": 1, "rank": 1, "best": 1,
         "page_votes": 1, "page_first": 1, "unknown": -1, "number_missing": -1, "rare_missing": -1,
         "unknown_names": -1, "substance": 1, "lead_in": -1, "unknown_share": -1,
         # the gate
         "top": 1, "second": 1, "overlap_max": 1, "overlap_top": 1, "coverage_top": 1, "cos_chunk_max": 1,
         "number_missing_top": -1}


def fit(rows: np.ndarray, labels: np.ndarray, l2: float = 1.0, iterations: int = 50,
        signs: tuple[int, ...] | None = None,
        sample_weights: np.ndarray | None = None) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """L2-regularised logistic regression by Newton's method: (weights, bias, mean, scale).

    Features are standardised first (the stored mean and scale); the bias is not penalised.
    With `signs` (+1, -1 or 0 for free, per feature), a feature whose weight comes out of
    the wrong sign gets weight 0 and the others are refitted, until every sign holds. With
    `sample_weights`, each row counts that much in the likelihood (1 each without).
    """
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = np.hstack([(rows - mean) / scale, np.ones((len(rows), 1))])
    kept = np.ones(x.shape[1], dtype=bool)
    counts = np.ones(len(rows)) if sample_weights is None else np.asarray(sample_weights, dtype=np.float64)
    while True:
        w = np.zeros(x.shape[1])
        w[kept] = _newton(x[:, kept], labels.astype(np.float64), l2, iterations, counts)
        wrong = [i for i, sign in enumerate(signs or ()) if kept[i] and sign * w[i] < 0]
        if not wrong:
            return w[:-1], float(w[-1]), mean, scale
        kept[max(wrong, key=lambda i: abs(w[i]))] = False


def signs_of(features: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(SIGNS.get(name, 0) for name in features)


def _newton(x: np.ndarray, y: np.ndarray, l2: float, iterations: int, counts: np.ndarray) -> np.ndarray:
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        gradient = x.T @ (counts * (p - y)) + penalty * w
        hessian = (x * (counts * p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w
