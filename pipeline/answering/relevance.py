"""Does this retrieved passage answer the question? One calibrated score from all the evidence (pure).

The index holds three kinds of evidence about a question and a passage: how close they
are in the multilingual vector space (the sentence, its chunk, and the page title with
its heading, each on its own), how strongly BM25 ranks the passage and its chunk, and how
much of the question's informative wording the passage carries (idf-weighted overlap, and
the code names it mentions such as `fs.watch()` or NODE_OPTIONS, which stay English in
every language), and, for the question as a whole, how many of its Latin-script words the
pages never use at all (an on-topic question about Jest, pm2 or webpack) and how much of
its rare Latin-script wording (names few passages use) the passage's chunk lacks. No one
of them decides alone: a question in Russian about an English page shares no words with
its answer, and the nearest vector is near even when the pages never address the question.

A foreign question's overlap is taken on its bridged form (its words replaced by the
pages' nearest words: trigsight.retrieval.lexicon). Two more features: the names the
question asks about that no page mentions ("Bun", "MongoDB": `Overlap.unknown_names`), and
how much a sentence says on its own (its number of terms; a lead-in ending in ":").

`RelevanceModel` is a logistic regression over those features: the probability that a
passage is (or sits in the block of) an answering sentence. The gate is a second one over
`QUESTION_FEATURES`, what the scored candidates say of the question as a whole: the
probability that the pages answer it at all. Its weights, the features'
scaling and the refusal thresholds are fitted on the development split of
bench/answers/questions.json by bench/answers/fit.py (with `trigsight.answering.fitting`) and
stored, with a version, in relevance.json beside this file. The offline answer quotes passages
at or above the threshold; below it for every candidate, the answer is a refusal.
"""
from __future__ import annotations

import functools
import json
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..retrieval.lexicon import script
from ..retrieval.lexicon import words as lexicon_words
from ..retrieval.tokenize import tokenize
from .change_logs import asks_which_release
from .occasion_terms import occasion_of
from .overlap import Overlap, terms
from .support import code_names, numbers_in

MODEL_FILE = Path(__file__).with_name("relevance.json")
LEAD_IN_ENDS = (":", "：")
FEATURES = ("cos_passage", "cos_chunk", "cos_heading", "gap_passage", "gap_chunk", "bm25_passage", "bm25_chunk",
            "coverage_passage", "coverage_chunk", "overlap", "names", "named", "rank", "best", "cross",
            "page_votes", "page_first", "unknown", "number_missing", "rare_missing", "rare_asked", "unknown_names",
            "substance", "lead_in", "unknown_share")
# The question as a whole, from its scored candidates: is it answered here at all?
QUESTION_FEATURES = ("top", "second", "unknown_names", "unknown_share", "rare_missing", "overlap_max", "overlap_top",
                     "coverage_top", "cos_chunk_max", "number_missing_top")

# A question asking for a quantity or a date: a passage without a number cannot be its answer. A "when" asks
# for a date when it asks when something ends, starts or ships; "When does npm audit exit with a non-zero
# code?" asks on what condition.
# A limit word asks for a number only in a wh-question: "What is the maximum size?" does, "Does going
# past the maximum listener count stop…?" does not.
_WANTS_NUMBER = re.compile(r"(?i)\b(?:how (?:many|much|long|often|frequently|large|big|fast|old|far|high|tall|wide"
                           r"|deep|heavy)|what (?:date|year|version|size|port|percentage|percent|age)"
                           r"|which (?:version|year|port)"
                           r"|(?:what|which)(?: is| are|'s)? the (?:maximum|minimum|largest|smallest|longest|shortest)"
                           r"|when\s+(?:does|do|will|did)\b[^?]*?\b(?:end|ends|start|starts|begin|begins|expire"
                           r"|expires|reach|reaches|ship|ships|launch|come\s+out|get\s+released|be\s+released|go\s+eol)"
                           r"|сколько|какой версии|какого размера|во сколько|в каком году|как долго|как часто"
                           r"|какого возраста|какой процент|как(?:ой|ом) порт"
                           r"|wie (?:viele?|lange|oft|groß)|combien|cuánt[oa]s?|quant[oa]s?|hoeveel|ile (?:jest|razy|trwa)|kaç)\b"
                           r"|\bкак(?:ой|ая|ое|ов|ова|ово|им) (?:максимальн|минимальн)"
                           r"|いくつ|いくら|何(?:個|回|秒|ミリ秒|分|時間|日|年|件|倍|文字|行|MB|KB|GB|バイト|歳|パーセント|%|番|人|ヶ月|か月|週)"
                           r"|ど[のれ][くぐ]らい|몇|얼마|언제[^?]*?(?:출시|나오|나왔|종료|끝나|릴리스|배포|시작|지원)"
                           r"|(?:출시|종료|릴리스|배포|시작|지원)[^?]*?언제|多少|几[个次秒种]|多[长久大]")


