"""Which quotable passage leads an answer, by the kind of thing its question asks (pure).

The relevance model weighs a passage by how near it is to the question, not by whether it says the
kind of thing asked. "Which trace event categories are enabled by default?" shares more words with
four sentences about "the set of enabled trace event categories" than with the one that answers it,
"By default the node, node.async_hooks, and v8 categories are enabled."; "Why does X …?" shares more
with sentences that name X than with the one that says "…, because …". So a question that asks what
holds by default, or why, is led by a passage that says a default, or gives a reason, when that passage
is at least `LEADS_AT` as likely as the likeliest: it is raised just above it. Which passages may be
quoted at all does not change, and neither does a refusal.
"""
from __future__ import annotations

import re

from .default_terms import asks_default
from .defaults import says_default

# Set before measuring (stop 79); bench/answers/variants.py no-leads and no-reason-leads give the answers without.
LEADS_AT = 0.4

_ASKS_WHY = re.compile(r"(?i)\bwhy\b|\bwhat(?:'s| is) the reason\b|\bfor what reason\b|почему|зачем|отчего|причин"
                       r"|なぜ|どうして|何のため|理由|왜|어째서|이유")
# "since" of a version ("since version 2", "since Node.js 12") tells when, not why.
_GIVES_REASON = re.compile(
    r"(?i)\bbecause\b|\bsince\b(?!\s+(?:version|v?\d|node|python|the\s+\d))|\bso that\b|\bin order to\b|\bdue to\b"
    r"|\btherefore\b|\bthus\b|\bthis is why\b|\bthe reason\b|\bto (?:avoid|prevent|ensure|allow|keep|make sure)\b"
    r"|\bas a result\b|\botherwise\b"
    r"|потому что|поскольку|так как|поэтому|из-за|чтобы|иначе|なぜなら|ので|ため|그래서|따라서|때문에|므로|위해")


def asks_why(question: str) -> bool:
    return bool(_ASKS_WHY.search(question))


def gives_reason(text: str) -> bool:
    return bool(_GIVES_REASON.search(text))


# (does the question ask this kind of thing, does a passage say it)
KINDS = [(asks_default, says_default), (asks_why, gives_reason)]


def first(question: str, scored: list, release) -> list:
    """The scored (candidate, probability) pairs, those of passages that say what the question asks for
    raised just above the likeliest's probability when they are at least `LEADS_AT` as likely."""
    says = [saying for asking, saying in KINDS if asking(question)]
    if not scored or not says:
        return scored
    top = max(probability for _, probability in scored)
    raised = min(1.0, top + 0.001)     # ahead of the likeliest, which may not say it
    return [(candidate, raised if probability >= LEADS_AT * top
             and any(saying(release.passage(candidate.passage_id).text) for saying in says) else probability)
            for candidate, probability in scored]
