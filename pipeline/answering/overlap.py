"""How much of a question's informative wording a passage carries: idf-weighted term overlap (pure).

One of the relevance model's features (trigsight.answering.relevance), and on its own the
lexical check that keeps a question about a word the site never uses ("Who is the
author's dentist?") from being answered by the nearest sentence about the author.

Terms are `trigsight.retrieval.tokenize` tokens of the text with question words removed,
hiragana dropped (Japanese particles and endings; the content is in kanji and katakana)
and Korean particles and endings cut off each word, so only words that carry meaning
are compared. Russian and English stems of five letters or more also match a longer
stem they begin (браузер / браузерн).
"""
from __future__ import annotations

import functools
import math
import re
import threading
from dataclasses import dataclass

from .. import languages
from ..retrieval.tokenize import tokenize
from .support import capitals_name, code_names, is_name

PREFIX_MATCH = 5
RARE_SHARE = 0.005      # a term in at most this share of the passages is rare …
RARE_MIN_DF = 5         # … or in at most this many
SUBJECT_SHARE = 0.02    # a word in this share of the passages is what the pages are about

_HIRAGANA = re.compile(r"[\u3041-\u309f]+")
_HANGUL_WORD = re.compile(r"[\uac00-\ud7af]+")
_QUESTION_WORDS = re.compile(
    r"(?i)\b(?:почему|зачем|когда|где|кто|какой|какая|какое|какие|каким|какую|сколько|ли|"
    r"чем|чего|можно|ли)\b|[何誰]|(?:무엇|어떻게|어떤|무슨|언제|어디|누가|누구|얼마나|왜)(?:을|를|이|가|은|는|으로|로)?")
_KOREAN_ENDINGS = tuple(sorted(
    "합니다 합니까 입니다 입니까 습니다 습니까 됩니다 됩니까 있습니다 없습니다 니다 니까 나요 까요 하는 하고 "
    "해서 하며 에서 으로 에게 에는 부터 까지 은 는 이 가 을 를 의 에 로 와 과 도 만".split(), key=len, reverse=True))


def _korean_stem(match: re.Match) -> str:
    word = match.group()
    if word in _KOREAN_ENDINGS:
        return " "      # a bare ending ("합니까" after a question word)
    for _ in range(2):
        for ending in _KOREAN_ENDINGS:
            if len(word) > len(ending) and word.endswith(ending):
                word = word[:-len(ending)]
                break
    return word


@functools.lru_cache(maxsize=65536)
def terms(text: str) -> frozenset[str]:
    """The informative terms of `text` (see the module docstring)."""
    text = _QUESTION_WORDS.sub(" ", text)
    text = _HIRAGANA.sub(" ", text)
    text = _HANGUL_WORD.sub(_korean_stem, text)
    return frozenset(t for t in tokenize(text) if len(t) > 1 or not t.isascii())


