"""Stage 2: markdown → the exact HTML the server will serve, through the site's templates."""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from ..errors import ContentError, Problem
from .content import PageSource

CITE_OPEN = "[[cite:"
CITE_CLOSE = "]]"
NAV_LIMIT = 16


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
    """CommonMark with tables and strikethrough; raw HTML is shown as text, never passed through."""
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable(["table", "strikethrough"])
    md.inline.ruler.before("link", "cite", _cite_rule)
    md.add_render_rule("cite", _render_cite)
    return md


_PARSER = make_parser()


def heading_id(text: str, used: set[str]) -> str:
    base = re.sub(r"[^\w]+", "-", text.casefold()).strip("-") or "section"
    candidate, n = base, 1
    while candidate in used:
        n += 1
        candidate = f"{base}-{n}"
    used.add(candidate)
    return candidate


def parse_page(source: PageSource, content_label: str, pages_by_source: dict[str, str]) -> tuple[list[Token], str, list[AuthorCitation], list[Problem]]:
    """Parse one page; return tokens, title, citations and located problems."""
    tokens = _PARSER.parse(source.body, {})
    shown = posixpath.join(content_label, source.source)
    citations, problems, used_ids = [], [], set()
    title = source.title
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            text = tokens[index + 1].content
            token.attrSet("id", heading_id(text, used_ids))
        if token.type != "inline" or not token.children:
            continue
        base_line = source.body_line + (token.map[0] if token.map else 0)
        for child in token.children:
            if child.type == "link_open":
                _rewrite_link(child, source.source, pages_by_source)
            if child.type != "cite":
                continue
            line = base_line + token.content[:child.meta["offset"]].count("\n")
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
            citations.append(AuthorCitation(source.source, line, source.path, target, text, key))
    if title is None:
        headings = [(t.tag != "h1", i) for i, t in enumerate(tokens) if t.type == "heading_open"]
        title = (_plain(tokens[min(headings)[1] + 1]) if headings
                 else source.slug.rsplit("/", 1)[-1].replace("-", " ").capitalize())
    return tokens, title, citations, problems


def _plain(inline: Token) -> str:
    return "".join(c.content for c in inline.children or [] if c.type in ("text", "code_inline")).strip() or inline.content


def _rewrite_link(token: Token, source: str, pages_by_source: dict[str, str]) -> None:
    """Point links to other markdown files at the page that file becomes."""
    href = str(token.attrGet("href") or "")
    if re.match(r"^[a-z][a-z0-9+.-]*:|^//|^#", href, re.I):
        return
    path, _, anchor = href.partition("#")
    target = posixpath.normpath(posixpath.join(posixpath.dirname(source), path)) if path else source
    if target in pages_by_source:
        token.attrSet("href", pages_by_source[target] + (f"#{anchor}" if anchor else ""))


def render_body(tokens: list[Token], cite_links: dict[str, CitationLink]) -> str:
    return _PARSER.renderer.render(tokens, _PARSER.options, {"cite_links": cite_links})


def navigation(pages: list[PageSource], titles: dict[str, str]) -> list[dict]:
    """Links shown on every page: all pages when few, else the top-level ones."""
    chosen = pages if len(pages) <= NAV_LIMIT else [p for p in pages if "/" not in p.slug][:NAV_LIMIT]
    ordered = sorted(chosen, key=lambda p: (p.slug != "index", p.slug.count("/"), p.slug))
    return [{"path": p.path, "title": titles[p.slug], "language": p.language} for p in ordered]


def raise_if(problems: list[Problem]) -> None:
    if problems:
        raise ContentError("content errors", problems=problems)
