"""Default-value questions ("What is the default value of maxHeaderSize?"): what a setting is when unset.

Reference pages give a setting's default beside the setting, not in a sentence that repeats the
question: "maxHeaderSize {number} Optionally overrides…" and then "Default: 16384 (16 KiB)." in the
same list item; "#### `save-exact`" and then "Default: false"; a table row whose "Default" cell says
`False`; "line_length: Number of characters (integer, default 80)". A bare "Default: false." means
nothing without the setting it follows, and retrieval, which weighs each sentence alone, cannot tell
one "Default: false." from another.

So a default question is read for its setting (trigsight.answering.default_terms), named in the pages'
words (trigsight.answering.term_places), and answered (`defaulting`) by a place that names the
setting with the sentence that gives its default:
1. its entry in a list (a list item that opens with its name), with the default the item gives;
2. a section its name heads, or a line of its name alone opens (Sphinx's option line "-o PATH, --output
   PATH" too), with the first sentence of the section that gives a default, else one that opens by saying
   what holds without it ("If not provided, mypy will use …");
3. a table row whose first cell is its name, with the cell under a "Default" heading;
4. a paragraph that names it among its first words, with a later sentence of it that says what it is
   by default ("All listen() methods can take a backlog parameter…" … "The default value of this
   parameter is 511.").
A sentence elsewhere that names it and a default is no place: "Specifies the built-in default cipher
list used by Node.js." does not say what Node.js is by default. Of several places (a keepAlive option
on each of a page's constructors), the one whose page and headings share the most of the question's
owners ("http.Agent"), then of its other words, then one of the first three kinds, then the one
nearest the question in meaning, then the earliest retrieved.

Refused: a single name in Latin letters or code that the pages never give, the setting or its owner;
and a setting named as code whose own entry or section gives no default ("assertionStyle", whose
section says what each style does and never which is the default). Any other setting none of these
places give a default for is answered as any other question is: its default may be put otherwise
("By default, Black will infer target versions from…").

A question that asks what holds by default without a setting these places answer ("Which trace event
categories are enabled by default?") is answered as any other, and a passage that says what holds by
default may lead its quotes (trigsight.answering.leading).
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .default_terms import default_of
from .fact_places import Fact, by_question, places, quoted
from .term_places import MAX_CANDIDATES, look_up

# Beside the setting, any mention of a default gives it ("Default: false", "(integer, default 80)").
_GIVES_DEFAULT = re.compile(r"(?i)\bdefault(?:s|ed)?\b|по\s+умолчанию|デフォルト|既定|初期値|기본값|기본적으로|기본으로"
                            r"|기본\s*설정")
# Elsewhere, only a sentence that says what something is by default does.
_SAYS_DEFAULT = re.compile(r"(?i)\bby\s+default\b|\bdefaults?\s+(?:to|is|of)\b|\bis\s+the\s+default\b"
                           r"|\bdefault\s+(?:value|setting)s?\s+(?:of\s+[^.]{1,40}?\s+)?(?:is|are)\b"
                           r"|\(\s*(?:the\s+)?default\s*\)|^\W*default\s*:|по\s+умолчанию|デフォルト|既定|기본값|기본적으로")
_LABELLED_DEFAULT = re.compile(r"(?i)^\W*(?:default(?:\s+value)?|по\s+умолчанию|デフォルト値?|既定値?|기본값)\s*[:：]")
# "(integer, default 80)", "Default: false": a default with its value.
_DEFAULT_VALUE = re.compile(r"(?i)\bdefault(?:s\s+to|\s+is|\s+value\s+is)?\s*[:=]?\s*[`'\"(]?(?:-?\d|true\b|false\b|null\b"
                            r"|none\b|undefined\b|[`'\"\[])|[(,;]\s*default\s+[^\s,;)]+")
_DEFAULT_COLUMN = re.compile(r"(?i)^\W*(?:default(?:\s+value)?|по\s+умолчанию|デフォルト値?|既定値?|기본값)\W*$")


# In the setting's own section, what holds without it: "If not provided, mypy will use …" (--python-executable).
_UNSTATED = re.compile(r"(?i)^\W*(?:if|when)\s+(?:not|never)\s+(?:provided|specified|given|set|passed|supplied)\b"
                       r"|^\W*(?:if|when)\s+omitted\b")
DEFAULT = Fact(labelled=_LABELLED_DEFAULT, says=_SAYS_DEFAULT, mentions=_GIVES_DEFAULT, own=_DEFAULT_VALUE,
               column=_DEFAULT_COLUMN, unstated=_UNSTATED)


def says_default(text: str) -> bool:
    """Does `text` say what something is by default ("By default the node … categories are enabled.")?"""
    return bool(_SAYS_DEFAULT.search(text))


@dataclass(frozen=True)
class Default:
    passage_ids: tuple[str, ...]     # quoted in this order; none when the setting is nowhere in the pages


def defaulting(question: str, hits, retriever, release, scores=None) -> Default | None:
    """What answers a default question (see the module docstring): its quotes; none (a refusal) for a name the
    pages never give or a code name whose own place gives no default; None for any other question and any
    other setting no place gives a default for."""
    asked = default_of(question)
    if asked is None:
        return None
    looked = look_up(asked.term, asked.owners, question, retriever, release)
    if looked is None:
        return None
    if looked.never_given:
        return Default(())              # a name the pages never give: they cannot say its default
    pages = list(dict.fromkeys(hit.page for hit in hits))
    candidates = [release.passage(retriever.passage_ids[int(row)]) for row in looked.rows[:MAX_CANDIDATES]]
    found = places(DEFAULT, asked.term, looked.readings, asked.named, candidates, release)
    order = by_question(asked.owners, question, pages, retriever, release, scores)
    best = min((place for place in found if place.giving is not None), key=order, default=None)
    silent = min((place for place in found if place.giving is None), key=order, default=None)
    if best is None or (silent is not None and order(silent)[0] < order(best)[0]):
        # the setting's own entry or section gives no default, or does under the owner asked about (no-unresolved's
        # "ignore" option) while the one that does is another's (import/order's "ignore" value): for a name written
        # as code, the pages do not say it; any other may be told otherwise ("By default, Black will infer…")
        return Default(()) if asked.named and silent is not None else None
    return Default(tuple(p.id for p in quoted(DEFAULT, best, release)))
