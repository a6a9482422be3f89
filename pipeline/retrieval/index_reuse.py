"""Reuse of the last built index when nothing it is built from has changed.

The index is a pure function of the indexed passages (every field), the page titles, the
embedding model, the settings and the code that builds it. Their fingerprint names a copy
of the last index kept in the cache (hard links, so no bytes are copied); an identical
fingerprint links that copy into the staged release instead of building again.
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from dataclasses import asdict
from pathlib import Path
from typing import Sequence

FOLDER = "index-reuse"
STAMP = "fingerprint.txt"


def fingerprint(passages: Sequence, titles: dict[str, str] | None, embedding: dict) -> str:
    """`embedding`: what picks the model and the settings (mode, base URL, whether a key is set, rrf_k)."""
    digest = hashlib.sha256()
    for file in sorted(Path(__file__).parent.glob("*.py")):   # the code that decides the index's bytes
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    digest.update(json.dumps(embedding, sort_keys=True).encode())
    digest.update(json.dumps(sorted((titles or {}).items()), ensure_ascii=False).encode())
    for passage in passages:
        digest.update(json.dumps(asdict(passage), ensure_ascii=False, sort_keys=True, default=str).encode())
        digest.update(b"\n")
    return digest.hexdigest()


def reuse(cache_dir: Path | None, key: str, folder: Path) -> bool:
    """Link the kept index for `key` into `folder`; False when there is none."""
    kept = _kept(cache_dir)
    if kept is None or not (kept / STAMP).is_file() or (kept / STAMP).read_text("ascii").strip() != key:
        return False
    folder.mkdir(parents=True, exist_ok=True)
    for file in kept.iterdir():
        if file.name != STAMP:
            _link(file, folder / file.name)
    return True


def keep(cache_dir: Path | None, key: str, folder: Path) -> None:
    """Keep the index just built in `folder` for the next release (replacing the last one)."""
    kept = _kept(cache_dir)
    if kept is None:
        return
    fresh = kept.with_name(kept.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    fresh.mkdir(parents=True)
    for file in folder.iterdir():
        if file.is_file():
            _link(file, fresh / file.name)
    (fresh / STAMP).write_text(key + "\n", "ascii")   # written last: a half-kept copy never matches
    shutil.rmtree(kept, ignore_errors=True)
    os.replace(fresh, kept)


def _kept(cache_dir: Path | None) -> Path | None:
    return Path(cache_dir) / FOLDER / "last" if cache_dir is not None else None


def _link(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
    except OSError:      # another file system: copy
        shutil.copy2(source, target)
