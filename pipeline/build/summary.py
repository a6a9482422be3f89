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
from urllib.parse import unquote

from .content import PageSource, without_suffix
from .links import named_file

_LINK = re.compile(r"\[[^\]\n]*\]\(<?([^)<>\s]+)>?(?:\s+\"[^\"]*\")?\)")


def is_summary(page: PageSource) -> bool:
    """Is the page the book's summary: SUMMARY.md at the folder's root?"""
    return "/" not in page.source and without_suffix(page.source).lower() == "summary"


def ordered(pages: list[PageSource], summary: PageSource) -> list[PageSource]:
    """`pages` with the order `summary` gives each page it links to that has none of its own."""
    by_file = {page.source: page for page in pages}
    place: dict[str, int] = {}
    for match in _LINK.finditer(summary.body):
        target = unquote(match.group(1).split("#", 1)[0])
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:|^/", target, re.I):
            continue
        file = named_file(posixpath.normpath(target), by_file)
        if file is not None:
            place.setdefault(file, len(place) + 1)
    return [dataclasses.replace(page, order=place[page.source])
            if page.order is None and page.source in place else page for page in pages]
