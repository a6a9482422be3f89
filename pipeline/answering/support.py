"""Does a passage support a claim? Lexical evidence only (pure).

Vector similarity can rank passages but never confirm one: the passage nearest to a
fabricated claim is still the nearest passage. A passage supports a claim here only
when it carries the claim's own words:

- every number in the claim (digits, or a number word such as "four", "четыре", 四つ)
  occurs in the passage, exactly;
- every name in the claim (an acronym, a mixed-case word like "PhD", a capitalised word
  inside a sentence like "Firefox") occurs in the passage or in its paragraph;
- the claim and the passage agree on negation: "never writes a link" supports neither
  "writes a link" nor the other way round;
- enough of the claim's remaining content words occur in the passage.

Content words are the tokens of `trigsight.retrieval.tokenize.tokenize` (stems for English and
Russian, character bigrams for Japanese and Korean) minus grammar-only tokens: pure
hiragana bigrams and a few Korean ending bigrams, which match everywhere. The score is
the share of the claim's content words found, counted over at least `MIN_WORDS` words
so that a two-word claim cannot be "fully supported" by a passage sharing two words.
The default threshold is calibrated by `bench/mcp/calibrate.py` on `bench/mcp/claims.json`.
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from .. import languages
from ..retrieval.tokenize import short_version, tokenize

# Chosen by bench/mcp/calibrate.py (see bench/mcp/results/): the threshold with the best
# TP - 2*FP on the hand-written claims, a false confirmation costing twice a miss.
DEFAULT_THRESHOLD = 0.65
MIN_WORDS = 3

_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_WORD = re.compile(r"[^\W\d_][^\W_]*")
_HIRAGANA_ONLY = re.compile(r"^[\u3040-\u309f]+$")
_SENTENCE_OPENERS = ".!?。！？:;…\n-*•([{\"'«“‘「『"
# Korean endings and particles that glue onto every verb and noun: grammar, not evidence.
_KOREAN_GRAMMAR = frozenset("니다 습니 합니 입니 됩니 있습 없습 하는 하고 하지 에서 으로 에는 에게 하며 해서 "
                            "지만 는지 인지 니까 았습 었습 였습 했습 된다 한다 이다".split())

NUMBER_WORDS = {
    # English ("one" is left out: it is a pronoun as often as a number)
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100, "thousand": 1000, "twice": 2,
    # Russian (the common case forms)
    "ноль": 0, "один": 1, "одна": 1, "одно": 1, "одного": 1, "одной": 1, "одну": 1, "два": 2, "две": 2,
    "двух": 2, "три": 3, "трёх": 3, "трех": 3, "четыре": 4, "четырёх": 4, "четырех": 4, "пять": 5,
    "пяти": 5, "шесть": 6, "шести": 6, "семь": 7, "семи": 7, "восемь": 8, "восьми": 8, "девять": 9,
    "девяти": 9, "десять": 10, "десяти": 10, "двадцать": 20, "тридцать": 30, "сто": 100,
    "тысяча": 1000, "тысячи": 1000, "дважды": 2,
}
_KANJI_DIGITS = {ch: n for n, ch in enumerate("〇一二三四五六七八九十", start=0)}
_JAPANESE_COUNT = re.compile(r"([一二三四五六七八九十])つ")
_KOREAN_NATIVE = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6, "일곱": 7, "여덟": 8, "아홉": 9, "열": 10}
_NEGATION = re.compile(
    r"\b(?:not|no|never|cannot|nothing|none|neither|nor|нет|не|ни|никогда|ничего|нельзя)\b"
    r"|\b(?:nicht|nie|niemals|kein(?:e|en|em|er|es)?|pas|jamais|aucun(?:e)?|nunca|nada|não|nenhum|nenhuma|mai"
    r"|nessun[oa]?|niet|nooit|geen)\b|\bnon\b(?!-)"
    r"|n[’']t\b|ない|ません|なかった|ず(?:に|、|。|$)|않|없|(?<!잘)못|(?<![가-힣])안(?![가-힣])"
    r"|(?<![\u0600-\u06ff])[وف]?(?:لا|ليس|ليست|لم|لن|بدون|بلا)(?![\u0600-\u06ff])|ไม่")
_KOREAN_COUNT = re.compile(r"(?<![가-힣])(한|두|세|네|다섯|여섯|일곱|여덟|아홉|열)\s*(?=가지|개|번|단계|곳|명|줄)")


# Code names: dotted or called identifiers, flags, CONSTANTS, camelCase words.
_A = r"(?<![A-Za-z0-9_$.-])"      # ASCII word boundaries: a Korean particle may follow a name directly
_Z = r"(?![A-Za-z0-9_$])"
_NAME = re.compile(rf"{_A}--?[a-z][a-z0-9-]+|{_A}[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$]+)+(?:\(\))?"
                   rf"|{_A}[A-Za-z_$][A-Za-z0-9_$]*\(\)|{_A}[A-Z][A-Z0-9]*_[A-Z0-9_]+{_Z}|{_A}[A-Z]{{2,}}[A-Z0-9]*{_Z}"
                   rf"|{_A}[a-z]+[A-Z][A-Za-z0-9_$]*{_Z}")
_VERSION = re.compile(r"[vV]\d+(?:\.\d+)+")


@dataclass(frozen=True)
class Profile:
    """What a text offers as lexical evidence."""

    words: frozenset[str]     # content tokens
    numbers: tuple[str, ...]  # canonical numbers, with repeats ("10 of 10" needs two tens)
    names: frozenset[str]     # tokens of names (subset of words)
    negated: bool             # says "not", "never", "не", "ない", "않" ...


@dataclass(frozen=True)
class Support:
    """Why a passage does or does not support a claim."""

    score: float
    matched: tuple[str, ...]
    missing_words: tuple[str, ...]
    missing_numbers: tuple[str, ...]
    missing_names: tuple[str, ...]
    polarity_differs: bool    # one says "not" and the other does not


def _canonical_number(raw: str) -> str:
    if re.fullmatch(r"\d{1,3}(,\d{3})+", raw):     # 1,400 → 1400
        return raw.replace(",", "")
    if raw.count(".") > 1:                           # a version: 7.8.1 stays, 7.0.0 is 7.0 (7)
        raw = short_version(raw)
        if raw.count(".") > 1:
            return raw
    raw = raw.replace(",", ".")                      # 51,5 (ru) → 51.5
    whole, _, fraction = raw.partition(".")
    whole = whole.lstrip("0") or "0"
    # "7.0" is 7, but "3.10" is not 3.1: a dotted number in docs is a version as often as a decimal.
    return f"{whole}.{fraction}" if fraction.strip("0") else whole


# Numbers a passage gives without a digit or a counted number word: "one" (left out of NUMBER_WORDS),
# "once", "a single", ordinals, "more than once" (two or more). Offered, never claimed: a sentence
# that says "once" or "first" claims no number.
_IMPLIED = {"one": "1", "once": "1", "single": "1", "first": "1", "second": "2", "third": "3", "fourth": "4",
            "fifth": "5"}
_IMPLIED_WORD = re.compile(r"\b(?:more than once|%s)\b" % "|".join(_IMPLIED))
# Ordinals past the first, which a sentence claims as it claims a number ("its second argument" is not "a
# third argument"): the English ones (also implied above), and the Russian and Japanese ones.
# "A second", "per second" are the unit; digits ("2番目") and Korean counts ("두 번째") are numbers already.
_ORDINAL_EN = re.compile(r"\b(?:third|fourth|fifth)\b|(?<!\ba )(?<!\bper )(?<!\bone )(?<!\beach )(?<!\bevery )\bsecond\b")
_ORDINAL = re.compile(r"\b(втор|трет|четв[её]рт)(?:ой|ий|ый|ого|его|ому|ему|ым|им|ом|ем|ая|ья|ую|ью|ое|ье|ые|ьи|ьего"
                      r"|ьему|ьим|ьем)\b|([二三四五])番目|第([二三四五])")
_ORDINAL_VALUE = {"втор": "2", "трет": "3", "четв": "4", "二": "2", "三": "3", "四": "4", "五": "5"}


def _ordinals(text: str) -> list[str]:
    """The ordinals past the first that `text` (case-folded NFKC) writes in Russian or Japanese words."""
    return [_ORDINAL_VALUE[next(group for group in match.groups() if group)[:4]] for match in _ORDINAL.finditer(text)]


# Russian idioms with "один" that count nothing: один и тот же (the same), один за другим (one after another).
_NOT_COUNTED = re.compile(r"\bод(?:ин|на|но|ного|ной|ну|ним|ном|них|ни)\s+(?:и\s+т|за\s+друг)")


def numbers_offered(text: str) -> tuple[str, ...]:
    """The numbers `text` gives, also those it implies ("once", "a single", "the second", "второй")."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    implied = [_IMPLIED.get(word, "2") for word in _IMPLIED_WORD.findall(folded)]
    return tuple(sorted(numbers_in(text) + tuple(implied) + tuple(_ordinals(folded))))


