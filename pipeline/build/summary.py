"""A book's `SUMMARY.md` (mdBook, GitBook, Honkit): the reading order of its pages, not a page.

An mdBook or GitBook folder lists its chapters, in reading order, as links in `SUMMARY.md` at
its root, each with the label its sidebar shows. `reading_order` places the pages by that list;
`SUMMARY.md` itself is not published. A draft chapter (`[Title]()`) and a link to no page are
passed over. docsify's `_sidebar.md` is the same list of links (`reading_order` reads it too).
"""
from __future__ import annotations

import posixpath
import re
from urllib.parse import unquote

from .links import named_file
from .page_source import PageSource, without_suffix
from .toc_files import Listing

_LINK = re.compile(r"\[([^\]\n]*)\]\(<?([^)<>\s]+)>?(?:\s+\"[^\"]*\")?\)")


def is_summary(page: PageSource) -> bool:
    """Is the page the book's summary: SUMMARY.md at the folder's root?"""
    return "/" not in page.source and without_suffix(page.source).lower() == "summary"


def listing(pages: list[PageSource], summary: PageSource) -> Listing:
    """The pages `summary` links to, in its order, with its link texts as their labels."""
    return links_listing(summary.body, summary.source, {page.source: page for page in pages})


def links_listing(text: str, origin: str, files) -> Listing:
    """The files among `files` that the links of a markdown list name, in order, labelled by their texts
    (a leading `/` is the folder's root: docsify's `_sidebar.md` writes `[Guide](/guide)`)."""
    found = Listing(origin)
    for match in _LINK.finditer(text):
        target = unquote(match.group(2).split("#", 1)[0]).lstrip("/")
        if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
            continue
        found.add(named_file(posixpath.normpath(target), files), re.sub(r"`|\*\*", "", match.group(1)))
    return found