@dataclass
class Overlap:
    """Idf-weighted overlap between a question and passages of one release."""

    df: dict[str, int]
    n: int
    language: str = "en"     # the language most passages are written in (their pages')
    capitalised: frozenset[str] | None = None    # words the pages write with a capital at least once, lower-cased
    written: frozenset[str] | None = None        # every Latin-script word the pages write, lower-cased, unstemmed
    classes: frozenset[str] = frozenset()        # one-word class names the pages' code uses (Schema, Field)

    @classmethod
    def of(cls, release) -> "Overlap":
        with _LOCK:
            found = _CACHE.get(release.release_id)
            if found is None:
                df: dict[str, int] = {}
                languages: dict[str, int] = {}
                capitalised: set[str] = set()
                written: set[str] = set()
                classes: set[str] = set()
                for passage in release.passages:
                    capitalised.update(w.lower() for w in _CAPITALISED.findall(passage.text))
                    classes.update(m.group(m.lastindex) for m in _CODE_CLASS.finditer(passage.text))
                    written.update(w.lower() for w in _LATIN_WORD.findall(passage.text))
                    for term in terms(passage.text):
                        df[term] = df.get(term, 0) + 1
                    page = release.page(passage.page)
                    language = (page.language if page and page.language else "en").split("-")[0]
                    languages[language] = languages.get(language, 0) + 1
                found = _CACHE[release.release_id] = cls(
                    df, len(release.passages), max(languages, key=languages.get) if languages else "en",
                    frozenset(capitalised), frozenset(written), frozenset(classes))
            return found

    def reads_names_only(self, question: str) -> bool:
        """Is this a question in Latin letters on pages written in another script (English asked of
        Japanese docs)? There the pages use Latin letters for names and code only, so an ordinary
        English word they never use ("raise", "plain") says nothing of whether they address the
        question: only its names and code names (`HTTPException`, `TestClient`, `item_id`) do."""
        return self.language in NON_LATIN_LANGUAGES and not NON_LATIN.search(question)

    def asked_in_other_latin(self, question_language: str) -> bool:
        """Is the question written in Latin letters in another language than the pages' (German asked
        of English pages)?"""
        return (languages.is_latin(question_language) and languages.is_latin(self.language)
                and question_language.split("-")[0] != self.language.split("-")[0])

    @staticmethod
    def names_of(text: str) -> str:
        """The words of `text` written like names, and its code names, as one string."""
        return " ".join([*_name_words(text), *sorted(code_names(text))])

    def unknown(self, question: str) -> list[str]:
        """The question's Latin-script terms (three letters or more) that no passage of the release uses."""
        return [t for t in terms(question) if _LATIN_TERM.match(t) and not t.isdigit() and len(t) > 2
                and not self.df.get(t)]

    def unknown_share(self, question: str) -> float:
        """The idf-weighted share of the question's English and Russian terms that no passage uses.

        "Who is the author's dentist?" asks about nothing but the dentist; a question with one
        unused word among many used ones ("deliberately") still asks about the pages. Japanese
        and Korean terms are character bigrams, too fine to say a word is unused (counting the
        bigrams of kanji runs and particle-less Korean words was tried: it lowered the dev
        split's out-of-fold score, bench/answers/results/2026-12-01-fit.md).
        """
        wanted = [t for t in terms(question) if _SPACED_TERM.match(t) and not t.isdigit()]
        total = sum(self.idf(t) for t in wanted)
        return sum(self.idf(t) for t in wanted if not self.df.get(t)) / total if total else 0.0

    def unknown_names(self, question: str) -> list[str]:
        """The names the question asks about that no passage uses at all ("Bun", "pm2", "MongoDB").

        A name is a Latin-script word written like one: capitalised inside the sentence,
        with a digit or an inner capital, or any Latin word inside a question in another
        script (a Russian question keeps "webpack" as it is). Unlike `unknown`, an ordinary
        word the pages happen not to use ("hostile", "deliberately") is not counted.
        """
        in_prose = set(_CAPITALISED_IN_PROSE.findall(question)) if self.capitalised is not None else set()
        return [word for word in _name_words(question, every_word=bool(NON_LATIN.search(question)))
                if (any(not self.df.get(t) for t in terms(word)) or self._stem_of_another(word)
                    or (word in in_prose and self._only_lower_case(word))) and not self._subclass_name(word)]

    def _subclass_name(self, word: str) -> bool:
        """Is `word` the asker's own class, named after a class of the pages' code? "My AuthorSchema and
        BookSchema…" of marshmallow's pages, whose code writes `Schema.load` and `class X(Schema)`. A
        product named like that ("PyInstaller", "WebSocket") ends in no class the pages' code uses."""
        parts = _CAMEL_PART.findall(word)
        return len(parts) >= 2 and "".join(parts) == word and parts[-1] in self.classes

    def _stem_of_another(self, word: str) -> bool:
        """Is `word` a name the pages never write, whose stem only another word of theirs has? The
        stemmer turns a final "y" into "i", so "PyPy" and "PyPI" are one term ("pypi"): a question
        about PyPy read as one the pages answer wherever they name PyPI. Only a name the stemmer
        changes rather than cuts short ("pypy" is not "pypi" with an ending) is looked up as written,
        so "APIs" or "Buffers" stay the "API" and "Buffer" the pages write, and "Library" their "libraries"."""
        folded = word.lower()
        stems = tokenize(folded)
        if self.written is None or len(stems) != 1 or folded.startswith(stems[0]):
            return False
        forms = {folded, folded.removesuffix("s"), folded + "s"}
        if folded.endswith("y"):
            forms.add(folded[:-1] + "ies")
        return not forms & self.written

    def _only_lower_case(self, word: str) -> bool:
        """Is capitalised `word` ("Express", "Yarn") a name that the pages write only as an ordinary
        lower-case word ("express", "yarn"), never with a capital, not even starting a sentence? Not
        when the pages use it everywhere: that is their own subject ("trigsight", "pip"), whatever its case."""
        return (word.lower() not in self.capitalised
                and max((self.df.get(t, 0) for t in terms(word)), default=0) < self.n * SUBJECT_SHARE)

    def rare(self, question: str) -> list[str]:
        """The question's Latin-script terms that few passages use (product and code names, which stay
        English in every language): what an on-topic question the pages do not answer is usually about."""
        limit = max(RARE_MIN_DF, self.n * RARE_SHARE)
        return [t for t in terms(question) if _LATIN_TERM.match(t) and not t.isdigit() and len(t) > 2
                and self.df.get(t, 0) <= limit and t not in _FRAMING]

    def missing(self, wanted: list[str], text: str) -> float:
        """Idf-weighted share of `wanted` terms that `text` lacks (0 when nothing is wanted)."""
        total = sum(self.idf(t) for t in wanted)
        if not total:
            return 0.0
        offered = terms(text)
        return sum(self.idf(t) for t in wanted if not _matches(t, offered)) / total

    def idf(self, term: str) -> float:
        return math.log((self.n + 1) / (self.df.get(term, 0) + 0.5))

    def score(self, question: str, passage) -> float:
        """Share of the question's term weight that the passage (with its nearest heading) carries."""
        wanted = terms(question)
        own = terms(passage.text)
        offered = own | (terms(passage.headings[-1]) if passage.headings else frozenset())
        total = sum(self.idf(t) for t in wanted)
        found = [t for t in wanted if _matches(t, offered)]
        if not total or not any(_matches(t, own) for t in found):
            return 0.0
        return sum(self.idf(t) for t in found) / total


