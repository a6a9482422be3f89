"""Which pages keep their address: the index over a README, a folder's page over a file of its name,
Sphinx's root document as the home page; and the addresses two pages claim (pure)."""
from __future__ import annotations

import dataclasses
from pathlib import Path

from ..errors import Problem
from ..publishing.paths import RESERVED
from .page_source import PageSource, default_slug, without_suffix


def root_doc_as_home(pages: list[PageSource], root_doc: str) -> list[PageSource]:
    """Sphinx's root document is the home page when the folder has no index page of its own."""
    if root_doc == "index" or any(page.slug == "index" for page in pages):
        return pages
    return [dataclasses.replace(page, slug="index") if without_suffix(page.source) == root_doc and
            page.slug == default_slug(page.source) else page for page in pages]


def without_shadowed(pages: list[PageSource]) -> tuple[list[PageSource], list[str], list[str]]:
    """The pages without those another page takes the address of, with each README.md whose folder also
    has an index.md (or Hugo's _index.md), and each `x.md` beside a folder `x/` with its own page.
    Both would be the folder's page. As MkDocs does, the index wins: a repository keeps a README for
    readers browsing the folder on GitHub, and the index for the site. MkDocs writes `x.md` and
    `x/index.md` to one file, so only one survives there too: the folder's page, whose pages it heads
    (FastAPI's Portuguese docs kept an old `deployment.md` beside `deployment/index.md`)."""
    def stem(page: PageSource) -> str:
        return without_suffix(page.source.rsplit("/", 1)[-1]).lower()
    indexed = {page.slug for page in pages if stem(page) in ("index", "_index")}
    readmes = [page for page in pages if stem(page) == "readme" and page.slug in indexed]
    kept = [page for page in pages if page not in readmes]
    heads = {page.slug for page in kept if stem(page) in ("index", "_index", "readme") and "/" in page.source
             and page.slug == default_slug(page.source)}
    files = [page for page in kept if stem(page) not in ("index", "_index", "readme") and page.slug in heads
             and page.slug == default_slug(page.source)]
    return [page for page in kept if page not in files], [p.source for p in readmes], [p.source for p in files]


def duplicate_slugs(pages: list[PageSource], content_dir: Path) -> list[Problem]:
    seen: dict[str, PageSource] = {}
    problems = []
    for page in pages:
        if page.path in RESERVED:
            problems.append(Problem(str(content_dir / page.source), 1,
                                    f"its address {page.path} is the site's own endpoint; give the page another "
                                    "slug in its front matter (slug: ...)"))
        elif page.slug in seen:
            first = seen[page.slug]
            problems.append(Problem(str(content_dir / page.source), 1,
                                    f"duplicate slug {page.slug!r} (also used by {first.source})"))
        else:
            seen[page.slug] = page
    return problems
