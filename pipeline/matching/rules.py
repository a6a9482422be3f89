"""The text-fragment matching rules, written down once (pure).

Python's text model (textmodel.py, directives.py) reads these tables directly; the in-page
probe (probe.js) receives them as JSON from `probe_rules()`, so the two cannot drift. What
JavaScript cannot express the same way (Python's `casefold`, Unicode combining classes) is
generated here from Python's own Unicode data.

The tables were measured in Chromium 156 (the referee), and tests/test_chromium_rules.py
asserts them against the browser, so a Chromium change shows up as a failing test.
DICTIONARY_SCRIPTS and RUN_SPACES stand in for ICU's word rules on the Python side (the
probe asks ICU itself); tests/test_matching_parity.py checks the two sides agree.
"""
from __future__ import annotations

import functools
import json
import unicodedata
from pathlib import Path

# ---- characters --------------------------------------------------------------------------

# CSS collapsible white space: outside `white-space: pre`, a run becomes one space, and a
# run at the start or end of a block disappears.
COLLAPSIBLE = " \t\n\r\f"
# Other spaces are not collapsed, but each one matches as a single space: two NBSPs
# need two spaces in the query. (U+000B and the line/paragraph separators U+2028/9 are not
# spaces to the matcher.)
SPACES = "\u00a0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f\u3000"
# Invisible characters the matcher skips ("x\u00ady" matches "xy"). The first two are also
# a word edge ("a" matches in "a\u00adb"); the others join the letters around them.
IGNORED_BREAKING = "\u00ad\u200b"
IGNORED_JOINING = "\u200c\u200d\u2060\ufeff"   # ZWNJ, ZWJ, word joiner, BOM
# Not modelled (we may count fewer matches than Chromium): the collation contraction of
# Catalan "l·" (col·lecció matches collecció, but a·b does not match ab), and ŀ.
IGNORED = IGNORED_BREAKING + IGNORED_JOINING
# Quotation marks that match the ASCII quote (primes, guillemets and backticks do not).
QUOTES = {**dict.fromkeys("\u2018\u2019\u201a\u201b\u05f3", "'"),
          **dict.fromkeys("\u201c\u201d\u201e\u201f\u301d\u301e\u301f\u05f4", '"')}
# Letters that match a base letter although Unicode does not decompose them (keys are
# lower case; applied after case folding). ŧ þ ŋ ə ƒ ı stay distinct.
LETTER_FOLDS = {"ł": "l", "ø": "o", "đ": "d", "ð": "d", "ħ": "h", "æ": "ae", "œ": "oe"}
# Letters Chromium keeps distinct although NFKD splits them into a base and a mark.
DISTINCT_LETTERS = "йЙ"
# Combining marks are dropped after NFKD (accents fold away), except the kana voicing
# marks: が does not match か, ぱ matches neither は nor ば.
KEPT_MARKS = "\u3099\u309a"
# Katakana match hiragana (ガッコウ matches がっこう): fold this range onto hiragana.
KATAKANA = (0x30A1, 0x30F6)
KATAKANA_TO_HIRAGANA = -0x60
# Known over-count, kept on purpose: half-width ｶﾞ is two characters to Chromium and does
# not match が; NFKD makes them equal here, which can only add matches.

# Spaces ICU's word rules keep together in one run (Word_Break=WSegSpace): no word edge
# between two of them. NBSP and the other no-break spaces are not among them.
RUN_SPACES = " \u1680" + "".join(map(chr, range(0x2000, 0x200B))).replace("\u2007", "") + "\u205f\u3000"

# Punctuation that joins the letters (or the digits) on either side into one word, so that
# "don't" or "3.5" has no word edge inside ("don" and "5" do not match there). Measured in
# Chromium 156 one character at a time; it is not quite ICU's table: "." and ":" never join
# letters ("fs.readFile": "readFile" matches), "," and ";" join only digits, and a letter
# next to a digit ("v1.x") or a Hangul letter ("한국'어") is not joined.
LETTER_JOINERS = "'\u00b7\u0387\u055f\u2027\ufe13\u2018\u2019\u2024\ufe52\uff07"
NUMBER_JOINERS = ("'.,;\u037e\u0589\u060c\u060d\u066c\u07f8\u2044\ufe50\ufe54\uff0c\uff1b"
                  "\u2018\u2019\u2024\ufe52\uff07\uff0e")
