"""The reading order a docs folder already states, given to its pages (pure).

A folder states its order in one of these, the first found wins:
1. a book's `SUMMARY.md` (mdBook, GitBook: `summary`), which is then not published;
2. its generator's table of contents (`toc_files`: MkDocs' `nav:`, MyST's `myst.yml`, `_toc.yml`,
   Mintlify's `docs.json`), Docusaurus's `sidebars.js` (`sidebars`), or docsify's `_sidebar.md`;
3. Sphinx `{toctree}` directives in its MyST pages, followed depth first from the home page, as
   Sphinx orders its documents (`Title <path>` entries, `:glob:` patterns);
4. a listing file in each folder (`folder_meta`: Nextra, Fumadocs, mkdocs-awesome-pages), which
   also places subfolders among their siblings.

Each listed page that sets no order in its front matter takes its place in the list as its
order, and the list's label for it as its navigation label when its front matter gives none. So
the contents page and the previous/next links follow the author's own table of contents; the
folders still make the tree. Pages the list leaves out keep their own order and follow the
listed ones among their siblings; a warning line names the list and what it left out.
"""
from __future__ import annotations

import dataclasses
import fnmatch
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import folder_meta, sidebars, summary, toc_files
from .categories import Category
from .content import shorten
from .fenced_directives import toctree_entry
from .links import named_file
from .page_source import PageSource, without_suffix
from .toc_files import Listing

_TOCTREE = re.compile(r"^ {0,3}(`{3,}|:{3,})\s*\{toctree\}(.*)$")


@dataclass
class ReadingOrder:
    pages: list[PageSource]
    warnings: list[str] = field(default_factory=list)
    origin: str = ""              # what the order was read from ("" when the folder states none)
    folders: dict[str, Category] = field(default_factory=dict)   # folder → its place, from folder listing files


def run(content_dir: Path, pages: list[PageSource], root_doc: str = "index") -> ReadingOrder:
    """The pages with the order the folder states; toctrees are followed from `root_doc` (Sphinx's
    conf.py may name another) or else the home page."""
    book = next((page for page in pages if summary.is_summary(page)), None)
    if book is not None and len(pages) > 1:
        pages = [page for page in pages if page is not book]
        listing = summary.listing(pages, book)
        listing.warnings.append(f"{book.source} read as the reading order of the pages it links to (mdBook, GitBook), "
                                "not published")
    else:
        files = {page.source: page for page in pages}
        listing = (toc_files.run(content_dir, files) or sidebars.run(content_dir, files) or _docsify(content_dir, files)
                   or toctrees(pages, root_doc))
    if listing is None or not listing.files:
        return _folder_listings(content_dir, pages, listing.warnings if listing else [])
    place = {file: at for at, file in enumerate(listing.files, start=1)}
    ordered = [dataclasses.replace(page, order=page.order if page.order is not None else place.get(page.source),
                                   nav_label=page.nav_label or listing.labels.get(page.source, ""))
               for page in pages]
    warnings = list(listing.warnings)
    if listing.files and book is None:
        left = [page.source for page in pages if page.source not in place and not page.unlisted]
        warnings.append(f"reading order read from {listing.origin}: {len(place)} pages" +
                        (f"; not in it, so after the listed ones: {shorten(left)}" if left else ""))
    return ReadingOrder(ordered, warnings, listing.origin)


def _docsify(content_dir: Path, files: dict) -> Listing | None:
    """docsify's `_sidebar.md` at the folder's root (a partial, so never a page itself)."""
    sidebar = Path(content_dir) / "_sidebar.md"
    try:
        return summary.links_listing(sidebar.read_text("utf-8"), "_sidebar.md", files) if sidebar.is_file() else None
    except (OSError, UnicodeDecodeError) as error:
        return Listing("_sidebar.md", warnings=[f"_sidebar.md ignored, not readable ({type(error).__name__})"])


def _folder_listings(content_dir: Path, pages: list[PageSource], warnings: list[str]) -> ReadingOrder:
    meta = folder_meta.run(content_dir, pages)
    if meta.files:
        warnings = warnings + [f"reading order read from {len(meta.files)} folder listing "
                               f"file{'s' if len(meta.files) > 1 else ''}: {shorten(meta.files)}"]
    return ReadingOrder(meta.pages, warnings + meta.warnings, "folder listings" if meta.files else "", meta.folders)


def toctrees(pages: list[PageSource], root_doc: str = "index") -> Listing | None:
    """The pages the `{toctree}` directives list, depth first from the root document (the home page
    unless conf.py names another), then from the home page (None: no directive)."""
    trees = {page.source: entries for page in pages if (entries := toctree_entries(page.body))}
    if not trees:
        return None
    files = {page.source for page in pages}
    listing = Listing("{toctree} directives")
    seen: set[str] = set()

    def visit(source: str) -> None:
        seen.add(source)
        for label, target, is_glob in trees.get(source, []):
            folder = posixpath.dirname(source)
            path = target.lstrip("/") if target.startswith("/") else posixpath.normpath(posixpath.join(folder, target))
            found = sorted(f for f in files if fnmatch.fnmatch(without_suffix(f), path)) if is_glob else \
                [named_file(path, files)]
            for file in found:
                if file is not None and file not in seen:
                    listing.add(file, label)
                    visit(file)

    start = next((page.source for page in pages if without_suffix(page.source) == root_doc), None)
    home = next((page.source for page in pages if page.slug == "index"), None)
    for root in [first for first in (start, home) if first] + sorted(trees):
        if root not in seen:
            listing.add(root)
            visit(root)
    return listing


def toctree_entries(body: str) -> list[tuple[str, str, bool]]:
    """(label, target, is a glob) of each entry of every `{toctree}` in a MyST page, in order."""
    if "{toctree}" not in body:
        return []
    entries: list[tuple[str, str, bool]] = []
    lines = iter(body.splitlines())
    for line in lines:
        opening = _TOCTREE.match(line)
        if not opening:
            continue
        fence, inside = opening.group(1), []
        for line in lines:
            if line.strip().startswith(fence[0] * len(fence)) and not line.strip().strip(fence[0]):
                break
            inside.append(line.strip())
        if inside and inside[0] == "---":                        # options as YAML between --- lines
            end = inside.index("---", 1) if "---" in inside[1:] else len(inside)
            options, inside = inside[1:end], inside[end + 1:]
        else:
            options = [item for item in inside if item.startswith(":")]
        is_glob = any(re.match(r"^:?glob:?\s*(?:true)?\s*$", option, re.I) for option in options)
        for label, target in filter(None, map(toctree_entry, inside)):
            if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):      # another site's page
                entries.append((label, target, is_glob and any(c in target for c in "*?[")))
    return entries
