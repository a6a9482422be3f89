"""Loanwords: a Japanese or Korean word that is an English word written by its sound.

Technical Japanese and Korean borrow most of their vocabulary: ワーカー and 워커 are
"worker", ソケット and 소켓 "socket", ログファイル "log file". A multilingual sentence model
places many of them too far from the English word for the lexicon's bridge (lexicon.py).
Their sound is still there: written in Latin letters (ワーカー → waakaa, 워커 → wokeo) and
reduced to a consonant key, they meet the English word's key (worker → wk). A key is
lossy (walk, week and wake share "wk"), so a candidate is only a candidate: the lexicon
keeps the one nearest in meaning, and only when it is near enough.

The key keeps consonants as the two languages hear them: l and r are one sound, f is
written p in Korean, v is b, th is s, a syllable-final English r is silent, and vowels
(which both languages add to close a syllable: ドライブ doraibu, 드라이브 deuraibeu) carry
nothing. Korean words are as often native as borrowed, so a Hangul word must also have the
English word's pattern of vowels (워커 wVkV, worker wVkV; 같아야 gVtV is not "ought").
"""
from __future__ import annotations

import functools
import re
from collections import defaultdict
from typing import Iterable

# Katakana syllables in Hepburn-like spelling (voiced marks folded in by the table).
_KANA = dict(zip(
    "アイウエオカキクケコガギグゲゴサシスセソザジズゼゾタチツテトダヂヅデドナニヌネノハヒフヘホバビブベボパピプペポ"
    "マミムメモヤユヨラリルレロワヰヱヲンヴ",
    "a i u e o ka ki ku ke ko ga gi gu ge go sa shi su se so za ji zu ze zo ta chi tsu te to da ji zu de do "
    "na ni nu ne no ha hi fu he ho ba bi bu be bo pa pi pu pe po ma mi mu me mo ya yu yo ra ri ru re ro "
    "wa i e o n vu".split()))
_SMALL = dict(zip("ァィゥェォャュョヮ", "a i u e o ya yu yo wa".split()))

# Hangul syllable = initial, medial vowel, final (Unicode composes them arithmetically).
_INITIALS = "g kk n d tt r m b pp s ss _ j jj ch k t p h".split()
_MEDIALS = "a ae ya yae eo e yeo ye o wa wae oe yo u wo we wi yu eu ui i".split()
_FINALS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t",
           "t", "ng", "t", "t", "k", "t", "p", "t"]

_ENGLISH = [(re.compile(p), r) for p, r in (
    (r"tch", "ch"), (r"ph", "f"), (r"[cs]h|th|tio(?=n)", "s"), (r"ck", "k"), (r"qu", "kw"), (r"x", "ks"),
    (r"wh", "w"), (r"c(?=[eiy])", "s"), (r"[cq]", "k"), (r"g(?=e\b|i[ao])", "j"), (r"(?<=[aeiouy])r(?![aeiouy])", ""),
)]
_CLASSES = str.maketrans({"l": "r", "f": "p", "v": "b", "z": "s", "j": "s", "w": "w"})
_VOWELS = re.compile(r"[aeiouy]")
_DOUBLED = re.compile(r"(.)\1+")
MIN_KEY = 2         # a one-consonant key ("k") would meet half the vocabulary
MOST_PARTS = 3      # a katakana compound is cut into at most this many words
_NOT_FIRST = "ーッァィゥェォャュョヮ"   # marks that lengthen, double or modify the kana before them


