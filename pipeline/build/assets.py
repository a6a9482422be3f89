"""Fingerprinted copies of the site's static files (name.hash.ext), planned before rendering."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path


@dataclass(frozen=True)
class Asset:
    name: str          # as the templates ask for it: "style.css"
    file: str          # fingerprinted name under static/: "style.3f2a9c1b.css"
    data: bytes

    @property
    def url(self) -> str:
        return f"/static/{self.file}"


def static_dir() -> Path:
    return Path(str(resources.files("trigsight_site") / "static"))


def run(source: Path | None = None) -> dict[str, Asset]:
    """Plan every file under the site's static folder; the URL changes whenever the bytes do."""
    source = source or static_dir()
    planned = {}
    for file in sorted(p for p in source.rglob("*") if p.is_file() and not p.name.startswith(".")):
        name = file.relative_to(source).as_posix()
        data = file.read_bytes() + (_author_css() if name == "style.css" else b"")
        digest = hashlib.sha256(data).hexdigest()[:10]
        stem, dot, suffix = name.rpartition(".")
        hashed = f"{stem}.{digest}.{suffix}" if dot else f"{name}.{digest}"
        planned[name] = Asset(name, hashed, data)
    return planned


def _author_css() -> bytes:
    """TRIGSIGHT_SITE_CSS, appended to the site's stylesheet (the browser gate checks with it)."""
    from ..settings import setting

    extra = setting("TRIGSIGHT_SITE_CSS")
    if extra and not Path(extra).is_file():
        from ..errors import UsageError
        raise UsageError(f"TRIGSIGHT_SITE_CSS={extra} is not a file", "TRIGSIGHT_SITE_CSS")
    return b"\n" + Path(extra).read_bytes() if extra else b""


def urls(assets: dict[str, Asset]) -> dict[str, str]:
    return {name: asset.url for name, asset in assets.items()}
