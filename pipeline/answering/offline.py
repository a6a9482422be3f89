"""The offline answer: retrieved passages quoted verbatim, each with its chip (pure).

No sentence is generated, so nothing can be invented; the one risk left is quoting
something beside the point, because vector search always returns a nearest chunk, even
for a question the pages never address. Every passage of the retrieved chunks gets one
calibrated probability of answering the question (`trigsight.answering.relevance`: vector
similarity of the passage, its chunk and its heading, BM25, and lexical overlap, combined
by a model fitted on development questions). A passage is quoted when that probability
reaches the model's threshold; when none does, or when the question-level gate says the
pages do not address the question at all, the answer is the refusal; so it is, before any
passage is weighed, for input with no word to look up ("🤔", "???", "こんにちは": `asks_anything`).

Candidates are the passages of the first `CANDIDATE_CHUNKS` retrieved chunks (a model is
shown only the first `CONTEXT_CHUNKS`). Up to three quotes, most likely first, each from a
different block (a table row counts as one) and none a label ("Note", `pointers.is_label`);
each followed by the other sentence of its block nearly as likely as itself (`MATE`), since a
paragraph often answers in two ("If you use --enable-error-code explicit-override mypy generates
an error if you override a base class method without using the @override decorator. An error
will not be emitted for overrides of __init__ or __new__."); a sentence that only points
elsewhere ("See X for details.") only when nothing else qualifies; a further one only when it
is at least `second` times as likely as the first (both fitted with the model) and says
something the others do not (the same sentence repeated on another page adds nothing); an
item of a "See also" section points elsewhere too. A quote that leads into a list ("The main
differences between npm install and npm ci are:") brings the list: up to `LIST_ITEMS` of the
items right after it on its page, each quoted with its own chip, since the lead-in alone answers nothing;
a list item too short to stand alone ("yarn.lock") comes after its lead-in, among its list.
A quote comes with the sentence of its paragraph that finishes its thought ("Otherwise …",
"Therefore …") and, when it opens so itself, the sentence it leans on (`continuations`).
A question that names a version and asks when it came out is answered by the heading that dates
it ("7.8.0 (2022-12-15)", `dated_heading`), before any of this: a changelog says it nowhere else.
A question told with a story that all this refuses is read again by its asking sentences alone
(`choose_told`, `told_questions`).
"""
from __future__ import annotations

import dataclasses
import math
import re
from dataclasses import dataclass

from ..matching.textmodel import normalise
from ..retrieval.chunks import TABLE_CELLS
from . import (
    comparisons,
    continuations,
    defaults,
    definitions,
    leading,
    named_passages,
    occasions,
    returns,
    small_talk,
    spelling,
    told_questions,
)
from .answer import SUPPORTED, AnswerSentence, citation_for
from .attribution import language_of
from .change_logs import WIDER, current_hits, on_current_pages, present_first, sets_change_logs_aside
from .dated_headings import dated_heading
from .lists import lead_in_of, list_after
from .overlap import Overlap, terms
from .pointers import is_label, points_elsewhere
from .relevance import (
    Candidate,
    RelevanceModel,
    candidates,
    default_gate,
    default_model,
    question_features,
)
from .support import code_names
from .term_places import quoted_first

MAX_SENTENCES = 3
LIST_ITEMS = 6            # list items quoted after a lead-in
FRAGMENT_CHARACTERS = 30  # a list item shorter than this is shown after its list's lead-in
ECHO_TERMS = 2            # a passage of this many terms or fewer, all the question's, only echoes it
# A passage that asks rather than tells: a question ("What does pip stand for?"), or a search
# phrase a page lists ("how to install pip ubuntu"): words of the question, never its answer.
_ASKING_PHRASE = re.compile(r"(?i)^\s*(?:how|what|why|which|who)(?: to| do| does| can| is| are)?"
                            r"(?:\s+[^\s.,:!;]+){1,10}\s*$")
