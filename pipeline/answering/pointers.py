"""Sentences that only point to another place ("See Streams for details."), and labels (pure).

Quoted, such a sentence tells the reader nothing: the offline answer quotes one only when nothing else
qualifies (trigsight.answering.offline), and a comparison never takes one for what a term is
(trigsight.answering.comparisons: "setImmediate is described in the timers section.").

A label is a paragraph of one word, the title of an admonition ("Note", "Warning", "Tip") or of a tab
("Bash", "Windows"): it names what follows and says nothing, so the offline answer never quotes one,
not even alone.
"""
from __future__ import annotations

import re

_POINTER = re.compile(r"(?i)^\s*(?:see|refer to|for (?:more|further|full|additional) (?:details|information)[^,.]*, see"
                      r"|(?:подробнее )?см\.|(?:this|it) (?:is|has been) (?:now )?(?:covered|described|documented"
                      r"|explained|discussed|moved) (?:in|on|to)|(?:this (?:page|section) )?has moved to)\s"
                      # "setImmediate is described in the timers section.", "The options are documented on the
                      # API reference page."
                      r"|^\s*(?:[\w.()$\'’-]+\s+){1,4}(?:is|are)\s+(?:now\s+)?(?:covered|described|documented"
                      r"|explained|discussed)\s+(?:in|on)\s+(?:the\s+)?(?:[\w.()$\'’-]+\s+){0,4}"
                      r"(?:section|page|chapter|documentation|docs|guide|reference)\W*$")
# A section of links to other pages ("See Also" closing each of npm's command pages) only points.
_POINTING_SECTION = re.compile(r"(?i)^\s*(?:see also|related(?: (?:pages|topics|links))?|further reading"
                               r"|см\. также|смотрите также|関連項目|関連ページ|참고 항목|같이 보기|관련 문서)\s*$")

_ONE_WORD = re.compile(r"[^\W\d_]+")


def is_label(passage) -> bool:
    """Is the passage a paragraph of one word, letters only ("Note", "Warning", "注意")?"""
    return passage.kind == "p" and bool(_ONE_WORD.fullmatch(passage.text))


def points_elsewhere(passage) -> bool:
    """Does the passage only point to another place: "See X for details.", "X is described in the Y
    section.", or an item of a "See also" section?"""
    return bool(_POINTER.match(passage.text)) or any(_POINTING_SECTION.match(h) for h in passage.headings[1:])
