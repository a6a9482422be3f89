"""Navigation for a site of any size, from its folders (pure).

Pages sit in their folders' tree, each folder headed by its `index.md` / `README.md`,
siblings in front-matter order, then by title. Every page shows the same compact chrome:
the site's name, a link to the contents page (every listed page, nested by folder), the
breadcrumb of folder heads above it, and the previous and next page in contents order.
So every page is one click from the contents page and two from any other page, and a page
added elsewhere changes only its neighbours' previous/next links and the contents page.

The labels of links that name other pages (breadcrumbs, previous/next) and the headings of
the in-page contents are drawn by CSS from `aria-label` (style.css `.label`): a browser's
find-in-page and text-fragment matcher never see generated content, so chrome that names
other pages adds no text that a passage's directive could collide with, and a passage's
proof does not depend on what other pages are called.
"""
from __future__ import annotations

import math
import posixpath
import re
from dataclasses import dataclass, field
from html import escape

from .categories import Category
from .page_source import PageSource, without_suffix

HEAD_NAMES = ("index", "readme", "_index")
_NUMBER_PREFIX = re.compile(r"^(\d+)\s*[-_. ]")
_DATE_PREFIX = re.compile(r"^\d{4}[-_.]\d{1,2}[-_.]\d{1,2}")
TOC_MIN_HEADINGS = 3     # an in-page table of contents once a page has this many h2/h3


@dataclass
class Folder:
    name: str
    head: PageSource | None = None
    pages: list[PageSource] = field(default_factory=list)
    folders: dict[str, "Folder"] = field(default_factory=dict)


@dataclass(frozen=True)
class Entry:
    """One listed page in contents order."""

    source: PageSource
    title: str           # navigation label
    depth: int           # 0 for the home page and top-level pages


@dataclass
class Navigation:
    entries: list[Entry]
    contents_path: str                   # the generated contents page ("/" when the site has no home page)
    crumbs: dict[str, list[Entry]]       # URL path → folder heads above it, home first

    def __post_init__(self) -> None:
        # Each entry's path → its place (the first where a path repeats): looked up once a page.
        self._places: dict[str, int] = {}
        for at, entry in enumerate(self.entries):
            self._places.setdefault(entry.source.path, at)

    def neighbours(self, path: str) -> tuple[Entry | None, Entry | None]:
        at = self._places.get(path)
        if at is None:
            return None, None
        return (self.entries[at - 1] if at > 0 else None,
                self.entries[at + 1] if at + 1 < len(self.entries) else None)

    def context(self, path: str) -> dict:
        """What base.html draws for the page at `path`."""
        before, after = self.neighbours(path)
        link = lambda e: {"path": e.source.path, "title": e.title, "language": e.source.language} if e else None
        return {"contents_path": self.contents_path, "crumbs": [link(e) for e in self.crumbs.get(path, [])],
                "previous": link(before), "next": link(after)}


def numbered(name: str) -> float | None:
    """The number a file's or folder's name starts with, which orders it (Docusaurus, MkDocs and
    Hugo folders: `01-intro.md`, `2_setup/`); None without one, or for a date (`2024-01-05-post.md`)."""
    match = _NUMBER_PREFIX.match(name)
    return None if match is None or _DATE_PREFIX.match(name) else float(match.group(1))


def _is_head(source: PageSource) -> bool:
    stem = posixpath.splitext(posixpath.basename(source.source))[0].lower()
    return stem in HEAD_NAMES


