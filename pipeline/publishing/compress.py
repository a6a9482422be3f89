"""Pre-compression: `.br` and `.gz` siblings for every page and static file, written once per release.

The server sends these stored bytes as they are (see `trigsight_site.pages`), so the bytes the
payload gate measures over the wire are the bytes every reader receives, and no request pays
for brotli at quality 11.

Brotli at quality 11 is slow, and a re-release mostly writes the pages it wrote last time. A file
whose bytes are those of the same file in the release published before takes that release's
siblings, each only once it decodes to the file's bytes again; any other file is encoded anew
(Django's 684 files: 12.2 s encoded, 0.9 s reused, bench/scale/compress_reuse.py).
"""
from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path

import brotli

# Which files are worth compressing; images and fonts are compressed formats already.
COMPRESSIBLE = frozenset({".html", ".css", ".js", ".mjs", ".json", ".svg", ".txt", ".xml", ".map",
                          ".webmanifest", ".ico"})
ENCODINGS = {"br": ".br", "gzip": ".gz"}         # Content-Encoding → sibling suffix, preferred first
SERVED_FOLDERS = ("pages", "static")
BROTLI_QUALITY = 11
GZIP_LEVEL = 9


@dataclass(frozen=True)
class CompressedFile:
    file: str                    # relative to the release folder
    size: int                    # identity bytes
    encoded: dict[str, int]      # Content-Encoding → bytes of the sibling that was kept

    def to_json(self) -> dict:
        return {"file": self.file, "size": self.size, **self.encoded}


def sibling(file: Path, encoding: str) -> Path:
    return file.with_name(file.name + ENCODINGS[encoding])


def is_sibling(name: str) -> bool:
    return any(name.endswith(suffix) for suffix in ENCODINGS.values())


def encode(data: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(data, quality=BROTLI_QUALITY)
    # mtime=0 keeps the .gz bytes (and so their ETag) identical from one release to the next
    return gzip.compress(data, compresslevel=GZIP_LEVEL, mtime=0)


def decode(data: bytes, encoding: str) -> bytes:
    return brotli.decompress(data) if encoding == "br" else gzip.decompress(data)


def compress_file(file: Path, root: Path, previous: Path | None = None) -> CompressedFile:
    """Write the siblings that are smaller than the file itself; remove any that are not. With the
    `previous` release folder, a sibling there of a file with the same bytes is taken as it is."""
    data = file.read_bytes()
    before = previous / file.relative_to(root) if previous is not None else None
    same = before is not None and before.is_file() and before.read_bytes() == data
    kept = {}
    for encoding in ENCODINGS:
        encoded = _reused(sibling(before, encoding), data, encoding) if same else None
        if encoded is None:
            encoded = encode(data, encoding)
        target = sibling(file, encoding)
        if len(encoded) < len(data):
            target.write_bytes(encoded)
            kept[encoding] = len(encoded)
        else:
            target.unlink(missing_ok=True)
    return CompressedFile(file.relative_to(root).as_posix(), len(data), kept)


def _reused(stored: Path, data: bytes, encoding: str) -> bytes | None:
    """The bytes of a sibling written by an earlier release, when they decode to `data`; else None."""
    try:
        encoded = stored.read_bytes()
        return encoded if decode(encoded, encoding) == data else None
    except (OSError, brotli.error, gzip.BadGzipFile, EOFError, zlib.error):
        return None


def served_files(root: Path) -> list[Path]:
    files = []
    for folder in SERVED_FOLDERS:
        base = root / folder
        if base.is_dir():
            files.extend(p for p in sorted(base.rglob("*"))
                         if p.is_file() and p.suffix in COMPRESSIBLE and not is_sibling(p.name))
    return files


def run(root: Path, previous: Path | None = None) -> list[CompressedFile]:
    """Pre-compress every servable page and asset of the release folder `root`, taking the siblings
    of unchanged files from the `previous` release folder, if any."""
    root = Path(root)
    return [compress_file(file, root, previous) for file in served_files(root)]


def stale(root: Path) -> list[str]:
    """Files whose stored siblings no longer decode to their bytes (a stage rewrote them late)."""
    root = Path(root)
    found = []
    for file in served_files(root):
        data = file.read_bytes()
        for encoding in ENCODINGS:
            target = sibling(file, encoding)
            if target.is_file() and decode(target.read_bytes(), encoding) != data:
                found.append(target.relative_to(root).as_posix())
    return found