def versions_of(numbers: Iterable[str]) -> tuple[str, ...]:
    """The versions among canonical numbers: those of three parts or more ("7.8.1")."""
    return tuple(n for n in numbers if n.count(".") > 1)


def numbers_claimed(text: str) -> tuple[str, ...]:
    """The numbers a sentence claims, ordinals past the first among them: not the "один" of "один и тот
    же" (the same)."""
    folded = _NOT_COUNTED.sub(" ", unicodedata.normalize("NFKC", text).casefold())
    ordinals = [_IMPLIED[word] for word in _ORDINAL_EN.findall(folded)] + _ordinals(folded)
    return tuple(sorted(numbers_in(folded) + tuple(ordinals)))


def numbers_in(text: str) -> tuple[str, ...]:
    """Every number in `text`, written in digits or words, in one canonical spelling, sorted."""
    text = unicodedata.normalize("NFKC", text)
    found = [_canonical_number(m.group().rstrip(".,")) for m in _NUMBER.finditer(text)]
    found += [str(NUMBER_WORDS[w]) for w in _WORD.findall(text.casefold()) if w in NUMBER_WORDS]
    found += [str(_KANJI_DIGITS[m.group(1)]) for m in _JAPANESE_COUNT.finditer(text)]
    found += [str(_KOREAN_NATIVE[m.group(1)]) for m in _KOREAN_COUNT.finditer(text)]
    return tuple(sorted(found))