# Where the joiners above were measured (other letters keep the edge: we may count more).
JOINED_LETTER_SCRIPTS = (
    (0x0041, 0x024F),    # Latin (ASCII letters, Latin-1, Extended-A/B)
    (0x0370, 0x052F),    # Greek, Cyrillic
    (0x05D0, 0x05EA),    # Hebrew letters
    (0x1E00, 0x1FFF),    # Latin Extended Additional, Greek Extended
)
JOINED_DIGITS = ((0x0030, 0x0039), (0x0660, 0x0669), (0x06F0, 0x06F9), (0xFF10, 0xFF19))

# Scripts the browser splits into words with a dictionary (ICU): Python cannot, so it
# puts a word edge around every such character (this can only count more matches).
DICTIONARY_SCRIPTS = (
    (0x0E00, 0x0EFF),    # Thai, Lao
    (0x1000, 0x109F),    # Myanmar
    (0x1780, 0x17FF),    # Khmer
    (0x1980, 0x19DF),    # New Tai Lue
    (0x1A20, 0x1AAF),    # Tai Tham
    (0x2E80, 0x9FFF),    # CJK radicals, kana, CJK ideographs
    (0xA000, 0xA4CF),    # Yi
    (0xAA60, 0xAADF),    # Myanmar extended, Tai Viet
    (0xF900, 0xFAFF),    # CJK compatibility ideographs
    (0xFF66, 0xFF9F),    # half-width katakana
    (0x20000, 0x3FFFF),  # CJK extensions
)

# Hangul (syllables, jamo, compatibility jamo): a word of its own, joined to the Hangul next to it
# but never to a Latin, Cyrillic or digit neighbour ("API를" holds the word "API").
HANGUL = ((0x1100, 0x11FF), (0x3130, 0x318F), (0xA960, 0xA97F), (0xAC00, 0xD7FF))

# ---- elements ----------------------------------------------------------------------------

# Elements the browser lays out as blocks by default (Python has no computed style; the
# probe asks `getComputedStyle`). Each one is a matching unit of its own.
BLOCK_TAGS = frozenset("""
address article aside blockquote body caption center dd details dialog dir div dl dt
fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr html legend li
main menu nav ol p pre section summary table tbody td tfoot th thead tr ul
""".split())
# Inline-blocks by default: a block of their own to the matcher, whose text (a button's
# label) can be matched but never cited.
INLINE_BLOCK_TAGS = frozenset({"button"})
# Classes our own templates lay out as inline-block (citation chips, site/static/style.css).
INLINE_BLOCK_CLASSES = frozenset({"cite", "chip", "footnote-backref"})
# A closed <details> and an element with hidden=until-found: their hidden content can be matched
# (Chromium reveals it), but context from outside it skips it whole: a prefix in the summary
# reaches the text after the details, never the text it hides; so does a suffix. Context leaving
# it for the text after it works. content-visibility: hidden content is never matched. Measured
# in Chromium 156.
CLOSED_DETAILS_TAG = "details"
UNTIL_FOUND = "until-found"       # the value of `hidden` that hides content the browser still finds
# Atomic boxes: a break in the text, and no text of their own (a textarea's content, an
# input's value and a canvas's fallback are never matched).
ATOMIC_TAGS = frozenset({"input", "textarea", "canvas"})
# Skipped whole: no text, and text runs on across them when they are laid out inline.
SKIPPED_TAGS = frozenset("head script style template noscript title meta link img video audio "
                         "iframe object embed meter progress select".split())
# An <svg> is a break; only its <text> elements hold text, each a block of its own
# (<title> and <desc> are never matched).
SVG_TAG = "svg"
SVG_TEXT_TAG = "text"

