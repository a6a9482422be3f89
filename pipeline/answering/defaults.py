"""Default-value questions ("What is the default value of maxHeaderSize?"): what a setting is when unset.

Reference pages give a setting's default beside the setting, not in a sentence that repeats the
question: "maxHeaderSize {number} Optionally overrides…" and then "Default: 16384 (16 KiB)." in the
same list item; "#### `save-exact`" and then "Default: false"; a table row whose "Default" cell says
`False`; "line_length: Number of characters (integer, default 80)". A bare "Default: false." means
nothing without the setting it follows, and retrieval, which weighs each sentence alone, cannot tell
one "Default: false." from another.

So a default question is read for its setting (trigsight.answering.default_terms), named in the pages'
words (trigsight.answering.term_places), and answered (`defaulting`) by a place that names the
setting with the sentence that gives its default:
1. its entry in a list (a list item that opens with its name), with the default the item gives;
2. a section its name heads, with the first sentence of the section that gives a default;
3. a table row whose first cell is its name, with the cell under a "Default" heading;
4. a paragraph that names it among its first words, with a later sentence of it that says what it is
   by default ("All listen() methods can take a backlog parameter…" … "The default value of this
   parameter is 511.").
A sentence elsewhere that names it and a default is no place: "Specifies the built-in default cipher
list used by Node.js." does not say what Node.js is by default. Of several places (a keepAlive option
on each of a page's constructors), the one whose page and headings share the most of the question's
owners ("http.Agent"), then of its other words, then one of the first three kinds, then the one
nearest the question in meaning, then the earliest retrieved.

Refused: a single name in Latin letters or code that the pages never give, the setting or its owner;
and a setting named as code whose own entry or section gives no default ("assertionStyle", whose
section says what each style does and never which is the default). Any other setting none of these
places give a default for is answered as any other question is: its default may be put otherwise
("By default, Black will infer target versions from…").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..retrieval.chunks import HEADING_KINDS, TABLE_CELLS
from ..retrieval.tokenize import tokenize
from .asked_terms import QUOTES
from .default_terms import default_of
from .definitions import heading_names, says_something
from .term_places import LATIN_NAME, MAX_CANDIDATES, headings, look_up, named

MAX_QUOTES = 3
BESIDE, IN_PARAGRAPH = 0, 1     # how close to the setting's name its default is given
SECTION_SPAN = 12          # passages of a section read for its default, at most
# Beside the setting, any mention of a default gives it ("Default: false", "(integer, default 80)").
_GIVES_DEFAULT = re.compile(r"(?i)\bdefault(?:s|ed)?\b|по\s+умолчанию|デフォルト|既定|初期値|기본값|기본적으로|기본으로"
                            r"|기본\s*설정")
# Elsewhere, only a sentence that says what something is by default does.
_SAYS_DEFAULT = re.compile(r"(?i)\bby\s+default\b|\bdefaults?\s+(?:to|is|of)\b|\bis\s+the\s+default\b"
                           r"|\bdefault\s+(?:value|setting)s?\s+(?:of\s+[^.]{1,40}?\s+)?(?:is|are)\b"
                           r"|\(\s*(?:the\s+)?default\s*\)|^\W*default\s*:|по\s+умолчанию|デフォルト|既定|기본값|기본적으로")
_LABELLED_DEFAULT = re.compile(r"(?i)^\W*(?:default(?:\s+value)?|по\s+умолчанию|デフォルト値?|既定値?|기본값)\s*[:：]")
# "(integer, default 80)", "Default: false": a default with its value.
_DEFAULT_VALUE = re.compile(r"(?i)\bdefault(?:s\s+to|\s+is|\s+value\s+is)?\s*[:=]?\s*[`'\"(]?(?:-?\d|true\b|false\b|null\b"
                            r"|none\b|undefined\b|[`'\"\[])|[(,;]\s*default\s+[^\s,;)]+")
# "baselevel: Base level…", "line_length — …": a name that labels what follows.
_LABELLED = re.compile(r"^\s*(?:\([^()]*\))?\s*[:{—–]|^\s+-\s")
# "customInspect {boolean} If false, …(depth, …)" is customInspect's entry, not a paragraph about depth.
_ENTRY = re.compile(r"^[\W_]{0,3}[\w.$-]+[`'\"]?\s*(?:\{[^{}]*\}|:\s)")
# A line that is one name alone: "TESTING", "`save-exact`", "fs.mkdir()".
_NAME_ALONE = re.compile(r"^[`'\"]?[\w.$:/@-]+(?:\([^()]*\))?[`'\"]?$")
EARLY_WORDS = 8            # a paragraph names the setting it is about among its first words
_DEFAULT_COLUMN = re.compile(r"(?i)^\W*(?:default(?:\s+value)?|по\s+умолчанию|デフォルト値?|既定値?|기본값)\W*$")


@dataclass(frozen=True)
class Default:
    passage_ids: tuple[str, ...]     # quoted in this order; none when the setting is nowhere in the pages


@dataclass(frozen=True)
class _Place:
    naming: object                   # the passage that names the setting
    giving: object                   # the passage that gives its default (maybe the same; None: no default given)
    beside: int                      # BESIDE (an entry, section or row) or IN_PARAGRAPH


def defaulting(question: str, hits, retriever, release, scores=None) -> Default | None:
    """What answers a default question (see the module docstring): its quotes; none (a refusal) for a name the
    pages never give or a code name whose own place gives no default; None for any other question and any
    other setting no place gives a default for."""
    asked = default_of(question)
    if asked is None:
        return None
    looked = look_up(asked.term, asked.owners, question, retriever, release)
    if looked is None:
        return None
    if looked.never_given:
        return Default(())              # a name the pages never give: they cannot say its default
    readings, rows = looked.readings, looked.rows
    pages = list(dict.fromkeys(hit.page for hit in hits))
    candidates = [release.passage(retriever.passage_ids[int(row)]) for row in rows[:MAX_CANDIDATES]]
    written = _written(asked.term)
    places = (_entries(candidates, written, readings, release)
              + _sections(QUOTES.sub("", asked.term).strip(), readings, written, asked.named, candidates, release)
              + _table_rows(candidates, written, release))
    order = _by_question(asked.owners, question, pages, retriever, release, scores)
    best = min((place for place in places if place.giving is not None), key=order, default=None)
    silent = min((place for place in places if place.giving is None), key=order, default=None)
    if best is None or (silent is not None and order(silent)[0] < order(best)[0]):
        # the setting's own entry or section gives no default, or does under the owner asked about (no-unresolved's
        # "ignore" option) while the one that does is another's (import/order's "ignore" value): for a name written
        # as code, the pages do not say it; any other may be told otherwise ("By default, Black will infer…")
        return Default(()) if asked.named and silent is not None else None
    return Default(tuple(p.id for p in _quoted(best, release)))


def _written(term: str) -> re.Pattern:
    """The setting's name at the start of a text, as written ("`--line-length`: …", "keepAlive {boolean}…")."""
    bare = QUOTES.sub("", term).strip().casefold().removesuffix("()")
    name = re.escape(bare) if LATIN_NAME.match(bare) else r"\s*".join(map(re.escape, bare.split()))
    return re.compile(r"^[\W_]{0,3}(?:--?)?" + name + r"(?:\(\))?(?![\w-]|\.\w)", re.IGNORECASE)


