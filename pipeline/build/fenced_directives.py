"""Fenced directives, a block rule of the docs dialects' markdown-it parser (pure; see dialects.py).

MyST ```` ```{note} ```` and `:::{note}`, Docusaurus `:::tip Title` and `:::info[Title]`,
pymdown `/// warning | Title`, and mkdocstrings' `::: package.module`. An admonition becomes
`directive_open` and `directive_close` tokens of its family, with a title paragraph; a code
directive becomes a code block, a command whose output the generator inserts a console block
of the command; navigation and include directives produce nothing, any other directive shows
its body as text, and each kind is noted in the env for the build to report. What each name is
drawn as is directive_kinds.py's; its ADMONITIONS serve MkDocs admonitions and GitHub alerts too.
A list-table is drawn as a table (list_tables.py), a glossary as a definition list
(glossaries.py), an image or figure as its picture.
"""
from __future__ import annotations

import re
from collections.abc import Callable

from markdown_it.rules_block import StateBlock

from ..errors import ContentError
from . import glossaries, list_tables, pandoc_divs
from .directive_kinds import (
    ADMONITIONS,
    CARDS,
    CODE_DIRECTIVES,
    COMMAND_DIRECTIVES,
    DIAGRAM_DIRECTIVES,
    DOCTEST_LANGUAGES,
    OBJECTS,
    SHOWN_AS_IS,
    SILENT_DIRECTIVES,
    TABS,
    TITLES,
    UNTITLED,
    card_parts,
    code_language,
)
from .generators import literal
from .markdown_writing import code_span

# An argument that is a file's path ("../../NEWS.rst", "data/table.json"): what an extension reads, not words
_PATH = re.compile(r"(?:\.{0,2}/)*[\w.-]+(?:/[\w.-]+)*\.(?:rst|md|txt|json|ya?ml|toml|csv|py|ipynb|html?|dot|svg|png)"
                   r"|(?:\.{0,2}/)+[\w./-]+", re.I)
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_EMBED_ID = re.compile(r"(?=[\w-]*\d)(?=[\w-]*[A-Za-z])[\w-]{6,}(?:/[\w-]+)?", re.ASCII)
_FENCE_MARKERS = "`~:/"
_MYST_INFO = re.compile(r"^\{([A-Za-z][\w:.+-]*)\}\s*(.*)$")
# :::tip Title, /// note | Title, Docusaurus 3's :::info[Title]
_PLAIN_INFO = re.compile(r"^([A-Za-z][\w-]*)(?:\[(.*)\]\s*(?:\{[^{}]*\})?|\s+(.*))?$")
_AUTODOC_HEADING = re.compile(r"#{1,6}[ \t]+(?=:::[ \t]*[\w.-])")
_OPTION = re.compile(r"^\s*:[\w-]+:")                            # :class: dropdown
# Options an object's description shows as fields (Sphinx's `confval`: "Type: str", "Default: 'alabaster'"),
# their values written as markdown: a role around code (":code-py:`'x'`", "{code-py}`'x'`") is that code.
_FIELDS = {"type": "Type", "default": "Default"}
_FIELD = re.compile(r"^\s*:([\w-]+):\s*(.*?)\s*$")
_RST_ROLE = re.compile(r":[\w:+.-]+:(?=`)|\{[\w:+.-]+\}(?=`)")


