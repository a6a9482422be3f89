"""The browser gate's proof cache: which page proofs still hold for a new release (pure, plus file IO).

A proof (the outcome of every check on a page) is keyed by what can change how the page's
content renders and matches: the bytes of <main>, the page's <head> without its <title>
text, the <html> and <body> start tags, the bytes of every static asset, the checks, the
browser's version and the probe. The chrome around <main> (header, breadcrumbs, pager,
footer) is left out of the key, so adding a page (new prev/next links, a longer contents
page) does not invalidate its neighbours. A proof whose page differs from the proven one
only outside that key is reused only when each side of <main> (the chrome before it, the
chrome after it) is either byte for byte as proven, or holds no directive term (prefix,
start, end, suffix) in its text, neither as proven nor now: the README's "Why a proof
survives a navigation change" gives the argument.
"""
from __future__ import annotations

import hashlib
import json
import unicodedata
from dataclasses import dataclass
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

from ..files import write_atomic
from ..matching.directives import parse_directive
from ..matching.textmodel import normalise

# The entries' layout; older entries are misses. Before 4, a page the site did not serve (HTTP 404,
# as pages under a docs folder's api/ and static/ were) was kept as matching nothing.
FORMAT = 4


@dataclass(frozen=True)
class Chrome:
    """The body's markup on one side of <main>: its bytes, and its text nodes (hidden or not)."""

    sha256: str
    text: str


@dataclass(frozen=True)
class PageParts:
    """A rendered page split into what keys its proof and the chrome around its content."""

    keyed: str          # <html>/<body> start tags, <head> without <title> text, the whole <main>
    before: Chrome      # header, breadcrumbs (from </head> to <main>)
    after: Chrome       # pager, footer (from </main> to the end)
    html_sha256: str

    @property
    def chrome_text(self) -> str:
        return self.before.text + "\n" + self.after.text


def split_page(html: str) -> PageParts:
    start, end = html.find("<main"), html.rfind("</main>")
    if start < 0 or end < start:     # no content element: everything is keyed, nothing is chrome
        return PageParts(html, Chrome(_sha(""), ""), Chrome(_sha(""), ""), _sha(html))
    end += len("</main>")
    head = _Head()
    head.feed(html[:start])
    head.close()
    keyed = "\n".join([*head.kept, html[start:end]])
    # The <head> is never rendered (display: none in every browser's own stylesheet, and the
    # site's does not show it), so its text is neither key nor chrome.
    body = max(0, html.find("</head>", 0, start))
    return PageParts(keyed, _chrome(html[body:start]), _chrome(html[end:]), _sha(html))


def _chrome(html: str) -> Chrome:
    return Chrome(_sha(html), _text_of(html))


class _Head(HTMLParser):
    """Keeps the markup before <main> that can change how <main> renders: start tags of
    html/body and everything in <head> except the title's text (which renders nowhere)."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.kept: list[str] = []
        self.in_head = self.in_title = False

    def handle_starttag(self, tag, attrs):
        if tag == "head":
            self.in_head = True
        self.in_title = self.in_title or tag == "title"
        if tag in ("html", "body") or self.in_head:
            self.kept.append(self.get_starttag_text() or tag)

    def handle_startendtag(self, tag, attrs):
        if self.in_head:
            self.kept.append(self.get_starttag_text() or tag)

    def handle_endtag(self, tag):
        if tag == "title":
            self.in_title = False
        if self.in_head:
            self.kept.append(f"</{tag}>")
        if tag == "head":
            self.in_head = False

    def handle_data(self, data):
        if self.in_head and not self.in_title:
            self.kept.append(data)


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_data(self, data):
        self.parts.append(data)


def _text_of(html: str) -> str:
    parser = _Text()
    parser.feed(html)
    parser.close()
    return unescape(" ".join(parser.parts))


def fold(text: str) -> str:
    """Fold at least as much as Chromium does, so "contains" errs towards re-proving: the
    matcher's own folding (rules.py: case, accents, quotes, kana), then compatibility forms
    and accents dropped again and every character that is not a letter or digit removed
    (white space, punctuation, soft hyphens): a term split across inline elements, a <br>
    or blocks is still found."""
    decomposed = unicodedata.normalize("NFKD", str(normalise(text)).casefold())
    return "".join(ch for ch in decomposed if ch.isalnum() and not unicodedata.combining(ch))


def fold_marks(text: str) -> str:
    """For terms with no letter or digit (`}`, `});`): the matcher's own folding (quotes,
    dashes, width, case), then every white space removed."""
    return "".join(str(normalise(text)).split())


def terms(directive: str) -> list[tuple[str, str]] | None:
    """The directive's parts, each folded both ways; None when it cannot be read (never reused loosely)."""
    try:
        parsed = parse_directive(directive)
    except ValueError:
        return None
    return [(fold(part), fold_marks(part)) for part in (parsed.prefix, parsed.text, parsed.end, parsed.suffix)
            if part]


def chrome_is_clear(chrome_text: str, directives: list[str]) -> bool:
    """No directive's term occurs in the chrome's text (a term that folds to nothing occurs anywhere)."""
    letters, marks = fold(chrome_text), fold_marks(chrome_text)
    for directive in directives:
        found = terms(directive)
        if found is None:
            return False
        for word, mark in found:
            if (word and word in letters) or (not word and (not mark or mark in marks)):
                return False
    return True


def key(parts: PageParts, assets_sha256: str, checks: list, version: str, probe: str) -> str:
    listed = [[c.key, c.directive, c.intended, c.fresh] for c in checks]
    body = json.dumps([FORMAT, _sha(parts.keyed), assets_sha256, version, probe, listed], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()


def assets_digest(assets: dict) -> str:
    """Every static file's bytes, not only its URL: CSS and scripts decide what renders."""
    digest = hashlib.sha256()
    for name in sorted(assets):
        digest.update(name.encode() + b"\0" + hashlib.sha256(assets[name].data).digest())
    return digest.hexdigest()


@dataclass(frozen=True)
class Entry:
    outcomes: list[dict]
    html_sha256: str                  # the page exactly as proven
    sides: tuple[tuple[str, bool], ...]  # before and after <main>: (bytes' sha256, held none of the terms)


def entry_for(parts: PageParts, directives: list[str], outcomes: list[dict]) -> Entry:
    return Entry(outcomes, parts.html_sha256, tuple((side.sha256, chrome_is_clear(side.text, directives))
                                                    for side in (parts.before, parts.after)))


def reusable(entry: Entry | None, parts: PageParts, directives: list[str], loose: bool) -> bool:
    """The same page as proven; or (when `loose`) each side of <main> either the same bytes
    as proven, or holding none of the terms, neither as proven nor now."""
    if entry is None:
        return False
    if entry.html_sha256 == parts.html_sha256:
        return True
    if not loose:
        return False
    return all(sha == side.sha256 or (clear and chrome_is_clear(side.text, directives))
               for (sha, clear), side in zip(entry.sides, (parts.before, parts.after)))


def load(store: Path, key_: str) -> Entry | None:
    try:
        data = json.loads((store / f"{key_}.json").read_text("utf-8"))
        sides = tuple((str(sha), bool(clear)) for sha, clear in data["sides"])
        return Entry(data["outcomes"], data["html_sha256"], sides) if len(sides) == 2 else None
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save(store: Path, key_: str, entry: Entry) -> None:
    write_atomic(store / f"{key_}.json", json.dumps({"outcomes": entry.outcomes, "html_sha256": entry.html_sha256,
                                                    "sides": entry.sides}, ensure_ascii=False).encode())


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()