def _entries(candidates, written: re.Pattern, readings, release) -> list[_Place]:
    """The list items that open with the setting's name ("keepAliveMsecs {number} …", a paragraph "baselevel: …"),
    each with the sentence of the item giving its default; and a paragraph that opens by naming it ("The
    tab_length keyword sets…"), with a later sentence of it that says what it is by default."""
    places = []
    for passage in candidates:
        before = release.passage_at(passage.page, passage.order - 1)
        opens = before is None or before.block != passage.block
        entry = written.match(passage.text) and (passage.kind == "li" or _LABELLED.match(_after_name(passage.text, written)))
        early = not _ENTRY.match(passage.text) and named(" ".join(passage.text.split()[:EARLY_WORDS]), readings)
        if passage.kind in HEADING_KINDS or passage.kind in TABLE_CELLS or not opens or not (entry or early):
            continue
        item = _rest_of_block(passage, release)
        if entry:
            after = _after_name(passage.text, written)
            own = _DEFAULT_VALUE.search(after) or _SAYS_DEFAULT.search(after)
            places.append(_Place(passage, passage if own else _giving(item), BESIDE))
        elif (giving := next((p for p in item if _SAYS_DEFAULT.search(p.text)), None)) is not None:
            places.append(_Place(passage, giving, IN_PARAGRAPH))
    return places


def _rest_of_block(passage, release) -> list:
    """The sentences after `passage` in its block (its list item or paragraph)."""
    rest, order = [], passage.order + 1
    while (sentence := release.passage_at(passage.page, order)) is not None and sentence.block == passage.block:
        rest.append(sentence)
        order += 1
    return rest


def _after_name(text: str, written: re.Pattern) -> str:
    return text[written.match(text).end():] if written.match(text) else text


def _sections(term: str, readings, written: re.Pattern, code: bool, candidates, release) -> list[_Place]:
    """The sections the setting's name heads, and the runs a line of its name alone opens (a Sphinx
    "TESTING" then "Enable testing mode." … "Default: False"), each with its first sentence that says something
    and the sentence giving its default: one that says what it is by default, else one that mentions a
    default. A name written as code heads a section only as written ("TESTING" is not "Testing")."""
    names = {frozenset(reading) for reading in readings}
    places = []
    cased = re.compile(r"(?<![\w-])" + re.escape(term) + r"(?![\w-])")
    openers = [heading for _, _, heading in headings(release)
               if (names & heading_names(heading.text) and (not code or cased.search(heading.text)))
               or any(_heads(written, part) for part in heading.text.split(", "))]
    openers += [p for p in candidates if p.kind not in HEADING_KINDS | TABLE_CELLS and _NAME_ALONE.match(p.text)
                and (found := written.match(p.text)) and not p.text[found.end():].strip("`'\"() ")]
    for heading in openers:
        section = []
        for order in range(heading.order + 1, heading.order + 1 + SECTION_SPAN):
            passage = release.passage_at(heading.page, order)
            if passage is None or passage.kind in HEADING_KINDS or (
                    heading.kind not in HEADING_KINDS and _NAME_ALONE.match(passage.text)):   # the next name line
                break
            section.append(passage)
        giving = _giving(section)
        # the name line itself; or not the default's own sentences ("Default: In global mode, …" "Otherwise, …")
        lead = heading if heading.kind not in HEADING_KINDS else next(
            (p for p in section if not (giving and p.block == giving.block and p.order >= giving.order)
             and p.kind not in TABLE_CELLS and says_something(p.text)), giving or heading)
        places.append(_Place(lead, giving, BESIDE))
    return places


