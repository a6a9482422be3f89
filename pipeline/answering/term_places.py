"""Where the pages name a term (pure but for the index): the readings of a term in the pages' words, the
passages and headings that name it, and whether a name is given anywhere at all.

A code name is named only as written ("slugify" is not part of `slugify_unicode`), a phrase only with its
words side by side in their order ("source gate" is not in "the browser and the source gate"), any other
name by its tokens. The passages naming a term are read from the BM25 index's postings, and a release's
headings are read once per process. Comparison and occasion questions both look their terms up here.
"""
from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass

import numpy as np

from ..retrieval.chunks import HEADING_KINDS
from ..retrieval.tokenize import tokenize
from .asked_terms import phrase
from .definitions import Defining, Definitions, says_something
from .definitions import first as defined_first
from .relevance import leads_in

MAX_CANDIDATES = 2000     # passages naming a term read for a sentence about it, at most
CODE_NAME = re.compile(r"^(?=.*[a-z0-9][._:/@-]\w|.*[a-z][A-Z])[\w.:/@-]+(?:\(\))?$", re.ASCII)
JOINED = re.compile(r"[^\w]|_")           # what joins a code name's parts: "url_for", "fs.watch", "--inspect"
LATIN_NAME = re.compile(r"^[\w.:/@()\[\]-]+$", re.ASCII)
_LOCK = threading.Lock()
_TITLE_CASE = re.compile(r"^[A-Z][a-z]+$")     # "Express", as a name; the pages' "express" is a word
_HEADINGS: dict[str, list] = {}
_PAGE_TEXTS: dict[str, list[str]] = {}


def whole(element: str) -> bool:
    """Is a name's element a whole code name or flag ("url_for", "--inspect") rather than a token (a stem)?"""
    return bool(JOINED.search(element))


@functools.lru_cache(maxsize=4096)
def as_written(element: str) -> re.Pattern:
    """A whole code name in a text, not a part of a longer one ("slugify" is not in "slugify_unicode")."""
    return re.compile(r"(?<![A-Za-z0-9_-])" + re.escape(element) + r"(?![A-Za-z0-9_-]|\.[A-Za-z0-9_])", re.IGNORECASE)


def holds(name, tokens: list[str], folded: str) -> bool:
    """Does a text (its `tokens` in order and casefolded text) name `name`: a phrase's tokens (a tuple) in
    their order, side by side ("source gate", not "the browser and the source gate"), or each of a name's
    tokens (a frozenset), a code name as written?"""
    return position(name, tokens, folded) is not None


def position(name, tokens: list[str], folded: str) -> tuple[int, int] | None:
    """Where in `tokens` the text names `name` (first and last token + 1; (0, 0) for a code name), or None."""
    if isinstance(name, tuple):
        width = len(name)
        return next(((n, n + width) for n in range(len(tokens) - width + 1) if tuple(tokens[n:n + width]) == name), None)
    if not all(as_written(element).search(folded) if whole(element) else element in tokens for element in name):
        return None
    places = [tokens.index(element) for element in name if not whole(element)]
    return (min(places), max(places) + 1) if places else (0, 0)


def readings_of(term: str, other: str, found: Definitions, retriever) -> tuple:
    """The term's names in the pages' words. A code name ("slugify_unicode", "markdown.markdownFromFile") is
    named only as written, since its words name other things too ("slugify" and "unicode"), and so is a
    single word that is part of the other term's code name ("slugify" beside "slugify_unicode"); a phrase
    as written, only with its words in their order."""
    written = term.casefold().removesuffix("()")
    if (CODE_NAME.match(term) and JOINED.search(written)) or (
            CODE_NAME.match(other) and " " not in written and as_written(written).search(other)):
        return (frozenset({written}),)
    names = found.names(term, retriever)
    ordered = phrase(term)
    return tuple(ordered if len(ordered) > 1 and name == frozenset(ordered) else name for name in names)


def rows_naming(retriever, readings) -> np.ndarray:
    """The indexed passages (rows) holding every token of any of the term's `readings`."""
    index = retriever.bm25_passages
    found = []
    for reading in readings:
        rows = None
        for token in {t for element in reading for t in (tokenize(element) if whole(element) else [element])}:
            term = index.vocabulary.get(token)
            posting = (np.asarray(index.doc_ids[index.indptr[term]:index.indptr[term + 1]]) if term is not None
                       else np.zeros(0, dtype=np.int32))
            rows = posting if rows is None else np.intersect1d(rows, posting, assume_unique=True)
        if rows is not None:
            found.append(rows)
    return np.unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.int32)


def headings(release) -> list:
    """(tokens, casefolded text, passage) of each heading of the release, read once per release."""
    with _LOCK:
        if release.release_id not in _HEADINGS:
            _HEADINGS.clear()
            _HEADINGS[release.release_id] = [(tokenize(p.text), p.text.casefold(), p) for p in release.passages
                                              if p.kind in HEADING_KINDS]
        return _HEADINGS[release.release_id]


