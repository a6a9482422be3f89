"""The few passages that write a name the question asks about, when retrieval missed them (pure).

"pip stops with a ResolutionTooDeepError during install. What should I do?" names one thing the
pages write in one sentence, yet the sentence's chunk was not among the 20 retrieved: BM25 gave
the rare name less than the common words around it ("pip", "install", "during"), and the vector
leg found pages of search phrases about installing pip. A name written in code style (an
exception class, `--no-require-hashes`, `fs.readFileSync`, `MAX_RETRIES`) that at most
`MOST_PASSAGES` passages write is specific enough that the passages writing it must be weighed;
their chunks join the candidates after the retrieved ones, and the relevance model decides.
"""
from __future__ import annotations

import re
import threading

from ..retrieval.search import Hit

MOST_PASSAGES = 3
# Names as code writes them: two humps (ResolutionTooDeepError, TestClient, readFileSync), an
# underscore (MAX_RETRIES, item_id), dots (fs.readFileSync, markdown.extensions.toc), a flag
# (--no-require-hashes), a call (url_for()). Plain words and initialisms are not names here.
_NAME = re.compile(r"(?<![\w.-])(?:--?[a-z][a-z0-9]*(?:-[a-z0-9]+)+|[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+"
                   r"|[A-Z]?[a-z0-9]+(?:[A-Z][a-z0-9]*)+|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+)(?:\(\))?(?![\w-])",
                   re.ASCII)
_LOCK = threading.Lock()
_WRITERS: dict[str, dict[str, list[str]]] = {}     # release id → name → ids of the passages writing it


def names_in(text: str) -> set[str]:
    """The code-style names of `text`, without a trailing "()"."""
    return {m.group().removesuffix("()") for m in _NAME.finditer(text)}


def writers(release) -> dict[str, list[str]]:
    """Each code-style name of the release's passages → the passages that write it (read once per release)."""
    with _LOCK:
        found = _WRITERS.get(release.release_id)
        if found is None:
            found = {}
            for passage in release.passages:
                for name in names_in(passage.text):
                    found.setdefault(name, []).append(passage.id)
            _WRITERS[release.release_id] = found
        return found


def with_named(asked: str, hits: list, retriever, release) -> list:
    """The hits, then the chunks of the passages that write a rare name of the question and were not retrieved."""
    written = writers(release)
    retrieved = {hit.chunk_id for hit in hits}
    added = []
    for name in sorted(names_in(asked)):
        passage_ids = written.get(name, [])
        if len(passage_ids) > MOST_PASSAGES:
            continue
        for passage_id in passage_ids:
            chunk = retriever.chunk_of_passage(passage_id)
            if chunk is None or retriever.chunks[chunk].id in retrieved:
                continue
            found = retriever.chunks[chunk]
            retrieved.add(found.id)
            added.append(Hit(found.id, found.passage_ids, found.page, hits[-1].score if hits else 0.0, passage_id))
    return [*hits, *added]
