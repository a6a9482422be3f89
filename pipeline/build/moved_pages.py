"""Pages that say they moved, and old addresses of pages: served as redirects, not as pages (pure).

Generators keep a page at an old address in three ways, and docs folders carry each:
- the old page names where it went: Sphinx's `.. meta:: :http-equiv=refresh: 3; url=../new/`
  (rst_markdown.py writes it as `redirect_to`), a markdown page's `<meta http-equiv="refresh">`,
  jekyll-redirect-from's `redirect_to:`;
- the new page names its old addresses: Hugo's `aliases:`, jekyll-redirect-from's `redirect_from:`;
- the site's settings map old files to new ones: mkdocs-redirects' `redirect_maps` in mkdocs.yml,
  sphinx-reredirects' `redirects` in conf.py.

The page that moved is no page of the site (its "This page has moved" is not the author's
account of anything); its address answers with a redirect to the page it names. A target that
is no page of the folder (another site, a missing file) leaves the page published as it is.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import unquote

from ..publishing.paths import RESERVED, published_path
from .page_source import PageSource, default_slug, without_suffix

MOVED_KEYS = ("redirect_to",)                   # front matter on the old page: where it went
ALIAS_KEYS = ("aliases", "redirect_from")       # front matter on the new page: where it was
_META_REFRESH = re.compile(r"""<meta\s[^>]*http-equiv\s*=\s*["']?refresh["']?[^>]*>""", re.I)
_META_CONTENT = re.compile(r"""content\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))""", re.I)
_REFRESH_URL = re.compile(r"""^\s*\d*(?:\.\d*)?\s*[;,]?\s*url\s*=\s*["']?([^"'\s]+)""", re.I)
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.I)


@dataclass
class MovedPages:
    redirects: dict[str, str] = field(default_factory=dict)      # old URL path → the page's URL path (#anchor)
    moved: list[tuple[str, str]] = field(default_factory=list)   # (moved page's file, its new URL path #anchor)
    unresolved: list[tuple[str, str]] = field(default_factory=list)   # (file, target): kept as a page
    aliases_taken: list[tuple[str, str]] = field(default_factory=list)  # (file, alias) at a page's address
    renames_unresolved: list[tuple[str, str]] = field(default_factory=list)   # (old file, target) of mkdocs.yml

    @property
    def moved_sources(self) -> dict[str, str]:
        """The moved page's file → the URL path of the page it went to (what links to its file mean)."""
        return {source: new.partition("#")[0] for source, new in self.moved}

    @property
    def warnings(self) -> list[str]:
        from .content import shorten as _shorten  # content.py reads pages through this module

        lines = []
        if self.moved:
            moved = [f"{source} → {new}" for source, new in self.moved]
            lines.append(f"pages that say they moved, served as redirects to their new address: {len(moved)} "
                         f"({_shorten(moved)})")
        if self.unresolved:
            lines.append("pages that say they moved to no page of this folder, published as they are: "
                         + _shorten([f"{source} → {target}" for source, target in self.unresolved]))
        if self.renames_unresolved:
            lines.append("redirects in mkdocs.yml or conf.py naming no page of this folder, not served: "
                         + _shorten([f"{old} → {target}" for old, target in self.renames_unresolved]))
        if self.aliases_taken:
            lines.append("old addresses that are another page's address, not redirected: "
                         + _shorten([f"{alias} ({source})" for source, alias in self.aliases_taken]))
        return lines


def target_of(meta: dict, body: str) -> str:
    """Where a page says it moved: its front matter's `redirect_to`, else the URL of a
    `<meta http-equiv="refresh">` in its body; "" when it says nothing of the kind."""
    for key in MOVED_KEYS:
        value = meta.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    tag = _META_REFRESH.search(body)
    content = _META_CONTENT.search(tag.group(0)) if tag else None
    return refresh_target(next(part for part in content.groups() if part is not None)) if content else ""


def refresh_target(content: str) -> str:
    """The URL of a refresh's content ("3; url=../new/"), "" when it only reloads the page."""
    url = _REFRESH_URL.match(content)
    return url.group(1) if url else ""


def aliases_of(meta: dict) -> tuple[str, ...]:
    """The old addresses a page's front matter names (one, or a list)."""
    found: list[str] = []
    for key in ALIAS_KEYS:
        value = meta.get(key)
        values = [value] if isinstance(value, str) else value if isinstance(value, list) else []
        found += [v.strip() for v in values if isinstance(v, str) and v.strip()]
    return tuple(found)