NON_LATIN_LANGUAGES = frozenset({"ja", "ko", "zh", "ru", "uk"})
_CACHE: dict[str, Overlap] = {}
_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][A-Za-z0-9_+-]*[A-Za-z0-9]|(?<![A-Za-z0-9_])[A-Za-z](?![A-Za-z0-9_])")
NON_LATIN = re.compile(r"[\u0400-\u04ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")   # Cyrillic, kana, CJK, Hangul
_SPACED_TERM = re.compile(r"^[a-z0-9_.$\u00c0-\u024f\u0400-\u04ff-]+$")
_LATIN_TERM = re.compile(r"^[a-z0-9_.$-]+$")
_LOCK = threading.Lock()
# a one-word class in code: `Schema.load`, `Schema(`, `fields.Nested`, `class Book(Schema)`
_CODE_CLASS = re.compile(r"(?<![\w.])([A-Z][a-z]{2,})(?=\.[a-z_]|\()|(?<=[a-z_]\.)([A-Z][a-z]{2,})\b(?![.\w])"
                         r"|(?<=\()([A-Z][a-z]{2,})(?=\))")
_CAMEL_PART = re.compile(r"[A-Z][a-z]+")
# Words that frame an English question rather than name what it asks ("I think…", "is it supposed to…", "just"):
# on a small site they are rare too, yet a passage that answers never needs them
# (bench/answers/rare_words_probe.py `framing`: 2 refusals answered, 1 wrong answer refused, 1 answer refused).
_FRAMING = frozenset(stem for word in """think thought suppose supposed guess wonder wondering wondered know knows
knew just really actually basically simply maybe perhaps probably somehow anyway anyways please thanks thank help
trying try tried want wanted wants wish hoping hope seem seems seemed noticed notice realize realized sure okay way
ways thing things stuff something anything someone anyone people folks kind sort lot lots bit pretty quite still
already even also else instead rather""".split() for stem in tokenize(word))
_CHAT_CAPITALS = frozenset("OK Ok OKAY Okay ASAP FYI BTW IMO IMHO AFAIK TLDR TL DR PS PLS PLZ THX TIA LOL AKA".split())
_CAPITALISED = re.compile(r"(?<![A-Za-z0-9_.$-])[A-Z][a-z]{2,}(?![A-Za-z0-9_])")
# A capitalised word of the question's prose, not of code it quotes (require('./Foo')), which keeps its own case.
_CAPITALISED_IN_PROSE = re.compile(r"(?<![A-Za-z0-9_./'\"`$-])[A-Z][a-z]{2,}(?![A-Za-z0-9_\"`(/-]|'(?!s\b)|\.\w)")


def _name_words(text: str, every_word: bool = False) -> list[str]:
    """The Latin-script words of `text` written like names: capitalised inside the sentence, with a
    digit or an inner capital; with `every_word`, all of them. The capitals of chat ("is it OK to…",
    "ASAP", "BTW") name nothing."""
    capitals_tell = capitals_name(text)
    return [m.group() for m in _LATIN_WORD.finditer(text) if m.group() not in _CHAT_CAPITALS
            and (every_word or any(c.isdigit() for c in m.group()) or is_name(text, m.start(), m.group(), capitals_tell))]


def _matches(term: str, offered: frozenset[str]) -> bool:
    if term in offered:
        return True
    if len(term) < PREFIX_MATCH or not term.isalpha() or not (term.isascii() or "\u0400" <= term[0] <= "\u04ff"):
        return False
    return any(len(other) >= PREFIX_MATCH and (other.startswith(term) or term.startswith(other)) for other in offered)


def shared_phrases(question: str, text: str) -> int:
    """Adjacent term pairs of the question found adjacent in the text ("browser gate")."""
    wanted = tokenize(question)
    offered = tokenize(text)
    pairs = set(zip(offered, offered[1:]))
    return sum(pair in pairs for pair in set(zip(wanted, wanted[1:])))
