"""Release stage: the retrieval index, built from the passages the gates allowed.

Written into the staged release as `index/` and published with it, so the server only
loads arrays and never embeds the corpus. Two levels are indexed: chunks (a few
sentences of one block, what the chat reads) and the passages inside them (single
sentences, what `find_evidence` quotes); each level has a BM25 leg and a vector leg.

The folder's format is described in layout.py.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from .. import progress as progress_bar
from . import ann, embedders, index_reuse, lexicon
from .bm25 import EPSILON, K1, B, BM25Index
from .chunks import build_chunks
from .layout import (
    ANN_CANDIDATES,
    ANN_CHUNKS,
    ANN_MIN_PASSAGES,
    ANN_PASSAGES,
    BM25_CHUNKS,
    BM25_PASSAGES,
    DEFAULT_RRF_K,
    FOCUS_TERMS,
    FUSION_DEPTH,
    HEADINGS_VECTORS,
    INDEX_DIR,
    META,
    MIN_COVERAGE,
    SCHEMA,
)
from .tokenize import TOKENIZER, tokenize


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
    reused_index: bool = False     # the last release's index files, linked unchanged (index_reuse.py)
    fell_back: bool = False        # built with the offline model because OpenAI was unreachable

    def figures(self) -> dict:
        return {"chunks": self.chunks, "passages": self.passages, "model": self.model_id, "dims": self.dims,
                "embedded": self.embedded, "reused_from_cache": self.reused, "reused_index": self.reused_index,
                "seconds": round(self.seconds, 3)}


def build(passages: Sequence, folder: Path, embedder: embedders.Embedder,
          cache: embedders.VectorCache | None, rrf_k: int = DEFAULT_RRF_K,
          titles: dict[str, str] | None = None, progress=None) -> IndexResult:
    """Write the index of `passages` (release order) into `folder`; `titles`: page path → title."""
    started = time.perf_counter()
    chunks = build_chunks(passages, titles)
    by_id = {p.id: p for p in passages}
    indexed = [by_id[pid] for chunk in chunks for pid in chunk.passage_ids]
    chunk_of = [number for number, chunk in enumerate(chunks) for _ in chunk.passage_ids]

    chunk_texts = [c.indexed_text for c in chunks]
    passage_texts = [p.text for p in indexed]
    heading_texts = [c.context or c.text for c in chunks]
    words = lexicon.vocabulary(passage_texts + [c.context for c in chunks if c.context])
    vectors, embedded = embedders.embed_cached(embedder, chunk_texts + passage_texts + heading_texts + words, cache,
                                                progress)
    texts = len(chunk_texts) + len(passage_texts)
    vectors, heading_vectors, word_vectors = (vectors[:texts], vectors[texts:texts + len(heading_texts)],
                                              vectors[texts + len(heading_texts):])

    folder.mkdir(parents=True, exist_ok=True)
    BM25Index.build([tokenize(t) for t in chunk_texts]).save(folder / BM25_CHUNKS)
    BM25Index.build([tokenize(t) for t in passage_texts]).save(folder / BM25_PASSAGES)
    np.save(folder / "vectors-chunks.npy", vectors[:len(chunks)])
    np.save(folder / "vectors-passages.npy", vectors[len(chunks):])
    np.save(folder / HEADINGS_VECTORS, heading_vectors)
    np.save(folder / lexicon.LEXICON_VECTORS, word_vectors)
    graphs = write_graphs(folder, vectors[:len(chunks)], vectors[len(chunks):])
    meta = {
        "schema": SCHEMA,
        "model": {"id": embedder.model_id, "dims": int(vectors.shape[1]) if len(vectors) else embedder.dims},
        "tokenizer": TOKENIZER,
        "bm25": {"k1": K1, "b": B, "epsilon": EPSILON},
        "rrf_k": rrf_k,
        "fusion": {"depth": FUSION_DEPTH, "min_coverage": MIN_COVERAGE, "focus_terms": FOCUS_TERMS,
                   "chunk_vector": "mean of the chunk's cosine and its best passage's cosine"},
        **({"ann": graphs} if graphs else {}),
        "lexicon": {"file": lexicon.LEXICON_VECTORS, "nearest": lexicon.NEAREST, "words": words},
        "chunks": [c.to_json() for c in chunks],
        "passages": [{"id": p.id, "page": p.page, "chunk": n} for p, n in zip(indexed, chunk_of)],
    }
    (folder / META).write_text(json.dumps(meta, ensure_ascii=False, indent=None) + "\n", "utf-8")
    total = len(set(chunk_texts + passage_texts + heading_texts + words))
    return IndexResult(folder, len(chunks), len(indexed), embedder.model_id, meta["model"]["dims"],
                       embedded, total - embedded, time.perf_counter() - started)


def write_graphs(folder: Path, chunk_vectors: np.ndarray, passage_vectors: np.ndarray,
                 min_passages: int = ANN_MIN_PASSAGES) -> dict | None:
    """HNSW graphs for the vector leg when there are `min_passages` passages or more (layout.py).

    Returns the index.json "ann" entry, or None for an index small enough to scan whole.
    """
    for name in (ANN_CHUNKS, ANN_PASSAGES):
        (folder / name).unlink(missing_ok=True)
    if len(passage_vectors) < min_passages:
        return None
    ann.build(chunk_vectors, folder / ANN_CHUNKS)
    ann.build(passage_vectors, folder / ANN_PASSAGES)
    return {"library": ann.LIBRARY, "dtype": ann.DTYPE, "chunks": ANN_CHUNKS, "passages": ANN_PASSAGES,
            "candidates": ANN_CANDIDATES}


def build_with_fallback(passages: Sequence, folder: Path, cache_dir: Path | None, say: Callable[[str], None],
                        mode: str = "auto", rrf_k: int = DEFAULT_RRF_K, titles: dict[str, str] | None = None,
                        api_key: str = "", base_url: str = "", progress=None) -> IndexResult:
    """Build with the configured embedder; an unreachable OpenAI falls back to the offline model."""
    embedder = embedders.for_release(mode, api_key, base_url)

    def cache_for(model: embedders.Embedder):
        return embedders.VectorCache(cache_dir, model.model_id) if cache_dir is not None else None

    try:
        return build(passages, folder, embedder, cache_for(embedder), rrf_k, titles, progress)
    except embedders.EmbeddingUnavailable as error:
        if embedder.model_id == embedders.USE_MODEL_ID or mode == "openai":
            raise
        say(f"index: {error.problems[0].message}; falling back to the offline model {embedders.USE_MODEL_ID}")
        offline = embedders.offline()
        result = build(passages, folder, offline, cache_for(offline), rrf_k, titles, progress)
        result.fell_back = True
        return result


def release_stage(context) -> None:
    config = context.config
    cache_dir = config.cache_dir if config.use_cache else None
    titles = {page.path: page.title for page in context.build.pages}
    folder = context.staging / INDEX_DIR
    started = time.perf_counter()
    key = index_reuse.fingerprint(context.passages, titles, {
        "mode": config.embeddings, "base_url": config.openai_base_url, "keyed": bool(config.openai_api_key),
        "rrf_k": config.rrf_k})
    if index_reuse.reuse(cache_dir, key, folder):
        result = _reused(folder, time.perf_counter() - started)
    else:
        with progress_bar.Progress("index", 0, "texts", context.say) as bar:
            result = build_with_fallback(context.passages, folder, cache_dir, context.say, config.embeddings,
                                         config.rrf_k, titles, config.openai_api_key, config.openai_base_url,
                                         progress=bar.track)
        if not result.fell_back:
            index_reuse.keep(cache_dir, key, folder)
    context.gates["index"] = result.figures()
    how = "the last release's index, unchanged" if result.reused_index else \
        f"{result.embedded} texts embedded, {result.reused} from cache"
    context.say(f"index: {result.chunks} chunks over {result.passages} passages, {result.model_id} "
                f"({result.dims}-d), {how}, {result.seconds:.2f}s")


def _reused(folder: Path, seconds: float) -> IndexResult:
    meta = json.loads((folder / META).read_text("utf-8"))
    return IndexResult(folder, len(meta["chunks"]), len(meta["passages"]), meta["model"]["id"],
                       meta["model"]["dims"], 0, 0, seconds, reused_index=True)
