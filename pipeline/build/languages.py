"""Which language a page is written in, told by its script when its front matter does not (pure).

A translated docs folder (FastAPI's docs/ja, docs/ko) rarely names its language on every page;
without this its pages were served as `<html lang="en">` and an answer quoting them to an
English question never said the quotes were in Japanese. Only a script tells a language
apart without a dictionary, so a page is read as Japanese, Korean, Chinese, Russian (or
Ukrainian), Arabic (or Persian or Urdu), Hebrew, Thai, Greek, Armenian, Georgian, Hindi (or
Marathi or Nepali, by their commonest words), Bengali (or Assamese), one of the other scripts
of India, Sri Lanka and South-East Asia, or Amharic when that script carries at least `SHARE`
of its prose letters; the right-to-left ones get their direction from that tag. A page in Latin
letters whose function words clearly are one language's (at least `LATIN_WORDS` of them, more
than twice English's, or for English more than twice the next language's: trigsight.languages)
takes that language (en, de, fr, es, pt, it, nl, pl, tr), so English pages on a German site are
served as English; any other keeps the site's language (TRIGSIGHT_LANGUAGE), as does a page in
the site's language (pt-BR stays pt-BR).

Code (fenced and inline), HTML tags, link targets and URLs are not prose, and a Japanese
character says about as much as three Latin letters, a Hangul syllable as two: the weights
below keep a Japanese page full of English API names Japanese.
"""
from __future__ import annotations

import re

from .. import languages

SHARE = 0.3
LATIN_WORDS = 10

_FENCED = re.compile(r"^ {0,3}(`{3,}|~{3,})[^\n]*\n.*?^ {0,3}\1[ \t]*$", re.S | re.M)
_NOT_PROSE = re.compile(r"`[^`\n]*`|<[^>\n]*>|\]\([^)\n]*\)|https?://\S+")
_SCRIPTS = (("ko", re.compile(r"[\uac00-\ud7af]"), 2),
            ("ja", re.compile(r"[\u3040-\u30ff\u3400-\u9fff]"), 3),
            ("ru", re.compile(r"[\u0400-\u04ff]"), 1),
            ("ar", re.compile(r"[\u0620-\u064a\u066e-\u06d3]"), 1),    # letters, not marks or digits
            ("he", re.compile(r"[\u05d0-\u05ea]"), 1),
            ("th", re.compile(r"[\u0e01-\u0e30\u0e32\u0e33\u0e40-\u0e46]"), 1),
            # Scripts one documentation language writes (Devanagari and Bengali split below); a
            # vowel sign counts as a letter, as in Latin words.
            *((tag, re.compile(f"[{letters}]"), 1) for tag, letters in (
                ("el", "\u0370-\u03ff\u1f00-\u1fff"), ("hy", "\u0531-\u0587"), ("ka", "\u10a0-\u10ff"),
                ("hi", "\u0900-\u0963\u0966-\u097f"), ("bn", "\u0980-\u09ff"), ("pa", "\u0a00-\u0a7f"),
                ("gu", "\u0a80-\u0aff"), ("or", "\u0b00-\u0b7f"), ("ta", "\u0b80-\u0bff"),
                ("te", "\u0c00-\u0c7f"), ("kn", "\u0c80-\u0cff"), ("ml", "\u0d00-\u0d7f"),
                ("si", "\u0d80-\u0dff"), ("lo", "\u0e80-\u0eff"), ("my", "\u1000-\u109f"),
                ("km", "\u1780-\u17ff"), ("am", "\u1200-\u137f"))))
_LATIN = re.compile(r"[A-Za-z\u00c0-\u024f]")
# Hindi, Marathi and Nepali share Devanagari; their commonest function words tell them apart
# (Hindi's है "is", Marathi's आहे, Nepali's छ). Assamese writes in Bengali letters plus ৰ and ৱ.
_DEVANAGARI_WORDS = {"hi": frozenset("है हैं और में नहीं का की के से यह".split()),
                     "mr": frozenset("आहे आहेत आणि मध्ये नाही हे करा किंवा".split()),
                     "ne": frozenset("छ छन् र मा गर्न हुन्छ भएको पनि गर्नुहोस्".split())}
_DEVANAGARI_PUNCTUATION = re.compile(r"[\s\u0964\u0965.,;:!?()\"'“”]+")
_ASSAMESE = re.compile(r"[\u09f0\u09f1]")


def written_in(body: str) -> str:
    """The language tag of a page's markdown body when its script or, in Latin letters, its function
    words tell it ("ja", "ko", "zh", "ru", "uk", "en", "de", "fr" …), else "" (too little prose)."""
    prose = _NOT_PROSE.sub(" ", _FENCED.sub(" ", body))
    weights = {name: len(pattern.findall(prose)) * weight for name, pattern, weight in _SCRIPTS}
    total = sum(weights.values()) + len(_LATIN.findall(prose))
    name, weight = max(weights.items(), key=lambda item: item[1])
    if not weight or weight < SHARE * total:
        return _latin(prose)
    if name == "ja" and not languages.KANA.search(prose):
        return "zh"          # Han without kana
    if name == "ru" and languages.UKRAINIAN.search(prose):
        return "uk"
    if name == "ar":
        return languages.arabic_script_language(prose)
    if name == "hi":
        return _devanagari_language(prose)
    if name == "bn":
        return "as" if _ASSAMESE.search(prose) else "bn"
    return name


def _devanagari_language(prose: str) -> str:
    """Hindi, Marathi or Nepali: the one whose function words the prose uses most (Hindi on a tie)."""
    words = _DEVANAGARI_PUNCTUATION.split(prose)
    counts = {language: sum(word in telling for word in words) for language, telling in _DEVANAGARI_WORDS.items()}
    return max(counts, key=lambda language: (counts[language], language == "hi"))


def _latin(prose: str) -> str:
    """The Latin-script language whose function words the prose clearly uses (at least
    `LATIN_WORDS`; another language than English more than twice as many as English's, English
    more than twice as many as the next's), else ""."""
    counts = languages.latin_counts(prose)
    english = counts.pop("en")
    best = max(counts, key=lambda language: counts[language])
    if counts[best] >= LATIN_WORDS and counts[best] > 2 * english:
        return best
    return "en" if english >= LATIN_WORDS and english > 2 * counts[best] else ""


def page_language(body: str, site_language: str) -> str:
    """The language a page without one in its front matter is served in: the one its prose tells,
    or the site's (TRIGSIGHT_LANGUAGE), which also stands when the prose tells the same language
    (pt-BR stays pt-BR when the prose reads Portuguese)."""
    told = written_in(body)
    if not told or told == site_language.split("-")[0].casefold():
        return site_language
    return told
