"""Stage: write a release into a staging folder, then swap it in atomically."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

from ..build.builder import Build
from . import compress
from .published import ALLOWLIST, MANIFEST, SCHEMA


def page_file(path: str) -> str:
    return "pages/index.html" if path == "/" else f"pages{path}.html"


def allowlist(build: Build, passages=None) -> dict:
    """The allowlist document (schema documented in the README)."""
    passages = build.passages if passages is None else passages
    counts: dict[str, int] = {}
    for passage in passages:
        counts[passage.page] = counts.get(passage.page, 0) + 1
    pages = [{"slug": p.source.slug, "path": p.path, "title": p.title, "language": p.source.language,
              "source": p.source.source, "file": page_file(p.path),
              "sha256": hashlib.sha256(p.html.encode()).hexdigest(),
              "passage_count": counts.get(p.path, 0), "text": build.texts[p.path].main_text}
             for p in build.pages]
    body = {"pages": pages, "passages": [p.to_json() for p in passages],
            "citations": [r.to_json() for r in build.gate.resolved]}
    release_id = hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]
    return {"schema": SCHEMA, "release_id": release_id,
            "site": {"title": build.config.site_title, "language": build.config.language}, **body}


def content_hash(content_dir: Path) -> str:
    digest = hashlib.sha256()
    for file in sorted(p for p in Path(content_dir).rglob("*") if p.is_file()):
        digest.update(file.relative_to(content_dir).as_posix().encode() + b"\0" + file.read_bytes() + b"\0")
    return digest.hexdigest()


def write_json(file: Path, data: dict) -> None:
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", "utf-8")


def stage(build: Build, out: Path) -> Path:
    """Write pages, assets and a provisional allowlist next to `out`; return the folder."""
    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    for page in build.pages:
        file = staging / page_file(page.path)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(page.html, "utf-8")
    for asset in build.assets.values():
        file = staging / "static" / asset.file
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(asset.data)
    compress.run(staging)
    write_json(staging / ALLOWLIST, allowlist(build))
    return staging


def write_manifest(staging: Path, manifest: dict) -> None:
    write_json(staging / MANIFEST, manifest)


def swap(staging: Path, out: Path) -> None:
    """Replace `out` with `staging`; the old release stays whole until the new one is in place."""
    out = Path(out).resolve()
    if not out.exists():
        os.rename(staging, out)
        return
    retired = out.parent / f".{out.name}.retired-{os.getpid()}"
    os.rename(out, retired)
    try:
        os.rename(staging, out)
    except OSError:
        os.rename(retired, out)
        raise
    shutil.rmtree(retired, ignore_errors=True)


def discard(staging: Path | None) -> None:
    if staging is not None:
        shutil.rmtree(staging, ignore_errors=True)
