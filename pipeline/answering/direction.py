"""Does a sentence turn its passage's direction round, in one language? (pure)

"converts Unicode to Punycode" about "converts Punycode to Unicode", or "X should be
preferred over Y" about "Y … should be favored over X", keeps every word, name and number
of the passage: a word share cannot tell them apart, nor can a multilingual vector. What
differs is which side of an asymmetric marker (`MARKER`: from … to, converts … to/into,
over, than, rather than, instead of) each word sits on. A sentence whose words trade sides
of the same marker with the passage's, one each way, is turned round (`turned`).

Only in one language: across languages the marker's side is not comparable word by word.
"""
from __future__ import annotations

import re

from .support import profile

MARKER = re.compile(r"\b(?:rather than|instead of|in favou?r of|over|than|(?<=\w )(?:in)?to)\b", re.I)
# "to" orders two things only after a verb of conversion or "from" in its clause ("used to" does not).
_CONVERSION = re.compile(r"\b(?:from|convert\w*|turn\w*|transform\w*|translat\w*|encod\w*|decod\w*|map\w*|cast\w*"
                         r"|mov\w*|cop(?:y|ies|ied|ying)|renam\w*|chang\w*)\b", re.I)
_CLAUSE_END = re.compile(r"[.;:!?。！？](?=\s|$)|,\s|\s[—–]\s")


def sides(text: str) -> list[tuple[str, frozenset[str], frozenset[str]]]:
    """(marker, content words on its left, on its right) for each marker of `text`, each side
    within the marker's clause. A marker that opens its clause (", rather than B") compares what
    came before it, the whole of it: "work with A, such as X, rather than B" sets A against B."""
    out = []
    for match in MARKER.finditer(text):
        start = max((m.end() for m in _CLAUSE_END.finditer(text, 0, match.start())), default=0)
        end = next((m.start() for m in _CLAUSE_END.finditer(text, match.end())), len(text))
        left, right = text[start:match.start()], text[match.end():end]
        marker = match.group().casefold().removeprefix("in")     # "into" and "to" point the same way
        if marker == "to" and not _CONVERSION.search(left):
            continue
        said_before = profile(left).words or profile(text[:match.start()]).words
        out.append((marker, said_before, profile(right).words))
    return out


def turned(sentence: str, passage: str) -> bool:
    """A word on the left of a marker in the sentence is on its right in the passage, and another
    the other way round (words on both sides of either text tell nothing)."""
    theirs = sides(passage)
    for marker, left, right in sides(sentence):
        for other, their_left, their_right in theirs:
            if other != marker:
                continue
            moved_right = (left & their_right) - right - their_left
            moved_left = (right & their_left) - left - their_right
            if moved_right and moved_left:
                return True
    return False
