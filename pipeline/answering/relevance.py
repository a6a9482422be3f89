"""Does this retrieved passage answer the question? One calibrated score from all the evidence (pure).

The index holds three kinds of evidence about a question and a passage: how close they
are in the multilingual vector space (the sentence, its chunk, and the page title with
its heading, each on its own), how strongly BM25 ranks the passage and its chunk, and how
much of the question's informative wording the passage carries (idf-weighted overlap, and
the code names it mentions such as `fs.watch()` or NODE_OPTIONS, which stay English in
every language), and, for the question as a whole, how many of its Latin-script words the
pages never use at all (an on-topic question about Jest, pm2 or webpack) and how much of
its rare Latin-script wording (names few passages use) the passage's chunk lacks. No one
of them decides alone: a question in Russian about an English page shares no words with
its answer, and the nearest vector is near even when the pages never address the question.

`RelevanceModel` is a logistic regression over those features: the probability that a
passage is (or sits in the block of) an answering sentence. Its weights, the features'
scaling and the refusal threshold are fitted on the development split of
bench/answers/questions.json by bench/answers/fit.py and stored, with a version, in
relevance.json beside this file. The offline answer quotes passages at or above the
threshold; below it for every candidate, the answer is a refusal.
"""
from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .overlap import Overlap

MODEL_FILE = Path(__file__).with_name("relevance.json")
FEATURES = ("cos_passage", "cos_chunk", "cos_heading", "gap_passage", "gap_chunk", "bm25_passage", "bm25_chunk",
            "coverage_passage", "coverage_chunk", "overlap", "names", "named", "rank", "best", "cross",
            "page_votes", "page_first", "unknown", "number_missing", "rare_missing", "rare_asked")

# Code names: dotted or called identifiers, flags, CONSTANTS, camelCase words.
_A = r"(?<![A-Za-z0-9_$.-])"      # ASCII word boundaries: a Korean particle may follow a name directly
_Z = r"(?![A-Za-z0-9_$])"
_NAME = re.compile(rf"{_A}--?[a-z][a-z0-9-]+|{_A}[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$]+)+(?:\(\))?"
                   rf"|{_A}[A-Za-z_$][A-Za-z0-9_$]*\(\)|{_A}[A-Z][A-Z0-9]*_[A-Z0-9_]+{_Z}|{_A}[A-Z]{{2,}}[A-Z0-9]*{_Z}"
                   rf"|{_A}[a-z]+[A-Z][A-Za-z0-9_$]*{_Z}")


# A question asking for a quantity or a date: a passage without a digit cannot be its answer.
_WANTS_NUMBER = re.compile(r"(?i)\b(?:how (?:many|much|long|often|large|big|fast)|what (?:date|year|version|size)"
                           r"|when does|сколько|какой версии|какого размера|во сколько)\b|いくつ|何(?:個|回|秒|日|年|件|倍|MB|バイト)"
                           r"|どのくらい|몇|얼마나|언제")
_DIGIT = re.compile(r"\d")


def code_names(text: str) -> frozenset[str]:
    """The code-like names of a text, case-folded, without a trailing "()"."""
    return frozenset(m.group().removesuffix("()").casefold() for m in _NAME.finditer(text))


@dataclass(frozen=True)
class Candidate:
    passage_id: str
    rank: int                 # retrieval rank of its chunk, from 1
    features: dict[str, float]


