"""Sphinx's info fields, shown as Sphinx shows them (pure).

An object's description lists its parameters as fields (`:param request: the request being
processed`, `:type request: Request`, `:returns:`, `:raises ValueError: when…`). docutils reads
them as a field list named "param request"; Sphinx shows them grouped under "Parameters:", one
item each, the type in brackets: "request (Request) – the request being processed". So does
this, so that each item is a sentence a reader can cite on its own.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from docutils import nodes

# field name → the group Sphinx lists it under; a name taking an argument (`param request`) is an item of it
_GROUPS = {
    **dict.fromkeys("param parameter arg argument key keyword kwarg kwparam".split(), "Parameters"),
    **dict.fromkeys("raises raise except exception".split(), "Raises"),
    **dict.fromkeys("var ivar cvar".split(), "Variables"),
    **dict.fromkeys("returns return".split(), "Returns"),
    **dict.fromkeys("rtype returntype".split(), "Return type"),
    **dict.fromkeys("yields yield".split(), "Yields"),
    "ytype": "Yield type",
}
_TYPES = {"type": "Parameters", "vartype": "Variables"}
_BLOCK_START = re.compile(r"^(?:[-*+] |\d+[.)] |`{3,}|~{3,}|> |\|)")

Lines = list[tuple[str, "int | None"]]


def is_info_fields(node: nodes.Element) -> bool:
    """A field list of an object's description: every field is one Sphinx reads as an info field."""
    names = [_name(field) for field in node.children if isinstance(field, nodes.field)]
    return bool(names) and all(words and (words[0] in _GROUPS or words[0] in _TYPES) for words in names)


def lines(node: nodes.Element, blocks: Callable[[list], Lines]) -> Lines:
    """The field list as Sphinx groups it: "Parameters:", then "- request (Request) – the request"."""
    types: dict[tuple[str, str], str] = {}
    groups: dict[str, list[Lines]] = {}
    fields = [f for f in node.children if isinstance(f, nodes.field)]
    for field in fields:
        words = _name(field)
        if words[0] in _TYPES and len(words) > 1:
            types[(_TYPES[words[0]], words[-1])] = " ".join(text for text, _ in _body(field, blocks) if text)
    for field in fields:
        words = _name(field)
        if words[0] in _TYPES:
            continue
        group, body = _GROUPS[words[0]], _body(field, blocks) or [("", None)]
        first, line = body[0]
        if len(words) > 1:         # `param str request`: the type may sit before the name
            argument = words[-1]
            kind = types.get((group, argument)) or " ".join(words[1:-1])
            head = f"`{argument}`" + (f" ({kind})" if kind else "")
            if _BLOCK_START.match(first):      # a description that opens with a list or a box: under the name
                body = [(head, field.line), ("", None), *body]
            else:
                body = [(f"{head} – {first}" if first else head, line or field.line), *body[1:]]
        groups.setdefault(group, []).append(body)
    out: Lines = []
    for group, items in groups.items():
        if out:
            out.append(("", None))
        if len(items) == 1 and len(items[0]) == 1 and group not in ("Parameters", "Raises", "Variables"):
            out.append((f"{group}: {items[0][0][0]}", items[0][0][1]))
            continue
        out += [(f"{group}:", items[0][0][1]), ("", None)]
        for item in items:        # a description of several blocks stays blocks, under its item
            out += [(("- " if n == 0 else "  ") + text if text else "", line) for n, (text, line) in enumerate(item)]
    return out


def _name(field: nodes.field) -> list[str]:
    name = field.next_node(nodes.field_name)
    words = name.astext().split() if name is not None else []
    return [words[0].lower(), *words[1:]] if words else []


def _body(field: nodes.field, blocks: Callable[[list], Lines]) -> Lines:
    body = field.next_node(nodes.field_body)
    return blocks(_unhung(field, list(body.children))) if body is not None else []


def _unhung(field: nodes.field, children: list[nodes.Node]) -> list[nodes.Node]:
    """A description written with a hanging indent, its lines under the first one's words, and a
    directive under it indented less (aiohttp's `:param float keepalive_timeout: a delay before a TCP
    connection is` / `closed after a HTTP request.` … `.. versionadded:: 3.8`): docutils reads the
    first line as a definition list's term and the rest as its definition, and the sentence shows cut
    in two. Read as the one paragraph the author wrote."""
    listed = children[0] if children and isinstance(children[0], nodes.definition_list) else None
    item = listed.children[0] if listed is not None and listed.children else None
    if item is None or any(isinstance(child, nodes.classifier) for child in item.children):
        return children
    term, definition = item.next_node(nodes.term), item.next_node(nodes.definition)
    if term is None or term.line != field.line or definition is None or not definition.children \
            or not isinstance(definition.children[0], nodes.paragraph):
        return children
    joined = nodes.paragraph("", "", *(c.deepcopy() for c in term.children), nodes.Text(" "),
                             *(c.deepcopy() for c in definition.children[0].children))
    joined.source, joined.line = term.source, term.line
    rest = nodes.definition_list("", *(c.deepcopy() for c in listed.children[1:])) if len(listed.children) > 1 else None
    return [joined, *definition.children[1:], *([rest] if rest else []), *children[1:]]
