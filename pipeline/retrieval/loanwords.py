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

Russian borrows the same way and declines what it borrows: плагина, воркерами, конфиге,
коммиты are "plugin", "worker", "config", "commit". A Cyrillic word is heard without its
case ending (воркерами → воркер), with в read both as v and as the w it stands for. Its
letters say more than kana do (л is l and р is r, ж is not s), and its native words meet
the English keys all the time (лежат: least, ночи: ansi), so it is heard by a key that
keeps them apart, of three consonants at least, and must also be spelled nearly like the
English word (`SPELLED_ALIKE`).
"""
from __future__ import annotations

import difflib
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
# г is written gh: always hard, it must not become the j of English "ge" (конфиге is "config"); the h
# goes with the other silent ones.
_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюя",
                     "a b v gh d e yo j z i y k l m n o p r s t u f h ts ch sh shch - y - e yu ya".split()))
# The case endings that carry a consonant (a vowel ending leaves the key as it is): воркерами, плагинов.
_RUSSIAN_ENDING = re.compile(r"(?:ами|ями|ов|ев|ом|ем|ам|ям|ах|ях|ой|ей|ий|ый|ых|их|ым|им)$")
# A verb's endings: Russian borrows nouns; a verb borrowed is conjugated past hearing (ставлю is no "stable").
_RUSSIAN_VERB = re.compile(r"(?:ть|ться|тся|ю|юсь|ют|ят|ешь|ишь)$")

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
# How alike a Cyrillic loanword and its English word must be spelled (difflib's ratio), and the
# shortest key it is heard by, read off the Russian words of the development questions that share
# a page word's key (bench/answers/loanword_probe.py --language ru): the page words heard are spelled
# 0.83 (issocket) to 1.00 alike; the native words spelled alike as much as 0.75 (каком: com, ночи: ansi) have
# two-consonant keys, and лежат ("least" at 0.80) is kept out by the key, where л is not r.
SPELLED_ALIKE = 0.75
MIN_CYRILLIC_KEY = 3
# A word heard as an English word and spelled this much like it (sounds_alike) is that word borrowed.
BORROWED = 0.8
_CYRILLIC_CLASSES = str.maketrans({"v": "b", "z": "s"})
# Korean closes an English word's final ch, j and sh sounds with an i (브랜치 branch, 머지 merge, 푸시 push,
# 스태시 stash), as it closes other consonants with eu: the vowel is the borrowing's, not the word's, unless
# the word ends in that vowel too (레거시 legacy, 프록시 proxy).
_KOREAN_CLOSING_I = re.compile(r"(?:(?<=ch)|(?<=[js]))i$")
# The vowel katakana and Hangul add after an English word's last consonant (プッシュ pushyu: push; コミット
# komito: commit; 해시 haesi: hash; 태그 taegeu: tag), left out where spellings are compared.
_KANA_CLOSING = re.compile(r"(?<=[^aeiou])y?[uoi]$")
_KOREAN_CLOSING = re.compile(_KOREAN_CLOSING_I.pattern + r"|(?<=[^aeiou])eu$")
MOST_PARTS = 3      # a katakana compound is cut into at most this many words
_NOT_FIRST = "ーッァィゥェォャュョヮ"   # marks that lengthen, double or modify the kana before them


def romanize(word: str) -> str:
    """A katakana, Hangul or Cyrillic word in Latin letters ("" for any other script)."""
    if is_cyrillic(word):
        letters = [_CYRILLIC.get(ch) for ch in word.casefold()]
        return "" if None in letters else "".join(letters).replace("-", "")
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


def _spelled(text: str, classes: dict = _CLASSES) -> str:
    """Lower-case Latin letters with English spellings read as sounds and sound `classes` merged."""
    for pattern, replacement in _ENGLISH:
        text = pattern.sub(replacement, text)
    return (text[:1] + text[1:].replace("h", "")).translate(classes)


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


def is_cyrillic(word: str) -> bool:
    return bool(word) and "\u0400" <= word[0] <= "\u04ff"


def spelled_alike(loanword: str, word: str) -> float:
    """How alike a Cyrillic loanword (any of its readings) and an English word are spelled, once
    English spelling is read as sound (0 to 1)."""
    english = _plain(word)
    return max((difflib.SequenceMatcher(None, _plain(latin), english).ratio() for latin in heard_as(loanword)),
               default=0.0)


def sounds_alike(loanword: str, word: str) -> float:
    """How alike a katakana, Hangul or Cyrillic word and an English word are spelled in Latin letters,
    English spelling read as sound and without the vowel katakana or Hangul adds after the last
    consonant (0 to 1)."""
    if is_cyrillic(loanword):
        return spelled_alike(loanword, word)
    closing = _KOREAN_CLOSING if is_hangul(loanword) else _KANA_CLOSING
    english = _heard(word)
    return max(difflib.SequenceMatcher(None, _heard(closing.sub("", latin)), english).ratio()
               for latin in heard_as(loanword))


def _heard(latin: str) -> str:
    """Latin letters as katakana and Hangul hear them: English spelling read as sound, and the sounds
    they do not tell apart merged (l and r, f and p, v and b)."""
    return _spelled(re.sub(r"[^a-z]", "", latin.casefold()))


def _plain(latin: str) -> str:
    return _spelled(re.sub(r"[^a-z]", "", latin.casefold()), _CYRILLIC_CLASSES)


def cyrillic_key(latin: str) -> str:
    """The consonant key a Cyrillic loanword is heard by: `key` without merging l with r, f with p
    or j with s."""
    return _DOUBLED.sub(r"\1", _VOWELS.sub("", _plain(latin))) if latin.isascii() else ""


def heard_as(loanword: str) -> list[str]:
    """The Latin spellings a loanword may stand for: one for Hangul; for katakana, with フ also as the "hu"
    and ツ as the "t" they stand for; for a Cyrillic word, with and without its case ending, each with в
    as v and as w."""
    if not is_cyrillic(loanword):
        latin = romanize(loanword)
        readings = [latin]
        if "\u30d5" in loanword:     # フ writes English "hu" and "ho" as well as "f" (フック hook, フォルダ folder)
            readings += [r.replace("fu", "hu") for r in readings]
        if "\u30c4" in loanword:     # ツ writes a "t" as well as "ts" (ツリー tree, ツール tool; ビッツ bits)
            readings += [r.replace("tsu", "tu") for r in readings]
        return list(dict.fromkeys(readings))
    word = loanword.casefold()
    if _RUSSIAN_VERB.search(word):
        return []
    stems = dict.fromkeys([word, _RUSSIAN_ENDING.sub("", word)])
    spelled = [romanize(stem) for stem in stems if len(stem) >= 3]
    return list(dict.fromkeys([*spelled, *(latin.replace("v", "w") for latin in spelled)]))


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
        the same vowel pattern (a Korean word is as often native, and a key alone meets many); for a
        Cyrillic word, the same Cyrillic key and a spelling alike."""
        if is_cyrillic(loanword):
            heard = [n for latin in heard_as(loanword) if len(found := cyrillic_key(latin)) >= MIN_CYRILLIC_KEY
                     for n in self._by_cyrillic_key.get(found, [])]
            return [n for n in dict.fromkeys(heard) if spelled_alike(loanword, self._words[n]) >= SPELLED_ALIKE]
        numbers = []
        for latin in heard_as(loanword):
            found = key(latin)
            if len(found) >= MIN_KEY:
                numbers += self._by_key.get(found, [])
        if is_hangul(loanword):
            latin = romanize(loanword)
            patterns = {shape(latin), shape(_KOREAN_CLOSING_I.sub("", latin))}     # 레거시 legacy, 브랜치 branch
            numbers = [n for n in numbers if shape(self._words[n]) in patterns]
        return list(dict.fromkeys(numbers))

    def same_key(self, latin: str) -> list[int]:
        """Numbers of the words whose key is that of `latin` (a katakana or Hangul word is heard by it)."""
        return list(self._by_key.get(key(latin), []))

    @functools.cached_property
    def _by_cyrillic_key(self) -> dict[str, list[int]]:
        found: dict[str, list[int]] = defaultdict(list)
        for number, word in enumerate(self._words):
            if word.isascii() and word.isalpha():
                found[cyrillic_key(word)].append(number)
        return found

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
