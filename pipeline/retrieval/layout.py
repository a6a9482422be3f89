"""The published index's format, shared by the release stage that writes it and the search that reads it.

index/
  index.json             schema, model id and dims, tokenizer, BM25 and fusion parameters
                         (rrf_k, fusion depth, min_coverage), the chunks (id, page, title,
                         passage ids, heading trail, text) and the indexed passages (id,
                         page, chunk number) in index order, chunk by chunk
  bm25-chunks.npz        BM25Index arrays (see bm25.py), one document per chunk
  bm25-passages.npz      the same, one document per passage
  vectors-chunks.npy     float32 (chunks, dims), unit rows, same order as index.json
  vectors-passages.npy   float32 (passages, dims)
  vectors-headings.npy   float32 (chunks, dims): each chunk's page title and nearest heading
                         alone (optional: an index without it answers from the other legs)
"""
from __future__ import annotations

import json
from pathlib import Path

from .chunks import Chunk

INDEX_DIR = "index"
SCHEMA = "trigsight.index/1"
META = "index.json"
HEADINGS_VECTORS = "vectors-headings.npy"
DEFAULT_RRF_K = 60
# Query-time fusion settings, stored with the index so a release describes its own ranking.
# Measured on bench/retrieval/golden.json (see the results there): fusing only the first
# 20 of each leg, and letting a keyword hit vote only when it holds a quarter of the
# question's idf mass, keeps BM25's noise (a Korean question sharing endings with every
# Korean chunk) from outvoting the vector leg's first place.
FUSION_DEPTH = 20
MIN_COVERAGE = 0.25


def load_meta(folder: Path) -> dict:
    return json.loads((Path(folder) / META).read_text("utf-8"))


def load_chunks(meta: dict) -> list[Chunk]:
    return [Chunk.from_json(c) for c in meta["chunks"]]
