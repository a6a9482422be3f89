"""Does a sentence pair a passage's values with the wrong names? (pure)

"Typical values are 107 bytes on Linux and 103 bytes on macOS" and "103 bytes on Linux and
107 bytes on macOS" hold the same numbers, the same names and, across languages, nearly the
same meaning in the multilingual vector space: neither the numbers check nor a cosine tells
them apart. What differs is the pairing. A translation keeps two parallel lists parallel: it
may move "on Linux" before its number, or name macOS first, but then it moves the numbers
with their names. So when both texts give the same two or more values and the same two or
more names, each once, and the values come in the passage's order while the names come in
reverse (or the other way round), the sentence has swapped which value belongs to which name.
"""
from __future__ import annotations

import re
import unicodedata

# A number standing alone (not the 4 of udp4 or of fs.v4), and a Latin-script name or word
# (udp4, macOS, child_process.fork()); a Korean or Japanese word may follow either directly (107바이트).
_VALUE = re.compile(r"(?<![A-Za-z0-9_.])\d+(?:[.,]\d+)*(?![A-Za-z0-9_])")
_NAME = re.compile(r"(?<![A-Za-z0-9_.$-])[A-Za-z_$][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$]+)*(?:\(\))?")


def _once_in_both(first: list[str], second: list[str]) -> set[str]:
    return {item for item in set(first) & set(second) if first.count(item) == 1 and second.count(item) == 1}


def _order(first: list[str], second: list[str], shared: set[str]) -> int:
    """1 when `shared` comes in the same order in both, -1 when reversed, 0 otherwise."""
    one, other = [x for x in first if x in shared], [x for x in second if x in shared]
    return 1 if one == other else -1 if one == other[::-1] else 0


def swapped(sentence: str, passage: str) -> bool:
    """Do the two give the same values and names, with one kept in order and the other reversed?"""
    sentence, passage = (unicodedata.normalize("NFKC", text) for text in (sentence, passage))
    values = [_VALUE.findall(text) for text in (sentence, passage)]
    names = [[name.casefold() for name in _NAME.findall(text) if len(name) > 1] for text in (sentence, passage)]
    shared_values, shared_names = _once_in_both(*values), _once_in_both(*names)
    if len(shared_values) < 2 or len(shared_names) < 2:
        return False
    return _order(*values, shared_values) * _order(*names, shared_names) == -1
