"""Release stage: the retrieval index, built from the passages the gates allowed.

Written into the staged release as `index/` and published with it, so the server only
loads arrays and never embeds the corpus. Two levels are indexed: chunks (a few
sentences of one block, what the chat reads) and the passages inside them (single
sentences, what `find_evidence` quotes); each level has a BM25 leg and a vector leg.

index/
  index.json             schema, model id and dims, tokenizer, BM25 and fusion parameters
                         (rrf_k, fusion depth, min_coverage), the chunks (id, page, title,
                         passage ids, heading trail, text) and the indexed passages (id,
                         page, chunk number) in index order, chunk by chunk
  bm25-chunks.npz        BM25Index arrays (see bm25.py), one document per chunk
  bm25-passages.npz      the same, one document per passage
  vectors-chunks.npy     float32 (chunks, dims), unit rows, same order as index.json
  vectors-passages.npy   float32 (passages, dims)
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from . import embedders
from .bm25 import B, EPSILON, K1, BM25Index
from .chunks import Chunk, build_chunks
from .settings import setting
from .tokenize import TOKENIZER, tokenize

INDEX_DIR = "index"
SCHEMA = "trigsight.index/1"
META = "index.json"
DEFAULT_RRF_K = 60
# Query-time fusion settings, stored with the index so a release describes its own ranking.
# Measured on bench/retrieval/golden.json (see the results there): fusing only the first
# 20 of each leg, and letting a keyword hit vote only when it holds a quarter of the
# question's idf mass, keeps BM25's noise (a Korean question sharing endings with every
# Korean chunk) from outvoting the vector leg's first place.
FUSION_DEPTH = 20
MIN_COVERAGE = 0.25


@dataclass
class IndexResult:
    folder: Path
    chunks: int
    passages: int
    model_id: str
    dims: int
    embedded: int          # texts embedded anew (the rest came from the vector cache)
    reused: int
    seconds: float

    def figures(self) -> dict:
        return {"chunks": self.chunks, "passages": self.passages, "model": self.model_id, "dims": self.dims,
                "embedded": self.embedded, "reused_from_cache": self.reused, "seconds": round(self.seconds, 3)}


def passage_text(passage) -> str:
    return passage.text


def build(passages: Sequence, folder: Path, embedder: embedders.Embedder,
          cache: embedders.VectorCache | None, rrf_k: int = DEFAULT_RRF_K,
          titles: dict[str, str] | None = None) -> IndexResult:
    """Write the index of `passages` (release order) into `folder`; `titles`: page path → title."""
    started = time.perf_counter()
    chunks = build_chunks(passages, titles)
    by_id = {p.id: p for p in passages}
    indexed = [by_id[pid] for chunk in chunks for pid in chunk.passage_ids]
    chunk_of = [number for number, chunk in enumerate(chunks) for _ in chunk.passage_ids]

    chunk_texts = [c.indexed_text for c in chunks]
    passage_texts = [passage_text(p) for p in indexed]
    vectors, embedded = embedders.embed_cached(embedder, chunk_texts + passage_texts, cache)

    folder.mkdir(parents=True, exist_ok=True)
    BM25Index.build([tokenize(t) for t in chunk_texts]).save(folder / "bm25-chunks.npz")
    BM25Index.build([tokenize(t) for t in passage_texts]).save(folder / "bm25-passages.npz")
    np.save(folder / "vectors-chunks.npy", vectors[:len(chunks)])
    np.save(folder / "vectors-passages.npy", vectors[len(chunks):])
    meta = {
        "schema": SCHEMA,
        "model": {"id": embedder.model_id, "dims": int(vectors.shape[1]) if len(vectors) else embedder.dims},
        "tokenizer": TOKENIZER,
        "bm25": {"k1": K1, "b": B, "epsilon": EPSILON},
        "rrf_k": rrf_k,
        "fusion": {"depth": FUSION_DEPTH, "min_coverage": MIN_COVERAGE,
                   "chunk_vector": "mean of the chunk's cosine and its best passage's cosine"},
        "chunks": [c.to_json() for c in chunks],
        "passages": [{"id": p.id, "page": p.page, "chunk": n} for p, n in zip(indexed, chunk_of)],
    }
    (folder / META).write_text(json.dumps(meta, ensure_ascii=False, indent=None) + "\n", "utf-8")
    total = len(set(chunk_texts + passage_texts))
    return IndexResult(folder, len(chunks), len(indexed), embedder.model_id, meta["model"]["dims"],
                       embedded, total - embedded, time.perf_counter() - started)


def build_with_fallback(passages: Sequence, folder: Path, cache_dir: Path | None, say: Callable[[str], None],
                        mode: str | None = None, rrf_k: int | None = None,
                        titles: dict[str, str] | None = None) -> IndexResult:
    """Build with the configured embedder; an unreachable OpenAI falls back to the offline model."""
    rrf_k = rrf_k if rrf_k is not None else int(setting("TRIGSIGHT_RRF_K"))
    embedder = embedders.for_release(mode)

    def cache_for(model: embedders.Embedder):
        return embedders.VectorCache(cache_dir, model.model_id) if cache_dir is not None else None

    try:
        return build(passages, folder, embedder, cache_for(embedder), rrf_k, titles)
    except embedders.EmbeddingUnavailable as error:
        if embedder.model_id == embedders.USE_MODEL_ID or (mode or setting("TRIGSIGHT_EMBEDDINGS")) == "openai":
            raise
        say(f"index: {error.problems[0].message}; falling back to the offline model {embedders.USE_MODEL_ID}")
        offline = embedders.offline()
        return build(passages, folder, offline, cache_for(offline), rrf_k, titles)


def release_stage(context) -> None:
    cache_dir = Path(context.config.cache_dir) if context.config.use_cache else None
    titles = {page.path: page.title for page in context.build.pages}
    result = build_with_fallback(context.passages, context.staging / INDEX_DIR, cache_dir, context.say, titles=titles)
    context.gates["index"] = result.figures()
    context.say(f"index: {result.chunks} chunks over {result.passages} passages, {result.model_id} "
                f"({result.dims}-d), {result.embedded} texts embedded, {result.reused} from cache, "
                f"{result.seconds:.2f}s")


def load_meta(folder: Path) -> dict:
    return json.loads((Path(folder) / META).read_text("utf-8"))


def load_chunks(meta: dict) -> list[Chunk]:
    return [Chunk.from_json(c) for c in meta["chunks"]]