# ---- directive syntax: text=[prefix-,]start[,end][,-suffix] -----------------------------

DIRECTIVE_START = "text="
DIRECTIVE_SEPARATOR = ","
PREFIX_MARK = "-"        # "prefix-," : the prefix ends with it
SUFFIX_MARK = "-"        # ",-suffix" : the suffix starts with it
# Characters that may not appear raw in any part (they must be percent-encoded); a part
# may not be empty, and percent-escapes must decode to UTF-8. Measured: "a-b-,y", "text=a,-",
# "text=%FF" and "text=50%" are all ignored by Chromium.
DIRECTIVE_FORBIDDEN = "-&"
DIRECTIVE_BAD_PERCENT = "%(?![0-9A-Fa-f]{2})"   # a regex in both Python's and JavaScript's syntax


# ---- derived from the tables above (shared by Python and the probe) ---------------------

SPACE_SET = frozenset(SPACES)
_UNICODE_PLANES = 0x20000    # combining marks and case pairs all live in planes 0 and 1


def is_stripped_mark(ch: str) -> bool:
    """A combining mark that folds away after NFKD (accents, Hebrew points, nukta)."""
    return unicodedata.combining(ch) != 0 and ch not in KEPT_MARKS


@functools.cache
def _stripped_mark_ranges() -> list[list[int]]:
    ranges: list[list[int]] = []
    for code in range(_UNICODE_PLANES):
        if is_stripped_mark(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
    return ranges


@functools.cache
def _casefold_exceptions() -> dict[str, str]:
    """Where Python's casefold differs from plain lower-casing (JavaScript has only the latter)."""
    table = {}
    for code in range(_UNICODE_PLANES):
        ch = chr(code)
        if 0xD800 <= code < 0xE000 or unicodedata.normalize("NFKD", ch) != ch:
            continue
        if ch.casefold() != ch.lower():
            table[ch] = ch.casefold()
    return table


def _class(ranges: list[list[int]]) -> str:
    """A JavaScript regex character class (for the `u` flag) from code point ranges."""
    part = lambda a, b: f"\\u{{{a:x}}}" if a == b else f"\\u{{{a:x}}}-\\u{{{b:x}}}"
    return "[" + "".join(part(a, b) for a, b in ranges) + "]"


@functools.cache
def probe_rules() -> dict:
    """Everything the in-page probe needs to match like the Python model, as JSON data."""
    return {
        "collapsible": COLLAPSIBLE,
        "spaces": SPACES,
        "ignoredBreaking": IGNORED_BREAKING,
        "ignoredJoining": IGNORED_JOINING,
        "quotes": QUOTES,
        "letterFolds": LETTER_FOLDS,
        "distinctLetters": DISTINCT_LETTERS,
        "strippedMarks": _class(_stripped_mark_ranges()),
        "casefold": _casefold_exceptions(),
        "katakana": list(KATAKANA),
        "katakanaToHiragana": KATAKANA_TO_HIRAGANA,
        "skippedTags": sorted(SKIPPED_TAGS),
        "atomicTags": sorted(ATOMIC_TAGS),
        "svgTag": SVG_TAG,
        "svgTextTag": SVG_TEXT_TAG,
        "closedDetailsTag": CLOSED_DETAILS_TAG,
        "untilFound": UNTIL_FOUND,
        "directive": {"start": DIRECTIVE_START, "separator": DIRECTIVE_SEPARATOR,
                      "prefixMark": PREFIX_MARK, "suffixMark": SUFFIX_MARK,
                      "forbidden": DIRECTIVE_FORBIDDEN, "badPercent": DIRECTIVE_BAD_PERCENT},
    }


def probe_rules_json() -> str:
    return json.dumps(probe_rules(), ensure_ascii=True, sort_keys=True)


@functools.cache
def probe_script() -> str:
    """The in-page probe, ready to inject: probe.js (logic only) called with these rules."""
    logic = (Path(__file__).with_name("probe.js")).read_text("utf-8").strip()
    return f"({logic})({probe_rules_json()});\n"
