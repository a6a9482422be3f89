"""The sentence a quote leans on, and the one that finishes its thought (pure).

A page often says a thing in two sentences that only make sense together: "On Windows,
setting priority to PRIORITY_HIGHEST requires elevated user privileges. Otherwise the set
priority will be silently reduced to PRIORITY_HIGH." Quoted alone, the first tells half of
the answer, and "Otherwise …" or "This means …" alone tells nothing. A sentence that opens
with a word that ties it to the sentence before ("Otherwise", "Therefore", "However",
"This means", "Поэтому", "そのため", "따라서") is therefore shown with that sentence: after a
quote, when it comes next in the quote's paragraph, and before a quote that opens so.
A sentence that leads into something not quoted ("…might look like this:") is not added.
"""
from __future__ import annotations

import re

CONTINUES = re.compile(
    r"^\s*(?:Otherwise|Therefore|Thus|Hence|Consequently|As a result|Instead|In that case|In this case|"
    r"If so|If not|This means|That means|In other words|However|But|Conversely|For this reason|"
    r"Because of this|"
    r"Иначе|Поэтому|Следовательно|Таким образом|Однако|Но|В этом случае|В таком случае|Вместо этого|"
    r"Это значит|Это означает|То есть|"
    r"そのため|したがって|しかし|ただし|それ以外の場合|そうでない場合|つまり|その場合|このため|代わりに|"
    r"따라서|그러므로|그러나|하지만|그렇지 않으면|즉|이 경우|그 경우|대신)(?![\w-])")
_LEADS_ON = re.compile(r"[:：]\s*$")


def continues(text: str) -> bool:
    """Does the sentence open with a word that ties it to the sentence before it?"""
    return bool(CONTINUES.match(text))


def leaned_on(passage, release):
    """The sentence before `passage` in its paragraph, when `passage` continues it; else None."""
    before = release.passage_at(passage.page, passage.order - 1) if continues(passage.text) else None
    return before if before is not None and before.block == passage.block else None


def finishing(passage, release):
    """The next sentence of `passage`'s paragraph, when it continues `passage`; else None."""
    after = release.passage_at(passage.page, passage.order + 1)
    if after is None or after.block != passage.block or not continues(after.text) or _LEADS_ON.search(after.text):
        return None
    return after


def together(passage, release) -> list:
    """`passage` with the sentence it leans on before it and the one that finishes it after it."""
    return [p for p in (leaned_on(passage, release), passage, finishing(passage, release)) if p is not None]