CONTEXT_CHUNKS = 6        # retrieved chunks issued to a model
CANDIDATE_CHUNKS = 20     # retrieved chunks whose passages the offline answer may quote
# A second sentence of a quoted block needs this share of the block's quote's probability: chosen on the
# development questions of every set (bench/answers/mates.py).
MATE = 0.9
IN_CHUNK = 2.0            # weight of a passage's own cosine and overlap inside its chunk (in_chunk_order)
# The lowest best-chunk cosine of an answerable same-language development question (0.272, English,
# over the bundled, Node.js and FastAPI ja/ko/ru development sets), less 0.05; judged on
# bench/answers/bundled-holdout.json (bench/answers/results/2026-12-02-same-language-floor.md).
SAME_LANGUAGE_FLOOR = 0.22


@dataclass(frozen=True)
class Quoted:
    passage_id: str
    relevance: float      # calibrated probability that the passage answers the question
    rank: int             # retrieval rank of its chunk, from 1
    item: bool = False    # an item of the list a quote before it leads into (with_lists)


def in_chunk_order(scored: list[tuple[Candidate, float]]) -> list[tuple[Candidate, float]]:
    """The candidates with each retrieved chunk's probabilities handed to its passages anew, in the
    order of their own evidence: the model's log-odds plus `IN_CHUNK` times the passage's cosine and
    word overlap with the question.

    The model is fitted across chunks, where the chunk's similarity says most; a passage's own
    cosine adds nothing there and got no weight. Inside one chunk every chunk feature is equal,
    and the model ordered the sentences nearly at random: on the development questions it put a
    chunk's answering sentence first in 22 of 40 chunks (Node.js docs; random order: 20) and 38
    of 69 (bundled site); this order does in 31 and 55 (bench/answers/in_chunk.py).
    """
    by_chunk: dict[int, list[int]] = {}
    for number, (candidate, _) in enumerate(scored):
        by_chunk.setdefault(candidate.rank, []).append(number)
    out = list(scored)
    for members in by_chunk.values():
        if len(members) < 2:
            continue
        probabilities = sorted((scored[n][1] for n in members), reverse=True)
        order = sorted(members, key=lambda n: (-in_chunk_score(*scored[n]), n))
        for number, probability in zip(order, probabilities):
            out[number] = (scored[number][0], probability)
    return out


def in_chunk_score(candidate: Candidate, probability: float) -> float:
    """The model's log-odds plus `IN_CHUNK` times the passage's own cosine and overlap."""
    p = min(max(probability, 1e-9), 1 - 1e-9)
    own = candidate.features.get("cos_passage", 0.0) + candidate.features.get("overlap", 0.0)
    return math.log(p / (1 - p)) + IN_CHUNK * own


def select(scored: list[tuple[Candidate, float]], release, threshold: float, second: float,
           limit: int = MAX_SENTENCES) -> list[Quoted]:
    """The quotes among scored candidates: see the module docstring."""
    scored = in_chunk_order(scored)
    ranked = sorted(((c, p) for c, p in scored if p >= threshold and not is_label(release.passage(c.passage_id))),
                    key=lambda pair: (-pair[1], pair[0].rank))
    # "See assert.throws() for more details." points elsewhere and says nothing itself: it is
    # quoted only when nothing else reaches the threshold ("Where is the list of extensions?"),
    # and then alone.
    ranked = [(dataclasses.replace(c, passage_id=told.id), p) for c, p in ranked
              if (told := telling(release.passage(c.passage_id), release)) is not None]
    said = [(c, p) for c, p in ranked if not points_elsewhere(release.passage(c.passage_id))]
    ranked = said or ranked[:1]
    chosen: dict[tuple, Quoted] = {}     # each block's quote, in the order chosen
    mates: dict[tuple, Quoted] = {}      # the other sentence of a chosen block nearly as likely
    texts: set[str] = set()
    for candidate, probability in ranked:
        if len(chosen) >= limit or probability < threshold:
            break
        if chosen and probability < second * next(iter(chosen.values())).relevance:
            break
        passage = release.passage(candidate.passage_id)
        text = str(normalise(passage.text))
        # A table row is one retrieved chunk whose cells are blocks of their own: "nl2br",
        # "markdown.extensions.nl2br" and "New Line to Break" quoted apart are one row said thrice.
        block = ("row", candidate.rank) if passage.kind in TABLE_CELLS else (passage.page, passage.block)
        if text in texts:
            continue
        if block in chosen:
            if block[0] != "row" and block not in mates and probability >= MATE * chosen[block].relevance:
                mates[block] = Quoted(candidate.passage_id, probability, candidate.rank)
                texts.add(text)
            continue
        texts.add(text)
        chosen[block] = Quoted(candidate.passage_id, probability, candidate.rank)
    return [quoted for block, first in chosen.items() for quoted in (first, mates.get(block)) if quoted]


