"""Query side of the published index: BM25 + vectors, fused by reciprocal rank.

`Retriever.load(release_dir)` reads `release_dir/index` with every array memory-mapped
(vectors, BM25 postings, HNSW graphs), so gunicorn workers share one copy through the
page cache, and never embeds the corpus; only the question is embedded, by the same
model the index was built with (the offline model loads once per process, on the first
question, or once per machine when gunicorn's arbiter loads it before forking: see
trigsight_site.gunicorn_conf). A large index (layout.ANN_MIN_PASSAGES) takes its vector
candidates from HNSW graphs and scores them exactly; a small one scans every vector. `search()` ranks chunks for the chat, `search_passages()`
single sentences for the MCP `find_evidence` tool.
"""
from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import TrigsightError
from . import ann, embedders, lexicon
from .bm25 import BM25Index
from .fusion import focus_terms, rrf, top
from .layout import (
    ANN_CANDIDATES,
    BM25_CHUNKS,
    BM25_PASSAGES,
    FOCUS_TERMS,
    FUSION_DEPTH,
    HEADINGS_VECTORS,
    INDEX_DIR,
    MIN_COVERAGE,
    SCHEMA,
    load_chunks,
    load_meta,
)
from .tokenize import TOKENIZER, tokenize

LEGS = ("bm25", "vector", "hybrid")
log = logging.getLogger(__name__)


class IndexMismatch(TrigsightError):
    """The index cannot be used as it is: missing, another schema, tokenizer or model."""


@dataclass(frozen=True)
class Hit:
    chunk_id: str
    passage_ids: tuple[str, ...]   # the chunk's passages, in page order
    page: str                      # URL path
    score: float                   # fused RRF score
    best_passage: str              # id of the chunk's passage that best matches the query


@dataclass
class LegScores:
    """One question's scores over the whole corpus, at both levels (vectors may be absent)."""

    bm25_chunks: np.ndarray
    bm25_passages: np.ndarray
    coverage_chunks: np.ndarray      # share of the question's idf mass each item contains
    coverage_passages: np.ndarray
    cos_chunks: np.ndarray | None    # mean of the chunk's cosine and its best passage's
    cos_passages: np.ndarray | None  # mean of the passage's cosine and its chunk's
    cos_whole: np.ndarray | None = None      # each chunk's own cosine (title and heading included)
    cos_sentences: np.ndarray | None = None  # each passage's own cosine
    cos_headings: np.ndarray | None = None   # each chunk's page title and heading alone
    bridged: str = ""                        # the question as BM25 read it (lexicon.py), when it differs