def directive_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """markdown-it block rule: a fenced directive opened on line `start` (see the module's docstring)."""
    if state.is_code_block(start):
        return False
    pos = state.bMarks[start] + state.tShift[start]
    maximum = state.eMarks[start]
    heading = _AUTODOC_HEADING.match(state.src, pos, maximum)     # mkdocstrings' `## ::: package.module`
    pos = heading.end() if heading else pos
    if pos >= maximum or state.src[pos] not in _FENCE_MARKERS:
        return False
    marker = state.src[pos]
    opened = state.skipCharsStr(pos, marker) - pos
    if opened < 3:
        return False
    info = state.src[pos + opened:maximum].strip()
    div = pandoc_divs.read_div(info) if marker == ":" and not heading else None
    if div is not None:
        if not silent:
            _pandoc_div(state, div, start, end)
        return True
    match = _MYST_INFO.match(info)
    if match is None and marker in ":/":
        match = _PLAIN_INFO.match(info.replace("|", " ", 1) if marker == "/" else info)
    if match is None:
        if marker == ":" and not info:
            return False      # a stray closing ":::" is text
        if marker == ":" and info:
            match = re.match(r"^(\S+)\s*(.*)$", info)   # `::: module.name` (mkdocstrings)
        else:
            return False
    if silent:
        return True
    name = match.group(1).lower().split("#")[0]     # VuePress's `::: tabs#fruit` names its tabs' group
    argument = next((part for part in match.groups()[1:] if part), "").strip()

    extension = marker == ":" and info[:1] != "{" and not argument and name.split(":")[-1] not in ADMONITIONS
    indented = _indented_end(state, start, end) if extension else start + 1
    if extension and ("." in name or indented > start + 1):
        # mkdocstrings' or mkdocs-click's form: options indented under it, no closing fence, and
        # what it stands for only the extension can fill in
        state.env.setdefault("silent_directives", set()).add("::: (autodoc)" if "." in name else name)
        state.line = indented
        return True
    if heading:
        return False
    line, closed = _closing_line(state, start, end, marker, opened)
    body_start = start + 1
    while body_start < line and _OPTION.match(state.getLines(body_start, body_start + 1, 0, False)):
        body_start += 1
    if body_start < line and state.getLines(body_start, body_start + 1, 0, False).strip() == "---":
        for yaml_end in range(body_start + 1, line):   # MyST options as a YAML block
            if state.getLines(yaml_end, yaml_end + 1, 0, False).strip() == "---":
                body_start = yaml_end + 1
                break
    _emit(state, name, argument, start, body_start, line)
    state.line = line + (1 if closed else 0)
    return True


def _pandoc_div(state: StateBlock, div: pandoc_divs.Div, start: int, end: int) -> None:
    """A Pandoc fenced div (pandoc_divs.py): a callout as the admonition of its kind, titled by its
    `title` or, as Quarto does, by a heading that opens it; any other div as the content it holds."""
    line, closed = _closing_line(state, start, end, ":", 3, pandoc_divs.Nesting())
    body_start, title = start + 1, div.title
    while body_start < line and state.isEmpty(body_start):
        body_start += 1
    heading = _ATX_HEADING.match(state.getLines(body_start, body_start + 1, 0, False)) if body_start < line else None
    if div.kind and not title and heading:
        title, body_start = heading.group(1).strip(), body_start + 1
    _emit(state, div.kind or "div", title, start, body_start, line)
    state.line = line + (1 if closed else 0)


