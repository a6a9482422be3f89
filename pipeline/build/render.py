"""Stage 2: markdown → the exact HTML the server will serve, through the site's templates."""
from __future__ import annotations

import posixpath
import re
import unicodedata
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ..errors import ContentError, Problem
from . import dialects, sanitize
from .inline_markup import without_links
from .links import SiteLinks, page_anchors
from .page_source import PageSource

CITE_OPEN = "[[cite:"
CITE_CLOSE = "]]"


@dataclass(frozen=True)
class AuthorCitation:
    """`[[cite:SLUG|passage]]` as the author wrote it."""

    source: str        # content file, relative to the content folder
    line: int
    page: str          # URL path of the citing page
    target: str        # slug or path as written ("" = the same page)
    text: str          # the quoted passage as written
    key: str           # unique within the release: "<source>#<n>"


@dataclass
class RenderedPage:
    source: PageSource
    title: str
    body_html: str
    citations: list[AuthorCitation] = field(default_factory=list)
    html: str = ""     # the full page, filled by the builder from the site's page template
    generated: bool = False   # drawn by trigsight (contents, home index): navigation, no passages

    @property
    def path(self) -> str:
        return self.source.path


@dataclass(frozen=True)
class CitationLink:
    """How a resolved citation is drawn: the deep link and what the chip says."""

    url: str
    label: str
    quote: str


def _cite_rule(state: StateInline, silent: bool) -> bool:
    if not state.src.startswith(CITE_OPEN, state.pos):
        return False
    close = state.src.find(CITE_CLOSE, state.pos + len(CITE_OPEN))
    inner = state.src[state.pos + len(CITE_OPEN):close] if close != -1 else None
    if not silent:
        token = state.push("cite", "", 0)
        token.meta = {"offset": state.pos, "raw": inner}
    state.pos = close + len(CITE_CLOSE) if close != -1 else state.posMax
    return True


def _render_cite(self, tokens: list[Token], idx: int, options, env) -> str:
    token = tokens[idx]
    link: CitationLink | None = env.get("cite_links", {}).get(token.meta.get("key"))
    if link is None:
        return '<span class="cite cite-unresolved">[citation]</span>'
    return (f'<a class="cite" href="{escapeHtml(link.url)}" title="{escapeHtml(link.quote)}">'
            f'{escapeHtml(link.label)}</a>')


def make_parser() -> MarkdownIt:
    """The docs dialects (dialects.py) plus author citations; raw HTML is sanitised after rendering."""
    md = dialects.make_parser()
    md.inline.ruler.before("link", "cite", _cite_rule)
    md.add_render_rule("cite", _render_cite)
    return md


_PARSER = make_parser()
_MDX_PARSER = make_parser().disable("code")     # MDX has no indented code: indented text is text


def heading_id(text: str, used: set[str]) -> str:
    """A heading's id as GitHub (github-slugger, also Docusaurus) makes it, so the anchors a page's
    authors linked to work here: lower case, every character but letters, marks, digits, "_", "-"
    and spaces dropped, each space a "-" ("What's new?" → whats-new, "fs.readFile(path)" →
    fsreadfilepath); the second of a name gets "-1"."""
    kept = "".join(c for c in text.strip().lower() if c in "-_" or c.isspace() or unicodedata.category(c)[0] in "LMN")
    base = re.sub(r"\s", "-", kept) or "section"
    candidate, n = base, 0
    while candidate in used:
        n += 1
        candidate = f"{base}-{n}"
    used.add(candidate)
    return candidate


@dataclass
class ParsedPage:
    """One page's tokens and what the rest of the site needs to know about it."""

    source: PageSource
    tokens: list[Token]
    title: str
    citations: list[AuthorCitation]
    headings: list[tuple[int, str, str]]    # (level, id, text) of h2 and h3, for the in-page contents
    labels: list[str]                       # MyST targets `(label)=` and explicit heading ids
    notes: dict[str, set[str]]              # "text_directives", "generator_tags", ... → names
    anchors: list[str] = field(default_factory=list)   # every id a link may name, in page order
    label_titles: dict[str, str] = field(default_factory=dict)   # a label just above a heading → its text


