"""A book's `SUMMARY.md` (mdBook, GitBook, Honkit): the reading order of its pages, not a page.

An mdBook or GitBook folder lists its chapters, in reading order, as links in `SUMMARY.md` at
its root. Each page it links to that sets no order of its own in its front matter takes its
place in that list as its order, so the navigation and the previous/next links follow the
book; `SUMMARY.md` itself is not published, and a warning line says it was read. A draft
chapter (`[Title]()`) and a link to no page are passed over.
"""
from __future__ import annotations

import dataclasses
import posixpath
import re
from pathlib import Path
from urllib.parse import unquote

from .content import MARKDOWN_SUFFIXES, PageSource, without_suffix
from .links import named_file

_LINK = re.compile(r"\[[^\]\n]*\]\(<?([^)<>\s]+)>?(?:\s+\"[^\"]*\")?\)")


def is_summary(source: str) -> bool:
    """Is the content file at `source` (relative) the book's summary: SUMMARY.md at the folder's root?"""
    return "/" not in source and without_suffix(source).lower() == "summary" and source.lower().endswith(MARKDOWN_SUFFIXES)


def ordered(pages: list[PageSource], summary: Path) -> list[PageSource]:
    """`pages` with the order `summary` gives each page it links to that has none of its own."""
    by_file = {page.source: page for page in pages}
    place: dict[str, int] = {}
    for match in _LINK.finditer(summary.read_text("utf-8", "replace")):
        target = unquote(match.group(1).split("#", 1)[0])
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:|^/", target, re.I):
            continue
        file = named_file(posixpath.normpath(target), by_file)
        if file is not None:
            place.setdefault(file, len(place) + 1)
    return [dataclasses.replace(page, order=place[page.source])
            if page.order is None and page.source in place else page for page in pages]
