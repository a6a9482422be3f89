"""Images the pages show from the content folder, published with the release.

A docs folder keeps its pictures beside its pages (`![diagram](img/flow.png)`, `<img
src="../assets/logo.svg">`, Obsidian's `![[flow.png]]`). A page's URL is not its file's path
(`guide/index.md` is served at `/guide`), so a relative `src` would be looked up beside the
wrong URL; each image is therefore resolved against its page's file, published once under
`static/` with a name that changes whenever its bytes do (`flow.3f2a9c1b07.png`, served
immutable like the site's own assets), and the `src` is rewritten to that URL. An image that
is not in the folder keeps its `src` and is named in a warning line; one outside the folder
(`../../secret.png`) is never read. A hidden folder is read only when a page names a file in it
(GitBook's `.gitbook/assets/`), never searched for a bare file name.
"""
from __future__ import annotations

import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from .assets import Asset
from .content import shorten

IMAGE_SUFFIXES = frozenset(".png .jpg .jpeg .gif .svg .webp .avif .ico .bmp".split())
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.I)
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9_-]+")
SHOWN_MISSING = 5     # a site whose images live elsewhere (FastAPI's translations) names the first few


@dataclass
class ContentMedia:
    """The content folder's images, published as they are asked for (`url`)."""

    content_dir: Path
    assets: dict[str, Asset] = field(default_factory=dict)       # "media/<file>" → its published asset
    missing: dict[str, set[str]] = field(default_factory=dict)   # src as written → pages asking for it
    _by_name: dict[str, list[str]] | None = None

    def url(self, src: str, source: str) -> str | None:
        """The published URL of the image `src` that the page in file `source` shows, or None to
        keep `src` as written (another site's image, a data: URL, or no such file here)."""
        if not src or _EXTERNAL.match(src) or src.startswith("#"):
            return None
        path = unquote(src.split("#", 1)[0].split("?", 1)[0])
        if posixpath.splitext(path)[1].lower() not in IMAGE_SUFFIXES:
            return None
        relative = self._find(path, source)
        if relative is None:
            self.missing.setdefault(src, set()).add(source)
            return None
        key = f"media/{relative}"
        if key not in self.assets:
            data = (self.content_dir / relative).read_bytes()
            stem, suffix = posixpath.splitext(posixpath.basename(relative))
            name = _UNSAFE_NAME.sub("-", stem).strip("-") or "image"
            self.assets[key] = Asset(key, f"{name}.{hashlib.sha256(data).hexdigest()[:10]}{suffix.lower()}", data)
        return self.assets[key].url

    def _find(self, path: str, source: str) -> str | None:
        """The file's path relative to the content folder: beside the page, from the folder's root
        ("/img/x.png"), else, for a bare file name (Obsidian), the only file of that name."""
        if path.startswith("/"):
            candidates = [path.lstrip("/")]
        else:
            candidates = [posixpath.join(posixpath.dirname(source), path)]
            if "/" not in path:
                candidates += self._named(path)
        for candidate in candidates:
            normal = posixpath.normpath(candidate)
            # a hidden folder is read when a page names it (GitBook keeps images in .gitbook/assets/)
            if normal.startswith("../") or normal in ("..", "."):
                continue
            file = self.content_dir / normal
            # a link inside the folder that points outside it is not read either
            if file.is_file() and file.resolve().is_relative_to(self.content_dir.resolve()):
                return normal
        return None

    def _named(self, name: str) -> list[str]:
        if self._by_name is None:
            self._by_name = {}
            for file in sorted(self.content_dir.rglob("*")):
                relative = file.relative_to(self.content_dir).as_posix()
                if file.suffix.lower() in IMAGE_SUFFIXES and not any(p.startswith(".") for p in relative.split("/")):
                    self._by_name.setdefault(file.name.lower(), []).append(relative)
        found = self._by_name.get(name.lower(), [])
        return found if len(found) == 1 else []

    def warning(self) -> list[str]:
        """One line naming the images no file of the folder holds, and the pages that show them."""
        if not self.missing:
            return []
        named = [f"{src} ({shorten(sorted(pages))})" for src, pages in sorted(self.missing.items())]
        more = f" and {len(named) - SHOWN_MISSING} more" if len(named) > SHOWN_MISSING else ""
        return ["images not in the content folder, left as written: " + "; ".join(named[:SHOWN_MISSING]) + more]
