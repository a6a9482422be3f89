"""A published release, loaded read-only for the server, the chat and the MCP tools."""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ReleaseNotFound
from ..retrieval.chunks import HEADING_KINDS, section_levels
from .paths import published_path

ALLOWLIST = "allowlist.json"
MANIFEST = "manifest.json"
SCHEMA = "trigsight.allowlist/1"


@dataclass(frozen=True)
class PublishedPassage:
    id: str
    page: str
    text: str
    url: str
    directive: str
    block: int
    kind: str
    headings: tuple[str, ...]
    order: int
    start: int
    end: int


@dataclass(frozen=True)
class PublishedPage:
    slug: str
    path: str
    title: str
    language: str
    source: str
    file: str
    sha256: str
    text: str


@dataclass
class Release:
    root: Path
    release_id: str
    pages: list[PublishedPage]
    passages: list[PublishedPassage]
    citations: list[dict]
    manifest: dict
    site: dict = field(default_factory=dict)        # {"title", "language"} the site was built with
    redirects: dict[str, str] = field(default_factory=dict)   # old URL path → the page's URL path
    _by_id: dict[str, PublishedPassage] = field(default_factory=dict, repr=False)
    _by_path: dict[str, PublishedPage] = field(default_factory=dict, repr=False)
    _by_place: dict[tuple[str, int], PublishedPassage] = field(default_factory=dict, repr=False)
    _by_page: dict[str, list[PublishedPassage]] = field(default_factory=dict, repr=False)
    _levels: dict[tuple[str, tuple[str, ...]], int] = field(default_factory=dict, repr=False)

    @property
    def site_title(self) -> str:
        """The site's name as the release was built with it (TRIGSIGHT_SITE_TITLE, or its generator's)."""
        title = self.site.get("title") if isinstance(self.site, dict) else None
        return title if isinstance(title, str) and title.strip() else "trigsight"

    @property
    def site_language(self) -> str:
        language = self.site.get("language") if isinstance(self.site, dict) else None
        return language if isinstance(language, str) and language.strip() else "en"

    @classmethod
    def load(cls, root: Path | str) -> "Release":
        root = Path(root)
        allowlist_file = root / ALLOWLIST
        if not allowlist_file.is_file():
            raise ReleaseNotFound(f"no published release in {root} (run `trigsight release` first)", str(root))
        data = json.loads(allowlist_file.read_text("utf-8"))
        if data.get("schema") != SCHEMA:
            raise ReleaseNotFound(f"{allowlist_file} has schema {data.get('schema')!r}, expected {SCHEMA!r}",
                                  str(allowlist_file))
        manifest_file = root / MANIFEST
        manifest = json.loads(manifest_file.read_text("utf-8")) if manifest_file.is_file() else {}
        pages = [PublishedPage(**{k: p[k] for k in PublishedPage.__dataclass_fields__}) for p in data["pages"]]
        passages = [PublishedPassage(**{**{k: p[k] for k in PublishedPassage.__dataclass_fields__},
                                        "headings": tuple(p["headings"])}) for p in data["passages"]]
        paths = {p.path for p in pages}
        redirects = data.get("redirects") if isinstance(data.get("redirects"), dict) else {}
        release = cls(root, data["release_id"], pages, passages, data.get("citations", []), manifest,
                      data.get("site") if isinstance(data.get("site"), dict) else {},
                      {old: new for old, new in redirects.items()     # to this release's pages only
                       if isinstance(new, str) and new.partition("#")[0] in paths})
        release._by_id = {p.id: p for p in passages}
        release._by_path = {p.path: p for p in pages}
        release._by_place = {(p.page, p.order): p for p in passages}
        for passage in passages:
            release._by_page.setdefault(passage.page, []).append(passage)
        release._levels = section_levels((p.page, p.headings) for p in passages if p.kind not in HEADING_KINDS)
        return release

    def passage(self, passage_id: str) -> PublishedPassage | None:
        return self._by_id.get(passage_id)

    def passage_at(self, page: str, order: int) -> PublishedPassage | None:
        """The passage at position `order` among the passages of `page`."""
        return self._by_place.get((page, order))

    def section_of(self, passage: PublishedPassage) -> str:
        """The headings that name the passage's section apart from its page's other sections, below
        the page's title ("7.8.1 › Bug Fixes" on a changelog with a "Bug Fixes" under every
        version); "" for a heading, or a passage under the title alone."""
        if passage.kind in HEADING_KINDS:
            return ""
        page = self.page(passage.page)
        title = page.title if page else passage.page
        named = passage.headings[-self._levels.get((passage.page, passage.headings), 1):]
        return " › ".join(h for h in named if h != title)

    def page(self, path: str) -> PublishedPage | None:
        """The page at URL path `path`, percent-encoded as published ("/%E5%85%A5%E9%96%80") or
        as a person writes it ("/入門"), which is how Flask hands a request's path on."""
        found = self._by_path.get(path)
        return self._by_path.get(published_path(path)) if found is None and path.startswith("/") else found

    def moved(self, path: str) -> str | None:
        """Where the page once at URL path `path` is now (a page of this release, maybe with its anchor)."""
        found = self.redirects.get(path)
        return self.redirects.get(published_path(path)) if found is None and path.startswith("/") else found

    def page_by_slug(self, slug: str) -> PublishedPage | None:
        slug = unicodedata.normalize("NFC", slug)
        return next((p for p in self.pages if p.slug == slug), None)

    def passages_of(self, path: str) -> list[PublishedPassage]:
        return list(self._by_page.get(path, ()))

    def page_file(self, page: PublishedPage) -> Path:
        return self.root / page.file
