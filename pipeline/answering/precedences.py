"""Precedence questions ("Which wins when both X and Y are set?", "XとYのどちらが優先されますか"): what settles it.

A reader who sets two things that conflict (a flag and an environment variable, two config files, an
option and an argument) asks which one takes effect, usually inside a story of what they did: "I export
NODE_OPTIONS=… but I start the app with node --max-old-space-size=4096. Which heap limit does Node
apply?". The pages settle it in one sentence that names both and says which wins ("Options from the
command line take precedence over options passed through the NODE_OPTIONS environment variable.",
"If both "exports" and "main" are defined, the "exports" field takes precedence…"). Retrieval weighs the
story's words as one bag, and the relevance model has no feature for "says which wins", so that
sentence is often retrieved and not quoted, or not retrieved at all.

So a question that asks which of two things prevails (`asks_precedence`: a word of precedence, or of two
things at once: both, 両方, 둘 다, оба; or a which-question with a word that puts them side by side: also,
different, later) is read for
the names it gives (`asked_names`: code names, flags, environment variables, quoted words, and in a
question written in another script its words in Latin letters), and answered (`preceding`) by the
passage that names at least two of them and says which prevails (precedence, priority, overrides,
ignored, instead, in order, 優先, 우선, приоритет, …): the one naming most of them, then one with a
word that says precedence outright, then the nearest the question in meaning. A name counts where the
passage gives it, at the opening of its list item or paragraph, or in its heading; a flag, also where it
says "command line"; a name in a twentieth of the passages or more (the pages' own subject, "npm" in npm's
docs) counts nowhere. Its quote comes first, before what the relevance model chooses from other blocks,
and the chat issues its chunk first. It answers nothing the rest would refuse: a question the gate or the
quoting threshold refuses stays refused (two things the pages weigh elsewhere are not the two asked
about), and a question whose names no such passage holds is answered as any other question is.
"""
from __future__ import annotations

import re
import threading
from dataclasses import dataclass

import numpy as np

from ..retrieval.tokenize import tokenize
from .definitions import Definitions
from .support import code_names
from .term_places import MAX_CANDIDATES, each_named, readings_of, rows_naming

MIN_NAMES = 2
EVERYWHERE_SHARE = 0.05     # a name in this share of the passages is what they are all about, not one side…
EVERYWHERE_MIN = 20         # … when that is more passages than this
CACHED_QUESTIONS = 256
_LOCK = threading.Lock()
_SETTLED: dict[tuple[str, str], "Precedence | None"] = {}
# Words that ask which of two things prevails.
_PREVAILS = re.compile(
    r"(?i)\b(?:precedence|priorit\w*|overrid\w*|supersed\w*|trumps?|wins?|winning|takes?\s+effect|honou?r(?:s|ed)?"
    r"|prefers?|preferred)\b"
    r"|приоритет\w*|главнее|важнее|перекрыва\w*|переопредел\w*|победит|выигрыва\w*|учитыва\w*"
    r"|優先|上書き|勝つ|우선|덮어|이기")
# Two things put side by side: "both", "at the same time", оба, 両方, 둘 다 …
_BOTH = re.compile(r"(?i)\b(?:both|at\s+the\s+same\s+time|simultaneously)\b|\b(?:оба|обе|обоих|одновременно)\b"
                   r"|\bи\s+\S+,?\s+и\b|両方|同時に|둘\s*다|동시에")
# … or one after the other, different, or also set, in a which-question ("Which registry does npm use?",
# "какой путь будет использован?", "どちらを返しますか", "어느 쪽이 적용되나요?").
_WHICH = re.compile(r"(?i)\b(?:which|what|whose|where)\b|\bкак(?:ой|ая|ое|ие|ого|ую)\b|\bчто\b"
                    r"|\bчей\b|\bкуда\b|どちら|どっち|どれ|どの|何|어느|어떤|무엇|뭐")
_SIDE_BY_SIDE = re.compile(r"(?i)\b(?:also|as\s+well|but|while|different|conflict\w*|same|later|afterwards|too"
                           r"|and\s+then|together)\b|\b(?:также|тоже|другой|другим|разные|но|вместе)\b"
                           r"|どちら|どっち|さらに|も指定|も設定|併用|一緒に|둘\s*중|어느\s*쪽|모두|같이|함께|다르게")