def defining_quotes(defined, release) -> list[Quoted]:
    """The defining sentence and the rest of its paragraph that goes on to say what it is, up to a
    sentence that points elsewhere ("Hatch is a modern, extensible Python project manager." but not
    "See the Why Hatch? page for more information.")."""
    shown: list[Quoted] = []
    for passage in definitions.paragraph(defined, release):
        if shown and points_elsewhere(passage):
            break
        shown.append(Quoted(passage.id, 1.0, 1))
    return shown


def asks_anything(question: str) -> bool:
    """Does the question hold a word the pages could answer about: an informative term in any script
    (overlap.terms) or a code name, once its greetings and thanks are left out (small_talk)? "😀",
    "???", "Hello" or "Спасибо!" holds none, and the nearest passage to nothing is no answer."""
    return bool(terms(small_talk.without(question)) or code_names(question))


def asks(passage) -> bool:
    """Does the passage ask rather than tell: a question, or a search phrase a page lists?"""
    return bool(told_questions.ENDS_ASKING.search(passage.text) or _ASKING_PHRASE.match(passage.text))


def telling(passage, release):
    """The passage, or for a question a FAQ answers in the description under it (a definition
    list's term), that description; None for any other passage that asks."""
    if not asks(passage):
        return passage
    following = release.passage_at(passage.page, passage.order + 1) if passage.kind == "dt" else None
    if following is None or following.kind != "dd" or asks(following):
        return None
    return following


def with_lists(chosen: list[Quoted], release, items: int = LIST_ITEMS) -> list[Quoted]:
    """The quotes with the lists they belong to: a lead-in followed by the first `items` items of
    the list it introduces, and an item too short to stand alone ("yarn.lock") shown after its
    lead-in and among its list. A passage is quoted once, where it first comes."""
    out: list[Quoted] = []
    for quoted in chosen:
        passage = release.passage(quoted.passage_id)
        lead = lead_in_of(passage, release) if len(passage.text) < FRAGMENT_CHARACTERS else None
        start = lead or passage
        shown = [start, *list_after(start, release, items)]
        if passage not in shown:
            shown.append(passage)
        out += [Quoted(p.id, quoted.relevance, quoted.rank, p is not start) for p in shown]
    once: dict[str, Quoted] = {}
    for quoted in out:
        once.setdefault(quoted.passage_id, quoted)
    return list(once.values())


def answered(scored: list[tuple[Candidate, float]], gate: RelevanceModel | None) -> bool:
    """Does the question-level model think the pages answer this question at all?

    With the gate comes a floor it cannot learn from its features: a question whose first
    retrieved page is in its own language, yet whose nearest chunk is farther than
    `SAME_LANGUAGE_FLOOR`, is about something the pages never discuss ("作者の好きな食べ物は何ですか？"
    beside the Japanese overview page: 0.156). Across languages the floor does not apply: there it
    cost an answer whose figure sits in a table row (bench/answers/results/
    2026-12-02-variant-cross-language-floor-heldout.md)."""
    if gate is None:
        return True
    if far_from_pages(scored, SAME_LANGUAGE_FLOOR, across=False):
        return False
    return gate.probability(question_features(scored)) >= gate.threshold


