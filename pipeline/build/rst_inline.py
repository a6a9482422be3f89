"""A reStructuredText paragraph's inline nodes written as MyST markdown (pure; rst_markdown.py's writer
uses it): text escaped, literals as code spans, links with their targets, footnote references,
and Sphinx's roles as Sphinx shows them: `:ref:` and `:doc:` stay MyST roles for the site's links
to fill in, `:kbd:` and `:abbr:` stay MyST roles, `:guilabel:` and the like show their words, and
cross-references to code (`:func:`, `:class:`) are the code Sphinx shows (`~a.b.c` shows `c`).
"""
from __future__ import annotations

import re

from docutils import nodes

from .dialects import object_shown
from .markdown_writing import code_span, escape
from .rst_source import role

LINK_ROLES = frozenset("ref doc any numref download term keyword".split())
MYST_ROLES = frozenset("kbd abbr".split())
TEXT_ROLES = frozenset("guilabel menuselection dfn manpage index strike del sub sup".split())
_REFERENCE = re.compile(r"^`((?:[^`<]|<(?![^<>]*>`))+?)\s*(?:<[^<>]*>)?`__?$", re.S)


class InlineWriter:
    """The inline half of the writer; `anchors` maps a docutils id to the anchor the markdown gives it."""

    anchors: dict[str, str]

    def inline(self, node: nodes.Node) -> str:
        if isinstance(node, nodes.Text):
            return escape(node.astext())     # docutils keeps a backslash-escape as a NUL before it in str()
        if isinstance(node, (nodes.literal, nodes.literal_block)):
            return code_span(node.astext())
        if isinstance(node, (nodes.emphasis, nodes.strong, nodes.title_reference)):
            text = self._inner(node).strip()
            mark = "**" if isinstance(node, nodes.strong) else "*"
            return f"{mark}{text}{mark}" if text else ""
        if isinstance(node, nodes.reference):
            return self._reference(node)
        if isinstance(node, (nodes.footnote_reference, nodes.citation_reference)):
            return f"[^{node.get('refid', node.astext())}]"
        if isinstance(node, (nodes.subscript, nodes.superscript)):
            return "{" + ("sub" if isinstance(node, nodes.subscript) else "sup") + "}" + code_span(node.astext())
        if isinstance(node, nodes.math):
            return "{math}" + code_span(node.astext())
        if isinstance(node, nodes.image):
            alt = node.get("alt", "")
            return f"![{escape(alt)}](<{node['uri']}>)" if node.get("uri") else ""
        if isinstance(node, nodes.raw):
            return node.astext() if "html" in node.get("format", "") else ""
        if isinstance(node, role):
            return self._role(node)
        if isinstance(node, nodes.system_message):
            return ""
        if isinstance(node, nodes.problematic):
            # a link docutils cannot resolve (no such target, or two of that name): its words, as a
            # reader would take them, not its markup
            reference = _REFERENCE.match(node.astext())
            return escape(reference.group(1) if reference else node.astext())
        if isinstance(node, (nodes.target, nodes.comment, nodes.substitution_definition)) and not node.children:
            return ""
        return self._inner(node)

    def _inner(self, node: nodes.Element) -> str:
        """The children's markdown; code written side by side (":confval:`x`\\ ``='y'``", joined by an escaped
        space) is one code span, as it reads, not two whose backticks run together."""
        out, code = [], []
        for child in node.children:
            if isinstance(child, nodes.Text) and not child.astext() and code:
                continue
            if (text := self._code_text(child)) is not None:
                code.append(text)
                continue
            if code:
                out.append(code_span("".join(code)))
                code = []
            out.append(self.inline(child))
        return "".join(out + ([code_span("".join(code))] if code else []))

    def _code_text(self, node: nodes.Node) -> str | None:
        """What a node shows as code when it is only a code span: a literal, or a role shown as code."""
        if isinstance(node, nodes.literal):
            return node.astext()
        return self._role_code(node) if isinstance(node, role) else None

    def _reference(self, node: nodes.reference) -> str:
        text = self._inner(node).strip() or escape(node.get("refuri", ""))
        if node.get("refuri"):
            return f"[{text}](<{node['refuri'].replace('>', '%3E')}>)"
        if node.get("refid"):
            return f"[{text}](<#{self.anchors.get(node['refid'], node['refid']).replace('>', '%3E')}>)"   # a label may hold spaces
        return text

    def _role(self, node: role) -> str:
        if (code := self._role_code(node)) is not None:
            return code_span(code)
        name, content = node["name"], " ".join(node.astext().replace("`", "").split())
        base = name.split(":")[-1]
        if base in LINK_ROLES or base in MYST_ROLES:
            return "{" + base + "}`" + content + "`"
        shown = _shown(content)
        return escape(shown.replace("-->", "‣").replace("&", "", 1) if base == "menuselection" else shown)

    def _role_code(self, node: role) -> str | None:
        """The code a role shows (Sphinx's display of a cross-reference: `~a.b.c` shows `c`, `!x` shows `x`),
        or None for a role shown otherwise (a link, a MyST role, text)."""
        name, content = node["name"], " ".join(node.astext().replace("`", "").split())
        base = name.split(":")[-1]
        if base in LINK_ROLES or base in MYST_ROLES or base in TEXT_ROLES:
            return None
        shown = _shown(content)
        return object_shown(name, shown) if shown == content else shown


def _shown(content: str) -> str:
    """What a role shows: the title of "Title <target>", else all it holds."""
    match = re.match(r"^(.*?)\s*<([^<>]+)>$", content, re.S)
    return match.group(1) if match and match.group(1) else content
