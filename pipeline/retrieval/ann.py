"""Approximate nearest neighbours for the vector leg of a large index (usearch HNSW).

A question's exact cosine against every vector reads the whole matrix: at 100k passages
that is ~520 MB of float32 over chunks, passages and headings, far more than fits in the
search budget. A large index therefore also keeps an HNSW graph per level; the graph
names a few hundred candidates and the search scores those exactly from the float32
vectors, so every score it reports is the true cosine and only the choice of candidates
is approximate (recall against the exact scan: bench/retrieval/scale.py).

The graphs store their vectors as float16 and open as read-only views of the file
(memory-mapped), so server workers share one copy through the page cache.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np

LIBRARY = "usearch"
DTYPE = "f16"
CONNECTIVITY = 16
# Build-time breadth: usearch's default (128) costs twice the build time for a recall gain
# the exact re-scoring of 200 candidates no longer sees.
EXPANSION_ADD = 64


def build(vectors: np.ndarray, file: Path) -> None:
    """Write an HNSW graph over the unit rows of `vectors` (key = row number) to `file`."""
    from usearch.index import Index

    graph = Index(ndim=int(vectors.shape[1]), metric="ip", dtype=DTYPE, connectivity=CONNECTIVITY,
                  expansion_add=EXPANSION_ADD)
    if len(vectors):
        graph.add(np.arange(len(vectors), dtype=np.uint64), np.ascontiguousarray(vectors, dtype=np.float32),
                  threads=os.cpu_count() or 1)
    graph.save(str(file))


class Graph:
    """A saved graph, opened as a memory-mapped view; `nearest` gives row numbers."""

    def __init__(self, file: Path):
        from usearch.index import Index

        self.file = Path(file)
        self._index = Index.restore(str(file), view=True, enable_key_lookups=False)
        if self._index is None:
            raise ValueError(f"{file} is not a usearch index")

    def __len__(self) -> int:
        return len(self._index)

    def nearest(self, vector: np.ndarray, count: int) -> np.ndarray:
        """Row numbers of (about) the `count` rows with the largest inner product, best first."""
        count = min(count, len(self._index))
        if count <= 0:
            return np.zeros(0, dtype=np.int64)
        # The search breadth must be at least the number of results asked for.
        if self._index.expansion_search < count:
            self._index.expansion_search = count
        matches = self._index.search(np.asarray(vector, dtype=np.float32), count, threads=1)
        return np.asarray(matches.keys, dtype=np.int64)