def _heads(written: re.Pattern, heading: str) -> bool:
    """Is the heading the setting's name, with its arguments or a title at most ("`save-exact`", "fs.mkdir(path)",
    "MD013 - Line length"), rather than a title that opens with it ("Node.js crypto constants")?"""
    found = written.match(heading)
    return bool(found) and (not heading[found.end():].strip() or heading[found.end():].strip()[0] in "([:-–—`'\"")


def _giving(passages: list):
    """The first of `passages` labelled as the default ("Default: None"), else the first that says what something
    is by default, else the first that mentions a default ("Each request defaults to this config." is no label)."""
    return (next((p for p in passages if _LABELLED_DEFAULT.match(p.text)), None)
            or next((p for p in passages if _SAYS_DEFAULT.search(p.text)), None)
            or next((p for p in passages if _GIVES_DEFAULT.search(p.text)), None))


def _table_rows(candidates, written: re.Pattern, release) -> list[_Place]:
    """The table rows whose first cell is the setting's name, each with its cell under a "Default" heading."""
    places = []
    for cell in candidates:
        if cell.kind != "td" or not written.match(cell.text) or len(cell.text.split()) > 3:
            continue
        row, header = _row(cell, release)
        if not row or row[0][0] is not cell:
            continue
        column = next((n for n, head in enumerate(header) if _DEFAULT_COLUMN.match(" ".join(p.text for p in head))), None)
        if column is not None and column < len(row):
            places.append(_Place(cell, row[column][0], BESIDE))
    return places


def _row(cell, release) -> tuple[list[list], list[list]]:
    """The cells of `cell`'s table row and of its table's header row, each a cell's passages."""
    row = _cells(cell, "td", release)
    above = release.passage_at(cell.page, row[0][0].order - 1)
    while above is not None and above.kind == "td":                    # the rows between, up to the header
        above = release.passage_at(cell.page, above.order - 1)
    return row, (_cells(above, "th", release) if above is not None and above.kind == "th" else [])


def _cells(passage, kind: str, release) -> list[list]:
    """The cells of the row `passage` is in. Cells are consecutive blocks, and a row element takes a block of
    its own, so a gap in block numbers ends a row."""
    while (previous := release.passage_at(passage.page, passage.order - 1)) is not None and previous.kind == kind \
            and passage.block - previous.block <= 1:
        passage = previous
    cells: list[list] = []
    while passage is not None and passage.kind == kind and (not cells or passage.block - cells[-1][-1].block <= 1):
        if cells and passage.block == cells[-1][-1].block:
            cells[-1].append(passage)
        else:
            cells.append([passage])
        passage = release.passage_at(passage.page, passage.order + 1)
    return cells


def _by_question(owners, question: str, pages: list[str], retriever, release, scores):
    """The order of the places: by the question's owners in their page's title and headings, its other words
    there, a place beside the setting before a paragraph, meaning, page."""
    owned = {t for owner in owners for t in tokenize(owner)}
    words = set(tokenize(question)) - owned
    rank = {page: n for n, page in enumerate(pages)}
    cosines = scores.cos_passages if scores is not None else None
    titles = {page.path: page.title for page in release.pages}

    def place(found: _Place):
        passage = found.naming
        around = {t for h in (titles.get(passage.page, ""), passage.page, *passage.headings) for t in tokenize(h)}
        row = retriever.passage_row.get((found.giving or found.naming).id) if cosines is not None else None
        near = -float(cosines[row]) if row is not None else 0.0
        return (-len(owned & around), -len(words & around), found.beside, near,
                rank.get(passage.page, len(rank)), passage.page, passage.order)

    return place


def _quoted(place: _Place, release) -> list:
    """The naming passage and the default, with the rest of the default's sentence block ("Default: In global
    mode, …" "Otherwise, …") and what comes between, in page order, MAX_QUOTES at most; of a table row, the
    name and the default cell alone."""
    naming, giving = place.naming, place.giving
    if naming.kind in TABLE_CELLS:
        return [naming, giving] if naming is not giving else [naming]
    low, high = sorted((naming.order, giving.order))
    between = [p for p in (release.passage_at(giving.page, o) for o in range(low + 1, high)) if p is not None]
    chosen = list(dict.fromkeys([naming, giving, *_rest_of_block(giving, release), *between]))
    return sorted(chosen[:MAX_QUOTES], key=lambda p: p.order)
