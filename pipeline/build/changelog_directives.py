"""The `changelog` Sphinx extension's directives (SQLAlchemy, Alembic, Mako) as its site shows them (pure).

    .. changelog::
        :version: 1.13.3
        :released: September 23, 2024

        .. change::
            :tags: usecase, autogenerate
            :tickets: 1509

            Enhance ``version_locations`` parsing to handle paths containing newlines.

Each `changelog` is a section titled with its version, "Released: September 23, 2024" under it,
and its changes a list, one item each. Shown as their text, the versions were gone and every change
of every release read as one run of sentences under "Changelog": nobody could tell in which release
a change came. The extension also sorts the changes into sections by their tags and links their
tickets; the tags and tickets are not shown here, the changes keep the order they are written in.
A page's `changelog_imports` lends it the changes of older changelogs that name one of its releases.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from docutils import nodes

from .markdown_writing import escape

DIRECTIVES = frozenset({"changelog", "change"})
# `changelog_imports` reads other pages' changelogs only to list, under this page's releases, their changes that
# name one of them in `:versions:` (a fix written in the 1.4 changelog under 1.4.54 and `:versions: 2.0.33` is
# listed under 2.0.33 in the 2.0 one too); the rest of its body is not shown. Shown as text, each SQLAlchemy
# changelog page carried every older one (changelog_21.rst included 20, which included 14, …): 74,166 sentences
# repeated on their page.
IMPORTS = "changelog_imports"
_OPTION = re.compile(r" *:(.+?):(?: +(.+))?")

Lines = list[tuple[str, int | None]]


def lines(node: nodes.Element, depth: int, blocks: Callable[[list, int], Lines]) -> Lines:
    """The markdown of a `changelog` (a heading at `depth` + 1 and its changes) or of a lone `change`;
    `blocks(children, depth)` writes the directives' bodies."""
    if _is_change(node):
        return _item(node, depth, blocks)
    version = (node["options"].get("version") or node["argument"]).strip()
    released = (node["options"].get("released") or "").strip()
    heading = "#" * min(depth + 1, 6) + " " + escape(version, line_start=False)
    out: Lines = [(heading, node.line), ("", None)] if version else []
    if released:
        out += [(escape(f"Released: {released}"), None), ("", None)]
    intro = [child for child in node.children if not _is_change(child) and not isinstance(child, nodes.title)]
    if intro:
        out += blocks(intro, depth + 1) + [("", None)]
    for child in node.children:
        if _is_change(child):
            out += _item(child, depth + 1, blocks)
    return out


def leading_options(content: list[str]) -> tuple[dict[str, str], int]:
    """The `:name: value` lines a `changelog` or `change` body starts with, read as the extension reads them (the
    last of a name wins, words on the directive's own line are passed over), and how many lines they take."""
    options: dict[str, str] = {}
    for read, line in enumerate(content):
        if match := _OPTION.match(line):
            options[match.group(1)] = (match.group(2) or "").strip()
        elif not (read == 0 and line):
            return options, read
    return options, len(content)


def imported_changes(parsed: nodes.Element) -> dict[str, list[nodes.Element]]:
    """The changes of imported changelogs (`parsed`) by the other releases their `:versions:` name (a comma list,
    as the extension reads it); a change naming no other release is not imported."""
    found: dict[str, list[nodes.Element]] = {}
    for release in parsed.findall(lambda n: isinstance(n, nodes.Element) and n.get("name", "").split(":")[-1]
                                  == "changelog"):
        own = (release["options"].get("version") or "").strip()
        for change in (child for child in release.children if _is_change(child)):
            for version in dict.fromkeys(v.strip() for v in change["options"].get("versions", "").split(",")):
                if version and version != own:
                    found.setdefault(version, []).append(change)
    return found


def with_imported(release: nodes.Element, imported: dict[str, list[nodes.Element]]) -> nodes.Element:
    """A `changelog` with the imported changes for its version after its own, each once."""
    version = (release["options"].get("version") or "").strip()
    said = {child.astext() for child in release.children if _is_change(child)}
    for change in imported.get(version, ()):
        if change.astext() not in said:
            said.add(change.astext())
            release += change.deepcopy()
    return release


def _is_change(node: nodes.Node) -> bool:
    return isinstance(node, nodes.Element) and node.get("name", "").split(":")[-1] == "change"


def _item(node: nodes.Element, depth: int, blocks: Callable[[list, int], Lines]) -> Lines:
    inner = blocks([child for child in node.children if not isinstance(child, nodes.title)], depth)
    if not inner:
        return []
    first, *rest = inner
    return [("- " + first[0], first[1] or node.line), *((("  " + text) if text else "", line) for text, line in rest)]
