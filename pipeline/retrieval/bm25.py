"""BM25 Okapi with rank-bm25's exact formula, stored as term → postings arrays.

rank-bm25 (`BM25Okapi`, k1=1.5, b=0.75, epsilon=0.25) is the reference: the same idf
with its floor for terms in more than half the documents (epsilon × mean idf), the
same per-term saturation, query terms counted as often as they repeat. The difference
is the layout: every (term, document) weight is computed once at build time and kept
in compressed rows by term, so a query reads only the postings of its own terms
instead of walking every document. The arrays go into the release as one .npy file
each (`<prefix>.<array>.npy`, files only, so the index folder stays flat), and load memory-mapped: server workers share one copy
through the page cache, and a query touches only the pages of its own terms' postings. tests/test_index.py checks the scores
against rank-bm25's; bench/retrieval/scale.py measures both.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

K1, B, EPSILON = 1.5, 0.75, 0.25


@dataclass
class BM25Index:
    vocabulary: dict[str, int]
    indptr: np.ndarray      # int64, len(vocabulary) + 1: postings of term t are [indptr[t], indptr[t+1])
    doc_ids: np.ndarray     # int32 document numbers, ascending within a term
    weights: np.ndarray     # float64 idf × saturated term frequency, aligned with doc_ids
    n_docs: int
    avgdl: float
    idf: np.ndarray         # float64 per term, after the epsilon floor

    @classmethod
    def build(cls, corpus: Sequence[Sequence[str]], k1: float = K1, b: float = B,
              epsilon: float = EPSILON) -> "BM25Index":
        vocabulary: dict[str, int] = {}
        term_ids, doc_numbers = [], []
        doc_len = np.zeros(len(corpus), dtype=np.float64)
        for number, document in enumerate(corpus):
            ids = [vocabulary.setdefault(token, len(vocabulary)) for token in document]
            term_ids.extend(ids)
            doc_numbers.extend([number] * len(ids))
            doc_len[number] = len(ids)
        n_docs, n_terms = len(corpus), len(vocabulary)
        avgdl = float(doc_len.sum() / n_docs) if n_docs else 0.0
        if not n_terms:
            return cls(vocabulary, np.zeros(1, np.int64), np.zeros(0, np.int32), np.zeros(0), n_docs, avgdl, np.zeros(0))

        # One key per (term, document); np.unique sorts by term then document and counts tf.
        keys = np.asarray(term_ids, dtype=np.int64) * n_docs + np.asarray(doc_numbers, dtype=np.int64)
        pairs, tf = np.unique(keys, return_counts=True)
        terms, docs = np.divmod(pairs, n_docs)
        df = np.bincount(terms, minlength=n_terms)
        indptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(df, out=indptr[1:])

        idf = np.log(n_docs - df + 0.5) - np.log(df + 0.5)
        floor = epsilon * (idf.sum() / n_terms)
        idf = np.where(idf < 0, floor, idf)
        tf = tf.astype(np.float64)
        norm = k1 * (1 - b + b * doc_len[docs] / avgdl)
        weights = idf[terms] * (tf * (k1 + 1) / (tf + norm))
        return cls(vocabulary, indptr, docs.astype(np.int32), weights, n_docs, avgdl, idf)

    def scores(self, query: Sequence[str]) -> np.ndarray:
        """Score of every document for the tokenised query (0 where no term matches)."""
        scores = np.zeros(self.n_docs, dtype=np.float64)
        for token in query:
            term = self.vocabulary.get(token)
            if term is None:
                continue
            start, end = self.indptr[term], self.indptr[term + 1]
            scores[self.doc_ids[start:end]] += self.weights[start:end]
        return scores

    def coverage(self, query: Sequence[str], heaviest: int | None = None) -> np.ndarray:
        """Share of the query's idf mass each document contains (distinct terms, 0..1).

        A term the corpus has never seen counts with the largest idf a term can have, so
        a question about something absent is never "mostly covered" by a few common words.
        With `heaviest`, the share is of the mass of the query's `heaviest` weightiest terms
        (at most 1): a long question is held to covering what a short one must, not every word.
        """
        covered = np.zeros(self.n_docs, dtype=np.float64)
        unseen = np.log(self.n_docs + 0.5) - np.log(0.5) if self.n_docs else 0.0
        weights = []
        for token in dict.fromkeys(query):
            term = self.vocabulary.get(token)
            if term is None:
                weights.append(unseen)
                continue
            weight = max(float(self.idf[term]), 0.0)
            weights.append(weight)
            covered[self.doc_ids[self.indptr[term]:self.indptr[term + 1]]] += weight
        total = sum(sorted(weights, reverse=True)[:heaviest] if heaviest else weights)
        return np.minimum(covered / total, 1.0) if total > 0 else covered

    def save(self, prefix: Path) -> None:
        """Write the arrays as `<prefix>.<array>.npy`, one file each (loaded memory-mapped by `load`)."""
        prefix.parent.mkdir(parents=True, exist_ok=True)
        terms = sorted(self.vocabulary, key=self.vocabulary.__getitem__)
        # Tokens never contain "\n" (the tokenizer splits on it), so one joined string holds them all.
        vocabulary = np.frombuffer("\n".join(terms).encode("utf-8"), dtype=np.uint8)
        arrays = {"vocabulary": vocabulary, "indptr": self.indptr, "doc_ids": self.doc_ids, "weights": self.weights,
                  "idf": self.idf, "stats": np.array([self.n_docs, self.avgdl], dtype=np.float64)}
        for name, array in arrays.items():
            np.save(prefix.with_name(f"{prefix.name}.{name}.npy"), array)

    @classmethod
    def load(cls, prefix: Path) -> "BM25Index":
        def array(name: str) -> np.ndarray:
            return np.load(prefix.with_name(f"{prefix.name}.{name}.npy"), mmap_mode="r")

        text = bytes(array("vocabulary")).decode("utf-8")
        terms = text.split("\n") if text else []
        n_docs, avgdl = array("stats")
        return cls({term: i for i, term in enumerate(terms)}, array("indptr"), array("doc_ids"),
                   array("weights"), int(n_docs), float(avgdl), array("idf"))