def leads_in(text: str) -> bool:
    """Does the sentence open what follows it ("This has a few consequences:")?"""
    return text.rstrip().endswith(LEAD_IN_ENDS)


def lacks_number(question: str, text: str) -> bool:
    """Does the question ask for a quantity or a date ("How long…?", "몇 건…?") that `text` does not
    give, in digits or in words ("four", "четыре", 四つ, 네 가지)? A number the question states
    itself is not an answer to it: "How many requests can a server handle on a 4-core machine?"
    is not answered by "4 cores"."""
    return _lacks(_numbers_wanted(question), text)


def _numbers_wanted(question: str) -> Counter | None:
    """The numbers the question states, when it asks for one (else None). A "when" that asks on what
    occasion something happens ("When does ERR_REQUIRE_ESM get thrown?", "'finish' 이벤트는 언제 발생하나요?")
    asks for no date."""
    asks = _WANTS_NUMBER.search(question) and occasion_of(question) is None
    return Counter(numbers_in(question)) if asks else None


def _lacks(stated: Counter | None, text: str) -> bool:
    return stated is not None and not Counter(numbers_in(text)) - stated


def stated_by(passage, question: str) -> str:
    """The passage's text, and, when the question asks in which version something came, the nearest
    heading above it that names a version: a change log's "1.9.0" or "v2.3.0 (2024-01-05)", over
    "Bug Fixes" perhaps, is where it says in which release the change under it came."""
    if not asks_which_release(question):
        return passage.text
    version = next((heading for heading in reversed(passage.headings) if versions_in(heading)), "")
    return f"{passage.text} {version}" if version else passage.text


def versions_in(text: str) -> frozenset[str]:
    """The versions a text names ("v7.8.1", "7.0"), as the tokenizer writes them."""
    return frozenset(t for t in tokenize(text) if "." in t and t[0].isdigit())


def _named_in(names: frozenset[str], versions: frozenset[str], context: str) -> int:
    """How many of the question's code names and versions a chunk's context (title, headings, text) names."""
    found = sum(name in context.casefold() for name in names)
    return found + len(versions & set(tokenize(context))) if versions else found


@dataclass(frozen=True)
class Candidate:
    passage_id: str
    rank: int                 # retrieval rank of its chunk, from 1
    features: dict[str, float]


def candidates(question: str, hits, scores, retriever, release, question_language: str) -> list[Candidate]:
    """Every allowlisted passage of the retrieved chunks, with its features."""
    overlap = Overlap.of(release)
    bridged = scores.bridged or question   # a foreign question in the pages' words
    names, versions = code_names(question), versions_in(question)
    stated = _numbers_wanted(question)
    asked, bridged_asked = question, bridged
    if overlap.reads_names_only(question):   # an English question on Japanese pages: its names only
        asked, bridged_asked = overlap.names_of(question), overlap.names_of(bridged)
    elif overlap.asked_in_other_latin(question_language):
        # German asked of English pages: like a Russian question, its own words are not the pages' and
        # only its names are read as written; its bridged form stands for the rest.
        asked = overlap.names_of(question)
    unknown = min(2, len(overlap.unknown(asked)))
    unknown_names = min(2, len(overlap.unknown_names(question)))
    unknown_share = 1.0 if reads_nothing(question, scores, retriever) else overlap.unknown_share(bridged_asked)
    rare = overlap.rare(asked)
    top_sentence = _top(scores.cos_sentences)
    top_chunk = _top(scores.cos_whole)
    top_bm25_passage = _top(scores.bm25_passages)
    top_bm25_chunk = _top(scores.bm25_chunks)
    pages = [hit.page for hit in hits]
    out: list[Candidate] = []
    for rank, hit in enumerate(hits, start=1):
        chunk = retriever.chunk_row.get(hit.chunk_id)
        if chunk is None:
            continue
        passages = [p for p in (release.passage(pid) for pid in hit.passage_ids) if p is not None]
        context = " ".join([retriever.chunks[chunk].indexed_text])
        rare_missing = overlap.missing(rare, context)
        found = _named_in(names, versions, context) / (len(names) + len(versions)) if names or versions else 0.0
        cos_chunk = _at(scores.cos_whole, chunk)
        cos_heading = _at(scores.cos_headings, chunk) if scores.cos_headings is not None else cos_chunk
        for passage in passages:
            row = retriever.passage_row.get(passage.id)
            if row is None:
                continue
            page = release.page(passage.page)
            cross = bool(page and page.language and page.language.split("-")[0] != question_language)
            cos_passage = _at(scores.cos_sentences, row)
            out.append(Candidate(passage.id, rank, {
                "cos_passage": cos_passage, "cos_chunk": cos_chunk, "cos_heading": cos_heading,
                "gap_passage": cos_passage - top_sentence, "gap_chunk": cos_chunk - top_chunk,
                "bm25_passage": _share(scores.bm25_passages[row], top_bm25_passage),
                "bm25_chunk": _share(scores.bm25_chunks[chunk], top_bm25_chunk),
                "coverage_passage": float(scores.coverage_passages[row]),
                "coverage_chunk": float(scores.coverage_chunks[chunk]),
                # the bridge reaches pages in another language; a page in the question's own is read as asked
                "overlap": overlap.score(bridged if cross else question, passage), "names": found,
                "named": float(bool(names or versions)),
                "rank": 1.0 / rank, "best": float(passage.id == hit.best_passage),
                "cross": float(cross),
                "page_votes": pages.count(hit.page) / len(pages), "page_first": float(hit.page == pages[0]),
                "unknown": float(unknown),
                "number_missing": float(_lacks(stated, stated_by(passage, question))),
                "rare_missing": rare_missing, "rare_asked": float(bool(rare)),
                "unknown_names": float(unknown_names),
                # A sentence with few words of its own, or one that only opens a list ("This has a few
                # consequences:"), says nothing a reader can use on its own.
                "substance": math.log1p(len(terms(passage.text))),
                "lead_in": float(leads_in(passage.text)),
                "unknown_share": unknown_share,
            }))
    return out


