"""Does an issued passage support a model sentence, in the passage's language or another? (pure)

A sentence is shown only with a chip to a passage that supports it. Support is judged
per (sentence, passage), from what both say:

- **Agreement**, always (`trigsight.answering.agreement`): every number of the sentence is in the passage (digits, or number
  words in English, Russian, Japanese or Korean), every Latin-script name (`fs.watch`, NODE_OPTIONS,
  Chromium) is in the passage or its context, the two agree on negation, and, in English
  and Russian, the sentence does not swap a word for its opposite ("less efficient" about
  "more efficient"), and in any pair of the four languages it does not name the opposite
  side of a concept pair the passage names (`trigsight.retrieval.opposites`: 非同期 about
  "synchronously", 書く about "reading"); a passage that opens on a named condition ("On Windows,
  …") holds only for a sentence, or a question, that names it. Negation is compared as marks, whatever their kind
  (`trigsight.answering.negation`, which also reads German, French, Spanish, Portuguese,
  Italian, Dutch, Polish and Chinese marks): "без выделения" agrees with "with no highlight",
  "не нужно" with "there is no need", "если только не" with "unless". A sentence's language is
  told by `trigsight.languages` (German, French … are across languages from English), and a
  German noun's capital makes no name. In one language, the sentence
  may not turn the passage's direction round (`trigsight.answering.direction`): "converts A
  to B" about "converts B to A", "X over Y" about "Y over X".
- **Same language**: the share of the sentence's content words the passage carries
  (`trigsight.answering.support`) reaches `WORDS`, over the passage or a run of its clauses
  when only one clause is restated; or the sentence is a close paraphrase: a smaller share
  (`PARAPHRASE_WORDS`) and a vector cosine of at least `PARAPHRASE_COSINE`.
- **Restating the question**: "Why is X?" answered "X because Y" is judged on Y (`framed`).
- **Roles**, in any pair of languages: a sentence that puts the passage's names in each
  other's clauses ("managed by Node.js" where the passage says V8) is not supported
  (`trigsight.answering.roles`).
- **Across languages** (a Russian sentence about an English passage) words cannot be
  compared: the cosine of the two in the multilingual vector space must reach
  `CROSS_COSINE`, and agreement must hold. A passage that states a direction (X takes
  precedence over Y, more than, before, instead of) can be reversed without changing a
  word, which no similarity sees, so it needs `CROSS_DIRECTIONAL`: the same meaning
  nearly word for word.

The thresholds are swept by bench/chat/run.py on the development half of
bench/chat/pairs.json, and the check's precision is reported on the other half. Same
language: the highest values that keep the best dev recall (precision was 1.0 throughout).
Across languages: the lowest `CROSS_COSINE` on the sweep with dev precision >= 0.95 and a
margin of 0.05 over the most similar unsupported dev pair whose facts agree (0.636).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from .. import languages
from . import roles
from .agreement import disagreement
from .agreement import names_in as _names
from .support import (
    MIN_WORDS,
    explain,
    numbers_claimed,
    profile,
)

WORDS = 0.8
PARAPHRASE_WORDS = 0.6
PARAPHRASE_COSINE = 0.85
CROSS_COSINE = 0.7
CROSS_DIRECTIONAL = 0.9
HELPER_SHARE = 0.3      # a second passage must carry this share of a sentence's words to keep its chip

_DIRECTIONAL = re.compile(
    r"\b(?:precedence|precedes?|over|than|before|after|instead|rather|unlike|prefer(?:red)?|first|last"
    r"|больше|меньше|раньше|позже|вместо|чем|перед|после)\b|より|前に|後に|代わりに|보다|전에|후에|대신", re.I)
_CLAUSE_BREAK = re.compile(r"(?<=[,;:])\s+|\s+(?=[—–]\s)|(?<=[、；：])")


def language_of(text: str) -> str:
    """The language a sentence is written in (trigsight.languages: by script, and for Latin letters
    by function words)."""
    return languages.language_of(text)


@dataclass(frozen=True)
class Evidence:
    """What one passage offers one sentence."""

    supported: bool
    strength: float      # words share (same language) or cosine (across): ranks supporting passages
    share: float         # share of the sentence's content words the passage carries
    how: str = ""        # words | paraphrase | translation, or why not: numbers | units | names | scope | negation
    #                      | opposite | direction | roles


def word_share(sentence: str, passage: str, ignore: Iterable[str] = ()) -> float:
    """Share of the sentence's content words the passage carries (over at least MIN_WORDS words)."""
    found = explain(sentence, passage, ignore)
    total = len(found.matched) + len(found.missing_words)
    return len(found.matched) / max(total, MIN_WORDS) if total else 0.0


def _clause_runs(passage: str) -> list[str]:
    clauses = [c for c in _CLAUSE_BREAK.split(passage) if c.strip()]
    return [" ".join(clauses[i:j]) for i in range(len(clauses)) for j in range(i + 1, len(clauses) + 1)
            if (i, j) != (0, len(clauses))]


