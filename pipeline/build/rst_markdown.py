"""A reStructuredText page's doctree written as the MyST markdown the site's reader knows (pure).

Sections become headings and their explicit labels MyST targets (`(label)=`), so `:ref:` links
find them as they find MyST labels; admonitions and Sphinx's directives become MyST fenced
directives (```` ```{note} ````, ```` ```{toctree} ````), which dialects.py and reading_order.py
already read; roles that link (`:ref:`, `:doc:`) stay MyST roles, cross-references to code
(`:func:`, `:class:`) become code as Sphinx shows them (rst_inline.py writes the inline nodes). Each markdown line keeps the file and
line it came from, so an error on the page names the `.rst` file and its line.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docutils import nodes

from . import changelog_directives, info_fields
from .directive_kinds import OBJECTS
from .included_files import IncludedFiles
from .markdown_writing import code_span, escape, fenced
from .moved_pages import refresh_target
from .rst_inline import InlineWriter
from .rst_source import RstSource, directive, highlight
from .rst_source import run as read

# kept out of the page even when docutils places them: they are not the reader's text
_UNSHOWN = (nodes.comment, nodes.substitution_definition, nodes.target, nodes.system_message, nodes.pending,
            nodes.decoration, nodes.meta, nodes.docinfo, nodes.footnote, nodes.citation, nodes.title)
_ADMONITIONS = frozenset("attention caution danger error hint important note tip warning seealso".split())
_LETTERED = {"loweralpha": "a", "upperalpha": "A", "lowerroman": "i", "upperroman": "I"}
_TRANSPARENT = frozenset("glossary hlist rst-class cssclass only ifconfig".split())


@dataclass
class Markdown:
    text: str
    origins: list[tuple[int, str, int]]     # (line index in text, file, that file's line), each until the next
    orphan: bool = False                    # `:orphan:` at the top: published, kept out of navigation
    moved_to: str = ""                      # `.. meta:: :http-equiv=refresh: 0; url=…`: where the page went


def fragment(text: str) -> str:
    """A MyST page's `{eval-rst}` block as markdown: its reStructuredText read on its own, no file
    included (an include there is read from nowhere and shows nothing)."""
    nowhere = Path("/nonexistent/eval-rst")
    return run(read(text, nowhere / "block.rst", IncludedFiles(nowhere, nowhere))).text


def run(source: RstSource) -> Markdown:
    writer = _Writer(source)
    lines = writer.blocks(writer.body(), depth=0)
    if writer.footnotes:
        lines += [("", None), *writer.footnotes]
    origins, previous = [], None
    for index, (_, line) in enumerate(lines):
        located = source.locate(line) if line else (previous[0], previous[1] + 1) if previous else source.locate(1)
        if previous is None or located != (previous[0], previous[1] + 1):
            origins.append((index, *located))
        previous = located
    return Markdown("\n".join(text for text, _ in lines) + "\n", origins, writer.orphan, writer.moved_to)


class _Writer(InlineWriter):
    def __init__(self, source: RstSource) -> None:
        self.source, self.document = source, source.doctree
        self.language = ""       # `.. highlight::`'s language for literal blocks
        self.footnotes: list[tuple[str, int | None]] = []
        self.orphan = False
        self.moved_to = ""
        self.anchors = {}        # docutils id → the anchor the markdown gives it (an explicit label, or the id)
        for node in self.document.findall(nodes.Element):
            names = self._labels(node)
            for identifier in node.get("ids", []):
                self.anchors.setdefault(identifier, names[0] if names else identifier)

    def body(self) -> list[nodes.Node]:
        children = list(self.document.children)
        for meta in self.document.findall(nodes.meta):
            if str(meta.get("http-equiv", "")).lower() == "refresh":
                self.moved_to = refresh_target(str(meta.get("content", "")))
        # docutils places `.. meta::` first, before the field list it followed
        first = next((n for n in children if not isinstance(n, (nodes.comment, nodes.target, nodes.meta))), None)
        if isinstance(first, nodes.field_list):     # Sphinx's file-wide metadata: `:orphan:`, `:tocdepth: 2`
            self.orphan = any(f[0].astext().strip().lower() == "orphan" for f in first.children)
            children.remove(first)
        return children

    def _labels(self, node: nodes.Element) -> list[str]:
        if isinstance(node, (nodes.target, nodes.footnote, nodes.citation, nodes.document)):
            return []
        return [name for name in node.get("names", []) if self.document.nametypes.get(name)]

    def blocks(self, children, depth: int) -> list[tuple[str, int | None]]:
        out: list[tuple[str, int | None]] = []
        for child in children:
            lines = self.block(child, depth)
            if not lines:
                continue
            if out:
                out.append(("", None))
            out += lines
        return out

    def block(self, node: nodes.Node, depth: int) -> list[tuple[str, int | None]]:
        if isinstance(node, (nodes.footnote, nodes.citation)):
            self._footnote(node)
            return []
        if isinstance(node, highlight):
            self.language = node["language"]
            return []
        if isinstance(node, nodes.raw):
            shown = {"html", "markdown"} & set(node.get("format", "").split())
            return [(line, None) for line in node.astext().split("\n")] if shown else []
        if isinstance(node, _UNSHOWN) or not isinstance(node, nodes.Element):
            return [(escape(node.astext()), None)] if isinstance(node, nodes.Text) and node.strip() else []
        labels = [(f"({name})=", None) for name in self._labels(node) if not isinstance(node, nodes.section)]
        lines = self._element(node, depth)
        if lines and lines[0][1] is None:
            lines[0] = (lines[0][0], _line_of(node))
        return labels + lines if lines else []

    def _element(self, node: nodes.Element, depth: int) -> list[tuple[str, int | None]]:
        if isinstance(node, nodes.section):
            title = node.next_node(nodes.title)
            line = title.line - 1 if title is not None and title.line else None
            heading = [(f"({name})=", None) for name in self._labels(node)]
            heading.append(("#" * min(depth + 1, 6) + " " + (self.inline(title) if title else ""), line))
            return heading + [("", None)] + self.blocks(node.children, depth + 1)
        if isinstance(node, (nodes.paragraph, nodes.rubric)):
            text = self.inline(node)
            return [(f"**{text}**" if isinstance(node, nodes.rubric) else text, node.line)] if text else []
        if isinstance(node, (nodes.bullet_list, nodes.enumerated_list)):
            return self._list(node, depth)
        if isinstance(node, nodes.field_list) and info_fields.is_info_fields(node):
            return info_fields.lines(node, lambda children: self.blocks(children, depth))
        if isinstance(node, (nodes.definition_list, nodes.field_list, nodes.option_list)):
            return self._definitions(node, depth)
        if isinstance(node, (nodes.literal_block, nodes.doctest_block, nodes.math_block)):
            language = "pycon" if isinstance(node, nodes.doctest_block) else "{math}" if \
                isinstance(node, nodes.math_block) else node.get("language") or _language(node) or self.language
            body = [(text, node.line if n == 0 else None) for n, text in enumerate(node.astext().split("\n"))]
            return fenced(language, body)
        if isinstance(node, nodes.line_block):
            lines = [self.inline(line) for line in node.findall(nodes.line)]
            return [(text + ("\\" if n < len(lines) - 1 and text else ""), None) for n, text in enumerate(lines)]
        if isinstance(node, nodes.block_quote):
            inner = self.blocks(node.children, depth)
            return [(("> " + text).rstrip(), line) for text, line in inner]
        if isinstance(node, nodes.attribution):
            return [("— " + self.inline(node), node.line)]
        if isinstance(node, nodes.Admonition):
            return self._admonition(node, depth)
        if isinstance(node, directive):
            return self._directive(node, depth)
        if isinstance(node, nodes.table):
            return self._table(node)
        if isinstance(node, nodes.image):
            return [(self.inline(node), node.line)]
        if isinstance(node, nodes.figure):
            return self.blocks(node.children, depth)
        if isinstance(node, nodes.caption):
            return [(f"*{self.inline(node)}*", node.line)]
        if isinstance(node, (nodes.topic, nodes.sidebar)):
            title = node.next_node(nodes.title)
            if "contents" in node.get("classes", []):    # `.. contents::`: the site draws its own
                return []
            return fenced("{topic}" + (" " + self.inline(title) if title else ""), self.blocks(node.children, depth))
        if isinstance(node, nodes.transition):
            return [("***", node.line)]
        return self.blocks(node.children, depth)

    def _list(self, node: nodes.Element, depth: int) -> list[tuple[str, int | None]]:
        out, number = [], int(node.get("start", 1))
        kind = _LETTERED.get(node.get("enumtype", ""))
        if isinstance(node, nodes.enumerated_list) and kind:
            # markdown numbers its lists; letters and roman numerals take HTML, each item's body markdown
            start = f' start="{number}"' if number != 1 else ""
            for item in node.children:
                out += [("<li>", _line_of(item)), ("", None), *self.blocks(item.children, depth), ("", None),
                        ("</li>", None)]
            return [(f'<ol type="{kind}"{start}>', None), *out, ("</ol>", None)]
        for item in node.children:
            marker = "- " if isinstance(node, nodes.bullet_list) else f"{number}. "
            number += 1
            inner = self.blocks(item.children, depth) or [("", None)]
            out.append((marker + inner[0][0], inner[0][1] or _line_of(item)))
            out += [((" " * len(marker) + text) if text else "", line) for text, line in inner[1:]]
        return out

    def _definitions(self, node: nodes.Element, depth: int) -> list[tuple[str, int | None]]:
        out = []
        for item in node.children:
            if isinstance(item, nodes.option_list_item):
                term = ", ".join(code_span(option.astext()) for option in item.findall(nodes.option))
                body = item.next_node(nodes.description)
            else:
                head = [c for c in item.children if isinstance(c, (nodes.term, nodes.field_name, nodes.classifier))]
                term = " : ".join(self.inline(part) for part in head)
                body = item.next_node((nodes.definition, nodes.field_body))
            inner = self.blocks(body.children, depth) if body is not None else []
            if isinstance(item, nodes.field) and not any(text for text, _ in inner):
                continue      # a field whose value is nothing, as Celery's `:Release: |version|` when conf.py cannot tell
            if out:
                out.append(("", None))
            if isinstance(item, nodes.field) and term and len(inner) == 1 and len(body.children) == 1 \
                    and isinstance(body.children[0], nodes.paragraph):
                # a field of one line is one row, as Sphinx shows it: "default: normal", not "default" over "normal"
                out.append((f"{term}: {inner[0][0]}", _line_of(item)))
                continue
            out.append((term or "\\-", _line_of(item)))
            for n, (text, line) in enumerate(inner or [("", None)]):
                out.append(((": " if n == 0 else "  ") + text if text or n == 0 else "", line))
        return out

    def _admonition(self, node: nodes.Element, depth: int) -> list[tuple[str, int | None]]:
        kind = next((name for name in node.get("classes", []) if name in _ADMONITIONS), node.tagname)
        title = node.next_node(nodes.title) if kind == "admonition" else None
        opening = "{" + kind + "}" + (" " + self.inline(title) if title is not None else "")
        return fenced(opening, self.blocks(node.children, depth))

    def _directive(self, node: directive, depth: int) -> list[tuple[str, int | None]]:
        name, argument, base = node["name"], node["argument"], node["name"].split(":")[-1]
        if _marks_next_heading(node):
            return []     # Django's `.. setting:: DEBUG` over the heading ``DEBUG``: a target, shown as nothing
        if base in _TRANSPARENT:
            return self.blocks(node.children, depth)      # `only` not shown on the web is gone already
        if base in changelog_directives.DIRECTIVES:
            return changelog_directives.lines(node, depth, self.blocks)
        if base == "centered":
            return [(escape(argument), node.line)]
        if base.startswith("auto") and "raw" not in node:
            # autodoc with words of the author's under it: those words, under the object's name as
            # `.. class::` shows it (the docstring itself needs the code, which is never imported)
            if base == "automodule":
                return self.blocks(node.children, depth)
            name = base[4:]
        options = [(f":{key}: {value}".rstrip(), None) for key, value in node["options"].items()]
        if "raw" in node:
            body = [(line, None) for line in node["raw"].split("\n")]
        else:
            body = self.blocks(node.children, depth)
        # the argument as words: a signature's `name(parameters)` or `*args` is not markdown's, a tab's
        # title (rst_source.py read it) may hold inline markup
        title = node.children[0] if node.children and isinstance(node.children[0], nodes.title) else None
        # an object's signature is code, shown as written (directive_kinds.OBJECTS)
        plain = (lambda text: text) if name.split(":")[-1] in OBJECTS else (lambda text: escape(text, line_start=False))
        shown = self.inline(title) if title is not None else plain(argument)
        # an object's other signatures each a line under the first, as Sphinx shows them; the body after the last
        openings = ["{" + name + "}" + (" " + shown if shown else "")]
        openings += ["{" + name + "} " + plain(signature) for signature in node.get("signatures", [])]
        out = [line for opening in openings[:-1] for line in [*fenced(opening, []), ("", None)]]
        return out + fenced(openings[-1], options + ([("", None)] if options and body else []) + body)

    def _table(self, node: nodes.table) -> list[tuple[str, int | None]]:
        group = node.next_node(nodes.tgroup)
        if group is None:
            return []
        width = sum(1 for c in group.children if isinstance(c, nodes.colspec)) or 1
        rows = [(self._row(row, width), row) for part in group.children if isinstance(part, (nodes.thead, nodes.tbody))
                for row in part]
        has_head = any(isinstance(part, nodes.thead) for part in group.children)
        header, rows = (rows[0][0], rows[1:]) if has_head and rows else ([""] * width, rows)
        title = node.next_node(nodes.title)
        lines = [(f"*{self.inline(title)}*", None), ("", None)] if title is not None and title.parent is node else []
        lines += [("| " + " | ".join(header) + " |", _line_of(node)), ("|" + "---|" * width, None)]
        return lines + [("| " + " | ".join(cells) + " |", _line_of(row)) for cells, row in rows]

    def _row(self, row: nodes.row, width: int) -> list[str]:
        cells = []
        for entry in row.children:
            parts = [self.inline(p) for p in entry.findall(nodes.TextElement) if isinstance(p, nodes.paragraph)
                     or isinstance(p, nodes.literal_block)]
            cells.append(" ".join(part for part in parts if part).replace("\n", " "))
            cells += [""] * entry.get("morecols", 0)
        return (cells + [""] * width)[:width]

    def _footnote(self, node: nodes.Element) -> None:
        identifier = (node.get("ids") or [""])[0]
        inner = self.blocks([c for c in node.children if not isinstance(c, nodes.label)], 0) or [("", None)]
        self.footnotes.append((f"[^{identifier}]: {inner[0][0]}", _line_of(node)))
        self.footnotes += [(("    " + text) if text else "", line) for text, line in inner[1:]]


def _language(node: nodes.Element) -> str:
    classes = [c for c in node.get("classes", []) if c != "code"]
    return classes[0] if classes else ""


def _marks_next_heading(node: directive) -> bool:
    """A directive with nothing but its argument, right above a heading or a definition of the same
    words (or above others like it, one of which is): what Sphinx's cross-reference types
    (`add_crossref_type`: Django's and Scrapy's `.. setting::`, `.. reqmeta::`, `.. stat::`) write,
    a link target only."""
    if not _bare(node):
        return False
    names, following = set(), node
    while following is node or isinstance(following, (nodes.target, nodes.comment)) or \
            isinstance(following, directive) and _bare(following):
        if isinstance(following, directive):
            names.add(following["argument"].strip().strip("`").casefold())
        following = following.next_node(descend=False, siblings=True, ascend=True)
    if isinstance(following, nodes.section) and following.children:
        shown = following[0]
    elif isinstance(following, nodes.definition_list) and following.children:
        shown = following[0].next_node(nodes.term)
    else:
        return False
    return shown is not None and shown.astext().strip().casefold() in names


def _bare(node: directive) -> bool:
    return bool(node["argument"]) and not node["options"] and "raw" not in node and \
        all(isinstance(c, nodes.title) for c in node.children)


def _line_of(node: nodes.Node) -> int | None:
    if getattr(node, "line", None):
        return node.line
    return next((n.line for n in node.findall(nodes.Element) if n.line), None)