def _page_texts(release) -> list[str]:
    """Each page's whole text (code included), casefolded, read once per release."""
    with _LOCK:
        if release.release_id not in _PAGE_TEXTS:
            _PAGE_TEXTS.clear()
            _PAGE_TEXTS[release.release_id] = [page.text.casefold() for page in release.pages]
        return _PAGE_TEXTS[release.release_id]


def each_named(tokens: list[str], folded: str, terms) -> bool:
    """Does a text (its tokens and casefolded text, read once) name every one of `terms` (each by its readings)?"""
    return all(any(holds(reading, tokens, folded) for reading in readings) for readings in terms)


def named(text: str, *terms) -> bool:
    return each_named(tokenize(text), text.casefold(), terms)


def section_lead(heading, release, account: bool = False):
    """The first sentence of the section under `heading` that says something, or None. Read as the section's
    `account`, a list item is one of its details (a parameter: "punctuation: Punctuation characters…"), and
    a sentence that opens a list says it ("The 'exit' event is emitted when… as a result of either:")."""
    order = heading.order + 1
    while (passage := release.passage_at(heading.page, order)) is not None and passage.kind not in HEADING_KINDS:
        detail = account and passage.kind == "li"
        opens_list = account and leads_in(passage.text) and len(passage.text.split()) > 3
        if not detail and (says_something(passage.text) or opens_list):
            return passage
        order += 1
    return None


def absent(term: str, rows, readings, foreign: set[str], retriever, release) -> bool:
    """Is `term` a single name in Latin letters ("Kubernetes", "autopep8") that the pages never give? A code
    name is looked for as written in their whole text, code included; a word in their passages and headings,
    by its stem. (A phrase may be put in other words, and a word in another script or language is read in
    the pages' words.)"""
    term = term.strip()
    if " " in term or not LATIN_NAME.match(term) or term.casefold() in foreign:
        return False
    if CODE_NAME.match(term):
        bare = term.casefold().removesuffix("()")
        written = as_written(bare)
        # a passage or heading that names it as written is found first ("os.hostname()" names its section alone);
        # only a name none does sends the search through every page's whole text (code included)
        return not any(written.search(release.passage(retriever.passage_ids[int(row)]).text)
                       for row in rows[:MAX_CANDIDATES]) and not any(
            written.search(folded) for _, folded, _ in headings(release)) and not any(
            bare in folded and written.search(folded) for folded in _page_texts(release))
    return not len(rows) and not any(each_named(t, f, [readings]) for t, f, _ in headings(release))


def never_given(name: str, readings, rows, foreign: set[str], retriever, release) -> bool:
    """Is `name` (the thing, or its owner; its `readings` in the pages' words and the `rows` naming them) a
    single name the pages never give? A name in title case ("Express") counts as given only where it is
    written so."""
    if absent(name, rows, readings, foreign, retriever, release):
        return True
    if not _TITLE_CASE.match(name.strip()):
        return False
    written = re.compile(r"(?<![\w-])" + re.escape(name.strip()) + r"(?![\w-])")
    texts = [release.passage(retriever.passage_ids[int(row)]).text for row in rows[:MAX_CANDIDATES]]
    return not any(written.search(text) for text in texts + [heading.text for _, _, heading in headings(release)])


@dataclass(frozen=True)
class LookedUp:
    readings: tuple                  # the term's names in the pages' words
    rows: np.ndarray                 # the indexed passages naming it
    never_given: bool                # the term or an owner is a single name the pages never give


def look_up(term: str, owners, question: str, retriever, release) -> LookedUp | None:
    """The term of an occasion or default question in the pages' words, with the passages naming it, and
    whether it or one of its `owners` is a name the pages never give; None when it has no reading."""
    found = Definitions.of(release)
    readings = readings_of(term, "", found, retriever)
    if not readings:
        return None
    rows = rows_naming(retriever, readings)
    foreign = {word.casefold() for word in retriever.lexicon.foreign(question)} if retriever.lexicon else set()
    named = [(term, readings, rows)] + [(name, r, rows_naming(retriever, r)) for name in owners
                                         if (r := readings_of(name, "", found, retriever))]
    return LookedUp(readings, rows, any(never_given(name, r, name_rows, foreign, retriever, release)
                                         for name, r, name_rows in named))


def quoted_first(hits, passage_ids, retriever) -> list:
    """The retrieved hits with the chunks of the quoted passages first, in their order, so a model is issued
    what the offline answer quotes (a comparison, an occasion, a default)."""
    for passage_id in reversed(passage_ids):
        hits = defined_first(hits, Defining(passage_id, 0), retriever)
    return list(hits)