def candidates(question: str, hits, scores, retriever, release, question_language: str) -> list[Candidate]:
    """Every allowlisted passage of the retrieved chunks, with its features."""
    overlap = Overlap.of(release)
    names = code_names(question)
    unknown = min(2, len(overlap.unknown(question)))
    rare = overlap.rare(question)
    wants_number = bool(_WANTS_NUMBER.search(question))
    top_sentence = _top(scores.cos_sentences)
    top_chunk = _top(scores.cos_whole)
    top_bm25_passage = _top(scores.bm25_passages)
    top_bm25_chunk = _top(scores.bm25_chunks)
    pages = [hit.page for hit in hits]
    out: list[Candidate] = []
    for rank, hit in enumerate(hits, start=1):
        chunk = retriever.chunk_row.get(hit.chunk_id)
        if chunk is None:
            continue
        passages = [p for p in (release.passage(pid) for pid in hit.passage_ids) if p is not None]
        context = " ".join([retriever.chunks[chunk].indexed_text])
        rare_missing = overlap.missing(rare, context)
        found = sum(name in context.casefold() for name in names) / len(names) if names else 0.0
        cos_chunk = _at(scores.cos_whole, chunk)
        cos_heading = _at(scores.cos_headings, chunk) if scores.cos_headings is not None else cos_chunk
        for passage in passages:
            row = retriever.passage_row.get(passage.id)
            if row is None:
                continue
            page = release.page(passage.page)
            cos_passage = _at(scores.cos_sentences, row)
            out.append(Candidate(passage.id, rank, {
                "cos_passage": cos_passage, "cos_chunk": cos_chunk, "cos_heading": cos_heading,
                "gap_passage": cos_passage - top_sentence, "gap_chunk": cos_chunk - top_chunk,
                "bm25_passage": _share(scores.bm25_passages[row], top_bm25_passage),
                "bm25_chunk": _share(scores.bm25_chunks[chunk], top_bm25_chunk),
                "coverage_passage": float(scores.coverage_passages[row]),
                "coverage_chunk": float(scores.coverage_chunks[chunk]),
                "overlap": overlap.score(question, passage), "names": found, "named": float(bool(names)),
                "rank": 1.0 / rank, "best": float(passage.id == hit.best_passage),
                "cross": float(bool(page and page.language and page.language.split("-")[0] != question_language)),
                "page_votes": pages.count(hit.page) / len(pages), "page_first": float(hit.page == pages[0]),
                "unknown": float(unknown),
                "number_missing": float(wants_number and not _DIGIT.search(passage.text)),
                "rare_missing": rare_missing, "rare_asked": float(bool(rare)),
            }))
    return out


def _top(values) -> float:
    return float(np.max(values)) if values is not None and len(values) else 0.0


def _at(values, row: int) -> float:
    return float(values[row]) if values is not None and len(values) else 0.0


def _share(value: float, top: float) -> float:
    return float(value) / top if top > 0 else 0.0


@dataclass(frozen=True)
class RelevanceModel:
    """Logistic regression over standardised features, with the refusal threshold."""

    version: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float                 # quote a passage at or above this probability
    second: float = 0.5              # a further quote needs this share of the first one's probability
    fitted_on: str = ""

    def probability(self, features: dict[str, float]) -> float:
        z = self.bias + sum(w * (features[name] - m) / s
                            for name, m, s, w in zip(self.features, self.mean, self.scale, self.weights))
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def to_json(self) -> dict:
        return {"version": self.version, "fitted_on": self.fitted_on, "features": list(self.features),
                "mean": list(self.mean), "scale": list(self.scale), "weights": list(self.weights),
                "bias": self.bias, "threshold": self.threshold, "second": self.second}

    @classmethod
    def from_json(cls, data: dict) -> "RelevanceModel":
        unknown = set(data["features"]) - set(FEATURES)
        if unknown:
            raise ValueError(f"relevance model {data.get('version')} uses unknown features {sorted(unknown)}")
        return cls(data["version"], tuple(data["features"]), tuple(data["mean"]), tuple(data["scale"]),
                   tuple(data["weights"]), float(data["bias"]), float(data["threshold"]),
                   float(data.get("second", 0.5)), data.get("fitted_on", ""))


@functools.lru_cache(maxsize=1)
def default_model() -> RelevanceModel:
    return RelevanceModel.from_json(json.loads(MODEL_FILE.read_text("utf-8")))


def fit(rows: np.ndarray, labels: np.ndarray, l2: float = 1.0, iterations: int = 50) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """L2-regularised logistic regression by Newton's method: (weights, bias, mean, scale).

    Features are standardised first (the stored mean and scale); the bias is not penalised.
    """
    mean = rows.mean(axis=0)
    scale = rows.std(axis=0)
    scale[scale < 1e-9] = 1.0
    x = np.hstack([(rows - mean) / scale, np.ones((len(rows), 1))])
    y = labels.astype(np.float64)
    w = np.zeros(x.shape[1])
    penalty = np.full(x.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ w, -40, 40)))
        gradient = x.T @ (p - y) + penalty * w
        hessian = (x * (p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(len(w))
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    return w[:-1], float(w[-1]), mean, scale