_ATX_HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.*?)[ \t#]*$")


def _closing_line(state: StateBlock, start: int, end: int, marker: str, opened: int,
                  nesting: pandoc_divs.Nesting | None = None) -> tuple[int, bool]:
    """The line of the fence that closes the directive opened at `start`, or where it runs out; with
    `nesting`, the bare fence no div opened inside has claimed (a Pandoc div's)."""
    line = start
    while True:
        line += 1
        if line >= end:
            return line, False
        begin = state.bMarks[line] + state.tShift[line]
        stop = state.eMarks[line]
        if begin < stop and state.sCount[line] < state.blkIndent:
            return line, False
        if nesting is not None:
            if not state.is_code_block(line) and nesting.closes(state.src[begin:stop]):
                return line, True
            continue
        if begin < stop and state.src[begin] == marker and not state.is_code_block(line):
            after = state.skipCharsStr(begin, marker)
            if after - begin >= opened and state.skipSpaces(after) >= stop:
                return line, True


def _indented_end(state: StateBlock, start: int, end: int) -> int:
    """Past the last line indented under `start`. A `:::` directive named like a module or an
    extension (mkdocstrings' `::: package.Class`, `::: mkdocs-click`) with indented options holds
    just those lines: it has no closing fence, and a later `:::` is somebody else's."""
    line = last = start + 1
    while line < end:
        if not state.isEmpty(line):
            if state.sCount[line] <= state.sCount[start]:
                break
            last = line + 1
        line += 1
    return last


def _emit(state: StateBlock, name: str, argument: str, start: int, body_start: int, body_end: int) -> None:
    base = name.split(":")[-1]
    env = state.env
    if base in CODE_DIRECTIVES or base in DIAGRAM_DIRECTIVES or base in pandoc_divs.CELL_LANGUAGES:
        cell = base in pandoc_divs.CELL_LANGUAGES      # Quarto's and R Markdown's ```{python}, ```{r}
        language = base if cell or base == "math" or base in DIAGRAM_DIRECTIVES else \
            DOCTEST_LANGUAGES[base] if base in DOCTEST_LANGUAGES else argument.split()[0] if argument else ""
        body = state.getLines(body_start, body_end, state.blkIndent, True).lstrip("\n")    # the blank line after options
        _code_block(state, language, pandoc_divs.cell_body(body) if cell else body, start, body_end)
        return
    if base in COMMAND_DIRECTIVES:
        env.setdefault("command_directives", set()).add(base)
        _code_block(state, "console", f"$ {argument.strip()}\n", start, body_end)
        return
    if base == "toctree" and _toctree(state, start, body_start, body_end):
        return
    if base == "image" and argument:
        _image(state, argument, start, body_start)
        return
    if base in SILENT_DIRECTIVES or base.startswith("auto") or "." in base:
        env.setdefault("silent_directives", set()).add(base if "." not in base else "::: (autodoc)")
        return
    family = None if ":" in name else ADMONITIONS.get(base)    # `click:example` is an extension's, not a note
    body = state.getLines(body_start, body_end, state.blkIndent, True)
    if base == "eval-rst":
        _read_rst(state, body, start, body_end)
        return
    if base == "glossary" and (terms := glossaries.as_definition_list(body.split("\n"))) is not None:
        _parse_at(state, "\n".join(terms), lambda at: [at[0] + body_start, at[1] + body_start])   # line for line
        return
    language = code_language(body) if family is None else None
    if language:
        _code_block(state, language, body, start, body_end)
        return
    names_file = family is None and bool(_PATH.fullmatch(argument))
    if (names_file or _extension_object(name, base, argument) or _embeds(family, base, argument)) and not body.strip():
        # an extension reading a file, the code of an object (Jinja's `.. jinja:filters::
        # jinja2.defaults.DEFAULT_FILTERS` lists the filters it finds there) or what a service serves
        # (`{youtube} 2Z7wDaYt53Y`, a video): nothing to show
        env.setdefault("silent_directives", set()).add(base)
        return
    if family is None and base not in SHOWN_AS_IS and base not in OBJECTS and base != "list-table":
        env.setdefault("text_directives", set()).add(base)
    if base in UNTITLED or names_file:
        title = ""     # their argument is a file, a URL or a selector, not words for the reader
    elif base in OBJECTS and argument:
        title = code_span(argument)
    elif family is None:
        title = argument
    elif "{arg}" in TITLES.get(base, ""):
        title = TITLES[base].format(arg=argument).strip()
    else:
        title = argument or TITLES.get(base, base.capitalize())
    token = state.push("directive_open", "aside" if family else "div", 1)
    token.meta = {"family": family, "name": base}
    token.map, token.block = [start, body_end], True
    if base == "figure" and argument:
        _image(state, argument, start, body_start)
    if title:
        _paragraph(state, title, start, "admonition_title" if family else "paragraph",
                   {"class": "tab-label"} if base in TABS else None)
    for line in range(start + 1, body_start) if family is None else ():
        field = _FIELD.match(state.getLines(line, line + 1, 0, False))
        if field and field.group(1).lower() in _FIELDS and field.group(2):
            _paragraph(state, f"{_FIELDS[field.group(1).lower()]}: {_RST_ROLE.sub('', field.group(2))}", line)
    old_max, old_parent = state.lineMax, state.parentType
    state.lineMax, state.parentType = body_end, "directive"
    first = len(state.tokens)
    shown_end = body_end if base in CARDS else _demo_end(state, body_start, body_end)
    parts = card_parts([state.getLines(n, n + 1, 0, False) for n in range(body_start, shown_end)]) \
        if base in CARDS else [(0, shown_end - body_start)]
    for part_start, part_end in parts:
        state.lineMax = body_start + part_end       # a paragraph reads on to lineMax, not to the end it is given
        state.md.block.tokenize(state, body_start + part_start, body_start + part_end)
    state.lineMax, state.parentType = old_max, old_parent
    if base == "list-table":
        table = list_tables.as_table(state.tokens[first:], *list_tables.options(state.getLines(start + 1, body_start, 0, False)))
        if table is None:
            env.setdefault("text_directives", set()).add(base)
        else:
            state.tokens[first:] = table
    state.push("directive_close", "aside" if family else "div", -1).block = True


def _extension_object(name: str, base: str, argument: str) -> bool:
    """Is this an extension's directive (`jinja:nodes`) naming only a Python object by its dotted path
    (`jinja2.nodes.Node`)? What it shows is made from that object's code, which is not in the docs."""
    return ":" in name and base not in OBJECTS and bool(_DOTTED.fullmatch(_unescaped(argument)))


def _unescaped(argument: str) -> str:
    """The argument without the backslashes rST's fence escapes its "_" with."""
    return argument.strip().replace("\\", "")


def _embeds(family: str | None, base: str, argument: str) -> bool:
    """Is the argument of an extension's directive one identifier with a digit in it, what it embeds from
    elsewhere (`{youtube} 2Z7wDaYt53Y`, `{gist} 1f2e3d`), not words for the reader?"""
    return (family is None and base not in OBJECTS and base not in SHOWN_AS_IS
            and bool(_EMBED_ID.fullmatch(_unescaped(argument))))


def _read_rst(state: StateBlock, body: str, start: int, end: int) -> None:
    """MyST's `{eval-rst}`: its body read as reStructuredText, its blocks at the directive's lines."""
    from .rst_markdown import fragment  # docutils only for a page that asks for it

    try:
        written = fragment(body)
    except (ContentError, RecursionError):     # what docutils cannot read is shown as the text it is
        written = body
    _parse_at(state, written, lambda _: [start, end])


def _parse_at(state: StateBlock, text: str, lines: Callable[[list[int]], list[int]]) -> None:
    """`text` parsed in place of the directive, each block's lines in it mapped to the page's by `lines`."""
    first = len(state.tokens)
    state.md.block.parse(text, state.md, state.env, state.tokens)
    for token in state.tokens[first:]:
        if token.map:
            token.map = lines(token.map)


def _toctree(state: StateBlock, start: int, body_start: int, end: int) -> bool:
    """A toctree that is not `:hidden:` as Sphinx shows it: a list of links to its pages, each shown
    by its title (links.py fills in a link without words). Glob patterns and `self` are left out."""
    if _HIDDEN.search(state.getLines(start + 1, body_start, 0, False)):
        return False
    entries = [entry for line in state.getLines(body_start, end, 0, False).split("\n")
               if (entry := toctree_entry(line)) is not None and not any(c in entry[1] for c in "*?[")]
    items = [f"- [{literal(title)}](<{target}>)" for title, target in entries]
    if not items:
        return False
    _parse_at(state, "\n".join(items) + "\n", lambda _: [start, end])
    return True


def toctree_entry(line: str) -> tuple[str, str] | None:
    """(title or "", target) of a toctree's line ("The tutorial <tutorial/index>", "guide"); None for a
    blank line, an option or `self`."""
    item = line.strip()
    if not item or item.startswith(":") or item == "self":
        return None
    titled = _TITLED_ENTRY.match(item)
    return (titled.group(1), titled.group(2).strip()) if titled else ("", item)


_HIDDEN = re.compile(r"^\s*:?hidden:", re.M)
_TITLED_ENTRY = re.compile(r"^(.*?)\s*<([^<>]+)>$")      # "The tutorial <tutorial/index>"


def _image(state: StateBlock, src: str, start: int, body_start: int) -> None:
    """An image or figure directive's picture, as markdown's image of its path (media.py publishes it)."""
    alt = next((m.group(1) for line in state.getLines(start + 1, body_start, 0, False).split("\n")
                if (m := _ALT.match(line))), "")
    _paragraph(state, f"![{literal(alt)}](<{src.strip()}>)", start)


_ALT = re.compile(r"^\s*:?alt:\s*(.*?)\s*$")


def _paragraph(state: StateBlock, content: str, line: int, kind: str = "paragraph", attrs: dict | None = None) -> None:
    token = state.push(f"{kind}_open", "p", 1)
    token.map, token.attrs = [line, line + 1], attrs or {}
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = content, [line, line + 1], []
    state.push(f"{kind}_close", "p", -1)


def _code_block(state: StateBlock, language: str, content: str, start: int, end: int) -> None:
    token = state.push("fence", "code", 0)
    token.info, token.content = language, content
    token.markup, token.map = "```", [start, end]


def _demo_end(state: StateBlock, start: int, end: int) -> int:
    """A demo showing one thing two ways (furo-demo: MyST, `+++`, then rST) shows the first."""
    for line in range(start, end):
        if state.getLines(line, line + 1, 0, False).strip() == "+++":
            return line
    return end