# The units a number is counted in, in the four languages: "returns the number of seconds" does not
# support "возвращает время в миллисекундах". Each form avoids the longer units it is part of
# (秒 in ミリ秒, байт in килобайт); "second" alone is an ordinal as often as a unit.
_L, _R = r"(?<![a-z_])", r"(?![a-z0-9_])"
_UNITS = {
    "nanoseconds": rf"{_L}nanoseconds?{_R}|{_L}ns{_R}|наносекунд|ナノ秒|나노\s?초",
    "microseconds": rf"{_L}microseconds?{_R}|{_L}[μµ]s{_R}|микросекунд|マイクロ秒|마이크로\s?초",
    "milliseconds": rf"{_L}milliseconds?{_R}|{_L}ms{_R}|миллисекунд|ミリ秒|밀리\s?초",
    "seconds": rf"{_L}seconds{_R}|(?:\d|{_L}one|{_L}per)\s+second{_R}|{_L}secs?{_R}|(?<![а-я])секунд"
               r"|(?<!ミリ)(?<!マイクロ)(?<!ナノ)秒|(?<![가-힣])초(?:\s*(?:단위|동안|후|마다|간)|(?![가-힣]))",
    "minutes": rf"{_L}minutes?{_R}|(?<![а-я])минут|\d\s*分|分間|\d\s*분(?![가-힣])|분\s*(?:단위|동안|후|마다)",
    "hours": rf"{_L}hours?{_R}|(?<![а-я])час(?:а|ов)?(?![а-я])|\d\s*時間|\d\s*시간",
    "bytes": rf"{_L}bytes?{_R}|(?<![а-я])байт|(?<!キロ)(?<!メガ)(?<!ギガ)バイト|(?<!킬로)(?<!메가)(?<!기가)바이트",
    "kilobytes": rf"{_L}ki?b{_R}|{_L}kilobytes?{_R}|килобайт|(?<![а-я])кб(?![а-я])|キロバイト|킬로바이트",
    "megabytes": rf"{_L}mi?b{_R}|{_L}megabytes?{_R}|мегабайт|(?<![а-я])мб(?![а-я])|メガバイト|메가바이트",
    "gigabytes": rf"{_L}gi?b{_R}|{_L}gigabytes?{_R}|гигабайт|(?<![а-я])гб(?![а-я])|ギガバイト|기가바이트",
}
_UNIT_FORMS = {unit: re.compile(forms) for unit, forms in _UNITS.items()}


