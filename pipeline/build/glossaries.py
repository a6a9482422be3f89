"""Sphinx's glossary directive as the definition list it draws (pure).

A glossary's body is entries of term lines written flush left (one or more: several names
for one meaning) followed by their definition indented under them:

    environment
       A structure where information about all documents is saved.

       A second paragraph of the definition.

Read as markdown, the term ran into the definition's first sentence ("environment A
structure where ..."), which was then published as one passage. `as_definition_list`
rewrites the lines, one for one, into the definition-list syntax the parser knows (the term,
then ": " opening its definition), so every line keeps its number.
"""
from __future__ import annotations

import textwrap

_OPENER = ": "
TERMS_JOINED = ", "     # several names of one meaning, on one term line ("1.x style, 2.0 style")


def as_definition_list(lines: list[str]) -> list[str] | None:
    """The glossary's lines as a definition list, as many lines as given; None when they are not
    a glossary (no term with an indented definition under it)."""
    out: list[str] = []
    index, found = 0, False
    while index < len(lines):
        line = lines[index]
        if not _is_term(line):
            out.append(line if not line.strip() else line.strip())    # stray indented text: a paragraph of its own
            index += 1
            continue
        terms, index = index, _terms_end(lines, index)
        end = index
        while end < len(lines) and (not lines[end].strip() or lines[end][:1] in " \t"):
            end += 1
        while end > index and not lines[end - 1].strip():
            end -= 1
        if end == index:      # terms with nothing indented under them: shown as the words they are
            out += lines[terms:index]
            continue
        found = True
        out += [""] * (index - terms - 1)      # several names of one meaning: one term line, joined
        out.append(TERMS_JOINED.join(line.strip() for line in lines[terms:index]))
        while not lines[index].strip():      # Sphinx allows blank lines between a term and its definition
            out.append("")
            index += 1
        definition = textwrap.dedent("\n".join(lines[index:end])).split("\n")
        out.append(_OPENER + definition[0])
        out += [" " * len(_OPENER) + text if text.strip() else "" for text in definition[1:]]
        index = end
    return out if found else None


def rst_terms_joined(lines: list[str]) -> list[str]:
    """An rST glossary's lines with several term lines over one definition joined into one, and the blank lines
    Sphinx allows between a term and its definition moved above it: docutils' definition list takes a term of one
    line right over its definition (SQLAlchemy's "1.x style" / "2.0 style" were 24 "Unexpected indentation"
    errors). As many lines as given, so every line keeps its number."""
    out: list[str] = []
    index = 0
    while index < len(lines):
        if not _is_term(lines[index]):
            out.append(lines[index])
            index += 1
            continue
        terms, index = index, _terms_end(lines, index)
        below = index
        while below < len(lines) and not lines[below].strip():
            below += 1
        if below == len(lines) or lines[below][:1] not in " \t":     # no definition under them: left as written
            out += lines[terms:index]
            continue
        out += [""] * (below - terms - 1)
        out.append(TERMS_JOINED.join(line.strip() for line in lines[terms:index]))
        index = below
    return out


def _is_term(line: str) -> bool:
    """A term line: words written flush left (a definition is indented under its terms)."""
    return bool(line.strip()) and line[:1] not in " \t"


def _terms_end(lines: list[str], start: int) -> int:
    """Where the run of term lines starting at `start` ends."""
    end = start
    while end < len(lines) and _is_term(lines[end]):
        end += 1
    return end
