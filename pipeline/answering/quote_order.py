"""Which of the passages worth quoting comes first: an order fitted on where answers were (pure).

The relevance model (relevance.py) says whether a passage answers, one passage at a time and
across questions, and its probability decides whether to quote at all: the gate and the
quote threshold read it. Fitted that way, it leans on what tells one question's chunks from
another's (the chunk's cosine) and orders the passages that pass nearly as retrieval did, so
the sentence that answers is often fourth behind three that only share its words.

`QuoteOrder` orders a question's passages among themselves: a conditional logit, a softmax
over one question's candidates at a time, fitted to put an answering sentence first
(`fitting.fit_order`, run by bench/answers/fit_order.py on the answer sets, never on a test
split). It weighs the passage's own features, the relevance model's log-odds, and one thing
the relevance model never saw: whether a passage states a polarity ("does not", "only",
"must", 不要) when the question asks yes or no ("Will the permission model stop a hostile
dependency?" is answered by "It does not provide security guarantees in the presence of
malicious code."). Its weights are stored in quote_order.json beside this file. Without that
file the order is the relevance model's.
"""
from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import dataclass
from pathlib import Path

from . import negation

ORDER_FILE = Path(__file__).with_name("quote_order.json")
# The relevance features that differ between one question's passages; question-wide ones
# ("unknown", "unknown_share") cannot order them, and "cross" says only which pages are in the
# question's language.
PASSAGE_FEATURES = ("cos_passage", "cos_chunk", "cos_heading", "gap_passage", "gap_chunk", "bm25_passage",
                    "bm25_chunk", "coverage_passage", "coverage_chunk", "overlap", "names", "named", "rank", "best",
                    "page_votes", "page_first", "number_missing", "rare_missing", "substance", "lead_in")
FEATURES = (*PASSAGE_FEATURES, "log_odds", "polarity", "polar_answer")

# A question asking for a fact names what it asks (what, how, which, 何, 어떻게…); one asking yes
# or no opens with a verb (English) or asks with no such word (Russian "Можно ли…?", "大丈夫ですか？").
_ENGLISH_WH = re.compile(r"(?i)\b(?:what|which|how|why|when|where|who|whom|whose)\b")
_ENGLISH_VERB_FIRST = re.compile(r"(?i)(?:^|[.;:!?—–]\s*|,\s*|\b(?:and|but|so)\s+)(?:is|are|was|were|do|does|did|can"
                                 r"|could|will|would|should|shall|must|has|have|had|may|might|isn't|aren't|doesn't"
                                 r"|don't|won't|can't)\b")
_ASKING_WORDS = {
    "ru": re.compile(r"(?i)(?<![а-яё])(?:что|чем|чего|чему|как|как(?:ой|ая|ое|ие|им|ую|ого|их|ов\w*)|почему|зачем"
                     r"|когда|где|куда|откуда|кто|кого|сколько|чей|чья)(?![а-яё])"),
    "ja": re.compile(r"何|なに|なん|どう|どの|どれ|どこ|どちら|どっち|なぜ|いつ|誰|だれ|いくつ|いくら|どんな"),
    "ko": re.compile(r"무엇|뭐|뭔|무슨|어떻게|어떤|어느|왜|언제|어디|누구|몇|얼마"),
}
# Words that restrict or require: with a negation, what a yes-or-no answer says.
_RESTRICTING = re.compile(r"(?i)\b(?:only|must|always|never|required?|requires|cannot|mandatory|solely|exclusively"
                          r"|at least|at most|no longer|только|обязательно|всегда|никогда|должн[аоы]?)\b"
                          r"|のみ|必ず|常に|必要")


def asks_yes_or_no(question: str, language: str) -> bool:
    """Does the question ask yes or no ("Does X support Y?", "Можно ли…?", "…大丈夫ですか？")?"""
    if language == "en":
        return not _ENGLISH_WH.search(question) and bool(_ENGLISH_VERB_FIRST.search(question))
    asking = _ASKING_WORDS.get(language)
    return asking is not None and not asking.search(question)


def states_polarity(text: str) -> bool:
    """Does the text say "not", "only" or "must" in some form (a negation mark or word, a restriction)?"""
    verbal, absence = negation.polarity(text)
    return verbal or absence or negation.lexical(text) > 0 or bool(_RESTRICTING.search(text))


def order_features(features: dict[str, float], probability: float, text: str, yes_or_no: bool) -> dict[str, float]:
    """A candidate's features as the order reads them."""
    p = min(max(probability, 1e-9), 1 - 1e-9)
    polar = float(states_polarity(text))
    return {**{name: features.get(name, 0.0) for name in PASSAGE_FEATURES},
            "log_odds": math.log(p / (1 - p)), "polarity": polar, "polar_answer": polar * yes_or_no}


@dataclass(frozen=True)
class QuoteOrder:
    version: str
    features: tuple[str, ...]
    mean: tuple[float, ...]
    scale: tuple[float, ...]
    weights: tuple[float, ...]
    fitted_on: str = ""

    def score(self, features: dict[str, float]) -> float:
        """Higher first; comparable only between one question's candidates."""
        return sum(w * (features[name] - m) / s
                   for name, m, s, w in zip(self.features, self.mean, self.scale, self.weights))

    def to_json(self) -> dict:
        return {"version": self.version, "fitted_on": self.fitted_on, "features": list(self.features),
                "mean": list(self.mean), "scale": list(self.scale), "weights": list(self.weights)}

    @classmethod
    def from_json(cls, data: dict) -> "QuoteOrder":
        unknown = set(data["features"]) - set(FEATURES)
        if unknown:
            raise ValueError(f"quote order {data.get('version')} uses unknown features {sorted(unknown)}")
        return cls(data["version"], tuple(data["features"]), tuple(data["mean"]), tuple(data["scale"]),
                   tuple(data["weights"]), data.get("fitted_on", ""))


@functools.lru_cache(maxsize=1)
def default_order() -> QuoteOrder | None:
    return QuoteOrder.from_json(json.loads(ORDER_FILE.read_text("utf-8"))) if ORDER_FILE.is_file() else None
