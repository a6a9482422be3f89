"""The published index's format, shared by the release stage that writes it and the search that reads it.

index/
  index.json             schema, model id and dims, tokenizer, BM25 and fusion parameters
                         (rrf_k, fusion depth, min_coverage), the chunks (id, page, title,
                         passage ids, heading trail, text) and the indexed passages (id,
                         page, chunk number) in index order, chunk by chunk
  bm25-chunks.*.npy      BM25Index arrays (see bm25.py: vocabulary, indptr, doc_ids, weights,
                         idf, stats), one document per chunk
  bm25-passages.*.npy    the same, one document per passage
  vectors-chunks.npy     float32 (chunks, dims), unit rows, same order as index.json
  vectors-passages.npy   float32 (passages, dims)
  vectors-headings.npy   float32 (chunks, dims): each chunk's page title and nearest heading
                         alone (optional: an index without it answers from the other legs)
  vectors-lexicon.npy    float32 (words, dims): the pages' vocabulary, index.json "lexicon"
                         lists the words (lexicon.py; optional: without it no question is bridged)
  ann-chunks.usearch     HNSW graphs over vectors-chunks and vectors-passages (usearch, inner
  ann-passages.usearch   product, float16), only from ANN_MIN_PASSAGES passages on; index.json's
                         "ann" names them and how many candidates a question takes from each

Files only, no subfolders (index_reuse.py links the files of a kept index). Every array
is a plain .npy (never a compressed .npz) so the server memory-maps it: the
workers of one machine share one copy through the page cache. Schema 1 kept BM25 in .npz
files; a schema-1 index is refused with the instruction to rebuild the release.
"""
from __future__ import annotations

import json
from pathlib import Path

from .chunks import Chunk

INDEX_DIR = "index"
SCHEMA = "trigsight.index/2"
META = "index.json"
HEADINGS_VECTORS = "vectors-headings.npy"
BM25_CHUNKS, BM25_PASSAGES = "bm25-chunks", "bm25-passages"
ANN_CHUNKS, ANN_PASSAGES = "ann-chunks.usearch", "ann-passages.usearch"
# Below this many passages a question's cosine against every vector costs a few
# milliseconds and is exact; above it the scan reads hundreds of MB per question (100k
# passages: ~520 MB of float32 over chunks, passages and headings, 135 ms), so the vector
# leg asks an HNSW graph for candidates and scores those exactly (bench/retrieval/scale.py).
ANN_MIN_PASSAGES = 20_000
# Candidates per graph: the fusion reads 20 per leg; the rest is margin for the
# chunk score that mixes a chunk's own cosine with its best sentence's.
ANN_CANDIDATES = 200
DEFAULT_RRF_K = 60
# Query-time fusion settings, stored with the index so a release describes its own ranking.
# Measured on bench/retrieval/golden.json (see the results there): fusing only the first
# 20 of each leg, and letting a keyword hit vote only when it holds a quarter of the
# question's idf mass, keeps BM25's noise (a Korean question sharing endings with every
# Korean chunk) from outvoting the vector leg's first place.
FUSION_DEPTH = 20
MIN_COVERAGE = 0.25
# A question of many words ("I hot-patched a file inside node_modules/foo while debugging, and npm
# doesn't notice…") spends most of its idf mass on setting the scene; its coverage is a share of
# the mass of its FOCUS_TERMS weightiest terms, so it is held to what a question of ordinary length
# must cover (an English Node.js question has 10 distinct terms at the median;
# bench/answers/results/2026-12-04-focus-terms.md).
FOCUS_TERMS = 10


def load_meta(folder: Path) -> dict:
    return json.loads((Path(folder) / META).read_text("utf-8"))


def load_chunks(meta: dict) -> list[Chunk]:
    return [Chunk.from_json(c) for c in meta["chunks"]]
