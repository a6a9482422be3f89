"""Where reference pages state one fact of a named thing beside it (pure but for the index's lookups).

A setting's default and a function's return value are given the same way: beside the name, not in a
sentence that repeats the question. "maxHeaderSize {number} Optionally overrides…" is followed by
"Default: 16384 (16 KiB)." in its list item; "#### fs.readFileSync(path[, options])" by "Returns:
{string|Buffer}" and "Returns the contents of the path."; a table row by its "Default" cell. A bare
"Default: false." or "Returns: {string}" means nothing without the name it follows, and retrieval,
which weighs each sentence alone, cannot tell one from another.

A `Fact` says how the pages state one kind of fact (a label, a sentence that says it, a word that
mentions it, a table column). `places` finds, for a name, each place that names it with the passage
stating the fact there (None where the place is silent):
1. its entry in a list (a list item, or a labelled paragraph, that opens with its name), with the
   fact the item gives;
2. a section its name heads, or the run a line of its name alone opens (Sphinx), with the first
   sentence of it that states the fact;
3. a table row whose first cell is its name, with the cell under the fact's column;
4. a paragraph that names it among its first words, with a sentence of it that says the fact.
`by_question` orders them, and `quoted` picks what an answer quotes from the best one. A label alone (a
Sphinx field list's "returns", "Returns:" over a table) is quoted by the value after it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..retrieval.chunks import HEADING_KINDS, TABLE_CELLS
from ..retrieval.tokenize import tokenize
from .asked_terms import QUOTES
from .definitions import heading_names, says_something
from .relevance import leads_in
from .term_places import LATIN_NAME, headings, named

MAX_QUOTES = 3
LIST_READ = 40                 # items of one list read as one passage of a section
BESIDE, IN_PARAGRAPH = 0, 1     # how close to the name its fact is given
EARLY_WORDS = 8                 # a paragraph names the thing it is about among its first words
# "baselevel: Base level…", "line_length — …": a name that labels what follows.
_LABELLED = re.compile(r"^\s*(?:\([^()]*\))?\s*[:{—–]|^\s+-\s")
# "customInspect {boolean} If false, …(depth, …)" is customInspect's entry, not a paragraph about depth.
_ENTRY = re.compile(r"^[\W_]{0,3}[\w.$-]+[`'\"]?\s*(?:\{[^{}]*\}|:\s)")
# A line that is one name alone: "TESTING", "`save-exact`", "fs.mkdir()".
_OF_IT = re.compile(r"(?i)^\W*(?:(?:it|this(?:\s+(?:method|function|call))?|the\s+(?:method|function|call))\s+)?"
                    r"(?:(?:also|then|always|only|now|instead|still|will|should|must|may|can)\s+)*"
                    r"(?:returns?|resolves?|fulfils?|fulfills?)\b")
_ARGUMENTS = re.compile(r"(?:\([^()]*\))?")     # "()", "(name, context=None)" after a name line's name
_OTHER_FIELD = re.compile(r"^[A-Z][A-Za-z]{1,15}(?: [a-z]+)?:\s+[^.]{1,60}$")   # "Type: str", "Added in: v0.3"
# a name line ("HttpRequest.get_full_path()", "TESTING", "node:fs"); a label ("Parameters:", "Default:") is none
_NAME_ALONE = re.compile(r"^[`'\"]?[\w.$:/@-]*[\w.$/@-](?:\([^()]*\))?[`'\"]?$")
# a command-line option's name line, its forms with their value's name (Sphinx's ".. option:: -o PATH, --output PATH")
_OPTION_FORM = r"-{1,2}\w[\w-]*(?:[ =][A-Z][A-Z0-9_.]*)?"
_OPTION_LINE = re.compile(rf"^{_OPTION_FORM}(?:,\s*{_OPTION_FORM})*$")


@dataclass(frozen=True)
class Fact:
    """How the pages state one kind of fact about a name."""
    labelled: re.Pattern     # a passage labelled as the fact ("Default: false", "Returns: {string}")
    says: re.Pattern         # a sentence that says the fact ("defaults to", "returns")
    mentions: re.Pattern     # beside the name, any mention of it states it ("(integer, default 80)")
    own: re.Pattern          # the fact inside an entry's own text, after the name
    column: re.Pattern | None = None    # a table's heading cell over the fact
    section_span: int = 12              # passages of a section read for the fact, at most (a list counting as one)
    naming_says: bool = False           # a paragraph naming the thing may itself say the fact
    # An API section lists its parameters before its "Returns:" line: its lead is a paragraph, not a parameter,
    # and what follows the fact in the section says more of it ("If the encoding option is specified then this
    # function returns a string.") than the parameters between.
    api: bool = False
    # A passage that is the label alone ("returns" of a field list, "Returns:" over a table), its value after it.
    bare: re.Pattern | None = None
    # In a section its name opens, a sentence that opens by saying what holds without it ("If not provided, …").
    unstated: re.Pattern | None = None


@dataclass(frozen=True)
class Place:
    naming: object                   # the passage that names the thing
    giving: object                   # the passage that states the fact (maybe the same; None: the place is silent)
    beside: int                      # BESIDE (an entry, section or row) or IN_PARAGRAPH
    opener: object = None            # the heading or name line that opens a section place


def places(fact: Fact, term: str, readings, code: bool, candidates, release) -> list[Place]:
    """Every place naming `term` (see the module docstring); `code`: the name is written as code."""
    written = written_at_start(term)
    return (_entries(fact, candidates, written, readings, release)
            + _sections(fact, QUOTES.sub("", term).strip(), readings, written, code, candidates, release)
            + _table_rows(fact, candidates, written, release))


def written_at_start(term: str) -> re.Pattern:
    """The name at the start of a text, as written ("`--line-length`: …", "keepAlive {boolean}…")."""
    bare = QUOTES.sub("", term).strip().casefold().removesuffix("()")
    name = re.escape(bare) if LATIN_NAME.match(bare) else r"\s*".join(map(re.escape, bare.split()))
    return re.compile(r"^[\W_]{0,3}(?:--?)?" + name + r"(?:\(\))?(?![\w-]|\.\w)", re.IGNORECASE)


def _entries(fact: Fact, candidates, written: re.Pattern, readings, release) -> list[Place]:
    """The list items that open with the name ("keepAliveMsecs {number} …", a paragraph "baselevel: …"), each
    with the sentence of the item stating the fact; and a paragraph that opens by naming it ("The tab_length
    keyword sets…"), with a sentence of it that says the fact."""
    found = []
    for passage in candidates:
        before = release.passage_at(passage.page, passage.order - 1)
        opens = before is None or before.block != passage.block
        entry = written.match(passage.text) and (passage.kind == "li" or _LABELLED.match(_after_name(passage.text, written)))
        early = not _ENTRY.match(passage.text) and named(" ".join(passage.text.split()[:EARLY_WORDS]), readings)
        if passage.kind in HEADING_KINDS or passage.kind in TABLE_CELLS or not opens or not (entry or early):
            continue
        item = rest_of_block(passage, release)
        if entry:
            after = _after_name(passage.text, written)
            own = fact.own.search(after) or fact.says.search(after)
            giving = passage if own else _giving(fact, item) or _labelled_next(fact, passage, item, release)
            found.append(Place(passage, giving, BESIDE))
        elif (giving := next((p for p in ([passage] if fact.naming_says else []) + item
                              if fact.says.search(p.text) and (not fact.api or p is passage or _OF_IT.match(p.text)
                                                               or named(p.text, readings))), None)) is not None:
            # of an API, a later sentence says it of the function only as "It returns…" or by its name: "…the
            # pre-1.6 Model.save() algorithm." and then "…trigger which returns NULL." is not what save() returns
            found.append(Place(passage, giving, IN_PARAGRAPH))
    return found


def _labelled_next(fact: Fact, passage, item: list, release):
    """The paragraph right after an entry's, when it is the fact's label ("html_class: CSS class." and then
    "Default: 'wikilink'": a loose list's item, whose paragraphs the pages publish apart), or None."""
    after = release.passage_at(passage.page, (item[-1] if item else passage).order + 1)
    return after if after is not None and after.kind not in HEADING_KINDS and fact.labelled.match(after.text) else None


def rest_of_block(passage, release) -> list:
    """The sentences after `passage` in its block (its list item or paragraph)."""
    rest, order = [], passage.order + 1
    while (sentence := release.passage_at(passage.page, order)) is not None and sentence.block == passage.block:
        rest.append(sentence)
        order += 1
    return rest


def _after_name(text: str, written: re.Pattern) -> str:
    return text[written.match(text).end():] if written.match(text) else text


def _sections(fact: Fact, term: str, readings, written: re.Pattern, code: bool, candidates, release) -> list[Place]:
    """The sections the name heads, and the runs a line of its name alone opens (a Sphinx "TESTING" then
    "Enable testing mode." … "Default: False"), each with its first sentence that says something and the
    sentence stating the fact. A name written as code heads a section only as written ("TESTING" is not
    "Testing")."""
    names = {frozenset(reading) for reading in readings}
    found = []
    cased = re.compile(r"(?<![\w-])" + re.escape(term) + r"(?![\w-])")
    # a heading a code name heads, or is named in as written, holds its first word (most headings do not)
    first = (term.casefold().split() or [""])[0].removesuffix("()")
    openers = [heading for _, folded, heading in headings(release) if not code or first in folded
               if (names & heading_names(heading.text) and (not code or cased.search(heading.text)))
               or any(_heads(written, part) for part in heading.text.split(", "))]
    openers += [p for p in candidates if p.kind not in HEADING_KINDS | TABLE_CELLS and _names_alone(p.text, written)]
    for heading in openers:
        section, signatures = [], heading.kind not in HEADING_KINDS
        for order in _section_orders(heading, fact.section_span, release):
            passage = release.passage_at(heading.page, order)
            line = heading.kind not in HEADING_KINDS and passage is not None and passage.kind == heading.kind \
                and _name_line(passage.text)   # a name line ("returns" of a field list is none)
            if signatures and line:
                continue            # the same run's other signatures ("get(*args, **kwargs)", "aget(*args, **kwargs)")
            signatures = False
            if passage is None or passage.kind in HEADING_KINDS or line:
                break               # the next name line
            section.append(passage)
        giving = _giving(fact, section, section=True)
        # the name line itself; or not the fact's own sentences ("Default: In global mode, …" "Otherwise, …")
        lead = heading if heading.kind not in HEADING_KINDS else next(
            (p for p in section if not (giving and p.block == giving.block and p.order >= giving.order)
             and p.kind not in TABLE_CELLS and not (fact.api and p.kind == "li") and says_something(p.text)),
            giving or heading)
        found.append(Place(lead, giving, BESIDE, heading))
    return found


def _section_orders(heading, span: int, release):
    """The orders of the passages after `heading` read for the fact: `span` of them, a list's items counting as
    one, so the "Default: 'fE'" under pytest's `-r CHARS` and its eleven letters is read (at most `LIST_READ`
    items a list)."""
    order, read, items = heading.order + 1, 0, 0
    while read < span:
        yield order
        passage = release.passage_at(heading.page, order)
        following = release.passage_at(heading.page, order + 1)
        items = items + 1 if passage is not None and passage.kind == "li" else 0
        if not (following is not None and passage is not None and passage.kind == following.kind == "li"
                and items < LIST_READ):
            read += 1
        order += 1


def _name_line(text: str) -> bool:
    """Is the text a name alone ("TESTING", "HttpRequest.get_full_path()") or an option's forms ("-o PATH, --output
    PATH")?"""
    return bool(_NAME_ALONE.match(text) or _OPTION_LINE.match(text))


def _names_alone(text: str, written: re.Pattern) -> bool:
    """Is the text the name `written` alone, with its arguments at most, or one of an option line's forms?"""
    if _OPTION_LINE.match(text):
        return any(written.fullmatch(form.split()[0].split("=")[0]) for form in text.split(","))
    match = written.match(text) if _NAME_ALONE.match(text) else None
    return bool(match) and bool(_ARGUMENTS.fullmatch(text[match.end():].strip("`'\" ")))


def _heads(written: re.Pattern, heading: str) -> bool:
    """Is the heading the name, with its arguments or a title at most ("`save-exact`", "fs.mkdir(path)", "MD013 -
    Line length"), rather than a title that opens with it ("Node.js crypto constants")?"""
    match = written.match(heading)
    return bool(match) and (not heading[match.end():].strip() or heading[match.end():].strip()[0] in "([:-–—`'\"")


def _giving(fact: Fact, passages: list, section: bool = False):
    """The first of `passages` labelled as the fact ("Default: None"), else the first that says it, else the first
    that mentions it ("Each request defaults to this config." is no label). In an API section, a parameter's item
    that says it is about the parameter ("Any Duplex stream is a valid return value." of a callback option)."""
    unlabelled = [p for p in passages if not (fact.api and section and p.kind == "li")]
    return (next((p for p in passages if fact.labelled.match(p.text) or _bare(fact, p)), None)
            or next((p for p in unlabelled if fact.says.search(p.text)), None)
            or next((p for p in unlabelled if fact.mentions.search(p.text)), None)
            or next((p for p in unlabelled if section and fact.unstated is not None and fact.unstated.match(p.text)),
                    None))


def _table_rows(fact: Fact, candidates, written: re.Pattern, release) -> list[Place]:
    """The table rows whose first cell is the name, each with its cell under the fact's column."""
    if fact.column is None:
        return []
    found = []
    for cell in candidates:
        if cell.kind != "td" or not written.match(cell.text) or len(cell.text.split()) > 3:
            continue
        row, header = _row(cell, release)
        if not row or row[0][0] is not cell:
            continue
        column = next((n for n, head in enumerate(header) if fact.column.match(" ".join(p.text for p in head))), None)
        if column is not None and column < len(row):
            found.append(Place(cell, row[column][0], BESIDE))
    return found


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


def by_question(owners, question: str, pages: list[str], retriever, release, scores, fact: Fact | None = None):
    """The order of the places: by the question's owners in their page's title and headings, its other words
    there, a place beside the name before a paragraph, meaning, page. Of an API, its own section comes before the
    question's other words, and one with a "Returns:" line before one without: "readable.read(0), which will
    always return null" is not what readable.read() returns."""
    owned = {t for owner in owners for t in tokenize(owner)}
    words = set(tokenize(question)) - owned
    rank = {page: n for n, page in enumerate(pages)}
    cosines = scores.cos_passages if scores is not None else None
    titles = {page.path: page.title for page in release.pages}

    def place(found: Place):
        passage = found.naming
        around = {t for h in (titles.get(passage.page, ""), passage.page, *passage.headings) for t in tokenize(h)}
        row = retriever.passage_row.get((found.giving or found.naming).id) if cosines is not None else None
        near = -float(cosines[row]) if row is not None else 0.0
        worded = -len(words & around)
        if fact is not None and fact.api:       # its own section, and one with a "Returns:" line, first
            labelled = 0 if found.giving is not None and (fact.labelled.match(found.giving.text) or _bare(fact, found.giving)) else 1
            first = (found.beside, labelled, worded)
        else:
            first = (worded, found.beside)
        return (-len(owned & around), *first, near, rank.get(passage.page, len(rank)), passage.page, passage.order)

    return place


def quoted(fact: Fact, place: Place, release, nearest=None) -> list:
    """The naming passage and the fact, with the rest of the fact's sentence block ("Default: In global mode, …"
    "Otherwise, …") and what comes between, in page order, MAX_QUOTES at most; of a table row, the name and the
    fact's cell alone. Of an API section, the fact and the section's further sentences saying it come first,
    those `nearest` the question first ("On Windows, the return value is always [0, 0, 0]." for a question
    about Windows), then its lead."""
    naming, giving = place.naming, place.giving
    if naming.kind in TABLE_CELLS:
        return [naming, giving] if naming is not giving else [naming]
    block = rest_of_block(giving, release)
    if _bare(fact, giving):
        # the label alone says nothing: its value does ("the rendered page as a string", a table's cells)
        chosen = list(dict.fromkeys([*_labelled_value(giving, release), naming]))
    elif fact.api and place.beside == BESIDE:
        saying = sorted(_saying_after(fact, (block or [giving])[-1], release), key=nearest or (lambda p: 0))
        # a lead-in ("For example:") without what it leads into (code, never a passage) tells nothing
        chosen = [p for p in dict.fromkeys([giving, *block, *saying, naming]) if p is giving or not leads_in(p.text)]
    else:
        low, high = sorted((naming.order, giving.order))
        # another field of the name between ("Type: str" between "html_theme" and "Default: 'alabaster'") is not the fact
        between = [p for p in (release.passage_at(giving.page, o) for o in range(low + 1, high))
                   if p is not None and not _OTHER_FIELD.match(p.text)]
        chosen = list(dict.fromkeys([naming, giving, *block, *between]))
    return sorted(chosen[:MAX_QUOTES], key=lambda p: p.order)


def _bare(fact: Fact, passage) -> bool:
    return fact.bare is not None and bool(fact.bare.fullmatch(passage.text.strip()))


def _labelled_value(label, release, most: int = 2) -> list:
    """What follows a bare label: a field list's description, a table's cells (not its headings), or one
    paragraph; nothing past a heading."""
    found = []
    order = label.order + 1
    while len(found) < most and (after := release.passage_at(label.page, order)) is not None:
        if after.kind in HEADING_KINDS or (found and after.kind not in ("dd", "td", "th", "li")):
            break
        if after.kind != "th":
            found.append(after)
        order += 1
    return found


def _saying_after(fact: Fact, passage, release) -> list:
    """The sentences after `passage` in its section that say the fact, up to the next heading, name line (the next
    function of a Sphinx page) or span's end."""
    found = []
    for order in range(passage.order + 1, passage.order + 1 + fact.section_span):
        after = release.passage_at(passage.page, order)
        if after is None or after.kind in HEADING_KINDS or (after.kind in ("p", "dt") and _name_line(after.text)):
            break
        if fact.says.search(after.text) and not fact.labelled.match(after.text):
            found.append(after)
    return found
