"""Fingerprinted copies of the site's static files (name.hash.ext), planned before rendering."""
from __future__ import annotations

import hashlib
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import rjsmin


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


def run(source: Path | None = None, site_css: Path | None = None) -> dict[str, Asset]:
    """Plan every file under the site's static folder; the URL changes whenever the bytes do.

    `site_css` (TRIGSIGHT_SITE_CSS) is appended to style.css; scripts are minified (rjsmin:
    comments and white space only, no renaming).
    """
    source = source or static_dir()
    extra = _author_css(site_css)
    planned = {}
    for file in sorted(p for p in source.rglob("*") if p.is_file() and not p.name.startswith(".")):
        name = file.relative_to(source).as_posix()
        data = file.read_bytes() + (extra if name == "style.css" else b"")
        if name.endswith(".js"):   # comments and white space cost readers bytes; the code is unchanged
            data = rjsmin.jsmin(data.decode("utf-8")).encode("utf-8")
        digest = hashlib.sha256(data).hexdigest()[:10]
        stem, dot, suffix = name.rpartition(".")
        hashed = f"{stem}.{digest}.{suffix}" if dot else f"{name}.{digest}"
        planned[name] = Asset(name, hashed, data)
    return planned


def _author_css(site_css: Path | None) -> bytes:
    """The author's stylesheet, appended to the site's (the browser gate checks with it)."""
    if site_css and not Path(site_css).is_file():
        from ..errors import UsageError
        raise UsageError(f"TRIGSIGHT_SITE_CSS={site_css} is not a file", "TRIGSIGHT_SITE_CSS")
    return b"\n" + Path(site_css).read_bytes() if site_css else b""


def urls(assets: dict[str, Asset]) -> dict[str, str]:
    return {name: asset.url for name, asset in assets.items()}