# A sentence that says which of two things prevails, in the pages' languages; the first kind says so outright.
_SETTLES_OUTRIGHT = re.compile(
    r"(?i)\bprecedence\b|\bpriorit(?:y|ies|i[sz]ed?)\b|\boverrid(?:e|es|den|ing)\b|\bsupersed\w*|\bpreferred\s+over\b"
    r"|\bpreferentially\b|\bwins?\b|\btrumps?\b"
    r"|приоритет\w*|переопредел\w*|перекрыва\w*|優先|上書き|우선|덮어")
_SETTLES = re.compile(
    r"(?i)\bprefer(?:s|red|abl[ey])?\b|\binstead\b|\bbefore\b|\bignor(?:e|es|ed)\b|\bin\s+(?:the\s+)?(?:described|following|this|that|"
    r"reverse)\s+order\b|\bin\s+order\s+of\b|\bfollowed\s+by\b|\bregardless\b|\beven\s+if\b|\brather\s+than\b"
    r"|\bused\s+first\b|\bchecked\s+first\b|\bfirst\s+(?:one|match)\b|\btakes?\s+effect\b"
    r"|вместо|игнорир\w*|независимо|無視|代わりに|かかわらず|무시|대신|상관없이")
# A name in Latin letters inside a question in another script: "exports", "--openssl-config", ".cjs" (not the
# Korean particle after it: "options에").
_LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_.$@/-])(?:--?|\.)?[A-Za-z][A-Za-z0-9_.$@/-]*[A-Za-z0-9_$]"
                         r"|(?<![A-Za-z0-9_.$@/-])[A-Za-z]{2,}")