def romanize(word: str) -> str:
    """A katakana or Hangul word in Latin letters ("" for any other script)."""
    out: list[str] = []
    for ch in word:
        code = ord(ch)
        if 0xAC00 <= code <= 0xD7A3:
            index = code - 0xAC00
            initial, medial, final = index // 588, index % 588 // 28, index % 28
            out.append(_INITIALS[initial].strip("_") + _MEDIALS[medial] + _FINALS[final])
        elif ch in _KANA:
            out.append(_KANA[ch])
        elif ch in _SMALL and out:
            # キャ kya → kya; ファ fu+a → fa; ティ te+i → ti: the small vowel replaces the big one's.
            out[-1] = out[-1].rstrip("aeiou").rstrip("y") + _SMALL[ch]
        elif ch == "ッ":
            out.append("\0")                  # doubles the next consonant: dropped by the key anyway
        elif ch == "ー" and out:
            out.append(out[-1][-1:])          # a long vowel
        elif ch in "・ ":
            out.append(" ")
        elif not ("\u30a0" <= ch <= "\u30ff"):
            return ""
    return "".join(out).replace("\0", "")


def _spelled(text: str) -> str:
    """Lower-case Latin letters with English spellings read as sounds and sound classes merged."""
    for pattern, replacement in _ENGLISH:
        text = pattern.sub(replacement, text)
    return (text[:1] + text[1:].replace("h", "")).translate(_CLASSES)


def key(latin: str) -> str:
    """The consonant key of a word in Latin letters (English, or a romanized loanword)."""
    text = latin.casefold()
    if not text.isascii():
        return ""
    return _DOUBLED.sub(r"\1", _VOWELS.sub("", _spelled(re.sub(r"[^a-z]", "", text))))


@functools.lru_cache(maxsize=65536)
def shape(latin: str) -> str:
    """The key with each run of vowels kept as "V", and without the vowels the two languages add
    to close a syllable (Korean eu: 스트림 seuteurim → stream; an English silent final e)."""
    text = re.sub(r"[^a-z]", "", latin.casefold())
    text = re.sub(r"(?<=[^aeiouy])eu(?=[^aeiouy]|$)", "", text)
    silent = re.search(r"[^aeiouy]e$", text)
    text = _spelled(text)
    if silent:
        text = text.removesuffix("e")
    return _DOUBLED.sub(r"\1", re.sub(r"[aeiouy]+", "V", text))


def is_hangul(word: str) -> bool:
    return bool(word) and "\uac00" <= word[0] <= "\ud7a3"


class Sounds:
    """The pages' English words by consonant key: who could a loanword be?"""

    def __init__(self, words: Iterable[str]):
        self._words = list(words)
        self._by_key: dict[str, list[int]] = defaultdict(list)
        for number, word in enumerate(self._words):
            found = key(word) if word.isascii() and word.isalpha() else ""
            if len(found) >= MIN_KEY:
                self._by_key[found].append(number)

    def candidates(self, loanword: str) -> list[int]:
        """Numbers of the words that sound like the loanword: the same key; for a Hangul word, also
        the same vowel pattern (a Korean word is as often native, and a key alone meets many)."""
        latin = romanize(loanword)
        found = key(latin)
        if len(found) < MIN_KEY:
            return []
        numbers = self._by_key.get(found, [])
        if is_hangul(loanword):
            pattern = shape(latin)
            numbers = [n for n in numbers if shape(self._words[n]) == pattern]
        return list(numbers)

    def splits(self, loanword: str, parts: int = MOST_PARTS) -> list[list[list[int]]]:
        """A katakana compound cut into two or more loanwords (ログファイル: log + file; フェンスコード
        ブロック: fence + code + block), up to `parts`, each part with its candidates."""
        found: dict[str, list[int]] = {}

        def heard(part: str) -> list[int]:
            if part not in found:
                found[part] = self.candidates(part) if len(part) >= 2 and part[0] not in _NOT_FIRST else []
            return found[part]

        def cuts(rest: str, left: int) -> list[list[list[int]]]:
            out = [[heard(rest)]] if heard(rest) else []
            if left > 1:
                for cut in range(2, len(rest) - 1):
                    if heard(rest[:cut]):
                        out += [[heard(rest[:cut]), *tail] for tail in cuts(rest[cut:], left - 1)]
            return out

        return [option for option in cuts(loanword, parts) if len(option) > 1]
