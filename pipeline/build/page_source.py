"""One page's source as the content stage reads it, and how a page file's name becomes its address."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..publishing.paths import url_path
from . import sphinx_conf
from .included_files import origin_of
from .slugs import slug_of

MARKDOWN_SUFFIXES = tuple(sphinx_conf.KINDS)
# A page's file name without its suffix: also a Sphinx project's own suffixes (Django's `.txt`)
PAGE_NAME_SUFFIXES = MARKDOWN_SUFFIXES + sphinx_conf.OTHER_SUFFIXES
_MARKDOWN_SUFFIX = re.compile("(?:%s)$" % "|".join(map(re.escape, PAGE_NAME_SUFFIXES)), re.I)


@dataclass(frozen=True)
class PageSource:
    """One markdown file, parsed just enough to know where it will live."""

    source: str            # path relative to the content folder, with "/" separators
    slug: str              # "index" for the home page
    title: str | None      # None until the renderer finds the first heading
    language: str
    body: str              # markdown after the front matter
    body_line: int         # 1-based line in the file where `body` starts
    description: str = ""
    nav_label: str = ""    # shorter title for navigation ("" = the title)
    order: float | None = None
    unlisted: bool = False  # published, but kept out of navigation
    toc: bool = True        # an in-page table of contents on long pages
    # Where `body`'s lines come from when not this file's own lines one for one (includes.py: other
    # files; notebooks.py: the notebook's JSON lines): (line index in body, file, that file's line),
    # each until the next; empty when `body` is this file's text from `body_line` on.
    origins: tuple[tuple[int, str, int], ...] = ()
    moved_to: str = ""                 # where the page says it moved (moved_pages.py): not a page then
    aliases: tuple[str, ...] = ()      # its old addresses, answered with a redirect to it

    def locate(self, index: int) -> tuple[str, int]:
        """(file relative to the content folder, 1-based line) of the body's line `index` (0-based)."""
        return origin_of(self.origins, index, self.source, self.body_line)

    @property
    def path(self) -> str:
        """The URL path the page is served at."""
        return "/" if self.slug == "index" else url_path(self.slug)


def without_suffix(path: str) -> str:
    """`path` without its page suffix (.md, .rst, …, or a Sphinx project's .txt), if it has one."""
    return _MARKDOWN_SUFFIX.sub("", path)


def default_slug(relative: str) -> str:
    """The slug of a file without one in its front matter (slugs.slug_of its path without the suffix)."""
    return slug_of(without_suffix(relative))
