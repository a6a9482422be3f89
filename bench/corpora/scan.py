"""Find markup a reader should never see in published passages (stdlib only, pure).

Each pattern names a kind of source markup that a renderer which does not know the
dialect leaves in the text: HTML comments and tags, admonition and directive fences, roles,
alerts, targets, heading ids, attribute lists, MDX imports, components and comments, Node's YAML comment bodies, AsciiDoc macros, cross-references,
attribute references, block lines and list marks, and reference links
no definition resolved (mkdocs-autorefs' `[text][package.Class]`). A passage is
counted once per pattern it contains.

    from scan import scan
    hits = scan(passages)          # {pattern name: [passage text, ...]}
"""
from __future__ import annotations

import re

_TAGS = ("a abbr aside b blockquote br code dd details div dl dt em hr i iframe img kbd li ol p "
         "pre script section span strong style sub summary sup table tbody td th thead tr ul").split()
_DIRECTIVES = ("note tip hint important warning caution danger error attention info seealso admonition "
               "versionadded versionchanged deprecated code code-block toctree include literalinclude "
               "figure card dropdown tab-set tab-item grid math").split()

PATTERNS: dict[str, re.Pattern] = {
    "html comment": re.compile(r"<!--|-->"),
    "html tag": re.compile(r"</?(?:%s)(?:\s[^<>]*)?/?>" % "|".join(_TAGS), re.I),
    "node comment body": re.compile(r"introduced_in=|source_link=|\b(?:added|removed|deprecated): v\d|"
                                    r"pr-url:|eslint-(?:disable|skip)|markdownlint|prettier-ignore|<!--tabs"),
    "colon fence": re.compile(r"(?:^|\s):::+"),
    "mkdocs admonition": re.compile(r"(?:^|\s)[!?]{3}\+?\s+\w"),
    "pymdown block": re.compile(r"^///"),
    "myst directive": re.compile(r"\{(?:%s)\}" % "|".join(map(re.escape, _DIRECTIVES))),
    "myst role": re.compile(r"\{[a-z][\w:-]*\}`"),
    "github alert": re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]", re.I),
    "myst target": re.compile(r"^\([\w:.-]+\)=$"),
    "directive option": re.compile(r"^:[\w-]+:(?:\s|$)"),
    "rst directive": re.compile(r"(?:^|\s)\.\. [\w-]+::"),
    "heading id": re.compile(r"\{:?\s*#[\w:.-]+[^{}]*\}"),
    # Python-Markdown's attr_list after a link or a word: [guide](x.md){.internal-link target=_blank}
    "attribute list": re.compile(r"\{:?\s*(?:\.[\w-]+|[\w-]+=[^\s{}]+)[^{}]*\}"),
    "mdx": re.compile(r"^import\s.+\sfrom\s+['\"]|</?[A-Z]\w+[^<>]*>|\{/\*"),   # ESM, components, {/* */}
    "block break": re.compile(r"^\+\+\+"),
    "reference link": re.compile(r"(?<![\w!\\])\[[^\[\]\n]+\]\[[^\[\]\s]*\]"),  # [text][id] no definition resolved
    # reStructuredText a reader of Sphinx's pages never sees: roles, ``literals``, `links <url>`_
    "rst role": re.compile(r"(?<![\w`]):[a-z][\w:.+-]*:`"),
    "rst literal": re.compile(r"``\S"),
    "rst link": re.compile(r"`[^`]+ <[^<>`]+>`__?"),
    # AsciiDoc a reader of its pages should not see: macros, cross-references, attribute references,
    # block attribute lines and delimiters, list marks.
    "asciidoc macro": re.compile(r"\b(?:include|image|link|xref|linkgit|kbd|btn|menu|footnote|ifdef|ifndef|endif|pass)"
                                 r"::?[^\s\[\]]*\[[^\]]*\]"),
    "asciidoc cross-reference": re.compile(r"<<[^<>\n]+>>"),
    "asciidoc attribute": re.compile(r"(?<![\w$#%{])\{[a-z][\w-]*\}(?![}\w])"),
    "asciidoc block": re.compile(r"^(?:\[(?:source|verse|quote|NOTE|TIP|WARNING|IMPORTANT|CAUTION|listing|literal)[^\]]*\]"
                                 r"|-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\|===)"),
    "asciidoc list mark": re.compile(r"^(?:\*{1,5}|\.{1,5}) \S|\S(?::{2,4}|;;)$"),
}


def scan(texts) -> dict[str, list[str]]:
    """Pattern name → the texts it was found in (only patterns found)."""
    hits: dict[str, list[str]] = {}
    for text in texts:
        for name, pattern in PATTERNS.items():
            if pattern.search(text):
                hits.setdefault(name, []).append(text)
    return hits
