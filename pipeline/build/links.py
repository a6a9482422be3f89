"""Where a page's links point: other pages' files however they were written, and their anchors.

Known once every page is parsed (render.parse_page gives each page's anchors); render.py rewrites
each link of the author's markdown and raw HTML through `SiteLinks.href`.
"""
from __future__ import annotations

import functools
import posixpath
import re
import unicodedata
from dataclasses import dataclass, field
from urllib.parse import unquote

from markdown_it.token import Token

from .media import ContentMedia
from .page_source import MARKDOWN_SUFFIXES, PAGE_NAME_SUFFIXES, without_suffix

_NOT_LOCAL = re.compile(r"^[a-z][a-z0-9+.-]*:|^//|^#", re.I)     # another site's, mail, or this page's anchor
SHOWN_UNRESOLVED = 5
# What the site serves besides the pages (site/: the chat, its API, MCP, assets, reports; the generated contents)
SITE_PAGES = frozenset(("/", "/chat", "/contents", "/site-contents"))
SITE_ROUTES = ("/api/", "/static/", "/reports/")
_REFERENCE = re.compile(r"[A-Za-z_][\w.:+-]*")      # a label or a dotted object name: no path, no anchor
_FILE_SUFFIXES = frozenset(MARKDOWN_SUFFIXES) | frozenset(
    ".html .htm .txt .pdf .json .yaml .yml .toml .py .js .ts .css .csv .png .jpg .jpeg .gif .svg .zip .gz".split())
_HTML_ID = re.compile(r"""<[a-z][^>]*?\s(?:id|name)\s*=\s*["']?([^"'\s>]+)""", re.I)


@dataclass
class SiteLinks:
    """Where links may point, known once every page is parsed."""

    pages_by_source: dict[str, str]         # content file → URL path
    titles: dict[str, str]                  # URL path → title
    labels: dict[str, str]                  # MyST label → URL path#label
    media: ContentMedia | None = None       # the folder's images, published as pages show them
    anchors: dict[str, list[str]] = field(default_factory=dict)   # URL path → its ids, in page order
    label_titles: dict[str, str] = field(default_factory=dict)    # MyST label → the heading it stands above
    unresolved: dict[str, set[str]] = field(default_factory=dict)  # a local link no page answers → files writing it
    sphinx: bool = False     # a Sphinx project: a link no page answers may name an object or another site's label

    def is_reference(self, href: str) -> bool:
        """Is `href`, which no page answers, what Sphinx reads as a cross-reference (MyST's
        `[text](module.Class)`, `[](genindex)`, another project's label): a name, not a path to a
        file? Sphinx shows such an unresolved reference as its text, without a link."""
        return self.sphinx and bool(_REFERENCE.fullmatch(href)) and \
            posixpath.splitext(href)[1].lower() not in _FILE_SUFFIXES

    def note_unresolved(self, href: str, source: str) -> None:
        """Remember a link of `source` that names a file or path of this site which no page answers."""
        path = href.split("#", 1)[0].split("?", 1)[0]
        if href and not _NOT_LOCAL.match(href) and path not in SITE_PAGES and not path.startswith(SITE_ROUTES):
            self.unresolved.setdefault(href, set()).add(source)

    def warning(self) -> list[str]:
        """One line naming the local links that lead to no page, and the files that write them."""
        if not self.unresolved:
            return []
        named = [f"{href} ({', '.join(sorted(files)[:2])}{' …' if len(files) > 2 else ''})"
                 for href, files in sorted(self.unresolved.items())]
        more = f" and {len(named) - SHOWN_UNRESOLVED} more" if len(named) > SHOWN_UNRESOLVED else ""
        shown = "paths left as written, Sphinx references shown as their text" if self.sphinx else "left as written"
        return [f"links to no page of this site ({shown}): {len(named)}: "
                + "; ".join(named[:SHOWN_UNRESOLVED]) + more]

    def href(self, href: str, source: str) -> str | None:
        """The site URL a link written in `source` means, or None to leave it as written.

        A path is read beside the page's file, then from the folder's root (Hugo's `{{< ref
        "docs/setup.md" >}}`); a site-absolute one (`/docs/setup/`, `/docs/setup.md`) from the
        root, rewritten only when it names a page's file."""
        if href.startswith("#") and len(href) > 1:       # on this page: an anchor another generator named
            fixed = self.anchor(self.pages_by_source.get(source, ""), href[1:])
            return f"#{fixed}" if fixed != href[1:] else None
        if re.match(r"^[a-z][a-z0-9+.-]*:|^//|^#", href, re.I) or not href:
            return None
        path, _, anchor = href.partition("#")
        path = unquote(path)    # markdown-it writes [](入門.md) as "%E5%85%A5%E9%96%80.md", [](<my page.md>) with "%20"
        if path.startswith("/"):
            return self._page_at(posixpath.normpath(path.lstrip("/")) if path.strip("/") else "index.md", anchor) \
                or self._page_addressed(path, anchor) or self._from_repository_root(path, anchor)
        folder = posixpath.dirname(source)
        # "../" past the folder's root stays at the root, as browsers and Sphinx's :doc: read it
        target = posixpath.normpath("/" + posixpath.join(folder, path)).lstrip("/") if path else source
        found = self._page_at(target, anchor)
        if found is None and folder and path and not path.startswith("."):
            found = self._page_at(posixpath.normpath(path), anchor)
        if found is None and not anchor and path in self.labels:
            return self.labels[path]    # MyST: [text](label), also `labels/stability-policy` (Black's)
        return found

    def _page_addressed(self, path: str, anchor: str) -> str | None:
        """The page served at site-absolute `path` written with its file's suffix (`/use/mcp.md`,
        `/use/mcp.html`): a page whose address is not its file's (VitePress's rewrites) is linked so."""
        address = "/" + re.sub(r"\.(?:html?|md)$", "", posixpath.normpath(path).strip("/"), flags=re.I)
        if address not in self.addresses:
            return None
        return address + (f"#{self.anchor(address, anchor)}" if anchor else "")

    def _from_repository_root(self, path: str, anchor: str) -> str | None:
        """A markdown file named from the repository's root, as GitHub and docsify read `/docs/api/Client.md`
        when the content folder is `docs/`: the page whose file is the path without its first folders."""
        if not path.lower().endswith(MARKDOWN_SUFFIXES):
            return None
        parts = posixpath.normpath(path).strip("/").split("/")
        return next((found for cut in range(1, len(parts))
                     if (found := self._page_at("/".join(parts[cut:]), anchor)) is not None), None)

    @functools.cached_property
    def addresses(self) -> frozenset[str]:
        return frozenset(self.pages_by_source.values())

    def _page_at(self, target: str, anchor: str) -> str | None:
        """The URL (with its anchor) of the page whose file `target` names, with or without its suffix."""
        file = named_file(target, self.pages_by_source)
        if file is None:
            return None
        page = self.pages_by_source[file]
        return page + (f"#{self.anchor(page, anchor)}" if anchor else "")

    def anchor(self, path: str, anchor: str) -> str:
        """The id on page `path` that `anchor` means: itself when the page has it, else the first id
        with the same letters and digits (another generator's slug of the same heading)."""
        ids = self.anchors.get(path, [])
        if not ids or anchor in ids:
            return anchor
        wanted = loose_anchor(anchor)
        return next((i for i in ids if wanted and loose_anchor(i) == wanted), anchor)

    def by_file_name(self, name: str) -> str | None:
        """The page whose file is called `name` (any folder, any markdown suffix), if only one is."""
        wanted = name.strip().lower()
        found = [path for source, path in self.pages_by_source.items()
                 if without_suffix(posixpath.basename(source)).lower() == wanted]
        return found[0] if len(found) == 1 else None


