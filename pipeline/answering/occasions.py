"""Occasion questions ("When is the 'drain' event emitted?", "What causes EADDRINUSE?"): when it happens.

A reader who asks when an event fires, why an error comes up or when a hook runs names one thing and
wants the sentence that describes it: "The 'drain' event is emitted when…" under the heading
"Event: 'drain'", "An attempt was made to require() an ES Module." under `ERR_REQUIRE_ESM`, "Runs AFTER
the tarball has been generated…" after "postpack". Retrieval weighs the question's words as one bag,
so the thing's name, which a reference page repeats in every example and cross-reference, is worth
less than a "when" and an "emitted" that any sentence of the page may hold.

So an occasion question is read for its thing (trigsight.answering.occasion_terms), named in the
pages' words as a definition question's term is (trigsight.answering.term_places), and answered
(`occurring`) by its account, with the rest of the account's paragraph:
1. the first sentence of a section its name heads ("Event: 'drain'", "MD013 - Line length"), or its
   entry in a list of such things ("ECONNRESET (Connection reset by peer): …");
2. else a sentence on a page the question found that says when it comes about, with a word for the
   occasion and a verb for its coming about ("When a request contains invalid data, FastAPI raises a
   RequestValidationError.");
3. else what the pages say it is (trigsight.answering.definitions).
Of several (a 'close' event on each of a page's classes, a "dependencies" field and a "dependencies"
script), the one whose headings share the most of what the question calls it ("event", "lifecycle
script"), then of the question's other words, then one that says when it comes about, then the one
nearest the question in meaning, then the earliest retrieved. A single name in Latin letters or code that the pages never give, whether the
thing or its owner ("ERR_NO_SUCH_THING", "nodemon", "Express" where the pages only "express"
something), leaves nothing to say: the answer is a refusal. Any other question, or a thing none of
the above is found for, is answered as before.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..retrieval.tokenize import tokenize
from .asked_terms import QUOTES
from .definitions import Defining, defining_term, heading_names, paragraph, says_something
from .occasion_terms import AskedThing, occasion_of
from .term_places import (
    LATIN_NAME,
    MAX_CANDIDATES,
    as_written,
    headings,
    look_up,
    named,
    section_lead,
)

MAX_QUOTES = 3
# A sentence that says when something comes about: a word for the occasion and a verb for its coming about
# ("Когда запрос содержит недопустимые данные, FastAPI внутренне вызывает ошибку RequestValidationError.").
_OCCASION = re.compile(r"(?i)\b(?:when|whenever|if|once|after|before|until|unless|upon|as\s+soon\s+as|each\s+time"
                       r"|every\s+time|any\s+time|когда|если|после|перед|как\s+только|каждый\s+раз)\b"
                       r"|とき|時に|時は|場合|後に|前に|際に|たびに|때|경우|후에|전에|마다")
_COMES_ABOUT = re.compile(r"(?i)\b(?:emit\w*|fire[sd]?|thrown?|throws|raise[sd]?|trigger\w*|called|invoked|runs?|executed"
                          r"|sent|occurs?|happens?|reported|reports?|dispatched|возника\w*|вызыва\w*|выбрасыва\w*"
                          r"|срабатыва\w*|генериру\w*|выполня\w*|запуска\w*|происход\w*)\b"
                          r"|発生|発行|呼ば|呼び出|実行|送信|スロー|投げ|발생|호출|실행|전송|발행|던")


@dataclass(frozen=True)
class Occasion:
    passage_ids: tuple[str, ...]     # quoted in this order; none when the thing is nowhere in the pages


def occurring(question: str, hits, retriever, release, scores=None) -> Occasion | None:
    """What answers an occasion question (see the module docstring), or None for any other question and
    for a thing the pages give no account of."""
    asked = occasion_of(question)
    if asked is None:
        return None
    looked = look_up(asked.term, asked.owners, question, retriever, release)
    if looked is None:
        return None
    if looked.never_given:
        return Occasion(())              # a name the pages never give: they cannot say when it happens
    readings, rows = looked.readings, looked.rows
    pages = list(dict.fromkeys(hit.page for hit in hits))
    leads = _section_leads(asked.term, readings, release)
    defined = defining_term(asked.term, pages, retriever, release)
    accounts = leads + ([release.passage(defined.passage_id)] if defined is not None else [])
    by_question = _by_question(asked, question, pages, retriever, release, scores)
    account = min(accounts, key=by_question, default=None)
    if account is None or (account not in leads and not _entry_of(asked.term, account.text)):
        # what says when it comes about, on a page the question found, before what the thing is
        account = _saying_when(readings, rows, pages, retriever, release, by_question) or account
    if account is None:
        return None
    shown = paragraph(Defining(account.id, 0), release)[:MAX_QUOTES]
    return Occasion(tuple(p.id for p in shown))


def _section_leads(term: str, readings, release) -> list:
    """The first sentence (or list lead-in) of each section the thing's name heads. A name in Latin letters
    heads it as written ('finish' is not stream.finished())."""
    names = {frozenset(reading) for reading in readings}
    bare = QUOTES.sub("", term).strip()
    written = as_written(bare.casefold().removesuffix("()")) if LATIN_NAME.match(bare) else None
    leads = []
    for _, folded, heading in headings(release):
        if names & heading_names(heading.text) and (written is None or written.search(folded)):
            lead = section_lead(heading, release, account=True)
            if lead is not None:
                leads.append(lead)
    return leads


def _entry_of(term: str, text: str) -> bool:
    """Is the sentence the entry a list of such things gives the thing ("ECONNRESET (Connection reset by peer): A
    connection was forcibly closed by a peer.")? Like a section of its own, it is the thing's account."""
    bare = QUOTES.sub("", term).strip().casefold()
    return bool(re.match(r"[`'\"]?" + re.escape(bare) + r"[`'\"]?\s*(?:\([^()]*\)\s*)?:\s", text.casefold()))


def _saying_when(readings, rows, pages: list[str], retriever, release, by_question):
    """The sentence naming the thing (in `rows`) that says when it comes about, on a retrieved page, or None."""
    on = set(pages)
    saying = [p for p in (release.passage(retriever.passage_ids[int(row)]) for row in rows[:MAX_CANDIDATES])
              if p.page in on and _says_when(p.text) and says_something(p.text) and named(p.text, readings)]
    return min(saying, key=by_question, default=None)


def _says_when(text: str) -> bool:
    return bool(_OCCASION.search(text) and _COMES_ABOUT.search(text))


def _by_question(asked: AskedThing, question: str, pages: list[str], retriever, release, scores):
    """The order of the accounts: by what the question calls the thing, its other words, whether the account
    says when the thing comes about ("The 'finish' event is emitted after…" before "The 'finish' event is from
    the stream.Writable class."), meaning, page."""
    role = set(tokenize(asked.role))
    words = set(tokenize(question)) - role
    rank = {page: n for n, page in enumerate(pages)}
    cosines = scores.cos_passages if scores is not None else None
    titles = {page.path: page.title for page in release.pages}

    def place(passage):
        around = {t for h in (titles.get(passage.page, ""), *passage.headings) for t in tokenize(h)}
        enclosing = {t for h in passage.headings[:-1] for t in tokenize(h)}
        row = retriever.passage_row.get(passage.id) if cosines is not None else None
        near = -float(cosines[row]) if row is not None else 0.0
        return (-len(role & around), -len(words & enclosing), not _says_when(passage.text), near,
                rank.get(passage.page, len(rank)), passage.page, passage.order)

    return place