def units_in(text: str) -> frozenset[str]:
    """The units of time and size `text` counts in ("milliseconds", "kilobytes"), in any of the four languages."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    return frozenset(unit for unit, form in _UNIT_FORMS.items() if form.search(folded))


def is_negated(text: str) -> bool:
    return bool(_NEGATION.search(unicodedata.normalize("NFKC", text).casefold()))


def is_name(text: str, start: int, word: str, capitals_tell: bool = True) -> bool:
    """Is `word` (at `start` in `text`) written like a name: inner capitals, or capitalised inside a
    sentence (unless not `capitals_tell`: German capitalises every noun)?"""
    if len(word) < 2 or word.casefold() in NUMBER_WORDS:
        return False
    if any(ch.isupper() for ch in word[1:]):        # PhD, WebGL, MIT, ИИ
        return True
    if not word[0].isupper() or not capitals_tell:
        return False
    before = text[:start].rstrip(" \t")
    return bool(before) and before[-1] not in _SENTENCE_OPENERS


def capitals_name(text: str) -> bool:
    """Does a capital inside a sentence of `text` mark a name? Not in German, which capitalises nouns."""
    return languages.language_of(text) != "de"


def code_names(text: str) -> frozenset[str]:
    """The code-like names of a text, case-folded, without a trailing "()". A version ("v7.8.0") is a
    number, not a name: pages write it "7.8.0" as often."""
    return frozenset(m.group().removesuffix("()").casefold() for m in _NAME.finditer(text)
                     if not _VERSION.fullmatch(m.group()))


def _content(tokens: Iterable[str]) -> set[str]:
    return {t for t in tokens if not _HIRAGANA_ONLY.match(t) and t not in _KOREAN_GRAMMAR}


def content_words(text: str) -> frozenset[str]:
    """The content tokens of `text`: the words a claim and a passage are compared on."""
    return frozenset(_content(tokenize(unicodedata.normalize("NFKC", text))))


@functools.lru_cache(maxsize=16384)
def profile(text: str) -> Profile:
    words = content_words(text)
    text = unicodedata.normalize("NFKC", text)
    names: set[str] = set()
    capitals_tell = capitals_name(text)
    for match in _WORD.finditer(text):
        if is_name(text, match.start(), match.group(), capitals_tell):
            names.update(_content(tokenize(match.group())))
    return Profile(frozenset(words), numbers_in(text), frozenset(names & words), is_negated(text))


def explain(claim: str, passage_text: str, ignore: Iterable[str] = (), context: str = "") -> Support:
    """The support score of `passage_text` for `claim`, with what matched and what did not.

    `ignore` holds tokens that carry no evidence in this corpus (the site's own name: every
    page is about it); they count neither for nor against. A name may also be found in
    `context` (the passage's paragraph, headings and page title): a paragraph names its
    subject once and then says "it". So may a version: a changelog's items sit under theirs.
    Other numbers and the other words must be in the passage.
    """
    wanted, offered = profile(claim), profile(passage_text)
    around = profile(context)
    releases = versions_of(around.numbers)
    ignored = frozenset(ignore)
    words = wanted.words - ignored
    matched = words & (offered.words | (around.words & frozenset(releases)))
    missing_numbers = tuple(sorted((Counter(wanted.numbers) - Counter(offered.numbers + releases)).elements()))
    named = offered.words | around.words
    missing_names = tuple(sorted((wanted.names - ignored) - named))
    score = 0.0
    if words and not missing_numbers and not missing_names and wanted.negated == offered.negated:
        score = len(matched) / max(len(words), MIN_WORDS)
    return Support(round(score, 4), tuple(sorted(matched)), tuple(sorted(words - matched)),
                   missing_numbers, missing_names, wanted.negated != offered.negated)


def fewest_shared(claim: str, threshold: float, ignore: Iterable[str] = ()) -> int | None:
    """The fewest of the claim's content words a passage must itself contain for `explain` to score
    it above 0 and at `threshold` or more, or None when no passage can. A version may be found in
    the passage's context instead, so each version the claim names lowers the count by one."""
    words = profile(claim).words - frozenset(ignore)
    denominator = max(len(words), MIN_WORDS)
    least = next((n for n in range(1, len(words) + 1) if round(n / denominator, 4) >= threshold), None)
    if least is None:
        return None
    return max(least - sum(1 for word in words if word.count(".") > 1), 0)


def support_score(claim: str, passage_text: str, *, ignore: Iterable[str] = (), context: str = "") -> float:
    """0..1: the share of the claim's words the passage carries; 0 when a number or a name is
    missing or only one of the two is negated."""
    return explain(claim, passage_text, ignore, context).score


def supports(claim: str, passage_text: str, threshold: float | None = None, *,
             ignore: Iterable[str] = (), context: str = "") -> bool:
    """True when the passage lexically supports the claim at `threshold` (default: calibrated)."""
    limit = DEFAULT_THRESHOLD if threshold is None else threshold
    score = support_score(claim, passage_text, ignore=ignore, context=context)
    return score > 0 and score >= limit
