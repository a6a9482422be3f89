"""Can a sentence and a passage agree at all, whatever their wording? (pure)

Before any word share or cosine is weighed (`trigsight.answering.attribution`), a sentence and
a passage must not disagree on what a reader checks first: every number of the sentence is in
the passage, in the same units and paired with the same names (`pairings`); every Latin-script
name and code name is in the passage or its context; a passage that opens on a named condition
("On Windows, …") holds only for a sentence or question that names it; a hedged passage ("by default", "most") is not made absolute
(`hedges`); both say "not" alike (`negation`); no word is swapped for its opposite (concept pairs
in any two languages, `trigsight.retrieval.opposites`, and English and Russian stems); and, in
one language, no direction is turned round (`direction`). `disagreement` names the first that
fails.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from typing import Iterable

from .. import languages
from ..retrieval.opposites import reversal
from ..retrieval.tokenize import tokenize
from . import direction, hedges, negation, pairings
from .support import (
    code_names,
    numbers_claimed,
    numbers_in,
    numbers_offered,
    profile,
    units_in,
    versions_of,
)

FRAME_SPAN = 12         # characters a sentence must copy from the question for the copy to count as its frame
_LATIN_OR_CYRILLIC = re.compile(r"[a-z0-9\u00c0-\u024f\u0400-\u04ff]")
# A rule or package name (no-unnecessary-condition, eslint-plugin-import); a phrase joined by a small
# word inside it (up-to-date, copy-on-write, state-of-the-art) is English, not a name.
_KEBAB = re.compile(r"(?<![\w-])[a-z][a-z0-9]*(?:-[a-z0-9]+){2,}(?![\w-])")
_JOINING = re.compile(r"-(?:to|of|the|on|in|and|or|by|a|an|for|with|at|as|per|from|over|under|vs)-")
# A passage's opening condition ("On Windows, …", "When running under Linux, …", "Windows の場合、…",
# "Windows이면, …"): the clause before its first comma, begun by a condition word or ended by a
# condition ending. Not "In X," or "X では": docs say "In Node.js, …" of everything they hold.
_OPENING_CONDITION = re.compile(
    r"^\s*(?:(?:when|whenever|if|unless|on|under|only\s+(?:when|if|on)|если|когда|при|на)\s(?P<body>(?:[^,;:!?.]|\.(?=\S)){1,80}),"
    r"|[^、。,.!?]{1,60}(?:なら|場合は?|とき|時|と)、|[^,.!?]{1,60}(?:으?면|경우에?는?),)",
    re.I)
# Words and their opposites, as stems of the tokenizer (English and Russian).
_OPPOSITES = [tuple(tokenize(w)[0] for w in pair) for pair in (
    ("more", "less"), ("higher", "lower"), ("faster", "slower"), ("larger", "smaller"), ("before", "after"),
    ("synchronous", "asynchronous"), ("synchronously", "asynchronously"), ("enabled", "disabled"),
    ("increase", "decrease"), ("always", "never"), ("first", "last"), ("minimum", "maximum"),
    ("больше", "меньше"), ("раньше", "позже"), ("быстрее", "медленнее"), ("синхронно", "асинхронно"),
    ("включен", "выключен"), ("всегда", "никогда"))]
_OPPOSITE = {a: b for a, b in _OPPOSITES} | {b: a for a, b in _OPPOSITES}


def restated(sentence: str, question: str) -> str:
    """`sentence` without the runs of at least FRAME_SPAN characters it copies from `question` ("" when none)."""
    if not question:
        return ""
    said, asked = unicodedata.normalize("NFKC", sentence).casefold(), unicodedata.normalize("NFKC", question).casefold()
    blocks = difflib.SequenceMatcher(None, said, asked, autojunk=False).get_matching_blocks()
    copied = [(b.a, b.a + b.size) for b in blocks if b.size >= FRAME_SPAN]
    if not copied:
        return ""
    kept, start = [], 0
    for begin, end in copied:
        kept.append(said[start:begin])
        start = end
    return " ".join(kept + [said[start:]])


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_$]*")
_PERCENT_BYTE = re.compile(r"%[0-9A-Fa-f]{2}")
_SHORT_FLAG = re.compile(r"(?<![\w-])-[A-Za-z](?![\w-])")


# The name a list marks as its default: "xhtml (the default)", "html (используется по умолчанию)", "4 (既定)".
_DEFAULT_MARKED = re.compile(
    r"([\w.$-]+)\s*[(（]\s*(?:the default|default(?: value)?|(?:\w+ )?по умолчанию|デフォルト値?|既定値?|기본값|기본)\s*[)）]",
    re.I)


def _default_of(text: str) -> str:
    """The name `text` marks "(the default)", case-folded, or ""."""
    found = _DEFAULT_MARKED.search(unicodedata.normalize("NFKC", text))
    return found.group(1).casefold() if found else ""


def names_in(claim: str, same_language: bool) -> frozenset[str]:
    """Tokens of the names in `claim`: capitalised words inside a sentence, acronyms, mixed case,
    code (fs.watch, spawn(), --flag), kebab-case identifiers of three parts or more
    (no-unnecessary-condition, not up-to-date); in a sentence not written in Latin script, every
    Latin-script word (Firefox, readFile). A German sentence capitalises every noun: there only
    the other kinds are names (`support.profile`)."""
    names = {t for t in profile(claim).names if _LATIN_OR_CYRILLIC.search(t)}
    names |= {t for name in code_names(claim) for t in tokenize(name) if len(t) > 1}
    names |= {t for match in _KEBAB.finditer(claim) if not _JOINING.search(match.group())
              for t in tokenize(match.group()) if len(t) > 1}
    if not same_language and not languages.is_latin(languages.language_of(claim)):
        names |= {t for word in _LATIN_WORD.findall(claim) for t in tokenize(word) if len(t) > 1}
    return frozenset(names)


def disagreement(sentence: str, passage: str, context: str = "", ignore: Iterable[str] = (),
                 same_language: bool = True, question: str = "") -> str:
    """Why the two cannot agree ("numbers", "pairing", "units", "names", "scope", "negation", "opposite",
    "direction"), or "" when they can.

    With the `question` the sentence answers, negation is read without the spans the sentence
    copies from it: "…cuts the highlight short when it is not escaped" restates the question's
    condition, it does not deny the passage. A percent-encoded byte (%2D) is a name, not a number;
    a version may be named by the context (a changelog item under "## 7.8.1")."""
    wanted = list(numbers_claimed(_PERCENT_BYTE.sub(" ", sentence)))
    offered = list(numbers_offered(_PERCENT_BYTE.sub(" ", passage))) + list(versions_of(numbers_in(context)))
    for number in wanted:
        if number not in offered:
            return "numbers"
        offered.remove(number)
    if pairings.swapped(sentence, passage):
        return "pairing"
    around = passage + " " + context
    if units_in(sentence) - units_in(around):
        return "units"
    written = unicodedata.normalize("NFKC", around).casefold()
    if any(code.casefold() not in written for code in _PERCENT_BYTE.findall(unicodedata.normalize("NFKC", sentence))):
        return "names"
    if set(_SHORT_FLAG.findall(sentence)) - set(_SHORT_FLAG.findall(around)):
        return "names"      # a one-letter flag (-e, -x) has no token of its own
    # A dotted name is one name: writable.unpipe() is not readable.unpipe() beside "a Writable stream".
    if any(name not in written for name in code_names(sentence)
           if "." in name and min(map(len, name.split("."))) > 1):
        return "names"
    named = profile(passage).words | (profile(context).words if context else frozenset())
    if names_in(sentence, same_language) - frozenset(ignore) - named:
        return "names"
    defaults = _default_of(sentence), _default_of(passage)
    if all(defaults) and defaults[0] != defaults[1]:
        return "names"      # "html (the default) and xhtml" about "xhtml (the default) and html"
    if (_condition_dropped(sentence, passage, question, ignore) or hedges.overclaims(sentence, passage)
            or hedges.widens(sentence, passage)):
        return "scope"
    if not negation.agree(restated(sentence, question) or sentence, passage):
        return "negation"
    if reversal(sentence, passage):
        return "opposite"
    if same_language and direction.turned(sentence, passage):
        return "direction"
    if same_language:
        said, written = set(tokenize(sentence)), set(tokenize(passage))
        if any(_OPPOSITE.get(word) in written and word not in written and _OPPOSITE[word] not in said
               for word in said):
            return "opposite"
    return ""


def _condition_dropped(sentence: str, passage: str, question: str, ignore: Iterable[str]) -> bool:
    """Does the passage hold only under a named condition ("On Windows, …") that neither the
    sentence nor its question names? "Use spawn() with the shell option" is not supported by
    "When running on Windows, .bat files can be invoked using spawn() with the shell option set"."""
    opening = _OPENING_CONDITION.match(unicodedata.normalize("NFKC", passage))
    if not opening:
        return False
    clause = opening.group("body") or opening.group()     # "When running on Windows" without "When"
    named = {t for word in _LATIN_WORD.findall(clause) if not word.islower()
             for t in tokenize(word) if len(t) > 1}
    named |= {t for name in code_names(clause) for t in tokenize(name) if len(t) > 1}
    said = set(tokenize(sentence)) | set(tokenize(question)) | set(ignore)
    return bool(named - said)
