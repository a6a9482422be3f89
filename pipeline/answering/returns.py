"""Return-value questions ("What does fs.readFileSync() return?"): what a function gives back.

API reference pages state a function's return beside it: "#### fs.readFileSync(path[, options])", its
parameters, "Returns: {string|Buffer}", then "Returns the contents of the path." and "If the encoding
option is specified then this function returns a string." Retrieval weighs each sentence alone, and a
bare "Returns: {string}" is one of hundreds alike.

So a return-value question is read for its function (trigsight.answering.return_terms), named in the
pages' words (trigsight.answering.term_places), and answered (`returning`) by a place that names the
function with the sentence that states its return (trigsight.answering.fact_places): the section its
name heads, with its "Returns:" line and the section's sentences saying what it returns, then the
section's first paragraph; its entry in a list; or a paragraph that names it among its first words
and says what it returns ("The os.homedir() method returns the string path of the current user's home
directory."). Of several places (server.listen() has four signatures): the one under the owner the question
names, the function's own section, one with a "Returns:" line, then the one whose page and headings share
the most of the question's other words, then the nearest in meaning. A method the pages name under its
class alone (Sphinx's ".. method:: next()" inside ".. class:: cycler(*items)", or "get(*args, **kwargs)"
on Django's "QuerySet API reference") is found by the sections its signature opens after a line naming
the class or under a title naming it.

Refused: a function the pages never name, and one whose own section never says what it returns.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .fact_places import Fact, by_question, places, quoted
from .return_terms import returned_of
from .term_places import MAX_CANDIDATES, as_written, headings, look_up

# The label of a return: "Returns:", "Return type:", ":rtype:", "戻り値:", "반환값:", "Возвращает:".
_LABEL = (r"(?:returns?|return\s+(?:value|type)s?|rtype|戻り値|返り値|반환\s*값|반환|возвращает"
          r"|возвращаемое\s+значение)")
_LABELLED_RETURN = re.compile(r"(?i)^\W*" + _LABEL + r"\s*[:：]")
_SAYS_RETURN = re.compile(r"(?i)\breturns?\b|\bis\s+returned\b|\bresolves?\s+(?:to|with)\b|\bfulfil+s?\s+with\b"
                          r"|\b(?:is|are|be|gets?)\s+(?:resolved|fulfil+ed|rejected)\s+with\b"
                          r"|\bwill\s+be\s+returned\b|возвраща\w*|返(?:す|し|され)|戻り値|반환")
# "returns" of a Sphinx field list (its value in the next passage), "Returns:" over a table of type and description.
_BARE_RETURN = re.compile(r"(?i)\W*" + _LABEL + r"\s*[:：]?")
API_SECTION_SPAN = 80       # a section lists every parameter (and option) before its "Returns:" line
RETURN = Fact(labelled=_LABELLED_RETURN, says=_SAYS_RETURN, mentions=_SAYS_RETURN, own=_LABELLED_RETURN,
              section_span=API_SECTION_SPAN, naming_says=True, api=True, bare=_BARE_RETURN)
_NAME_LINE = re.compile(r"^[`'\"]?[\w.$:/@-]+\([^()]*\)[`'\"]?$")     # "HttpRequest.get_full_path()"
# A name in three parts, which the pages may write in two ("fsPromises.readFile", "subtle.verify").
_NAMESPACE = re.compile(r"^(?P<outer>[A-Za-z_$][\w$]*)\.(?P<inner>[A-Za-z_$][\w$]*)\.(?P<member>[A-Za-z_$][\w$]*)$")


@dataclass(frozen=True)
class Returned:
    passage_ids: tuple[str, ...]     # quoted in this order; none when the pages never say it


def returning(question: str, hits, retriever, release, scores=None) -> Returned | None:
    """What answers a return-value question (see the module docstring): its quotes; none (a refusal) for a function
    the pages never name or whose own place never says what it returns; None for any other question."""
    asked = returned_of(question)
    if asked is None:
        return None
    pages = list(dict.fromkeys(hit.page for hit in hits))
    written, first = False, None
    for term, looked, candidates, owner in _readings(asked, question, retriever, release):
        written = written or not owner
        found = places(RETURN, term, looked.readings, asked.named, candidates, release)
        if owner:
            # a method the pages name under its class or module alone ("next()" after "cycler(*items)", "get()" on
            # the "QuerySet API reference", "resolve()" on "django.urls utility functions"): the sections its
            # signature opens there
            called = re.compile(r"^[\W_]{0,3}" + re.escape(term) + r"\s*\(", re.IGNORECASE)
            titles = {page.path: page.title for page in release.pages}
            found = [place for place in found if place.opener is not None and called.match(place.opener.text)
                     and _owned(place, owner, titles, release)]
        if any(place.opener is not None and place.giving is not None for place in found):
            break
        # only a paragraph or list item naming it ("QuerySet.in_bulk() may be called without any arguments to
        # return all objects", a release note), or a section saying no return (a release note's heading
        # "QuerySet.get_or_create()"): its own section, under another spelling, comes first
        first = first or (found and (term, found, owner))
    else:
        if not first:
            # a function the pages never name ("lodash's _.chunk()", "fs.readJsonSync()"), or nowhere of its own
            return None if written else Returned(())
        term, found, owner = first
    by = by_question(asked.owners + ((owner,) if owner else ()), question, pages, retriever, release, scores, RETURN)
    order = (lambda place: (_after_owner(place, owner, release) or len(release.passages), *by(place))) if owner else by
    best = min((place for place in found if place.giving is not None), key=order, default=None)
    silent = min((place for place in found if place.giving is None), key=order, default=None)
    if best is None or (silent is not None and order(silent)[0] < order(best)[0]):
        return Returned(()) if silent is not None else None
    cosines = scores.cos_passages if scores is not None else None

    def nearest(passage) -> float:
        row = retriever.passage_row.get(passage.id) if cosines is not None else None
        return -float(cosines[row]) if row is not None else 0.0

    return Returned(tuple(p.id for p in quoted(RETURN, best, release, nearest)))


def _readings(asked, question: str, retriever, release):
    """(the name as the pages may write it, its look-up, the passages naming it, the class it is a method of when
    read by its own name) of the asked function, for each way the pages write it: as asked, its other spellings,
    then its method's name alone ("QuerySet.get" as "get()")."""
    for term in _spellings(asked.term):
        looked = look_up(term, asked.owners, question, retriever, release)
        if looked is None:
            return
        candidates = _naming(looked, retriever, release)
        if not looked.never_given and ("." not in term or _written(term, candidates, release)):
            yield term, looked, candidates, ""
    owner, _, member = asked.term.rpartition(".")
    looked = look_up(member, asked.owners, question, retriever, release) if owner else None
    if looked is None or looked.never_given:
        return
    candidates = _naming(looked, retriever, release)
    # the pages' own qualified name of the method ("HttpRequest.get_full_path()" for "request.get_full_path()")
    for qualified in _qualified(owner, member, candidates, release):
        if qualified.casefold() != asked.term.casefold() and (found := look_up(qualified, (), question, retriever,
                                                                               release)) is not None:
            yield qualified, found, _naming(found, retriever, release), ""
    owned = look_up(owner.rpartition(".")[2], (), question, retriever, release)
    if owned is not None and not owned.never_given and (_written(owner, _naming(owned, retriever, release), release)
                                                        or _written(owner.rpartition(".")[2], [], release)):
        yield member, looked, candidates, owner


