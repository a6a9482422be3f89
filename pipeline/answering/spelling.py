"""A misspelt code name read as the pages' one ("fs.readfle()" is fs.readFile()) (pure).

Code names are exact: the keyword leg matches `readfile`, never `readfle`, and the answer counts a
name no page uses as evidence that the pages do not answer ("Bun", "pm2"). So a reader's typo in
an identifier got the refusal where the same question spelt right is answered. A word of a code
name (dotted, called, a flag, CONSTANT_CASE or camelCase: `support.code_names`) that no page uses
is read as the pages' word one edit away (a letter left out, added, changed, or two swapped), when
there is one: the most used, if several; not when the edit is a capital that starts a part of its own
("execAsync" is another name than execSync, not a typo of it). Only long words (6 letters or more, the first one kept),
where one edit rarely turns a name into another, and only words the keyword index has never seen,
so a real name used once on some page stays as it is. On every question of the bench sets (856,
all spelt right), nothing is changed (`bench/answers/typo_probe.py`).
"""
from __future__ import annotations

import re
import threading
from collections import defaultdict

from ..retrieval.tokenize import tokenize
from .support import code_names

MIN_LETTERS = 6
_PART = re.compile(rf"[A-Za-z][A-Za-z0-9]{{{MIN_LETTERS - 1},}}")
_LOCK = threading.Lock()


def one_edit(a: str, b: str) -> bool:
    """Are `a` and `b` one edit apart: a letter left out, added or changed, or two neighbours swapped?"""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        apart = [i for i in range(len(a)) if a[i] != b[i]]
        return len(apart) == 1 or (len(apart) == 2 and apart[1] == apart[0] + 1
                                   and a[apart[0]] == b[apart[1]] and a[apart[1]] == b[apart[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = 0
    while i < len(short) and short[i] == long[i]:
        i += 1
    return short[i:] == long[i + 1:]


def corrected(question: str, retriever) -> str:
    """The question with each misspelt code-name word replaced by the pages' word one edit away."""
    lexicon = getattr(retriever, "lexicon", None)
    if lexicon is None:
        return question
    seen = retriever.bm25_chunks.vocabulary
    fixes: dict[str, str] = {}
    for name in code_names(question):
        for part in _PART.findall(name):
            folded = part.casefold()
            if folded in fixes or all(token in seen for token in tokenize(folded)):
                continue
            shapes = _shapes(lexicon)
            found = re.search(re.escape(part), question, re.IGNORECASE)       # code_names casefolds
            written = found.group() if found else part
            near = [word for size in (len(folded) - 1, len(folded), len(folded) + 1)
                    for word in shapes.get((folded[0], size), ()) if one_edit(folded, word) and not _new_word(written, word)]
            if near:
                fixes[folded] = min(near, key=shapes["rank"].__getitem__)
    for wrong, right in fixes.items():
        question = re.sub(rf"(?<![A-Za-z0-9]){re.escape(wrong)}(?![A-Za-z0-9])",
                          lambda match: recased(match.group(), right), question, flags=re.IGNORECASE)
    return question


def _new_word(written: str, right: str) -> bool:
    """Is the letter `written` has where it differs from `right` a capital that starts a word of its own
    ("execAsync" is not a typo of "execSync")?"""
    folded = written.casefold()
    i = next((n for n, (a, b) in enumerate(zip(folded, right)) if a != b), min(len(folded), len(right)))
    return len(written) >= len(right) and 0 < i < len(written) and written[i].isupper()


def recased(written: str, right: str) -> str:
    """`right` (lower case, one edit from `written`) in `written`'s capitals: "setTimout" → "setTimeout",
    so a camelCase name stays one."""
    folded = written.casefold()
    i = next((n for n, (a, b) in enumerate(zip(folded, right)) if a != b), min(len(folded), len(right)))
    if len(right) == len(written) + 1:                       # a letter left out
        return written[:i] + (right[i].upper() if written.isupper() else right[i]) + written[i:]
    if len(right) == len(written) - 1:                       # a letter too many
        return written[:i] + written[i + 1:]
    return "".join(w if f == r else (r.upper() if w.isupper() else r) for w, f, r in zip(written, folded, right))


def _shapes(lexicon) -> dict:
    """The lexicon's long Latin words by (first letter, length), and each word's rank (most used
    first); built once per lexicon and kept with it."""
    with _LOCK:
        found = getattr(lexicon, "_spelling_shapes", None)
        if found is None:
            shapes: dict = defaultdict(list)
            for word in lexicon.words:
                if len(word) >= MIN_LETTERS - 1 and word.isascii() and word.isalpha():
                    shapes[(word[0], len(word))].append(word)
            shapes["rank"] = {word: n for n, word in enumerate(lexicon.words)}
            lexicon._spelling_shapes = found = dict(shapes)
        return found
