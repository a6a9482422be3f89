"""A page's slug: what it may hold, and the one a file's path gives it (pure).

Letters, marks and digits of any script stay ("入門", "установка", "über-uns"), so a folder
named in Japanese or Russian releases like one named in English; the URL path is the slug
percent-encoded (publishing/paths.py).
"""
from __future__ import annotations

import re
import unicodedata


def is_slug(slug: str) -> bool:
    """Is `slug` lowercase words of letters, marks, digits and "_.~-" (any script), separated by "/"?"""
    return slug == slug.lower() and all(
        part and unicodedata.category(part[0])[0] in "LN" and all(is_word_char(c) or c in "_.~-" for c in part)
        for part in slug.split("/"))


def is_word_char(character: str) -> bool:
    """A letter, a mark (the vowel signs of Devanagari or Thai) or a digit, of any script."""
    return unicodedata.category(character)[0] in "LMN"


def slug_of(stem: str) -> str:
    """The slug of a file's path without its suffix: each folder and the file's name in lower
    case, with every run of characters that are not letters, marks or digits (of any script) or
    "._~" made one "-"."""
    stem = unicodedata.normalize("NFC", stem)
    parts = [_slug_word(p.lower()) or "page" for p in stem.split("/")]
    parts = ["posts" if p == "_posts" else p for p in parts]       # Jekyll's posts
    if parts[-1] == "_index":          # Hugo: a section's own page
        parts[-1] = "index"
    if parts[-1] in ("index", "readme") and len(parts) > 1:
        parts.pop()
    if parts == ["readme"]:
        parts = ["index"]
    return "/".join(parts)


def _slug_word(name: str) -> str:
    kept = "".join(c if c in "_.~-" or is_word_char(c) else "\0" for c in name)
    return re.sub("\0+", "-", kept).strip("-")