def _qualified(owner: str, member: str, candidates, release) -> list[str]:
    """The names the pages give `member` in its signature lines and headings under a qualifier the asked owner
    is part of ("HttpRequest.get_full_path" for "request"), most of the owner's parts first."""
    signature = re.compile(r"^[\W_]{0,3}(?P<q>(?:[A-Za-z_$][\w$]*\.)+)" + re.escape(member) + r"\s*\(")
    parts = [part.casefold() for part in owner.split(".") if part]
    found: dict[str, int] = {}
    for text in [p.text for p in candidates if _NAME_LINE.match(p.text)] + [h.text for _, _, h in headings(release)]:
        if (match := signature.match(text)) and (shared := sum(part in match["q"].casefold() for part in parts)):
            name = match["q"] + member
            found[name] = max(found.get(name, 0), shared)
    return sorted(found, key=lambda name: -found[name])[:2]


def _naming(looked, retriever, release) -> list:
    return [release.passage(retriever.passage_ids[int(row)]) for row in looked.rows[:MAX_CANDIDATES]]


def _written(name: str, candidates, release) -> bool:
    """Do the pages write `name` as it is, in a passage naming it or a heading?"""
    written = as_written(name.casefold())
    return (any(written.search(p.text) for p in candidates)
            or any(written.search(folded) for _, folded, _ in headings(release)))


def _owned(place, owner: str, titles: dict[str, str], release) -> bool:
    """Is the place under its class or module: after a line naming it, or on a page (its `titles`) or under
    headings naming it ("django.urls" or its last part)?"""
    around = " ".join((titles.get(place.naming.page, ""), *place.naming.headings)).casefold()
    return _after_owner(place, owner, release) is not None or any(
        as_written(name.casefold()).search(around) for name in {owner, owner.rpartition(".")[2]})


def _after_owner(place, owner: str, release) -> int | None:
    """How many passages after the last line naming its class (a line that opens with "cycler") the place is, or
    None when none comes before it on its page."""
    opens = re.compile(r"^[\W_]{0,3}(?:" + re.escape(owner) + "|" + re.escape(owner.rpartition(".")[2]) + r")(?![\w-])",
                       re.IGNORECASE)
    naming = place.naming
    for order in range(naming.order - 1, -1, -1):
        before = release.passage_at(naming.page, order)
        if before is not None and opens.match(before.text):
            return naming.order - order
    return None


def _spellings(term: str) -> list[str]:
    """The function's name as the question writes it, then as the pages may: a namespace's promise API
    ("fs.promises.readFile" → "fsPromises.readFile"), and the name without its module ("crypto.subtle.verify" →
    "subtle.verify")."""
    found = _NAMESPACE.match(term)
    if found is None:
        return [term]
    return [term, f"{found['outer']}{found['inner'][:1].upper()}{found['inner'][1:]}.{found['member']}",
            f"{found['inner']}.{found['member']}"]