def framed(sentence: str, passage: str, question: str, block: str, context: str = "",
           ignore: Iterable[str] = (), need: float = WORDS) -> Evidence:
    """Same language: does `passage` support what `sentence` adds to the `question` it restates?

    A model answers "Why is X?" with "X because Y": the restated X is the question's frame,
    not the claim. The sentence's words that are also the question's count neither for nor
    against; its own words must be in the passage (`WORDS` of them, over at least MIN_WORDS),
    and at least one frame word must be in the passage's block, so that a restated question
    cannot ride on a passage about something else. A fragment ("50%") adds only numbers or
    names: those must be in the passage, and `WORDS` of the frame in its block. Numbers and
    names of the whole sentence must agree; negation is compared without the spans copied
    verbatim from the question ("when it is not escaped" was the question's). `need` replaces
    `WORDS` (passages joined by `judge_together` need all the words).
    """
    ignore = tuple(ignore)
    wanted = frozenset(w for w in profile(sentence).words - frozenset(ignore) if not w.isdigit())
    asked = profile(question).words - frozenset(ignore)
    frame = wanted & asked
    own = wanted - frame
    if not own:                 # a fragment: the whole question is its frame
        frame = asked
    held = profile(passage).words
    anchored = frame & (held | profile(block).words)
    if not frame or not anchored:
        return Evidence(False, 0.0, 0.0, "")
    why = disagreement(sentence, passage, context, ignore, question=question)
    if why:
        return Evidence(False, 0.0, 0.0, why)
    if own:
        share = len(own & held) / max(len(own), MIN_WORDS)
    elif numbers_claimed(sentence) or _names(sentence, True):
        share = len(anchored) / max(len(frame), MIN_WORDS)
    else:
        return Evidence(False, 0.0, 0.0, "")
    return Evidence(share >= need, share, share, "framed" if share >= need else "")


def judge(sentence: str, passage: str, *, cosine: float | None = None, cross: bool | None = None,
          ignore: Iterable[str] = (), context: str = "", question: str = "", block: str = "",
          embed: roles.Embed | None = None) -> Evidence:
    """Does `passage` support `sentence`? See the module docstring.

    `cross` says the two are in different languages (default: told by their scripts);
    `cosine` is their similarity in the multilingual vector space, None when unknown (then
    only words can support, and only in the same language). With the `question` and the
    passage's `block`, a same-language sentence restating the question is judged on what it
    adds (`framed`), and across languages negation copied from the question is not compared.
    A sentence whose names swap the roles the passage gives them is not supported
    (`roles.swapped`; across languages only with `embed`, the index model's text embedder).
    """
    if cross is None:
        cross = language_of(sentence) != language_of(passage)
    found = _judge(sentence, passage, cosine, cross, tuple(ignore), context, question, block)
    if found.supported and (embed is not None or not cross):
        swap = roles.swapped(sentence, passage, lambda text: _names(text, not cross),
                             lambda text: _names(text, True), embed if cross else None)
        if swap:
            return Evidence(False, 0.0, found.share, "roles")
    return found


def _judge(sentence: str, passage: str, cosine: float | None, cross: bool, ignore: tuple[str, ...], context: str,
           question: str, block: str) -> Evidence:
    share = word_share(sentence, passage, ignore)
    if cross:
        why = disagreement(sentence, passage, context, ignore, same_language=False, question=question)
        if why:
            return Evidence(False, 0.0, share, why)
        needed = CROSS_DIRECTIONAL if _DIRECTIONAL.search(passage) else CROSS_COSINE
        ok = cosine is not None and cosine >= needed
        return Evidence(ok, cosine or 0.0, share, "translation" if ok else "")
    # A model often restates one clause of a passage whose other clause says "not": the
    # passage supports that clause. The chip quotes the whole passage either way.
    why = disagreement(sentence, passage, context, ignore, question=question)
    best = Evidence(False, 0.0, share, why)
    # "faster" about "…, but this method is slower": no clause says "faster"; "On Windows, …": no
    # clause holds without the condition; "103 on Linux and 107 on macOS" pairs across clauses.
    if why in ("opposite", "direction", "scope", "pairing"):
        return best
    for text in ([] if why else [passage]) + _clause_runs(passage):
        if text is not passage and disagreement(sentence, text, context, ignore):
            continue
        words = word_share(sentence, text, ignore)
        if words >= WORDS:
            return Evidence(True, words, share, "words")
        if words >= PARAPHRASE_WORDS and cosine is not None and cosine >= PARAPHRASE_COSINE and not best.supported:
            best = Evidence(True, words, share, "paraphrase")
    if not best.supported and question:
        found = framed(sentence, passage, question, block or context, context, ignore)
        if found.supported:
            return found
    return best


def judge_together(sentence: str, passages: list[str], ignore: Iterable[str] = (), need: float = WORDS,
                   question: str = "", block: str = "") -> bool:
    """Do several passages of the sentence's language support it only together (one sentence, two facts)?

    Words only: their joined text must carry `need` of the sentence's words and agree with it;
    with the `question`, `need` of the words it adds to the question it restates (`framed`).
    """
    ignore = tuple(ignore)
    if len(passages) < 2 or any(language_of(p) != language_of(sentence) for p in passages):
        return False
    joined = " ".join(passages)
    if not disagreement(sentence, joined, "", ignore) and word_share(sentence, joined, ignore) >= need:
        return True
    return bool(question) and framed(sentence, joined, question, block + " " + joined, "", ignore, need).supported
