"""Pandoc's fenced divs and executable code cells, as Quarto and R Markdown pages write them (pure).

A fenced div is `:::` followed by an attribute block: `::: {.callout-warning title="Careful"}` is an
admonition of its kind, drawn as MkDocs and MyST ones are; `::: {.grid}`, `::: {.column-margin}`
or `::: {#fig-plot}` only lay out their content, which is shown as it is. Divs nest by count, not by
the number of colons: a bare `:::` closes the innermost div still open, as Pandoc reads it. MyST's
`:::{note}` (a name, no dot) is not one of these.

A code cell ```` ```{python} ```` (or `{r}`, `{julia}`, `{ojs}`, …) is code in that language. The
`#|` lines opening it are options for the generator that runs it (`#| echo: false`), not code a
reader sees on the built page.

quartodoc's interlinks filter shows a name in code written `` `~~GT.show()` `` shortened to its last
part, "show()" (`` `~~.GT.show()` `` as ".show()"); in a Quarto page such code shows so here too.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it.token import Token

from .generators import fence_after
from .inline_markup import without_links

# Quarto's callout kinds, each an admonition kind of the same name (directive_kinds.ADMONITIONS)
CALLOUTS = frozenset({"note", "tip", "warning", "caution", "important"})
CELL_LANGUAGES = frozenset("""
python r julia ojs bash sh zsh sql js javascript typescript ts rust go c cpp java scala matlab octave stata sas
""".split())
_ATTRIBUTES = re.compile(r"\{\s*([.#][^{}]*|[\w-]+=[^{}]*)\}")
_CLASS = re.compile(r"(?:^|\s)\.([\w-]+)")
_VALUE = re.compile(r"""([\w-]+)=(?:"([^"]*)"|'([^']*)'|(\S+))""")
_CELL_OPTION = re.compile(r"^\s*#\|")
_INTERLINK = re.compile(r"~~(\.?)(?:[A-Za-z_][\w]*\.)*([A-Za-z_]\w*(?:\(\))?)")


@dataclass(frozen=True)
class Div:
    kind: str       # an admonition kind ("warning"), or "" for a div that only lays out its content
    title: str      # its `title` attribute, "" for none


def read_div(info: str) -> Div | None:
    """The div an opening fence's info (what follows `:::`) declares; None when it is no attribute block."""
    written = _ATTRIBUTES.fullmatch(info.strip())
    if written is None:
        return None
    inside = written.group(1)
    classes = _CLASS.findall(inside)
    values = {key: next((v for v in rest if v), "") for key, *rest in _VALUE.findall(inside)}
    kind = next((name.removeprefix("callout-") for name in classes
                 if name.startswith("callout-") and name.removeprefix("callout-") in CALLOUTS), "")
    return Div(kind, values.get("title", "").strip())


class Nesting:
    """Reads the lines after an opening `:::` one at a time: which one closes it? The divs opened
    inside it are counted, and code blocks skipped."""

    def __init__(self) -> None:
        self.depth = 0
        self.fence = ""

    def closes(self, line: str) -> bool:
        if self.fence or fence_after(line, ""):      # code, or the fence line that opens or closes it
            self.fence = fence_after(line, self.fence)
            return False
        stripped = line.strip()
        colons = len(stripped) - len(stripped.lstrip(":"))
        if colons < 3:
            return False
        if stripped[colons:].strip():
            self.depth += 1          # another div (or directive) opens inside this one
            return False
        if self.depth:
            self.depth -= 1
            return False
        return True


def cell_body(body: str) -> str:
    """A code cell's code, without the `#|` option lines that open it."""
    lines = body.split("\n")
    while lines and _CELL_OPTION.match(lines[0]):
        lines.pop(0)
    return "\n".join(lines)


def plain_title(title: str) -> str:
    """A Quarto page's front-matter title is markdown: its code spans show as their text (`v0.12.0`)."""
    return _CODE_SPAN.sub(lambda match: match.group(2).strip(), title)


_CODE_SPAN = re.compile(r"(`+)(.+?)\1")


def interlinks(state) -> None:
    """markdown-it core rule, after inline parsing: in a Quarto page (env["quarto"]), code written
    `~~module.name()` shows as quartodoc's interlinks filter shows it, "name()"; a link to an object
    (`[text](`module.name`)`, `[](`~module.name`)`) is its text, or the object's name as code, since
    the API pages it points at are generated from the code, not in the folder."""
    if not state.env.get("quarto"):
        return
    for token in state.tokens:
        for child in token.children or ():
            if child.type == "code_inline" and (name := _INTERLINK.fullmatch(child.content)):
                child.content = name.group(1) + name.group(2)
        if token.children:
            token.children = _unlinked_objects(token.children)


_OBJECT_LINK = re.compile(r"^(?:%60|`)(~{0,2})([\w.]+?)(\(\))?(?:%60|`)$")


def _unlinked_objects(children: list[Token]) -> list[Token]:
    objects, out = set(), []
    for index, child in enumerate(children):
        out.append(child)
        if child.type == "link_open" and (target := _OBJECT_LINK.match(str(child.attrGet("href") or ""))):
            objects.add(id(child))
            if index + 1 < len(children) and children[index + 1].type == "link_close":     # [](`~a.b`): its name
                tildes, name, call = target.groups()
                code = Token("code_inline", "code", 0)
                code.content, code.markup = (name.rsplit(".", 1)[-1] if tildes else name) + (call or ""), "`"
                out.append(code)
    return without_links(out, objects) if objects else children
