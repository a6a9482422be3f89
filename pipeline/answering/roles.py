"""Does a sentence give a named thing the role its passage gives another? (pure)

"The microtask queue is managed by V8 …, which is managed by Node.js" and "the microtask
queue is managed by Node.js, and V8 manages the nextTick queue" share every word, every
name and, across languages, nearly all their meaning: a cosine or a word share cannot
tell them apart. What differs is which clause each name sits in. So both texts are cut
into clauses, the names they share are masked out of every clause, and each clause of the
sentence is matched to the passage clause that says the same thing without its names
(by shared words in one language, by the multilingual vector space across two). When
the matched passage clause names none of the sentence clause's names but one the
sentence gives to another clause, the names have swapped roles.

Only a clear match counts: its similarity must lead the runner-up by `MARGIN`, and the
passage must spread the shared names over at least two clauses.
"""
from __future__ import annotations

import re
from typing import Callable, Sequence

import numpy as np

from ..retrieval.tokenize import tokenize
from .support import profile

Embed = Callable[[Sequence[str]], "np.ndarray | None"]

# Chosen on bench/chat/pairs.json and pairs-holdout.json: every margin from 0.05 to 0.1 catches
# the same swaps there and drops no supported pair.
MARGIN = 0.05

_CLAUSE = re.compile(r"(?<=[,;:])\s+|\s+(?=[—–]\s)|(?<=[、；：，])"
                     r"|\s+(?=(?:while|whereas|but|which|а|но|тогда как)\s)|(?<=지만)\s*|(?<=반면)\s*", re.I)
_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_$.()-]*")


def clauses(text: str) -> list[str]:
    return [c.strip() for c in _CLAUSE.split(text) if c and len(c.strip()) > 3]


def without_names(text: str, names: frozenset[str]) -> str:
    """`text` with every Latin-script word whose tokens are among `names` taken out."""
    named = {w for w in _LATIN_WORD.findall(text) if set(tokenize(w)) & names}
    for word in sorted(named, key=len, reverse=True):
        text = text.replace(word, " ")
    return re.sub(r"\s+", " ", text).strip()


def swapped(sentence: str, passage: str, names_of: Callable[[str], frozenset[str]],
            passage_names_of: Callable[[str], frozenset[str]], embed: Embed | None = None) -> str:
    """"names a→b" when a sentence clause matches a passage clause naming another of the sentence's
    names and none of its own, else "". Across languages (`embed` given) clauses are matched in
    its vector space; in one language (`embed` None) by their shared content words."""
    theirs = clauses(passage)
    if len(theirs) < 2:
        return ""
    # A name token in several clauses (fs of fs.readFile and fs.createReadStream) tells none apart.
    every = [passage_names_of(c) for c in theirs]
    named = [n - frozenset().union(*(m for j, m in enumerate(every) if j != i)) for i, n in enumerate(every)]
    shared = names_of(sentence) & frozenset().union(*named)
    if len(shared) < 2 or sum(bool(n & shared) for n in named) < 2:
        return ""
    ours = clauses(sentence)
    own = [names_of(c) & shared for c in ours]
    if not any(own):
        return ""
    texts = [without_names(c, shared) or "." for c in ours + theirs]
    if embed is None:
        words = [profile(t).words for t in texts]
        similarity = np.array([[len(a & b) / max(1, len(a)) for b in words[len(ours):]] for a in words[:len(ours)]])
    else:
        vectors = embed(texts)
        if vectors is None:
            return ""
        similarity = np.asarray(vectors[:len(ours)] @ vectors[len(ours):].T)
    for number, names in enumerate(own):
        # A clause that is only a name ("а no-misused-promises — …") says nothing to match it by.
        if not names or not profile(texts[number]).words:
            continue
        order = np.argsort(-similarity[number], kind="stable")
        best, lead = order[0], similarity[number][order[0]] - similarity[number][order[1]]
        if lead >= MARGIN and not names & named[best] and named[best] & (shared - names):
            return f"names {','.join(sorted(names))}→{','.join(sorted(named[best] & shared))}"
    return ""
