"""Tokens for the BM25 leg: one function, the same for passages and questions (pure).

Latin-script words are folded (case, accents) and reduced by the Snowball English
stemmer, Cyrillic words by the Snowball Russian stemmer (ё folded to е first). Japanese
(kanji and kana) and Korean (Hangul) have no reliable word boundaries for a keyword
index without a dictionary, so each run becomes overlapping character bigrams; a run of
one character stays a unigram so short words still match. Punctuation is dropped, and
so are a few dozen function words that only add noise to a small corpus. A dotted number
("7.8.1", "v2.0", "3.14") is one token, without its "v" and the zero parts after its minor
number ("7.0.0" is "7.0"): a changelog's headings and a question about a release name the
version whole, not always as fully, and its parts alone ("7", "8") say nothing.
"""
from __future__ import annotations

import re
import threading
import unicodedata

import Stemmer

# Stored in the index; bump when tokens change so an old index is rebuilt, never misread.
TOKENIZER = "trigsight.tokenize/2: snowball en+ru, ja/ko character bigrams, versions whole (7.0.0 as 7.0)"

# Kana, kanji (with the iteration mark 々) and half-width katakana: bigrammed together,
# because Japanese mixes them inside one word (送り仮名).
_JAPANESE = "\u3005\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f"
_HANGUL = "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f"
# Not inside a Latin or Cyrillic word ("ver7.8" and "1.5b" stay words), nor a longer dotted run;
# kana, kanji and Hangul may touch it ("バージョン7.8.1の").
_LETTER = r"a-z0-9\u00c0-\u024f\u0400-\u04ff"
_VERSION = rf"(?<![{_LETTER}.])v?(?P<version>\d+(?:\.\d+)+)(?![{_LETTER}]|\.\d)"
_RUN = re.compile(rf"{_VERSION}|(?P<ja>[{_JAPANESE}]+)|(?P<ko>[{_HANGUL}]+)|(?P<word>[^\W_{_JAPANESE}{_HANGUL}]+)")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")

STOPWORDS = frozenset("""
a an and are as at be been but by can do does did for from had has have how i if in into is it
its of on or so such than that the their them then there these they this to was were what when
where which who whom why will with would you your
а без бы в во вот все да для до если же за и из или к как ко ли мы на не ни но о об от по при
с со так то у что чтобы это этот эта эти я он она они оно его её ее их был была были быть есть
""".split())

_local = threading.local()  # Snowball stemmers are not thread-safe; one pair per thread


def _stemmers() -> tuple[Stemmer.Stemmer, Stemmer.Stemmer]:
    pair = getattr(_local, "stemmers", None)
    if pair is None:
        pair = _local.stemmers = (Stemmer.Stemmer("english"), Stemmer.Stemmer("russian"))
    return pair


def fold(text: str) -> str:
    """Width and compatibility forms unified (NFKC), case folded, ё read as е."""
    return unicodedata.normalize("NFKC", text).casefold().replace("ё", "е")


def _strip_accents(word: str) -> str:
    if word.isascii():
        return word
    # NFKD only on non-Hangul words: it would split Hangul syllables into jamo.
    decomposed = unicodedata.normalize("NFKD", word)
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def bigrams(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return [run[i:i + 2] for i in range(len(run) - 1)]


def short_version(version: str) -> str:
    """A version without the zero parts after its minor one: "7.0.0" and "7.0" are one release."""
    parts = version.split(".")
    while len(parts) > 2 and parts[-1].strip("0") == "":
        parts.pop()
    return ".".join(parts)


def tokenize(text: str) -> list[str]:
    """Tokens of `text` in order: stems for en/ru words, character bigrams for ja/ko."""
    english, russian = _stemmers()
    tokens: list[str] = []
    for match in _RUN.finditer(fold(text)):
        if match.lastgroup == "version":
            tokens.append(short_version(match.group("version")))
            continue
        if match.lastgroup in ("ja", "ko"):
            tokens.extend(bigrams(match.group()))
            continue
        word = match.group()
        if word in STOPWORDS:
            continue
        if _CYRILLIC.search(word):
            tokens.append(russian.stemWord(word))
        else:
            word = _strip_accents(word)
            tokens.append(word if word.isdigit() else english.stemWord(word))
    return tokens
