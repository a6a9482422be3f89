"""Where sentences end: the unit every passage, chunk and answer sentence is cut into (pure).

Latin-script sentences end at `. ! ? …` followed by a space (closing quotes and brackets
stay with the sentence), except after common abbreviations and single letters (also just inside
a bracket: "(vs. 2)"), after a dotted word, an ellipsis or a quoted token before a lowercase word
("U.S. law", "[link](...) or", "using '0.' as"), after an ellipsis that closes a bracket of its
word ("TestClient(timeout=...) #2840"), at `!` or `?` ending a word before a lowercase word ("the
Aborted! message"), and where the punctuation is itself quoted ("then '.' will be returned",
"the \"?\" character") or stands alone before anything but a capital or a Korean word (code such
as `?` loses its backticks in the page's text: "после знака ? в URL", "末尾の . に注目"). A
Russian sentence never begins with a lowercase letter, so a full stop before one ends no sentence
("прим. пер.", "см. раздел"). A bracketed aside right after a sentence's end, with no sentence of its
own inside ("Added support for Python 3.15. (7511)"), ends that sentence, as do issue numbers alone there
("Nesting now works. #1513"). CJK sentences end at `。！？`.
"""
from __future__ import annotations

import re
from typing import Sequence

ABBREVIATIONS = frozenset("e.g i.e eg ie viz aka etc vs cf mr mrs ms dr st no fig approx al eq ch sec "
                          "jan feb mar apr jun jul aug sep sept oct nov dec incl esp resp "
                          "т.е т.д т.п т.к т.н т.ч др г гг см ср напр прим пер рис табл стр гл разд англ".split())
_CYRILLIC_LOWER = re.compile(r"[а-яё]")
# Japanese and Chinese end sentences with 。, so a lone "." before their words is code ("末尾の . に");
# Korean ends them with ".", even after a space ("기다립니다 🕙 . 왜냐하면").
_KANA_OR_HAN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
_LATIN_END = re.compile(r"[.!?…]+[\"'”’»)\]]*")
_CJK_END = re.compile(r"[。！？]+[」』）\"'”’]*")
_OPENING_QUOTES = frozenset("\"'`“‘«„")
_CLOSING_QUOTES = frozenset("\"'`”’»")
_ELLIPSIS = re.compile(r"\.\.\.|…")
_ASIDE = re.compile(r"\([^().!?]*\)[.,;]?(?=\s|$)")     # "(7866, 8054)", "(RFC2109)" after a sentence's end
# towncrier's issue links after a change-log entry ("… is now nested. #1513"), before the next sentence or the end
ISSUE_NUMBERS = re.compile(r"#\d+(?:(?:,\s*|\s+and\s+|\s+)#\d+)*[.,;]?(?=\s+[^\s#a-z]|\s*$)")


def split_sentences(text: str, code: Sequence[tuple[int, int]] = ()) -> list[tuple[int, int]]:
    """(start, end) spans of the sentences in one collapsed segment of text; never inside a run of
    inline `code` ((start, end) pairs): "`a.b(). Then c()`" and "`<!-- #end... -->`" are code, not two sentences."""
    spans, start = [], 0
    ends = [end for end in _sentence_ends_sorted(text) if not any(left < end < right for left, right in code)]
    for end in ends + [len(text)]:
        chunk = text[start:end]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            spans.append((start + lead, start + len(chunk.rstrip())))
        start = end
    return spans


def _sentence_ends(text: str):
    for match in _CJK_END.finditer(text):
        yield_at = match.end()
        if yield_at < len(text):
            yield yield_at
    for match in _LATIN_END.finditer(text):
        end = match.end()
        if end >= len(text) or text[end] != " " or end + 1 >= len(text):
            continue
        word = text[:match.start()].rsplit(" ", 1)[-1].lower()
        if word and all(ch in _OPENING_QUOTES for ch in word):
            continue      # a quoted punctuation mark: '.' or "?" is what the sentence talks about
        if word[:1] in _OPENING_QUOTES and match.group()[-1] in _CLOSING_QUOTES and text[end + 1].islower():
            continue      # a quoted token before a lowercase word: "using '0.' as a first prefix"
        if not word and not _starts_sentence(text[end + 1]):
            continue      # a lone mark before a lowercase word: "the literal string ? is appended"
        if text[match.start()] == "." and _CYRILLIC_LOWER.match(text[end + 1]):
            continue      # "см. раздел", "прим. пер": a Russian sentence starts with a capital
        if _ELLIPSIS.search(match.group()) and (text[end + 1].islower() or match.group()[-1] in ")]" and
                                                 ("(" in word or "[" in word)):
            continue      # "like `[click here](...)` or `[link](...)`", "TestClient(timeout=...) #2840": code goes on
        if match.group()[0] in "!?" and word and text[end + 1].islower():
            continue      # "replace the Aborted! message": a quoted exclamation, not the sentence's end
        bare = word.lstrip("([{" + "".join(_OPENING_QUOTES))   # "(vs. 2)", "(e.g. -, *)": the abbreviation
        abbreviated = bare in ABBREVIATIONS or (len(bare) == 1 and bare.isalpha()) or \
            ("." in bare and text[end + 1].islower())  # "U.S. law", "a.k.a. foo"
        if text[match.start()] == "." and abbreviated:
            continue
        aside = _ASIDE.match(text, end + 1) or ISSUE_NUMBERS.match(text, end + 1)
        yield aside.end() if aside else end      # "Added support for Python 3.15. (7511)": the aside is the sentence's


def _starts_sentence(ch: str) -> bool:
    """Can a sentence start with `ch`: a capital, or a letter of a script without case (Korean), not
    a lowercase letter, a symbol or a Japanese or Chinese word?"""
    return ch.isupper() or (ch.isalpha() and not ch.islower() and not _KANA_OR_HAN.match(ch))


def _sentence_ends_sorted(text: str) -> list[int]:
    return sorted(set(_sentence_ends(text)))
