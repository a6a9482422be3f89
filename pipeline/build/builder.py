"""Content → rendered pages → passages → source gate, all in memory (no files written)."""
from __future__ import annotations

import importlib.util
import posixpath
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from ..errors import ContentError, GateFailed
from ..gates import source as source_gate
from . import assets as assets_stage
from . import content as content_stage
from .passages import PageText, build_page_text
from .render import (
    CitationLink,
    RenderedPage,
    navigation,
    parse_page,
    raise_if,
    render_body,
)


@dataclass
class BuildConfig:
    content_dir: Path
    site_title: str = "trigsight"
    language: str = "en"
    site_css: Path | None = None     # author stylesheet appended to style.css


@dataclass
class Build:
    config: BuildConfig
    pages: list[RenderedPage]
    texts: dict[str, PageText]                  # URL path → matcher's view of the page
    gate: source_gate.SourceGateResult
    assets: dict[str, assets_stage.Asset] = field(default_factory=dict)

    @property
    def passages(self):
        return [p for page in self.pages for p in self.texts[page.path].passages]


def run(config: BuildConfig) -> Build:
    """Render every page and resolve its citations; raise ContentError or GateFailed."""
    sources = content_stage.run(config.content_dir, config.language).pages
    planned_assets = assets_stage.run(site_css=config.site_css)
    label = str(config.content_dir)
    by_source = {p.source: p.path for p in sources}
    parsed, problems = [], []
    for source in sources:
        tokens, title, citations, page_problems = parse_page(source, label, by_source)
        problems.extend(page_problems)
        parsed.append((source, tokens, title, citations))
    raise_if(problems)

    titles = {source.slug: title for source, _, title, _ in parsed}
    nav = navigation(sources, titles)
    template = _page_template()
    context = {"site_title": config.site_title, "assets": assets_stage.urls(planned_assets), "nav": nav}

    def draw(links) -> list[RenderedPage]:
        drawn = []
        for source, tokens, title, citations in parsed:
            page = RenderedPage(source, title, render_body(tokens, links), citations)
            page.html = template.render(**context, title=title, path=source.path, language=source.language,
                                        description=source.description, body=page.body_html,
                                        has_h1="<h1" in page.body_html)
            drawn.append(page)
        return drawn

    # Chips are inline-blocks, blocks of their own to the matcher and never part of a
    # passage, so passages found in a first drawing without links are the passages of the
    # final drawing; checked below.
    slugs = {source.slug: source.path for source in sources}
    path_titles = {source.path: titles[source.slug] for source in sources}
    provisional = {}
    for _, _, _, citations in parsed:
        for citation in citations:
            target = source_gate.target_path(citation, slugs)
            provisional[citation.key] = CitationLink("#", path_titles.get(target, "?"), citation.text)
    first = draw(provisional)
    texts = {page.path: build_page_text(page.path, page.html) for page in first}
    gate = source_gate.run([c for page in first for c in page.citations], texts, slugs, label)
    if not gate.ok:
        raise GateFailed("source", gate.problems,
                         subjects=[(page.path, posixpath.join(label, page.source.source)) for page in first])
    final = draw(gate.links(path_titles))
    for page in final:
        again = build_page_text(page.path, page.html)
        if again.haystack != texts[page.path].haystack:
            raise ContentError("citation chips changed the page's text; this is a bug in trigsight",
                               str(Path(label) / page.source.source))
        texts[page.path] = again
    return Build(config, final, texts, gate, planned_assets)


def _page_template():
    """The site's own page template (one renderer, never two), loaded without building an app."""
    # find_spec locates the site package without importing it (and Flask with it)
    site_folder = Path(importlib.util.find_spec("trigsight_site").submodule_search_locations[0])
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(site_folder / "templates"), autoescape=True)
    return environment.get_template("page.html")