def far_from_pages(scored: list[tuple[Candidate, float]], floor: float, across: bool) -> bool:
    """Is the first retrieved page in another language than the question (`across`) or in its own
    (not `across`), and the nearest chunk's cosine below `floor`?"""
    first = next((candidate for candidate, _ in scored if candidate.rank == 1), None)
    return (first is not None and bool(first.features.get("cross")) == across
            and question_features(scored)["cos_chunk_max"] < floor)


def weigh(question: str, hits, scores, retriever, release, language: str,
          model: RelevanceModel) -> list[tuple[Candidate, float]]:
    """Every candidate passage of the retrieved `hits` with its probability of answering."""
    return [(c, model.probability(c.features)) for c in candidates(question, hits, scores, retriever, release, language)]


def choose(question: str, hits, scores, retriever, release, language: str,
           model: RelevanceModel | None = None, limit: int = MAX_SENTENCES,
           gate: RelevanceModel | None = None) -> list[Quoted]:
    """The passages to quote for `question` from its retrieved `hits` (with the leg `scores`)."""
    if model is None:
        model, gate = default_model(), default_gate()
    if not asks_anything(question):
        return []
    dated = dated_heading(question, hits, release)
    if dated is not None:
        return [Quoted(dated.id, 1.0, 1)]
    compared = comparisons.comparing(question, hits, retriever, release, scores)
    if compared is not None:
        return with_lists(with_continuations([Quoted(passage_id, 1.0, 1) for passage_id in compared.passage_ids],
                                             release), release)
    returned = returns.returning(question, hits, retriever, release, scores)
    if returned is not None:
        return with_continuations([Quoted(passage_id, 1.0, 1) for passage_id in returned.passage_ids], release)
    default = defaults.defaulting(question, hits, retriever, release, scores)
    if default is not None:
        return with_continuations([Quoted(passage_id, 1.0, 1) for passage_id in default.passage_ids], release)
    occasion = occasions.occurring(question, hits, retriever, release, scores)
    if occasion is not None:
        return with_lists(with_continuations([Quoted(passage_id, 1.0, 1) for passage_id in occasion.passage_ids],
                                             release), release)
    defined = definitions.defining(question, hits, retriever, release)
    if defined is not None:
        return with_lists(defining_quotes(defined, release), release)
    scored = weigh(question, hits, scores, retriever, release, language, model)
    if not answered(scored, gate):
        return []
    scored = leading.first(question, scored, release)
    asked = terms(question)
    said = [(c, p) for c, p in scored if not echoes(asked, release.passage(c.passage_id), release)]
    chosen = select(said, release, model.threshold, model.second, limit)
    return with_lists(with_continuations(present_first(question, chosen, release), release), release)


def with_continuations(chosen: list[Quoted], release) -> list[Quoted]:
    """Each quote with the sentence of its paragraph it leans on ("…. Therefore, …") and the one that
    finishes it ("…. Otherwise …"), in page order (`continuations`). A passage is quoted once."""
    out: dict[str, Quoted] = {}
    for quoted in chosen:
        for passage in continuations.together(release.passage(quoted.passage_id), release):
            out.setdefault(passage.id, dataclasses.replace(quoted, passage_id=passage.id))
    return list(out.values())


def echoes(asked: frozenset[str], passage, release) -> bool:
    """Does the passage only say back words of the question: a name, a heading or a table cell
    ("EMFILE", "macOS", "md.registerExtension()") whose few terms the question already holds?
    Quoted, it tells the reader nothing they did not write. A list item is not one when it comes
    after its lead-in, which is shown with it (with_lists)."""
    own = terms(passage.text)
    return (bool(own) and len(own) <= ECHO_TERMS and own <= asked
            and lead_in_of(passage, release) is None)


def sentences(quotes: list[Quoted], release) -> list[AnswerSentence]:
    """Each quote as an answer sentence: the passage verbatim with its own chip."""
    out = []
    for quoted in quotes:
        passage = release.passage(quoted.passage_id)
        out.append(AnswerSentence(passage.text, (citation_for(passage, release),), SUPPORTED, quoted.item))
    return out


