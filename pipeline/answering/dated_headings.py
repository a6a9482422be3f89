"""The heading that dates a release, for a question asking when that version came out (pure).

A changelog dates each release in its heading ("7.8.0 (2022-12-15)"), and nowhere else: no
sentence under it says when it came out, and headings are not quoted otherwise, so the offline
answer quotes that heading before anything else (`offline.choose`).
"""
from __future__ import annotations

import re

from ..retrieval.chunks import HEADING_KINDS
from .relevance import versions_in

# A question asking when a release came out: a word for "when" and one for "released", or "release date"
# ("When did Python-Markdown drop support for Python 3.8?" asks when, but not when 3.8 came out).
_WHEN = re.compile(r"(?i)\bwhen\b|\bwhat (?:day|date)\b|когда|いつ|언제|\bwann\b|\bquand\b|\bcuándo\b|\bquando\b"
                   r"|什么时候|何时")
_RELEASED = re.compile(r"(?i)\b(?:released?|published|shipped|tagged|c[oa]me out|out)\b|リリース|公開|出た|출시|릴리스|나오|나왔"
                       r"|вышл|вышел|выпущ|релиз|veröffentlicht|erschien|sorti|publié|lanz|sali[óo]|lançad|publicad|发布")
_RELEASE_DATE = re.compile(r"(?i)\b(?:release|publication) date\b|\bdate of (?:the )?release\b|リリース日|출시일|дата (?:выхода|релиза)")
_DATE = re.compile(r"\b\d{4}[-/.]\d{1,2}[-/.]\d{1,2}\b|\b\d{1,2}[-/.]\d{1,2}[-/.]\d{4}\b"
                   r"|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2},? \d{4}\b"
                   r"|\b\d{1,2} (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* \d{4}\b", re.IGNORECASE)


def dated_heading(question: str, hits, release):
    """The heading that dates the version a "when was it released?" question names, or None.

    A changelog dates each release in its heading ("7.8.0 (2022-12-15)"), and nowhere else: no
    sentence under it says when it came out, and headings are not quoted otherwise. Only a
    heading of a retrieved page that names the asked version and gives a date qualifies."""
    versions = versions_in(question)
    if not versions or not (_RELEASE_DATE.search(question) or (_WHEN.search(question) and _RELEASED.search(question))):
        return None
    pages = {page: rank for rank, page in enumerate(dict.fromkeys(hit.page for hit in hits))}
    dating = [p for p in release.passages if p.page in pages and p.kind in HEADING_KINDS
              and versions & versions_in(p.text) and _DATE.search(p.text)]
    return min(dating, key=lambda p: (pages[p.page], p.order), default=None)
