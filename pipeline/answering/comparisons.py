"""Comparison questions ("What is the difference between X and Y?", "XとYの違いは？"): what tells them apart.

A reader who asks how two things differ wants the sentence that says so ("Unlike X, Y…", a section
headed "X vs. Y"), or else what each of them is. Retrieval weighs the question's words as one bag,
so the best-scoring chunk is often one that names both in passing ("X, Y and Z each have their
own page."), or a definition of one of them alone.

So a comparison question is read for its two terms (`compared_terms`), each named in the pages'
words as a definition question's term is (trigsight.answering.asked_terms; a code name only as
written, a phrase only with its words in order), and answered (`comparing`), strongest first, by:
1. the first sentence of a section whose own heading compares both or names them together
   ("process.nextTick() vs setImmediate()"; not "Decoding buffers in a writable stream");
2. a sentence that names both and says how they differ ("differs", "unlike", "while", "the same",
   "в отличие", "違い", "차이", …) or says one thing of each in clauses of their own, the nearest the
   question in meaning first;
3. a retrieved sentence that names both, not listed side by side ("X, Y and Z");
each followed by what each term is where the pages define it (trigsight.answering.definitions);
4. without any of those (or instead of 3 when both are defined), the two definitions, or for a name
   defined nowhere, the first sentence naming it on a page the question found.
A single name in Latin letters or code that the pages never give ("autopep8") leaves nothing to
compare: the answer is a refusal. Any other question, or a pair the pages give none of the above for,
is answered as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ..retrieval.tokenize import tokenize
from .compared_terms import compared_terms
from .definitions import Defining, Definitions, defining_term, paragraph, says_something
from .pointers import points_elsewhere
from .term_places import (
    JOINED,
    LATIN_NAME,
    MAX_CANDIDATES,
    absent,
    each_named,
    headings,
    named,
    position,
    readings_of,
    rows_naming,
    section_lead,
)

MAX_QUOTES = 3
IN_ITS_SECTION, SAYS_HOW_THEY_DIFFER, NAMES_BOTH = range(3)     # how strongly a passage compares two terms
# Words that say how two things differ, in the pages' languages.
_CONTRASTS = re.compile(
    r"(?i)\b(?:differ\w*|unlike|whereas|while|but|however|both|similar(?:ly)?|same|alternatives?|alternatively"
    r"|instead\s+of|rather\s+than|in\s+contrast|contrary|as\s+opposed|compared?\s+(?:to|with)|vs\.?|versus"
    r"|prefer\w*|than|чем"
    r"|отлича\w*|отлич\w+|в\s+отличие|разниц\w*|различ\w*|тогда\s+как|вместо|однако|оба|обе|аналогично"
    r"|unterschied\w*|anders\s+als|im\s+gegensatz|statt|diff[ée]ren\w*|contrairement|au\s+lieu|diferen\w*"
    r"|a\s+diferencia|en\s+lugar|ao\s+contr[áa]rio|em\s+vez)\b"
    r"|違い|異な|一方で|に対して|に比べ|と比べ|ではなく|代わりに|両方|同様|より|차이|보다|마찬가지|다르|다른|달리|반면|대신|비해"
    r"|区别|不同|相比|而不是")


@dataclass(frozen=True)
class Comparison:
    passage_ids: tuple[str, ...]     # quoted in this order; none when a term is nowhere in the pages


def _listed_together(text: str, readings) -> bool:
    """Are the two terms named one right after the other, joined only by function words or a comma
    ("the source gate, the browser gate and the payload gate"): listed together, not compared?"""
    tokens, folded = tokenize(text), text.casefold()
    places = [[p for p in (position(r, tokens, folded) for r in term) if p is not None] for term in readings]
    return any(a[1] == b[0] or b[1] == a[0] for a in places[0] for b in places[1] if a != (0, 0) != b)


def comparing(question: str, hits, retriever, release, scores=None) -> Comparison | None:
    """What answers a comparison question (see the module docstring), or None for any other question
    and for a pair the pages neither compare nor define."""
    pair = compared_terms(question)
    if pair is None:
        return None
    found = Definitions.of(release)
    readings = [readings_of(pair[0], pair[1], found, retriever), readings_of(pair[1], pair[0], found, retriever)]
    if not all(readings):
        return None
    rows = [rows_naming(retriever, term_readings) for term_readings in readings]
    foreign = {word.casefold() for word in retriever.lexicon.foreign(question)} if retriever.lexicon else set()
    if any(absent(term, term_rows, term_readings, foreign, retriever, release)
           for term, term_rows, term_readings in zip(pair, rows, readings)):
        return Comparison(())        # a name the pages never give: they cannot tell the two apart
    pages = list(dict.fromkeys(hit.page for hit in hits))
    compares, strength = _comparing_passage(readings, rows, hits, pages, retriever, release, scores)
    defined = [defining_term(term, pages, retriever, release) for term in pair]
    definitions = [release.passage(d.passage_id) if d is not None else None for d in defined]
    if all(definitions) and definitions[0].id == definitions[1].id:
        definitions = [None, None]   # one sentence for both tells them apart no more than the question did
    if strength == NAMES_BOTH and all(definitions):
        compares = None              # what each one is says more than a sentence that lists both
    if compares is not None:
        # what each one is, beside it, from the pages the question found ("run: Run script" among a debugger's
        # commands is of another run())
        said = _distinct([d for d in definitions if d is not None and _apart(d, compares) and d.page in pages])
        shown = paragraph(Defining(compares.id, 0), release)[:max(1, MAX_QUOTES - len(said))]
        return Comparison(tuple(p.id for p in shown + said)[:MAX_QUOTES])
    # what each one is, or, for a name the pages define nowhere, what they say of it where they speak of it
    # ("…a bigger tool like Celery may be beneficial.")
    chosen = [d if d is not None else _said_of(term.strip(), term_rows, term_readings, pages, retriever, release)
              for d, term, term_rows, term_readings in zip(definitions, pair, rows, readings)]
    if not all(chosen):
        return None
    return Comparison(tuple(p.id for p in _distinct(chosen))[:MAX_QUOTES])


def _distinct(passages: list) -> list:
    """The passages without a second one from the same paragraph."""
    kept = []
    for passage in passages:
        if all(_apart(passage, p) for p in kept):
            kept.append(passage)
    return kept


def _apart(one, other) -> bool:
    return (one.page, one.block) != (other.page, other.block)


def _said_of(term: str, rows, readings, pages: list[str], retriever, release):
    """For a name ("Celery", "PATCH", "fs.watch"), the first sentence naming it on the earliest retrieved page
    that says something, or None; None for a word ("details"), which sentences use for other things, and
    for a name only a page the question did not find mentions (a blog post's "a Poetry plugin")."""
    if not (LATIN_NAME.match(term) and (JOINED.search(term) or term != term.casefold())):
        return None
    rank = {page: n for n, page in enumerate(pages)}
    naming = [p for p in (release.passage(retriever.passage_ids[int(row)]) for row in rows[:MAX_CANDIDATES])
             if p is not None and p.page in rank and says_something(p.text) and named(p.text, readings)
             and not points_elsewhere(p)]
    return min(naming, key=lambda p: (rank[p.page], p.order), default=None)


def _comparing_passage(readings, rows, hits, pages, retriever, release, scores=None):
    """(the strongest passage that compares the two terms, how strongly; see the module docstring), or
    (None, None)."""
    rank = {page: n for n, page in enumerate(pages)}
    place = lambda p: (rank.get(p.page, len(rank)), p.page, p.order)  # noqa: E731
    # a heading that compares them ("process.nextTick() vs setImmediate()") or names them together ("Preprocessors
    # and postprocessors"); not one that only holds both words ("Decoding buffers in a writable stream")
    together = [h for t, f, h in headings(release) if each_named(t, f, readings)
                and (_CONTRASTS.search(h.text) or _listed_together(h.text, readings))]
    for heading in sorted(together, key=place):
        lead = section_lead(heading, release)
        if lead is not None:
            return lead, IN_ITS_SECTION
    both = np.intersect1d(*rows) if all(len(r) for r in rows) else np.zeros(0, dtype=np.int32)
    candidates = [release.passage(retriever.passage_ids[int(row)]) for row in both[:MAX_CANDIDATES]]
    naming = [p for p in candidates if p is not None and says_something(p.text)
             and named(p.text, *readings)]
    # Among several, the one nearest the question in meaning (its other words too: "…which of them goes into
    # next year's stable style?"); without vectors, the first in retrieval order, then by page.
    if scores is not None and scores.cos_passages is not None:
        near = {p.id: -float(scores.cos_passages[retriever.passage_row[p.id]]) for p in naming}
        by_question = lambda p: (near[p.id], *place(p))  # noqa: E731
    else:
        retrieved = {pid: n for n, pid in enumerate(pid for hit in hits for pid in dict.fromkeys(
            [hit.best_passage, *hit.passage_ids]))}
        by_question = lambda p: (retrieved.get(p.id, len(retrieved)), *place(p))  # noqa: E731
    contrasting = [p for p in naming if _CONTRASTS.search(p.text) or _one_clause_each(p.text, readings)]
    if contrasting:
        return min(contrasting, key=by_question), SAYS_HOW_THEY_DIFFER
    in_hits = [p for p in naming if p.id in {pid for hit in hits for pid in hit.passage_ids}
               and not _listed_together(p.text, readings)]
    return (min(in_hits, key=by_question), NAMES_BOTH) if in_hits else (None, None)


def _one_clause_each(text: str, readings) -> bool:
    """Does the sentence say one thing of each term in clauses of their own ("All features in the --preview
    style are expected…; features in the --unstable style will be stabilized only if…")?"""
    clauses = [clause for clause in re.split(r"[;；]", text) if clause.strip()]
    if len(clauses) < 2:
        return False
    read = [(tokenize(clause), clause.casefold()) for clause in clauses]
    said = [[each_named(tokens, folded, [term]) for term in readings] for tokens, folded in read]
    return any(first and not second for first, second in said) and any(second and not first for first, second in said)
