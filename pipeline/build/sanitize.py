"""Raw HTML in markdown, cut down to what a docs reader expects to see (pure).

The whole rendered body of a page goes through nh3 (the Ammonia sanitizer) once, so the
author's HTML and ours meet the same allowlist: comments produce nothing; the tags real
docs use (`kbd`, `sup`, tables, `details`, `dl`, `<a id>` anchors, ...) stay with a few
safe attributes; any other tag is dropped and its text kept; script, style, iframe and
their kind are dropped with their content; event handlers, `style` and `javascript:` URLs
never survive. Passages are cut from this sanitised HTML, so the source gate, the browser
gate and the chat all see what the reader sees.
"""
from __future__ import annotations

import re
from typing import Callable

import nh3

TAGS = frozenset("""
a abbr aside b bdi bdo blockquote br caption cite code col colgroup dd del details dfn div
dl dt em figcaption figure h1 h2 h3 h4 h5 h6 hr i img ins kbd li mark ol p pre q rp rt ruby
s samp section small span strong sub summary sup table tbody td tfoot th thead time tr u ul
var wbr
""".split())

# Dropped together with everything inside them: never text a reader should see.
DROPPED_WITH_CONTENT = frozenset("""
script style iframe frame frameset noscript noembed noframes template object embed applet
textarea select title svg math xmp plaintext
""".split())

ATTRIBUTES = {
    "*": {"id", "title", "lang", "dir"},
    "a": {"href"},
    "img": {"src", "alt", "width", "height"},
    "td": {"colspan", "rowspan", "align"},
    "th": {"colspan", "rowspan", "align", "scope"},
    "col": {"span"},
    "colgroup": {"span"},
    "ol": {"start", "reversed", "type"},
    "details": {"open"},
    "time": {"datetime"},
    "aside": {"role"},
    "code": {"class"},          # language-xyz from fences: any name, so not in CLASSES
}

# Classes our renderer writes; an author's own classes go (style.css knows only these).
CLASSES = {
    "a": {"cite", "footnote-backref", "heading-anchor"},
    "span": {"cite", "cite-unresolved"},
    "aside": {"admonition", "kind-note", "kind-tip", "kind-important", "kind-warning", "kind-danger",
              "kind-version"},
    "p": {"admonition-title", "tab-label"},
    "div": {"directive"},
    "section": {"footnotes"},
    "ol": {"footnotes-list"},
    "li": {"footnote-item", "task", "task-done"},
    "hr": {"footnotes-sep"},
    "sup": {"footnote-ref"},
    "pre": {"math"},
}

URL_SCHEMES = frozenset({"http", "https", "mailto"})


def clean(html: str, rewrite_href: Callable[[str], str] | None = None,
          rewrite_src: Callable[[str], str] | None = None) -> str:
    """The HTML a reader is shown; `rewrite_href` maps each kept link and `rewrite_src` each
    image's source (the author's raw HTML too)."""
    def attribute_filter(tag: str, attribute: str, value: str) -> str | None:
        if tag == "a" and attribute == "href" and rewrite_href is not None:
            return rewrite_href(value)
        if tag == "img" and attribute == "src" and rewrite_src is not None:
            return rewrite_src(value)
        return value

    cleaned = nh3.clean(html, tags=set(TAGS), clean_content_tags=set(DROPPED_WITH_CONTENT),
                        attributes={k: set(v) for k, v in ATTRIBUTES.items()},
                        allowed_classes={k: set(v) for k, v in CLASSES.items()},
                        attribute_filter=attribute_filter, strip_comments=True, link_rel=None,
                        url_schemes=set(URL_SCHEMES))
    # nh3 keeps the attribute whose every class it dropped (a notebook's `<div class="alert alert-info">`)
    return _EMPTY_CLASS.sub(r"\1", cleaned)


# Inside a tag: its text holds no "<" unescaped, so this never reaches a page's words.
_EMPTY_CLASS = re.compile(r'(<[a-z][a-z0-9]*\b[^<>]*?)\s+class=""')
