"""Content → rendered pages → passages → source gate, all in memory (no files written)."""
from __future__ import annotations

import dataclasses
import importlib.util
import posixpath
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import jinja2

from ..errors import ContentError, GateFailed
from ..gates import source as source_gate
from . import assets as assets_stage
from . import categories as categories_stage
from . import content as content_stage
from . import includes, navigation, page_source, page_text_cache, reading_order, site_name, sphinx_conf
from .links import SiteLinks
from .media import ContentMedia
from .passages import PageText, build_page_text
from .render import (
    CitationLink,
    ParsedPage,
    RenderedPage,
    parse_page,
    raise_if,
    render_body,
    resolve_links,
)


@dataclass
class BuildConfig:
    content_dir: Path
    site_title: str = ""             # "": the name the folder's generator gives the site (site_name.py)
    language: str = ""               # "": the language the folder's generator states, else en
    site_css: Path | None = None     # author stylesheet appended to style.css
    cache_dir: Path | None = None    # pages' matcher views kept between releases; None: read every page


@dataclass
class Build:
    config: BuildConfig
    pages: list[RenderedPage]
    texts: dict[str, PageText]                  # URL path → matcher's view of the page
    gate: source_gate.SourceGateResult
    assets: dict[str, assets_stage.Asset] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)     # one line each, said once per release
    excluded: list[str] = field(default_factory=list)     # draft / unpublished files
    redirects: dict[str, str] = field(default_factory=dict)   # old URL path → a page's URL path (moved_pages.py)

    @property
    def authored(self) -> list[RenderedPage]:
        """The pages written in markdown (not the generated contents page)."""
        return [page for page in self.pages if not page.generated]

    @property
    def passages(self):
        return [p for page in self.pages for p in self.texts[page.path].passages]


def run(config: BuildConfig, progress: Callable[[int, int], None] | None = None) -> Build:
    """Render every page and resolve its citations; raise ContentError or GateFailed.

    `progress(done, total)` hears of the page steps (parse, then two drawings and readings).
    """
    conf = sphinx_conf.read(config.content_dir)    # for the pages and the site's name alike
    named = site_name.run(config.content_dir, conf) if not (config.site_title and config.language) \
        else site_name.SiteName("")
    config = dataclasses.replace(config, site_title=config.site_title or named.title or site_name.DEFAULT,
                                 language=config.language or named.language or site_name.DEFAULT_LANGUAGE)
    content = content_stage.run(config.content_dir, config.language, conf)
    included = includes.run(config.content_dir, content.pages)
    root_doc = content.sphinx.root_doc if content.sphinx else "index"
    order = reading_order.run(config.content_dir, included.pages, root_doc)
    sources = order.pages
    steps, done = 5 * len(sources) + 4, 0   # parse each; draw and read each twice, with contents

    def step() -> None:
        nonlocal done
        done += 1
        progress and progress(done, steps)
    planned_assets = assets_stage.run(site_css=config.site_css)
    label = str(config.content_dir)
    parsed: list[ParsedPage] = []
    problems = []
    for source in sources:
        page, page_problems = parse_page(source, label)
        problems.extend(page_problems)
        parsed.append(page)
        step()
    raise_if(problems)

    titles = {page.source.slug: page.title for page in parsed}
    media = ContentMedia(config.content_dir)
    # a link to a page that moved goes to where it is now
    files = {**content.moved.moved_sources, **{p.source: p.path for p in sources}}
    site = SiteLinks(files, {p.source.path: p.title for p in parsed},
                     {lab: f"{p.source.path}#{lab}" for p in parsed for lab in p.labels}, media,
                     {p.source.path: p.anchors for p in parsed},
                     {label: title for p in parsed for label, title in p.label_titles.items()},
                     sphinx=content.sphinx is not None)
    for page in parsed:
        resolve_links(page, site)
    taken = {source.slug for source in sources}
    folders = categories_stage.run(config.content_dir)
    nav = navigation.build(sources, titles, "contents" if "contents" not in taken else "site-contents",
                           {**order.folders, **folders.folders})
    parsed.append(_contents_page(nav, config))
    template = _page_template()
    context = {"site_title": config.site_title, "assets": assets_stage.urls(planned_assets)}

    def draw(links) -> list[RenderedPage]:
        drawn = []
        for page in parsed:
            generated = page.source.source == ""
            body = page.tokens if generated else render_body(page, site, links)
            rendered = RenderedPage(page.source, page.title, body, page.citations, generated=generated)
            rendered.html = template.render(
                **context, **nav.context(page.source.path), title=page.title, path=page.source.path,
                language=page.source.language, description=page.source.description,
                **_split_at_h1(rendered.body_html), generated=generated,
                toc=navigation.page_toc(page.source, page.headings))
            drawn.append(rendered)
            step()
        return drawn

    # Chips are inline-blocks, blocks of their own to the matcher and never part of a
    # passage, so passages found in a first drawing without links are the passages of the
    # final drawing; checked below.
    slugs = {page.source.slug: page.source.path for page in parsed}
    path_titles = {page.source.path: page.title for page in parsed}
    provisional = {}
    for page in parsed:
        for citation in page.citations:
            target = source_gate.target_path(citation, slugs)
            provisional[citation.key] = CitationLink("#", path_titles.get(target, "?"), citation.text)
    first = draw(provisional)
    read = page_text_cache.cached(config.cache_dir, build_page_text)
    texts = {}
    for page in first:
        texts[page.path] = _page_text(page, read)
        step()
    gate = source_gate.run([c for page in first for c in page.citations], texts, slugs, label)
    if not gate.ok:
        raise GateFailed("source", gate.problems,
                         subjects=[(page.path, "" if page.generated else posixpath.join(label, page.source.source))
                                   for page in first])
    final = draw(gate.links(path_titles))
    first_html = {page.path: page.html for page in first}
    for page in final:
        if page.html == first_html[page.path]:      # no chip on the page changed: same reading
            step()
            continue
        again = _page_text(page, read)
        if again.haystack != texts[page.path].haystack:
            raise ContentError("citation chips changed the page's text; this is a bug in trigsight",
                               str(Path(label) / page.source.source))
        texts[page.path] = again
        step()
    warnings = (content.warnings + included.warnings + order.warnings + folders.warnings
                + _directive_warnings(parsed) + media.warning() + site.warning() + _title_only_warning(final, texts))
    if named.origin and config.site_title == named.title:
        warnings.append(f"site named {named.title!r}, as {named.origin} says (TRIGSIGHT_SITE_TITLE names it otherwise)")
    if named.language_origin and config.language == named.language:
        warnings.append(f"pages that tell no language of their own are in {named.language!r}, as "
                        f"{named.language_origin} says (TRIGSIGHT_LANGUAGE names another)")
    if content.excluded:
        warnings.append(f"not published (draft: true, published: false or in _drafts/): {', '.join(content.excluded)}")
    return Build(config, final, texts, gate, {**planned_assets, **media.assets}, warnings, content.excluded,
                 content.moved.redirects)