_DOTTED = re.compile(r"(?<![A-Za-z0-9_$@/-])\.[A-Za-z][A-Za-z0-9]*(?![A-Za-z0-9_]|\.\w)")   # ".cjs", ".npmignore"
# engine-strict, auth-type; package-lock.json
_KEBAB = re.compile(r"(?<![\w.$@/-])[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?:\.[a-z0-9]+)?(?![\w$@/-]|\.\w)")
# Latin words side by side are one name there: "Python Markdown", "Node.js REPL".
_LATIN_WORDS = re.compile(r"(?:" + _LATIN_WORD.pattern + r")(?:[ \t]+(?:" + _LATIN_WORD.pattern + r"))*")
_VALUE = re.compile(r"=.*$")    # "--max-old-space-size=2048" names --max-old-space-size
_NON_LATIN = re.compile(r"[\u0400-\u04ff\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
_QUOTED = re.compile(r"[`'\"“‘«「『]([^`'\"“”‘’«»「」『』]{1,40})[`'\"”’»」』]")
_DISTINCT_METHOD = re.compile(r"^[a-z]+(?:[A-Z][a-z0-9]*)+$|^[a-z]+_[a-z0-9_]+$")    # setHeader, exit_code
_FLAG = re.compile(r"^--?[A-Za-z]")
_FLAG_IN_TEXT = re.compile(r"(?<![\w-])--?[A-Za-z]")
_COMMAND_LINE = re.compile(r"(?i)\bcommand[\s-]line\b|\bCLI\b")
_VALUES = frozenset({"true", "false", "null", "none", "undefined", "yes", "no", "on", "off"})


@dataclass(frozen=True)
class Precedence:
    passage_ids: tuple[str, ...]     # quoted first, in this order


def asks_precedence(question: str) -> bool:
    """Does the question ask which of two things prevails (see the module docstring)?"""
    return bool(_PREVAILS.search(question) or _BOTH.search(question)
                or (_WHICH.search(question) and _SIDE_BY_SIDE.search(question)))


def asked_names(question: str) -> list[str]:
    """The names the question gives: its code names, flags, settings (engine-strict) and environment variables,
    the words it quotes, and in a question written in another script its words in Latin letters ("exports",
    "main"; "Python Markdown" is one name); a flag without the value it is given, and no bare values ("true")."""
    found = {(bare := _VALUE.sub("", name)).casefold(): _as_written(bare, question) for name in code_names(question)}
    found.update(((bare := _VALUE.sub("", text).strip()).casefold(), bare) for text in _QUOTED.findall(question)
                 if _VALUE.sub("", text).strip())
    found.update((name.casefold(), name) for name in _DOTTED.findall(question) + _KEBAB.findall(question))
    if _NON_LATIN.search(question):
        found.update(((bare := _VALUE.sub("", words)).casefold(), bare) for words in _LATIN_WORDS.findall(question))
    # a word of a name written in several ("REPL" of "Node.js REPL") is that name, not one of its own
    parts = {word for key in found if " " in key for word in key.split()}
    return [name for key, name in found.items() if key not in _VALUES and len(key) > 1 and key not in parts]


def _as_written(name: str, question: str) -> str:
    """`name` (case-folded) as the question writes it ("res.setHeader")."""
    written = re.search(re.escape(name), question, re.IGNORECASE)
    return written.group() if written else name


def preceding(question: str, hits, retriever, release, scores=None) -> Precedence | None:
    """The passage that settles a precedence question (see the module docstring), or None for any other
    question and for one whose names no passage settles."""
    if not asks_precedence(question):
        return None
    key = (release.release_id, question)
    with _LOCK:
        if key in _SETTLED:           # the chat asks twice: to issue a model its sources, then to quote
            return _SETTLED[key]
    settled = _settling(question, hits, retriever, release, scores)
    with _LOCK:
        if len(_SETTLED) >= CACHED_QUESTIONS:
            _SETTLED.clear()
        _SETTLED[key] = settled
    return settled


def _settling(question: str, hits, retriever, release, scores) -> Precedence | None:
    found = Definitions.of(release)
    everywhere = max(EVERYWHERE_MIN, len(retriever.passage_ids) * EVERYWHERE_SHARE)
    named, rows = [], []
    for name in asked_names(question):
        readings = _readings(name, found, retriever)
        naming = rows_naming(retriever, readings) if readings else np.zeros(0, dtype=np.int32)
        # not the pages' own subject ("npm" in npm's docs); a flag the pages never give is still named by
        # "command line"
        if (len(naming) or _FLAG.match(name)) and len(naming) <= everywhere:
            named.append((name, readings))
            rows.append(naming[:MAX_CANDIDATES])
    if len(named) < MIN_NAMES:
        return None
    rows = np.unique(np.concatenate(rows))
    retrieved = {pid: n for n, pid in enumerate(pid for hit in hits for pid in hit.passage_ids)}
    cosines = scores.cos_passages if scores is not None else None
    best, best_key = None, None
    for row in rows:
        passage = release.passage(retriever.passage_ids[int(row)])
        if passage is None:
            continue
        outright = bool(_SETTLES_OUTRIGHT.search(passage.text))
        if not outright and not _SETTLES.search(passage.text):
            continue
        own, count = _names_held(passage, named, release)
        if count < MIN_NAMES:
            continue
        near = -float(cosines[retriever.passage_row[passage.id]]) if cosines is not None else 0.0
        key = (not outright, -own, -count, near, retrieved.get(passage.id, len(retrieved)), passage.page,
               passage.order)
        if best_key is None or key < best_key:
            best, best_key = passage, key
    return Precedence((best.id,)) if best is not None else None


def _readings(name: str, found, retriever) -> tuple:
    """A name's readings in the pages' words; a method on the asker's own variable ("res.setHeader") is also
    read by its method's name, when that is one nobody writes for anything else (setHeader, exit_code)."""
    own = readings_of(name, "", found, retriever)
    method = name.rsplit(".", 1)[-1].removesuffix("()") if "." in name.strip(".") else ""
    if _DISTINCT_METHOD.match(method):
        own = own + readings_of(method, "", found, retriever)
    return own


def _names_held(passage, named, release) -> tuple[int, int]:
    """How many of the question's names the passage gives in its own words, and how many in them, in the
    opening of its list item or paragraph ("stdio {Array|string} …" … "When this option is provided, it
    overrides silent.") or in its heading ("engine-strict" over "This can be overridden by setting the --force
    flag."). A flag is also named by "command line" in a text that names no flag: "Options from
    the command line take precedence over options passed through the NODE_OPTIONS environment variable." """
    opening = passage
    while (before := release.passage_at(passage.page, opening.order - 1)) is not None and before.block == passage.block:
        opening = before
    texts = [passage.text] + ([opening.text] if opening is not passage else []) + list(passage.headings[-1:])
    held = [[each_named(tokenize(text), text.casefold(), [readings]) or (
        _FLAG.match(name) is not None and _COMMAND_LINE.search(text) is not None and not _FLAG_IN_TEXT.search(text))
        for name, readings in named] for text in texts]
    return sum(held[0]), sum(any(column) for column in zip(*held))
