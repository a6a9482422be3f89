"""The source gate's per-page cache: a page's matcher view (PageText) kept between releases.

Reading a rendered page — segmenting it, splitting sentences and choosing a directive that
is unique on the page for each — is nearly all of the source gate's time (a 64-page docs
site: ~140 s). It is a pure function of the page's path and HTML and of the code that
reads it, so an entry is keyed by exactly those: the path, the HTML's bytes, and the bytes
of every module under `matching/` plus `build/passages.py` (and the Python version, for
pickle). A changed byte anywhere is a miss; an unreadable entry is a miss, never an error.
"""
from __future__ import annotations

import hashlib
import pickle
import sys
from functools import lru_cache
from pathlib import Path
from typing import Callable

from ..files import write_atomic
from .passages import PageText

FOLDER = "page-text"


@lru_cache(maxsize=1)
def code_version() -> str:
    """A digest of the code that turns a page's HTML into its PageText."""
    here = Path(__file__).resolve().parent
    files = sorted((here.parent / "matching").glob("*.[pj][ys]")) + [here / "passages.py"]
    digest = hashlib.sha256(sys.version.encode())
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def key(path: str, html: str) -> str:
    body = "\0".join([code_version(), path, html]).encode("utf-8", "surrogatepass")
    return hashlib.sha256(body).hexdigest()


def cached(cache_dir: Path | None, read: Callable[[str, str], PageText]) -> Callable[[str, str], PageText]:
    """`read(path, html)` with its results kept under `cache_dir`; `read` itself without a folder."""
    if cache_dir is None:
        return read
    folder = Path(cache_dir) / FOLDER

    def read_cached(path: str, html: str) -> PageText:
        entry = folder / f"{key(path, html)}.pickle"
        try:
            found = pickle.loads(entry.read_bytes())
            if isinstance(found, PageText) and found.path == path:
                return found
        except (OSError, pickle.UnpicklingError, EOFError, AttributeError, ImportError, TypeError, ValueError):
            pass
        text = read(path, html)
        try:
            write_atomic(entry, pickle.dumps(text, protocol=pickle.HIGHEST_PROTOCOL))
        except OSError:      # a cache that cannot be written is skipped
            pass
        return text

    return read_cached