def _split_at_h1(body: str) -> dict:
    """The body around its first h1, so the in-page contents can follow the title."""
    at = body.find("</h1>") if "<h1" in body else -1
    if at < 0:
        return {"has_h1": False, "body_head": "", "body_tail": body}
    return {"has_h1": True, "body_head": body[:at + 5], "body_tail": body[at + 5:]}


def _page_text(page: RenderedPage, read=build_page_text) -> PageText:
    """The matcher's view of a page; a generated page (contents) has nothing to cite."""
    text = read(page.path, page.html)
    if page.generated:
        text.passages, text.skipped, text.main_text = [], [], ""
    return text


def _contents_page(nav: navigation.Navigation, config: BuildConfig) -> ParsedPage:
    """The generated contents page: at `/` when the folder has no home page."""
    slug = "index" if nav.contents_path == "/" else nav.contents_path.strip("/")
    title = "Contents"
    source = page_source.PageSource("", slug, title, config.language, "", 1, "", "", None, True, False)
    # `tokens` carries the finished body HTML for a generated page
    return ParsedPage(source, navigation.contents_html(nav), title, [], [], [], {})


def _title_only_warning(pages: list[RenderedPage], texts: dict[str, PageText]) -> list[str]:
    """One line naming the pages with nothing to cite but their title: most often a Sphinx page of autodoc
    directives (Celery's module pages), whose code trigsight does not import, or an include not read; a
    page of code blocks only is named too, as a reader's question can quote nothing of it."""
    bare = [page.source.source for page in pages if not page.generated
            and all(p.text.strip() == (page.title or "").strip() for p in texts[page.path].passages)]
    if not bare:
        return []
    return [f"pages with nothing to cite but their title (autodoc of code that is not imported, an include not "
            f"read, only code, an empty file), published as they are: {len(bare)}: "
            + ", ".join(bare[:5]) + (", …" if len(bare) > 5 else "")]


def _directive_warnings(parsed: list[ParsedPage]) -> list[str]:
    lines = []
    for key, said in (("text_directives", "directives shown as their text"),
                      ("silent_directives", "directives with nothing to show (navigation, includes, autodoc)"),
                      ("command_directives", "commands whose output only the site generator inserts, shown as the command"),
                      ("generator_tags", "template tags only the site generator can fill in, not shown"),
                      ("template_expressions", "template expressions shown as written")):
        files: dict[str, list[str]] = {}
        for page in parsed:
            for name in sorted(page.notes.get(key, ())):
                files.setdefault(name, []).append(page.source.source)
        if files:
            lines.append(f"{said}: " + "; ".join(f"{name} ({content_stage.shorten(where)})"
                                                  for name, where in sorted(files.items())))
    return lines


def _page_template():
    """The site's own page template (one renderer, never two), loaded without building an app."""
    # find_spec locates the site package without importing it (and Flask with it)
    site_folder = Path(importlib.util.find_spec("trigsight_site").submodule_search_locations[0])
    environment = jinja2.Environment(loader=jinja2.FileSystemLoader(site_folder / "templates"), autoescape=True)
    return environment.get_template("page.html")
