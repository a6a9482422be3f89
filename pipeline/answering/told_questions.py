"""A question told with a story: the sentences that ask, apart from the ones that tell (pure).

Readers often say what happened before they ask: "Tab completion does nothing when I run my
tool as `python cli.py`. What does shell completion require?" The story's words dilute the
question's, and its own names ("cli.py", "CI") are ones no page writes, so the whole text can
find no passage likely enough to quote where its asking sentence alone finds the answer.

A sentence asks when it ends with a question mark; with none anywhere, the last one asks when it opens with
a question word or ends as a Japanese or Korean question does ("… keeps failing. how do I fix it").
`asked_sentences` gives those sentences when the rest only tells: it is the offline answer's
second reading, tried only when the whole text is refused (`offline.choose_told`). It gives
nothing when every sentence asks (two questions are answered together), when the asking ones
carry fewer than `MIN_TERMS` informative terms ("Is that a bug?" asks about the story), or when
the text names something no page mentions ("The API I scrape needs NTLM. How do I…?" is about
NTLM, which the pages lack, however well they answer the rest).
"""
from __future__ import annotations

import re

from ..matching.sentences import split_sentences
from .overlap import Overlap, terms

MIN_TERMS = 2
ENDS_ASKING = re.compile(r"[?？]\s*[\"'”’」』)）»]*\s*$")
# A last sentence that asks without a question mark: "… keeps failing. how do I fix it", "…ますか", "…나요"
_ASKS_UNMARKED = re.compile(r"(?i)^(?:how|what|why|which|who|where|when|can|could|should|does|do|is there|are there"
                            r"|как|что|почему|зачем|где|когда|как(?:ой|ая|ое|ие)|можно ли|есть ли|нужно ли)\b"
                            r"|(?:ですか|ますか|でしょうか|のか|かな|나요|까요|습니까|ㅂ니까|가요|는지)[。.]?\s*$")


def asked_sentences(question: str, overlap: Overlap) -> str:
    """The sentences of `question` that ask, when the others only tell; "" when there is no such reading."""
    text = " ".join(question.split())
    parts = [text[start:end].strip() for start, end in split_sentences(text)]
    asking = [part for part in parts if ENDS_ASKING.search(part)]
    if not asking and len(parts) > 1 and _ASKS_UNMARKED.search(parts[-1]):
        asking = parts[-1:]
    if not asking or len(asking) == len(parts):
        return ""
    asked = " ".join(asking)
    if len(terms(asked)) < MIN_TERMS or overlap.unknown_names(text):
        return ""
    return asked