def reads_nothing(question: str, scores, retriever) -> bool:
    """Is the question in another script than the pages' main one, with no word the pages use, none
    the bridge read into theirs, and no word in their main script ("料金プランはいくらですか？" of
    English pages)? Then it asks about nothing the pages name, like a Russian question none of whose
    words a page uses (whose share of unused words is 1). Japanese and Korean words are not terms of
    `Overlap.unknown_share`, so without this such a question counted as using only the pages' words."""
    lexicon = getattr(retriever, "lexicon", None)
    if lexicon is None or scores.bridged:
        return False
    units = lexicon_words(question)
    return (bool(units) and not any(lexicon.knows(unit) for unit in units)
            and not any(script(token) == lexicon.main for token in tokenize(question) if not token.isdigit()))


def _top(values) -> float:
    return float(np.max(values)) if values is not None and len(values) else 0.0


def _at(values, row: int) -> float:
    return float(values[row]) if values is not None and len(values) else 0.0


def _share(value: float, top: float) -> float:
    return float(value) / top if top > 0 else 0.0


@dataclass(frozen=True)
class RelevanceModel:
    """Logistic regression over standardised features, with the refusal threshold."""

    version: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float                 # quote a passage at or above this probability
    second: float = 0.5              # a further quote needs this share of the first one's probability
    fitted_on: str = ""

    def probability(self, features: dict[str, float]) -> float:
        z = self.bias + sum(w * (features[name] - m) / s
                            for name, m, s, w in zip(self.features, self.mean, self.scale, self.weights))
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def to_json(self) -> dict:
        return {"version": self.version, "fitted_on": self.fitted_on, "features": list(self.features),
                "mean": list(self.mean), "scale": list(self.scale), "weights": list(self.weights),
                "bias": self.bias, "threshold": self.threshold, "second": self.second}

    @classmethod
    def from_json(cls, data: dict, known: tuple[str, ...] = FEATURES) -> "RelevanceModel":
        unknown = set(data["features"]) - set(known)
        if unknown:
            raise ValueError(f"relevance model {data.get('version')} uses unknown features {sorted(unknown)}")
        return cls(data["version"], tuple(data["features"]), tuple(data["mean"]), tuple(data["scale"]),
                   tuple(data["weights"]), float(data["bias"]), float(data["threshold"]),
                   float(data.get("second", 0.5)), data.get("fitted_on", ""))


def question_features(scored: list[tuple[Candidate, float]]) -> dict[str, float]:
    """What the question's scored candidates say about the question as a whole."""
    if not scored:
        return dict.fromkeys(QUESTION_FEATURES, 0.0)
    ranked = sorted(scored, key=lambda pair: -pair[1])
    best = ranked[0][0].features
    return {"top": ranked[0][1], "second": ranked[1][1] if len(ranked) > 1 else 0.0,
            "unknown_names": best["unknown_names"], "unknown_share": best["unknown_share"],
            "rare_missing": best["rare_missing"],
            "overlap_max": max(c.features["overlap"] for c, _ in scored), "overlap_top": best["overlap"],
            # "How long…?", "몇 건…?" answered by a sentence without a number, in digits or words
            "number_missing_top": best["number_missing"],
            "coverage_top": best["coverage_chunk"], "cos_chunk_max": max(c.features["cos_chunk"] for c, _ in scored)}


@functools.lru_cache(maxsize=1)
def _stored() -> dict:
    return json.loads(MODEL_FILE.read_text("utf-8"))


@functools.lru_cache(maxsize=1)
def default_model() -> RelevanceModel:
    return RelevanceModel.from_json(_stored())


@functools.lru_cache(maxsize=1)
def default_gate() -> RelevanceModel | None:
    """The question-level model (relevance.json "gate"): below its threshold the answer is a refusal."""
    data = _stored().get("gate")
    return RelevanceModel.from_json(data, QUESTION_FEATURES) if data else None
