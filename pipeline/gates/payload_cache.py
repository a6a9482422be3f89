"""The payload gate's cache: a page's measured scripts, reused while nothing it loads can differ.

What a page costs on the wire is decided by its HTML (which scripts it asks for), the
bytes of every static file the server could send (each file and its pre-compressed
copies), the server's code (headers, compression), the gate's code and the browser. The
key holds all of them; a page that could not be loaded is never kept.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

from ..files import write_atomic
from . import payload

_HERE = Path(__file__).parent


def release_digest(staging: Path, browser_version: str) -> str:
    """Everything but the page's own HTML: static files, server and gate code, browser."""
    digest = hashlib.sha256(browser_version.encode() + b"\0")
    for file in sorted((staging / "static").rglob("*")) if (staging / "static").is_dir() else ():
        if file.is_file():
            digest.update(file.relative_to(staging).as_posix().encode() + b"\0" + _sha(file.read_bytes()))
    gate_code = ["payload.py", "payload_figures.py", "payload_load.py", "payload_cache.py"]
    for code in [*(_HERE / name for name in gate_code), *_site_code()]:
        digest.update(code.name.encode() + b"\0" + _sha(code.read_bytes()))
    return digest.hexdigest()


def _site_code() -> list[Path]:
    from importlib.util import find_spec

    spec = find_spec("trigsight_site")
    roots = list(spec.submodule_search_locations or []) if spec else []
    return sorted(p for root in roots for p in Path(root).rglob("*.py"))


def page_key(html: str, digest: str, runs: int) -> str:
    return hashlib.sha256(json.dumps([digest, runs, hashlib.sha256(html.encode()).hexdigest()]).encode()).hexdigest()


def load(store: Path, key: str, base: str) -> tuple[payload.PageFigures, str, str] | None:
    """The figures kept for `key` with URLs under `base`, the browser's name and its WebGL."""
    try:
        data = json.loads((store / f"{key}.json").read_text("utf-8"))
        loads = [payload.PageLoad(base + item["path"], item["status"],
                                  [payload.Script(base + s["path"] if s["local"] else s["url"], s["bytes"],
                                                  s["header_bytes"], s["encoding"], s["lazy"])
                                   for s in item["scripts"]], item["inline_script_bytes"])
                 for item in data["loads"]]
        return payload.PageFigures(base + data["path"], loads), data["browser"], data["webgl"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(store: Path, key: str, figures: payload.PageFigures, base: str, browser: str, webgl: str) -> None:
    if figures.error or not figures.url.startswith(base):
        return

    def script(s: payload.Script) -> dict:
        local = s.url.startswith(base)
        return {"path": s.url[len(base):] if local else "", "url": "" if local else s.url, "local": local,
                "bytes": s.bytes, "header_bytes": s.header_bytes, "encoding": s.encoding, "lazy": s.lazy}

    data = {"path": figures.url[len(base):], "browser": browser, "webgl": webgl,
            "loads": [{"path": load.url[len(base):], "status": load.status, "inline_script_bytes":
                       load.inline_script_bytes, "scripts": [script(s) for s in load.scripts]}
                      for load in figures.loads]}
    write_atomic(store / f"{key}.json", json.dumps(data).encode())


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()