def build(pages: list[PageSource], titles: dict[str, str], contents_slug: str = "contents",
          categories: dict[str, Category] | None = None) -> Navigation:
    """The navigation of `pages` (titles: slug → title); unlisted pages are left out of it.
    `categories` (folder → Docusaurus category) order folders and name their head pages."""
    categories = categories or {}
    root = Folder("")
    for page in pages:
        if page.unlisted:
            continue
        parts = posixpath.dirname(page.source).split("/") if "/" in page.source else []
        folder = root
        for part in parts:
            folder = folder.folders.setdefault(part, Folder(part))
        if _is_head(page) and folder.head is None:
            folder.head = page
        else:
            folder.pages.append(page)
    def category(page: PageSource) -> Category:
        return categories.get(posixpath.dirname(page.source), Category()) if _is_head(page) else Category()

    label = lambda p: p.nav_label or category(p).label or titles[p.slug]
    has_home = any(p.slug == "index" for p in pages)

    def order_of(page: PageSource) -> float | None:
        """Front matter's order, else the number the file's name starts with (`02-setup.md`)."""
        return page.order if page.order is not None else numbered(without_suffix(posixpath.basename(page.source)))

    def key_of_page(page: PageSource):
        order = order_of(page)
        return (order if order is not None else math.inf, label(page).casefold(), page.source)

    def key_of_folder(folder: Folder, path: str):
        place = categories.get(path, Category())
        own = place.position if place.position is not None else numbered(folder.name)
        if folder.head is not None:
            key = key_of_page(folder.head)
            return key if folder.head.order is not None or own is None else (own, *key[1:])
        # without a head page, a folder stands where its first ordered page does (a book's chapter_1/
        # after chapter_1.md, SUMMARY.md's order)
        first = min((o for o in map(order_of, folder.pages) if o is not None), default=math.inf)
        return (own if own is not None else first, (place.label or folder.name).casefold(), folder.name)

    entries: list[Entry] = []
    crumbs: dict[str, list[Entry]] = {}

    def walk(folder: Folder, depth: int, above: list[Entry], path: str = "") -> None:
        heads = list(above)
        if folder.head is not None:
            entry = Entry(folder.head, label(folder.head), max(depth - 1, 0))
            entries.append(entry)
            crumbs[folder.head.path] = list(above)
            heads.append(entry)
        inside = lambda name: f"{path}/{name}" if path else name
        items = [(key_of_page(p), 0, p) for p in folder.pages] + \
                [(key_of_folder(f, inside(f.name)), 1, f) for f in folder.folders.values()]
        for _, is_folder, item in sorted(items, key=lambda x: (x[0], x[1])):
            if is_folder:   # a folder without a head page lists its pages among its siblings
                walk(item, depth + 1 if item.head is not None else depth, heads, inside(item.name))
            else:
                entries.append(Entry(item, label(item), depth))
                crumbs[item.path] = list(heads)

    walk(root, 0, [])
    home_entries = [e for e in entries if e.source.slug == "index"]
    for path, chain in crumbs.items():   # the home page heads every trail, wherever its file is
        if home_entries and path != "/" and (not chain or chain[0].source.slug != "index"):
            chain.insert(0, home_entries[0])
    return Navigation(entries, f"/{contents_slug}" if has_home else "/", crumbs)


def contents_html(navigation: Navigation) -> str:
    """The contents page's list: every listed page, nested by folder depth."""
    out: list[str] = []
    depth = -1
    for entry in navigation.entries:
        while depth < entry.depth:
            out.append('<ul class="contents">' if depth < 0 else "<ul>")
            depth += 1
        while depth > entry.depth:
            out.append("</li></ul>")
            depth -= 1
        if out[-1] not in ('<ul class="contents">', "<ul>"):
            out.append("</li>")
        lang = escape(entry.source.language)
        out.append(f'<li><a href="{escape(entry.source.path)}" lang="{lang}">{escape(entry.title)}</a>')
    while depth >= 0:
        out.append("</li></ul>")
        depth -= 1
    return "\n".join(out)


def page_toc(source: PageSource, headings: list[tuple[int, str, str]]) -> list[dict]:
    """The in-page table of contents of a long page (empty on short ones or when turned off)."""
    if not source.toc or len(headings) < TOC_MIN_HEADINGS:
        return []
    return [{"level": level, "id": identifier, "title": text} for level, identifier, text in headings]