def respond(question: str, retriever, release, language: str | None = None,
            k: int = CANDIDATE_CHUNKS) -> tuple[list[Quoted], list]:
    """(the quotes, the retrieved hits) of the offline answer to `question`, read without the
    greetings and thanks around it (small_talk.strip) and with its misspelt code names read as the
    pages' (spelling.corrected), as the chat reads it."""
    asked = spelling.corrected(small_talk.strip(question) or question, retriever)
    hits, scores = retrieve(asked, retriever, release, k)
    language = language or language_of(asked)
    return quoting(asked, hits, scores, retriever, release, language, k), hits


def quoting(asked: str, hits, scores, retriever, release, language: str, k: int = CANDIDATE_CHUNKS) -> list[Quoted]:
    """The offline answer's quotes for `asked` from its retrieved `hits`: `choose`'s, else `choose_told`'s, each from
    the current page when an older version's copy of it was quoted (`change_logs.on_current_pages`)."""
    quotes = choose(asked, hits, scores, retriever, release, language) or choose_told(asked, hits, retriever, release,
                                                                                        language, k)
    return on_current_pages(asked, quotes, release)


def choose_told(asked: str, hits, retriever, release, language: str, k: int = CANDIDATE_CHUNKS) -> list[Quoted]:
    """For a question told with a story that `choose` refused: the quotes for its asking sentences alone
    (`told_questions`), from chunks the whole text retrieved too (`hits`), so the story still says where
    the answer may be; [] when there is no such reading or it finds nothing there."""
    focus = told_questions.asked_sentences(asked, Overlap.of(release))
    if not focus:
        return []
    focus_hits, focus_scores = retrieve(focus, retriever, release, k)
    whole = {hit.chunk_id for hit in hits}
    chunk_of = {passage_id: hit.chunk_id for hit in focus_hits for passage_id in hit.passage_ids}
    kept, keeping = [], False
    for quoted in choose(focus, focus_hits, focus_scores, retriever, release, language):
        if not quoted.item:          # a list's items stay with their lead-in
            keeping = chunk_of.get(quoted.passage_id) in whole
        if keeping:
            kept.append(quoted)
    return kept


def retrieve(asked: str, retriever, release, k: int = CANDIDATE_CHUNKS) -> tuple[list, object]:
    """The retrieved chunks for `asked`, with the leg scores; for a comparison question the chunks of
    the passages that tell its terms apart come first (`comparisons`), and for a definition question
    the chunk of the sentence defining its term (`definitions`), so a model is issued them too."""
    hits, scores = retriever.search_scored(asked, k=WIDER * k if sets_change_logs_aside(asked, release) else k)
    hits = current_hits(asked, hits, release, k)
    compared = comparisons.comparing(asked, hits, retriever, release, scores)
    if compared is not None:
        return quoted_first(hits, compared.passage_ids, retriever), scores
    returned = returns.returning(asked, hits, retriever, release, scores)
    if returned is not None:
        return quoted_first(hits, returned.passage_ids, retriever), scores
    default = defaults.defaulting(asked, hits, retriever, release, scores)
    if default is not None:
        return quoted_first(hits, default.passage_ids, retriever), scores
    occasion = occasions.occurring(asked, hits, retriever, release, scores)
    if occasion is not None:
        return quoted_first(hits, occasion.passage_ids, retriever), scores
    hits = named_passages.with_named(asked, hits, retriever, release)
    return definitions.first(hits, definitions.defining(asked, hits, retriever, release), retriever), scores


def describe(model: RelevanceModel | None = None, gate: RelevanceModel | None = None) -> str:
    if model is None:
        model, gate = default_model(), default_gate()
    gated = (f"; refuse when the question-level gate ({len(gate.features)} features) is below {gate.threshold:.2f}"
             if gate else "")
    return (f"extractive; relevance model {model.version} (logistic regression over {len(model.features)} "
            f"features), quote at p >= {model.threshold:.2f}{gated}")