class Retriever:
    def __init__(self, meta: dict, bm25_chunks: BM25Index, bm25_passages: BM25Index,
                 vectors_chunks: np.ndarray, vectors_passages: np.ndarray,
                 embedder: embedders.Embedder | None, embedder_error: str = "",
                 vectors_headings: np.ndarray | None = None,
                 graphs: tuple[ann.Graph, ann.Graph] | None = None, words: lexicon.Lexicon | None = None):
        self.meta = meta
        self.lexicon = words
        self.chunks = load_chunks(meta)
        self.passage_ids = [p["id"] for p in meta["passages"]]
        self.passage_pages = [p["page"] for p in meta["passages"]]
        members: list[list[int]] = [[] for _ in self.chunks]
        for number, passage in enumerate(meta["passages"]):
            members[passage["chunk"]].append(number)
        self.chunk_passages = [np.array(m, dtype=np.int64) for m in members]
        self.bm25_chunks, self.bm25_passages = bm25_chunks, bm25_passages
        self.vectors_chunks, self.vectors_passages = vectors_chunks, vectors_passages
        self.vectors_headings = vectors_headings
        self.passage_row = {pid: row for row, pid in enumerate(self.passage_ids)}
        self.chunk_row = {chunk.id: row for row, chunk in enumerate(self.chunks)}
        self.embedder = embedder
        self.embedder_error = embedder_error
        self.model_id = meta["model"]["id"]
        self.rrf_k = int(meta["rrf_k"])
        fusion = meta.get("fusion", {})
        self.depth = int(fusion.get("depth", FUSION_DEPTH))
        self.min_coverage = float(fusion.get("min_coverage", MIN_COVERAGE))
        self.focus_terms = int(fusion.get("focus_terms", FOCUS_TERMS))
        # Passages are stored chunk by chunk, so each chunk's passages are one slice.
        self._chunk_starts = np.array([m[0] for m in self.chunk_passages if len(m)], dtype=np.int64)
        self._chunk_of = np.array([p["chunk"] for p in meta["passages"]], dtype=np.int64)
        self._chunk_first = np.array([m[0] if len(m) else 0 for m in self.chunk_passages], dtype=np.int64)
        self._chunk_ends = self._chunk_first + np.array([len(m) for m in self.chunk_passages], dtype=np.int64)
        self.graphs = graphs
        self.candidates = int(meta.get("ann", {}).get("candidates", ANN_CANDIDATES))
        where = "offline" if self.model_id == embedders.USE_MODEL_ID else "api"
        self.backend = (f"hybrid: bm25 + {self.model_id} ({where}), rrf k={self.rrf_k}" if embedder else
                        f"bm25 only ({self.model_id} unavailable: {embedder_error})")
        self._warned = threading.Event()
        # The lists now live in the attributes above; the dicts they came in would double them per worker.
        self.meta = {key: value for key, value in meta.items() if key not in ("chunks", "passages")}

    @classmethod
    def load(cls, release_dir: Path | str, embedder: embedders.Embedder | None = None,
             api_key: str = "", base_url: str = "") -> "Retriever":
        """Open `release_dir/index`; `embedder` (default: the index's own model) embeds questions.

        `api_key` and `base_url` (OPENAI_*) reach an index built with OpenAI embeddings.
        """
        folder = Path(release_dir) / INDEX_DIR
        if not (folder / "index.json").is_file():
            raise IndexMismatch(f"no retrieval index in {folder} (run `trigsight release` first)", str(folder))
        meta = load_meta(folder)
        if meta.get("schema") != SCHEMA:
            raise IndexMismatch(f"index schema {meta.get('schema')!r}, expected {SCHEMA!r}: rebuild the release "
                                "(`trigsight release`) to write the index in this format", str(folder / "index.json"))
        if meta.get("tokenizer") != TOKENIZER:
            raise IndexMismatch(f"index tokenized by {meta.get('tokenizer')!r}, this code tokenizes by "
                                f"{TOKENIZER!r}: rebuild the release", str(folder / "index.json"))
        model_id = meta["model"]["id"]
        error = ""
        if embedder is not None and embedder.model_id != model_id:
            raise IndexMismatch(f"index vectors are {model_id}, the question embedder is {embedder.model_id}: "
                                "vectors of two models never mix", str(folder / "index.json"))
        if embedder is None:
            try:
                embedder = embedders.for_model(model_id, api_key, base_url)
            except embedders.EmbeddingUnavailable as unavailable:
                error = unavailable.problems[0].message
                log.warning("retrieval: vector leg off: %s", error)
        vectors_chunks = np.load(folder / "vectors-chunks.npy", mmap_mode="r")
        vectors_passages = np.load(folder / "vectors-passages.npy", mmap_mode="r")
        headings_file = folder / HEADINGS_VECTORS
        vectors_headings = np.load(headings_file, mmap_mode="r") if headings_file.is_file() else None
        for vectors in (vectors_chunks, vectors_passages, vectors_headings):
            if vectors is not None and len(vectors) and vectors.shape[1] != meta["model"]["dims"]:
                raise IndexMismatch(f"index vectors have {vectors.shape[1]} dims, index.json says "
                                    f"{meta['model']['dims']}", str(folder))
        graphs = None
        if "ann" in meta:
            graphs = (ann.Graph(folder / meta["ann"]["chunks"]), ann.Graph(folder / meta["ann"]["passages"]))
            if (len(graphs[0]), len(graphs[1])) != (len(vectors_chunks), len(vectors_passages)):
                raise IndexMismatch("the HNSW graphs do not cover the index's vectors: rebuild the release", str(folder))
        words = None
        if "lexicon" in meta:
            words = lexicon.Lexicon(meta["lexicon"]["words"], np.load(folder / meta["lexicon"]["file"], mmap_mode="r"),
                                    float(meta["lexicon"].get("nearest", lexicon.NEAREST)))
        return cls(meta, BM25Index.load(folder / BM25_CHUNKS), BM25Index.load(folder / BM25_PASSAGES),
                   vectors_chunks, vectors_passages, embedder, error, vectors_headings, graphs, words)

    # --- scoring -------------------------------------------------------------------------

    def scores(self, query: str) -> LegScores:
        bridging = self.lexicon is not None and self.embedder is not None
        foreign, minority = self.lexicon.words_to_embed(query) if bridging else ([], [])
        embedded = self._embed([query, *self.lexicon.texts_to_embed(foreign, minority)] if bridging else [query])
        vector = None if embedded is None else embedded[0]
        if embedded is not None and (foreign or minority or (bridging and self.lexicon.asked_in(query))):
            bridged, tokens = self.lexicon.read(query, foreign, minority, embedded[1:])
        else:
            bridged, tokens = query, tokenize(query)
        bm25_chunks, bm25_passages = self.bm25_chunks.scores(tokens), self.bm25_passages.scores(tokens)
        heaviest = focus_terms(query, bridged, tokens, self.focus_terms)
        cosines: tuple = (None,) * 5
        if vector is not None and len(self.chunks):
            if self.graphs is None:
                cosines = self._cosines(vector, slice(None), slice(None))
            else:
                cosines = self._cosines_of_candidates(vector, bm25_chunks, bm25_passages)
        elif vector is not None:
            cosines = (np.zeros(0),) * 4 + (None,)
        cos_chunks, cos_passages, whole, sentences, headings = cosines
        return LegScores(bm25_chunks, bm25_passages,
                         self.bm25_chunks.coverage(tokens, heaviest), self.bm25_passages.coverage(tokens, heaviest),
                         cos_chunks, cos_passages, whole, sentences, headings, bridged if bridged != query else "")

    def _cosines(self, vector: np.ndarray, chunks, passages) -> tuple:
        """The vector leg's arrays over `chunks` and `passages` (index arrays, or every row).

        The passages must be every passage of those chunks, in index order.
        """
        sentences = np.asarray(self.vectors_passages[passages] @ vector, dtype=np.float64)
        whole = np.asarray(self.vectors_chunks[chunks] @ vector, dtype=np.float64)
        if isinstance(chunks, slice):
            starts, chunk_of = self._chunk_starts, self._chunk_of
        else:
            sizes = self._chunk_ends[chunks] - self._chunk_first[chunks]
            starts = np.cumsum(sizes) - sizes
            chunk_of = np.repeat(np.arange(len(chunks)), sizes)
        # A chunk is as close as its text, or as its best sentence when one clause answers;
        # a sentence borrows half its closeness from its chunk ("It switches to..." needs
        # the sentence before it to say what "it" is).
        cos_chunks = 0.5 * whole + 0.5 * np.maximum.reduceat(sentences, starts)
        cos_passages = 0.5 * sentences + 0.5 * whole[chunk_of]
        headings = None
        if self.vectors_headings is not None:
            headings = np.asarray(self.vectors_headings[chunks] @ vector, dtype=np.float64)
        return cos_chunks, cos_passages, whole, sentences, headings

    def _cosines_of_candidates(self, vector: np.ndarray, bm25_chunks: np.ndarray, bm25_passages: np.ndarray) -> tuple:
        """The vector leg over candidates only: -inf elsewhere, the exact cosine on each candidate.

        Candidates are the chunks of the graphs' nearest chunks and passages, and of the
        keyword leg's first items (so every chunk the fusion can return, and each of its
        passages, has its true cosines for the answer's features). Every passage of a
        candidate chunk is scored, so a chunk's best sentence is exact too.
        """
        graph_chunks, graph_passages = self.graphs
        keyword_chunks = top(bm25_chunks, self.depth, positive_only=True)
        keyword_passages = top(bm25_passages, self.depth, positive_only=True)
        chunks = np.unique(np.concatenate([
            graph_chunks.nearest(vector, self.candidates),
            self._chunk_of[graph_passages.nearest(vector, self.candidates)],
            np.asarray(keyword_chunks, dtype=np.int64),
            self._chunk_of[np.asarray(keyword_passages, dtype=np.int64)],
        ]))
        chunks = chunks[self._chunk_ends[chunks] > self._chunk_first[chunks]]
        sizes = self._chunk_ends[chunks] - self._chunk_first[chunks]
        # Each candidate chunk's passages, one run after another: first + 0, 1, ... size-1.
        passages = np.repeat(self._chunk_first[chunks] - (np.cumsum(sizes) - sizes), sizes) + np.arange(sizes.sum())
        cos_chunks, cos_passages, whole, sentences, headings = self._cosines(vector, chunks, passages)
        out = []
        for values, rows, size in ((cos_chunks, chunks, len(self.chunks)), (cos_passages, passages, len(self.passage_ids)),
                                   (whole, chunks, len(self.chunks)), (sentences, passages, len(self.passage_ids)),
                                   (headings, chunks, len(self.chunks))):
            if values is None:
                out.append(None)
                continue
            full = np.full(size, -np.inf)
            full[rows] = values
            out.append(full)
        return tuple(out)

    def embed(self, texts: Sequence[str]) -> np.ndarray | None:
        """Unit vectors of `texts` in the index's space (None without vectors)."""
        return self._embed(list(texts))

    def _embed(self, texts: list[str]) -> np.ndarray | None:
        if self.embedder is None:
            return None
        try:
            return self.embedder.embed(texts)
        except embedders.EmbeddingUnavailable as error:
            if not self._warned.is_set():
                self._warned.set()
                log.warning("retrieval: vector leg failed, answering with BM25 alone: %s", error)
            return None

    def ranking(self, scores: LegScores, level: str, leg: str, k: int = 10) -> list[tuple[int, float]]:
        """The k best (item number, score) for `level` "chunk" or "passage", one leg or the fusion.

        A single leg ranks by its own score (BM25: items sharing a term; vector: cosine).
        The fusion takes each leg's first `depth` items, keyword hits only where they hold
        at least `min_coverage` of the question's idf mass, and fuses them by RRF.
        """
        lexical = scores.bm25_chunks if level == "chunk" else scores.bm25_passages
        cosine = scores.cos_chunks if level == "chunk" else scores.cos_passages
        if leg == "bm25":
            return [(i, float(lexical[i])) for i in top(lexical, k, positive_only=True)]
        if leg == "vector":
            return [] if cosine is None else [(i, float(cosine[i])) for i in top(cosine, k)]
        coverage = scores.coverage_chunks if level == "chunk" else scores.coverage_passages
        legs = [[i for i in top(lexical, self.depth, positive_only=True) if coverage[i] >= self.min_coverage]]
        if cosine is not None:
            legs.append(top(cosine, self.depth))
        return rrf(legs, self.rrf_k)[:k]

    def best_passage(self, chunk: int, scores: LegScores) -> str:
        """The chunk's passage the two legs agree on most (RRF of ranks inside the chunk)."""
        members = self.chunk_passages[chunk]
        legs = [[int(members[i]) for i in top(scores.bm25_passages[members], len(members), positive_only=True)]]
        if scores.cos_passages is not None:
            legs.append([int(members[i]) for i in top(scores.cos_passages[members], len(members))])
        fused = rrf(legs, self.rrf_k)
        return self.passage_ids[fused[0][0] if fused else int(members[0])]

    # --- the two public searches ---------------------------------------------------------

    def hits(self, scores: LegScores, ranking: list[tuple[int, float]]) -> list[Hit]:
        return [Hit(self.chunks[n].id, self.chunks[n].passage_ids, self.chunks[n].page, score,
                    self.best_passage(n, scores)) for n, score in ranking]

    def search(self, query: str, k: int = 5) -> list[Hit]:
        """The k best chunks for `query`, fused."""
        return self.search_scored(query, k)[0]

    def search_scored(self, query: str, k: int = 5) -> tuple[list[Hit], LegScores]:
        """The k best chunks for `query`, with every item's scores (what the answer weighs).

        A chunk whose text a better one already has is left out: generated docs repeat whole
        sections on every page (npm's "save" setting on six command pages), and six copies of
        one sentence would take six of the places a model or the offline answer is given."""
        scores = self.scores(query)
        kept, texts = [], set()
        for n, score in self.ranking(scores, "chunk", "hybrid", 2 * k):
            if self.chunks[n].text not in texts:
                texts.add(self.chunks[n].text)
                kept.append((n, score))
        return self.hits(scores, kept[:k]), scores

    def chunk_of_passage(self, passage_id: str) -> int | None:
        """The number of the chunk an indexed passage is in (None for a passage not indexed)."""
        row = self.passage_row.get(passage_id)
        return None if row is None else int(self._chunk_of[row])

    def similarity(self, text: str, passage_ids: Sequence[str]) -> dict[str, float]:
        """Cosine of `text` and each indexed passage, in the index's vector space ({} without vectors)."""
        rows = [(pid, self.passage_row[pid]) for pid in passage_ids if pid in self.passage_row]
        vectors = self._embed([text]) if rows else None
        if vectors is None:
            return {}
        vector = vectors[0]
        return {pid: float(np.dot(self.vectors_passages[row], vector)) for pid, row in rows}

    def search_passages(self, query: str, k: int = 10) -> list[tuple[str, float]]:
        """The k best single passages (id, fused score) for `query`."""
        scores = self.scores(query)
        return [(self.passage_ids[n], score) for n, score in self.ranking(scores, "passage", "hybrid", k)]
