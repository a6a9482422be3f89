"""Stage a release in a folder of its own, then publish it by switching one symlink.

    release -> releases/<id>        the live release: one rename switches it (`activate`)
    releases/<id>/                  every published release, newest kept (`prune`)
    releases/.staging-*/            a release being built and gated

`release` is never missing and never half-written: the new folder is complete before the
link moves, and the link moves with a single rename(2) of a new symlink over the old one.
A `release/` that is still a plain folder (published before symlinks) is moved into
`releases/` on the next publish.
"""
from __future__ import annotations

import contextlib
import ctypes
import hashlib
import json
import os
import shutil
import tempfile
from dataclasses import dataclass
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
    if build.redirects:     # only when the folder has moved pages: other releases keep their ids
        body["redirects"] = dict(sorted(build.redirects.items()))
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


def releases_dir(out: Path) -> Path:
    """Where the releases behind the `out` link live: `release` → `releases/`."""
    out = Path(out).absolute()
    return out.with_name(out.name + "s")


def stage(build: Build, out: Path) -> Path:
    """Write pages, assets and a provisional allowlist in a new folder of `releases/`; return it."""
    folder = releases_dir(out)
    folder.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=".staging-", dir=folder))
    staging.chmod(0o755)    # mkdtemp makes it 0700; a served release is readable like any folder
    for page in build.pages:
        file = staging / page_file(page.path)
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(page.html, "utf-8")
    for asset in build.assets.values():
        file = staging / "static" / asset.file
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_bytes(asset.data)
    current = Path(out).absolute()
    compress.run(staging, current.resolve() if current.is_dir() else None)
    write_json(staging / ALLOWLIST, allowlist(build))
    return staging


def write_manifest(staging: Path, manifest: dict) -> None:
    write_json(staging / MANIFEST, manifest)


def publish(staging: Path, out: Path, keep: int = 5) -> Path:
    """Move a gated staging folder to `releases/<id>` and point `out` at it; keep `keep` releases."""
    out = Path(out).absolute()
    folder = releases_dir(out)
    migrate(out)
    target = _free_name(folder, _release_id(staging))
    os.utime(staging)                 # publication order is folder mtime (see `releases`)
    os.rename(staging, target)
    activate(out, target)
    prune(out, keep)
    return target


def activate(out: Path, target: Path) -> None:
    """Point the `out` link at `target` with one rename; readers see the old or the new, never neither."""
    out = Path(out).absolute()
    link = out.with_name(f".{out.name}.link-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    link.symlink_to(os.path.relpath(Path(target).absolute(), out.parent), target_is_directory=True)
    if out.is_dir() and not out.is_symlink():
        raise IsADirectoryError(f"{out} is a plain folder: migrate() it first")
    os.replace(link, out)


def migrate(out: Path) -> None:
    """Turn a plain `release/` folder (published before symlinks) into `releases/<id>` + link.

    The folder is copied to `releases/<id>` and the link swapped in for it atomically
    (renameat2 RENAME_EXCHANGE), so readers see the same bytes throughout; only where that
    call is missing is there one instant, once, without a `release/`.
    """
    out = Path(out).absolute()
    if out.is_symlink() or not out.is_dir():
        return
    folder = releases_dir(out)
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, _release_id(out) or "previous")
    link = out.with_name(f".{out.name}.link-{os.getpid()}")
    with contextlib.suppress(FileNotFoundError):
        link.unlink()
    link.symlink_to(os.path.relpath(target, out.parent), target_is_directory=True)
    copying = folder / f".migrating-{target.name}"
    shutil.copytree(out, copying, symlinks=True)
    os.rename(copying, target)
    if _exchange(link, out):
        shutil.rmtree(link)           # the old plain folder, now under the temporary name
    else:
        shutil.rmtree(out)
        os.replace(link, out)


@dataclass(frozen=True)
class Published:
    name: str                         # folder name under releases/
    folder: Path
    release_id: str
    created_at: str
    live: bool


def releases(out: Path) -> list[Published]:
    """Published releases behind `out`, newest first (by publication: folder mtime)."""
    out = Path(out).absolute()
    folder = releases_dir(out)
    if not folder.is_dir():
        return []
    live = os.path.realpath(out) if out.is_symlink() else None
    found = []
    for entry in folder.iterdir():
        if entry.name.startswith(".") or not entry.is_dir():
            continue
        manifest = _read_json(entry / MANIFEST)
        found.append((entry.stat().st_mtime_ns, Published(
            entry.name, entry, _release_id(entry) or entry.name, manifest.get("created_at", ""),
            live is not None and os.path.realpath(entry) == live)))
    return [p for _, p in sorted(found, key=lambda pair: (pair[0], pair[1].name), reverse=True)]


def prune(out: Path, keep: int) -> list[Path]:
    """Delete all but the `keep` newest releases; the live one always stays. Returns what went."""
    removed = []
    for published in releases(out)[max(keep, 1):]:
        if not published.live:
            shutil.rmtree(published.folder, ignore_errors=True)
            removed.append(published.folder)
    return removed


def rollback(out: Path, to: str | None = None) -> Published:
    """Point `out` at release `to` (folder name or release id, or a prefix of one), else the one before the live one."""
    listed = releases(out)
    if to is not None:
        matches = [p for p in listed if p.name.startswith(to) or p.release_id.startswith(to)]
        names = {p.name for p in matches}
        if len(names) != 1:
            known = ", ".join(p.name for p in listed) or "none"
            raise LookupError(f"{'no' if not names else 'more than one'} release matches {to!r} (published: {known})")
        chosen = matches[0]
    else:
        live = next((i for i, p in enumerate(listed) if p.live), None)
        if live is None or live + 1 >= len(listed):
            raise LookupError("there is no earlier release to roll back to")
        chosen = listed[live + 1]
    activate(out, chosen.folder)
    return chosen


def _release_id(folder: Path) -> str:
    return str(_read_json(Path(folder) / ALLOWLIST).get("release_id", ""))


def _read_json(file: Path) -> dict:
    try:
        data = json.loads(file.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _free_name(folder: Path, release_id: str) -> Path:
    """`releases/<id>`, or `<id>.2`, `<id>.3` … when the same content was published before."""
    candidate, n = folder / release_id, 1
    while candidate.exists() or candidate.is_symlink():
        n += 1
        candidate = folder / f"{release_id}.{n}"
    return candidate


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths atomically (Linux renameat2 RENAME_EXCHANGE); False where unavailable."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    return renameat2(at_fdcwd, os.fsencode(str(a)), at_fdcwd, os.fsencode(str(b)), rename_exchange) == 0


def discard(staging: Path | None) -> None:
    if staging is not None:
        shutil.rmtree(staging, ignore_errors=True)
