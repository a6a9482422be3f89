"""A follow-up question, read with the question it follows (pure).

"And on macOS?", "А на Linux?", "じゃあ process.chdir() は？" or "최대는요?" mean nothing alone: asked
alone, the offline answer quoted the nearest passage to "macOS" or to "Linux", with the confidence
of an answer. In a conversation (the page's script sends the turns so far), a question that reads as
a follow-up is retrieved and answered together with the reader's previous question
(`query`); any other question is read alone, so a new topic is not mixed with the last one.

A follow-up is told by its form, in the four languages of the brief: it is a few words long and names
nothing, or is brief and asks about a topic only ("…の場合は？", "…는요?") or points back ("that", "это",
"それ", "그런"). A question that opens as a continuation ("And …", "What about …", "А …", "じゃあ …",
"그럼 …") is one when what follows is short, brief and names nothing, or asks about a topic only or
points back; readers open new questions so too ("А как настроить webpack для сборки серверного кода на
Node.js?"), and such a question is read alone, without the word that only joins it to the talk.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Iterable

from . import small_talk
from .support import code_names

SHORT_WORDS = 4            # "What's the default?", "А в Windows?"
SHORT_CHARACTERS = 12      # in a script without spaces: "最大は？", "true로 하면요?"
BRIEF_WORDS = 8            # with a word that points back: "Can I raise that for every emitter at once?"
BRIEF_CHARACTERS = 24

_OPENS = re.compile(
    r"^(?:and|but|so|also|then|what about|how about|what if|why not|or|"
    r"а|и|но|тогда|ну|то есть|а если|а что|"
    r"じゃあ|じゃ|では|なら|それで|それなら|で、|あと|"
    r"그럼|그러면|그건|그게|그거|반대로|아예|그리고|그래서)(?![\w-])", re.IGNORECASE)
# Openers that only join a question to the talk, and say nothing of what it asks ("what if" does).
_JOINING = re.compile(r"^(?:and|but|so|also|then|or|а|и|но|тогда|ну|じゃあ|じゃ|それで|で|あと|그럼|그러면|그리고|그래서)"
                      r"[\s,、，]+", re.IGNORECASE)
_POINTS_BACK = re.compile(
    r"(?<![\w-])(?:it|its|that|they|them|"
    r"это|этого|этой|этим|этом|эти|этих|он|она|оно|они|его|её|ее|их|ему|ей|им|там|тут|такой|такое|так)(?![\w-])"
    r"|それ|その|そこ|そっち|これ|この|あれ|あの|그런|그렇|그거|그것|그걸|이거|이것|거기", re.IGNORECASE)
_TOPIC_ONLY = re.compile(r"(?:の場合は|の方は|では|は)\s*[？?]\s*$|(?:는요|은요|면요|건요|도요)\s*[？?]?\s*$")
_SPACED = re.compile(r"[^\W\d_]+")
_NUMBER = re.compile(r"\d")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


def continues(question: str) -> bool:
    """Does the question read as a follow-up of the one before it?"""
    text = unicodedata.normalize("NFKC", question).strip()
    opening = _OPENS.match(text)
    if opening:
        # "А на Linux?", "And what's the default?": an opener before a brief question, or one that points
        # back. Readers open new questions so too ("А как настроить webpack для сборки серверного кода?"):
        # a question that says all it asks about is read alone.
        rest = text[opening.end():]
        size, short, brief = _size(rest)
        back = bool(_TOPIC_ONLY.search(rest) or _POINTS_BACK.search(rest))
        return size <= short or (size <= brief and (back or not _names(rest))) or (size <= 2 * brief and back)
    size, short, brief = _size(text)
    # A short question is a follow-up unless it names what it asks about ("Что означает ошибка EMFILE?",
    # "What was fixed in 7.8.1?"); a topic-only ending or a word that points back makes one of a brief
    # question only: a long one says what it is about ("Zed エディタで…設定方法は？").
    return (size <= short and not _names(text)) or (size <= brief and bool(_TOPIC_ONLY.search(text)
                                                                    or _POINTS_BACK.search(text)))


def _names(text: str) -> bool:
    return bool(code_names(text) or _NUMBER.search(text))


def _size(text: str) -> tuple[int, int, int]:
    """(the question's size, the size of a short one, of a brief one): words, or in a script without
    spaces, characters."""
    if _UNSPACED.search(text):
        return len(re.sub(r"\s|[?？!！。、.,]", "", text)), SHORT_CHARACTERS, BRIEF_CHARACTERS
    return len(_SPACED.findall(text)), SHORT_WORDS, BRIEF_WORDS


def query(question: str, history: Iterable) -> str:
    """What retrieval and the answer read for `question` after `history` (turns with `role` and
    `content`): the reader's previous question and this one, when this one reads as a follow-up;
    else this one without a word that only joins it to the conversation ("And how…" is "how…")."""
    if not continues(question):
        return _JOINING.sub("", question.strip(), count=1) or question
    previous = next((asked for turn in reversed(tuple(history))
                     if turn.role == "user" and (asked := small_talk.strip(turn.content))), "")
    return f"{previous} {question}" if previous else question