def mkdocs_renames(content_dir: Path) -> list[tuple[str, str]]:
    """(old file, new file or URL) of mkdocs-redirects' `redirect_maps` in the folder's mkdocs.yml,
    the files as paths inside `content_dir`."""
    from .toc_files import mkdocs_settings  # toc_files → links → media → content → here: read when called
    found = mkdocs_settings(content_dir)
    if found is None or not isinstance(found[1], dict):
        return []
    _, settings, prefix = found
    plugins = settings.get("plugins")
    for plugin in plugins if isinstance(plugins, list) else [plugins] if isinstance(plugins, dict) else []:
        options = plugin.get("redirects") if isinstance(plugin, dict) else None
        maps = options.get("redirect_maps") if isinstance(options, dict) else None
        if isinstance(maps, dict):
            # the new file is named from the docs folder, as mkdocs-redirects reads it
            return [(posixpath.join(prefix, str(old).strip("/")),
                     new if _EXTERNAL.match(new) else "/" + posixpath.join(prefix, new.lstrip("/")))
                    for old, new in ((old, str(new).strip()) for old, new in maps.items())
                    if str(old).strip("/") and new]
    return []


def sphinx_renames(conf) -> list[tuple[str, str]]:
    """(old page, its new address) of sphinx-reredirects' `redirects` in conf.py: a docname and a URL
    beside it ("../new/page.html"); its patterns (`*`, `$source`) are left alone."""
    extensions = conf.get("extensions", [], kind=list) if conf is not None else []
    redirects = conf.get("redirects", {}, kind=dict) if "sphinx_reredirects" in extensions else {}
    return [(str(old), str(new)) for old, new in redirects.items()
            if isinstance(new, str) and "*" not in str(old) and "$" not in new and new.strip()]


def run(moved: list[tuple[PageSource, str]], pages: list[PageSource],
        renames: list[tuple[str, str]] = ()) -> MovedPages:
    """Resolve each moved page's target to a page of `pages`, each page's aliases to it, and each
    renamed file (`mkdocs_renames`, `sphinx_renames`) to the page its new address is."""
    result = MovedPages()
    by_slug: dict[str, PageSource] = {}
    for page in pages:
        by_slug.setdefault(default_slug(page.source), page)
    for page in pages:
        by_slug[page.slug] = page     # an address the front matter gives wins over the file's name
    addresses = {page.path for page in pages} | RESERVED
    for page, target in moved:
        found = _resolve(page, target, by_slug)
        if found is None or page.path in addresses:
            result.unresolved.append((page.source, target))
            continue
        result.redirects[page.path] = found
        result.moved.append((page.source, found))
    for old_file, target in renames:
        old = published_path("/" + default_slug(old_file)) if default_slug(old_file) != "index" else "/"
        found = _resolve(PageSource(old_file, default_slug(old_file), None, "", "", 1), target, by_slug)
        if found is None:
            result.renames_unresolved.append((old_file, target))     # another site's, or no page
        elif old in addresses or old in result.redirects:
            result.aliases_taken.append(("redirects", old_file))
        else:
            result.redirects[old] = found
    for page in pages:
        for alias in page.aliases:
            old = _alias_path(page, alias)
            if old is None or old == page.path or result.redirects.get(old) == page.path:
                continue      # its own address, or an old page that already says it moved here
            if old in addresses or old in result.redirects:
                result.aliases_taken.append((page.source, alias))
                continue
            result.redirects[old] = page.path
    return result


def _resolve(page: PageSource, target: str, by_slug: dict[str, PageSource]) -> str | None:
    """The URL path (and anchor) of the page `target` names, read as a generator's URL beside the
    page's address (dirhtml's `../new/` and html's `new.html` alike) or as a file beside its file."""
    if _EXTERNAL.match(target):
        return None
    path, _, anchor = unquote(target).partition("#")
    path = path.partition("?")[0]
    if path.startswith("/"):
        candidates = [path]
    else:
        url_folder = page.path if page.path == "/" else page.path + "/"
        candidates = [posixpath.join(url_folder, path), posixpath.join(posixpath.dirname(page.path), path),
                      "/" + posixpath.join(posixpath.dirname(page.source), path)]
    for candidate in candidates:
        found = by_slug.get(_slug(candidate))
        if found is not None and found.source != page.source:
            return found.path + (f"#{anchor}" if anchor else "")
    return None


def _slug(url: str) -> str:
    """The slug a generator's URL or a file's path names: "/cli/pip_install/", "../x.html", "guide/index.md"."""
    path = posixpath.normpath("/" + url.strip().lstrip("/")).lstrip("/")
    path = re.sub(r"(^|/)index\.html?$", "", path, flags=re.I)
    path = re.sub(r"\.html?$", "", path, flags=re.I)
    return default_slug(path + ".md" if path and without_suffix(path) == path else path or "index.md")


def _alias_path(page: PageSource, alias: str) -> str | None:
    """The published URL path of an old address: from the site's root when it starts with "/",
    else beside the page's folder (Hugo); None for another site's URL."""
    if _EXTERNAL.match(alias):
        return None
    path = alias.partition("#")[0].partition("?")[0]
    if not path.startswith("/"):
        path = posixpath.join(posixpath.dirname(page.path), path)
    path = posixpath.normpath("/" + path.strip().lstrip("/")).rstrip("/")
    path = re.sub(r"/index\.html?$|\.html?$", "", path, flags=re.I) or "/"
    return published_path(path) if path != "/" else "/"