def parse_page(source: PageSource, content_label: str) -> tuple[ParsedPage, list[Problem]]:
    """Parse one page; return it and located problems (malformed citations)."""
    mdx = source.source.lower().endswith(".mdx")
    env: dict = {"mdx": mdx, "quarto": source.source.lower().endswith((".qmd", ".rmd"))}
    tokens = (_MDX_PARSER if mdx else _PARSER).parse(source.body, env)
    citations, problems, used_ids, headings, labels = [], [], set(), [], []
    label_titles, waiting = {}, []     # labels written just above a heading name it (Sphinx's `:ref:`)
    for index, token in enumerate(tokens):
        if token.type == "myst_target":
            labels.append(token.content)
            waiting.append(token.content)
        elif token.block and token.type != "heading_open":
            waiting = []
        if token.type == "heading_open":
            text = _plain(tokens[index + 1])
            label_titles.update(dict.fromkeys(waiting, text))
            waiting = []
            explicit = token.meta.get("id")
            identifier = explicit if explicit and explicit not in used_ids else heading_id(text, used_ids)
            used_ids.add(identifier)
            token.attrSet("id", identifier)
            label_titles[f"{source.path}#{identifier}"] = text    # MyST's [](#section) shows its heading
            if explicit:
                labels.append(identifier)
            if token.tag in ("h2", "h3"):
                headings.append((int(token.tag[1]), identifier, text))
        if token.type != "inline" or not token.children:
            continue
        for child in token.children:
            if child.type != "cite":
                continue
            file, line = source.locate((token.map[0] if token.map else 0)
                                       + token.content[:child.meta["offset"]].count("\n"))
            shown = posixpath.join(content_label, file)
            raw = child.meta["raw"]
            if raw is None or "|" not in raw:
                problems.append(Problem(shown, line, "malformed citation: write [[cite:SLUG|exact sentence]]"))
                continue
            target, text = (part.strip() for part in raw.split("|", 1))
            if not text:
                problems.append(Problem(shown, line, "citation quotes no text: write [[cite:SLUG|exact sentence]]"))
                continue
            key = f"{source.source}#{len(citations)}"
            child.meta["key"] = key
            citations.append(AuthorCitation(file, line, source.path, target, text, key))
    title = source.title or _default_title(source, tokens)
    notes = {k: set(env.get(k, ())) for k in ("text_directives", "silent_directives", "command_directives",
                                                "generator_tags", "template_expressions")}
    return ParsedPage(source, tokens, title, citations, headings, labels, notes, page_anchors(tokens),
                      label_titles), problems


def _default_title(source: PageSource, tokens: list[Token]) -> str:
    """The page's first heading when it is an h1; else the file's name. A page that opens with an h2
    has no title heading: its h1s are sections too (a changelog's "# 7.8.0" after "## 7.8.1")."""
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            if token.tag == "h1":
                return _plain(tokens[index + 1])
            break
    if source.slug == "index":
        return "Home"
    return source.slug.rsplit("/", 1)[-1].replace("-", " ").replace("_", " ").capitalize()


def _plain(inline: Token) -> str:
    return "".join(c.content for c in inline.children or []
                   if c.type in ("text", "code_inline", "myst_role")).strip() or inline.content


def resolve_links(page: ParsedPage, site: SiteLinks) -> None:
    """Point links, and roles that name pages or labels, at the pages they mean."""
    for token in page.tokens:
        if token.type != "inline" or not token.children:
            continue
        children = token.children
        unlinked: set[int] = set()     # Sphinx's unresolved references: shown as their text
        for index, child in enumerate(children):
            if child.type == "link_open":
                written = str(child.attrGet("href") or "")
                href = site.href(written, page.source.source)
                if href is not None:
                    child.attrSet("href", href)
                else:
                    site.note_unresolved(written, page.source.source)
                    if site.is_reference(written):
                        unlinked.add(id(child))
                if index + 1 < len(children) and children[index + 1].type == "link_close":
                    label = Token("text", "", 0)   # MyST's [](target): the target's title
                    label.content = _target_title(site, href or written, page.source.path) or written
                    children.insert(index + 1, label)
            elif child.type == "myst_role":
                name = child.meta.get("name", "").split(":")[-1]
                text, target, _ = dialects.role_parts(name, child.content)
                if target is None or name not in ("doc", "ref", "any", "numref", "download", "wikilink"):
                    continue
                if name == "wikilink":     # Obsidian: the file of that name, here or anywhere in the folder
                    href = site.href(target + ".md", page.source.source) or site.by_file_name(target)
                else:
                    href = site.labels.get(target) if name != "doc" else None
                    href = href or site.href(target if name != "doc" else target + ".md", page.source.source)
                if href is not None:
                    child.meta["href"] = href
                    title = site.titles.get(href.partition("#")[0]) if name == "doc" else \
                        site.label_titles.get(target) if name in ("ref", "any") else None
                    if text == target and title:     # Sphinx shows the page's or the section's title
                        child.meta["label"] = child.content = title
                elif text == target and name != "wikilink":    # another project's page or section (intersphinx)
                    child.content = dialects.without_inventory(target)
        if unlinked:
            token.children = without_links(children, unlinked)


def _target_title(site: SiteLinks, href: str, page: str) -> str:
    """The title of the section (or else the page) a link without words points at, as MyST shows it."""
    path, _, anchor = (page + href if href.startswith("#") else href).partition("#")
    section = site.label_titles.get(f"{path}#{anchor}") or \
        (site.label_titles.get(anchor) if site.labels.get(anchor) == f"{path}#{anchor}" else None)
    return section if anchor and section else site.titles.get(path, "")


def render_body(page: ParsedPage, site: SiteLinks | None, cite_links: dict[str, CitationLink]) -> str:
    html = _PARSER.renderer.render(page.tokens, _PARSER.options, {"cite_links": cite_links})

    def rewrite(href: str) -> str:   # links in the author's raw HTML (<a href="fs.html">)
        return (site.href(href, page.source.source) if site else None) or href

    def image(src: str) -> str:
        return (site.media.url(src, page.source.source) if site and site.media else None) or src

    return sanitize.clean(html, rewrite, image)


def raise_if(problems: list[Problem]) -> None:
    if problems:     # a file two pages include is named once for each of its errors
        raise ContentError("content errors", problems=list(dict.fromkeys(problems)))