def named_file(target: str, files) -> str | None:
    """The content file among `files` that a link's path names: as written, with any page suffix
    for `.html` or none, or the index or README of the folder it names. (A `.txt` file that is no page
    is no other page: `notes.txt` never names `notes.md`.)"""
    stem = re.sub(r"\.html?$", "", target, flags=re.I)
    stem = without_suffix(stem) if stem.lower().endswith(MARKDOWN_SUFFIXES) else stem
    for candidate in (target, *(stem + ending for ending in PAGE_NAME_SUFFIXES),
                      *(f"{stem}/{head}{ending}" for head in ("index", "README") for ending in PAGE_NAME_SUFFIXES)):
        if candidate in files:
            return candidate
    return None


def loose_anchor(anchor: str) -> str:
    """An anchor's letters and digits, lower case: what the slugs of one heading by different
    generators share ("processexitcode_1" by Node.js's tool, "processexitcode-1" by GitHub's,
    "process-exitcode" by an older rule)."""
    return "".join(c for c in unquote(anchor).lower() if unicodedata.category(c)[0] in "LN")


def page_anchors(tokens: list[Token]) -> list[str]:
    """The ids of a page's headings, attribute lists and MyST targets, and of its raw HTML
    (`<a id="legacy">`, `<a name="x">`), in page order."""
    found: list[str] = []
    for token in tokens:
        for part in (token, *(token.children or ())):
            if part.type == "myst_target":
                found.append(part.content)
            elif part.attrGet("id"):
                found.append(str(part.attrGet("id")))
            elif part.type in ("html_inline", "html_block"):
                found += _HTML_ID.findall(part.content)
    return list(dict.fromkeys(found))
