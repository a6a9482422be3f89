"""The markdown dialects docs are written in, on one markdown-it parser (pure).

CommonMark, tables and strikethrough, plus what real docs folders use:

- admonitions: MkDocs `!!! note "Title"` (mdit-py-plugins `admon`), GitHub alerts
  `> [!NOTE]` (markdown-it-py's own), and fenced directives (the `directive` rule here):
  MyST ```` ```{note} ```` and `:::{note}`, Docusaurus `:::tip Title`, pymdown
  `/// warning | Title`. Every admonition becomes `<aside class="admonition kind-FAMILY"
  role="note">` with a title paragraph, so its title and sentences are citable passages;
- other directives: code directives become code blocks, a command whose output the generator
  inserts (`program-output`) a console block of the command, navigation and include directives
  produce nothing (and are reported), any other directive shows its body as text, never
  as a code block;
- MyST roles (`` {abbr}`MyST (Markedly Structured Text)` ``) render as their text, targets
  `(label)=` as anchors, `%` comments and `+++` breaks as nothing;
- definition lists, footnotes, heading ids written `{#id}` or `{: #id }`, GitHub's
  emoji shortcodes (`:white_check_mark:`), and mkdocs-autorefs cross-references
  (`[text][package.Class]`, which no definition resolves) shown as their text
  (the inline ones in inline_markup.py);
- raw HTML is parsed, then the whole body is sanitised (sanitize.py).

Roles and links that name other pages are resolved later, once every page is known
(render.resolve_links).
"""
from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from . import generators, inline_markup, mdx

# kind as written → the family it is drawn as (style.css and sanitize.CLASSES know these)
ADMONITIONS = {
    **dict.fromkeys("note info seealso abstract summary tldr todo example quote question".split(), "note"),
    **dict.fromkeys("tip hint success check done".split(), "tip"),
    "important": "important",
    **dict.fromkeys("warning caution attention".split(), "warning"),
    **dict.fromkeys("danger error failure fail missing bug".split(), "danger"),
    **dict.fromkeys("versionadded versionchanged deprecated".split(), "version"),
    "admonition": "note",
}
TITLES = {"seealso": "See also", "tldr": "TL;DR", "versionadded": "New in version {arg}",
          "versionchanged": "Changed in version {arg}", "deprecated": "Deprecated since version {arg}"}
CODE_DIRECTIVES = frozenset("code code-block sourcecode code-cell literal math".split())
# sphinxcontrib-programoutput: the generator runs the command and shows its output; here, the command.
COMMAND_DIRECTIVES = frozenset("program-output command-output".split())
# Directives that place other files or navigation: nothing to show on the page itself.
UNTITLED = frozenset("figure button-link button-ref html div".split())
SILENT_DIRECTIVES = frozenset("""
toctree include literalinclude toc contents tableofcontents raw iframe image meta index
highlight currentmodule module bibliography embed
""".split())

_FENCE_MARKERS = "`~:/"
_MYST_INFO = re.compile(r"^\{([A-Za-z][\w:.+-]*)\}\s*(.*)$")
# :::tip Title, /// note | Title, Docusaurus 3's :::info[Title]
_PLAIN_INFO = re.compile(r"^([A-Za-z][\w-]*)(?:\[(.*)\]\s*(?:\{[^{}]*\})?|\s+(.*))?$")
_AUTODOC_HEADING = re.compile(r"#{1,6}[ \t]+(?=:::[ \t]*[\w.-])")
_OPTION = re.compile(r"^\s*:[\w-]+:")                            # :class: dropdown
_HEADING_ATTRS = re.compile(r"\s*\{:?\s*([#.][\w:.-]+(?:\s+[#.][\w:.-]+)*)\s*\}\s*$")
# `> [!NOTE]` a formatter escaped, and Obsidian / pymdown callouts: `> [!tip]- Title`
_ESCAPED_ALERT = re.compile(r"^\\?\[!([A-Za-z]+)\][+-]?(?:[ \t]+([^\n]*?))?[ \t]*(\n|$)")
_ROLE_TARGET = re.compile(r"^(.*?)\s*<([^<>]+)>\s*$", re.S)
_ABBR = re.compile(r"^(.*?)\s*\(([^()]+)\)\s*$", re.S)


def make_parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": True, "linkify": False, "typographer": False, "alerts": True})
    md.enable(["table", "strikethrough"])
    md.use(admon_plugin)
    md.use(deflist_plugin)
    md.use(footnote_plugin)
    md.use(myst_block_plugin)
    md.use(myst_role_plugin)
    md.block.ruler.before("fence", "directive", _directive_rule,
                          {"alt": ["paragraph", "reference", "blockquote", "list", "footnote_def"]})
    md.core.ruler.after("normalize", "mdx", mdx.strip_javascript)
    md.core.ruler.after("mdx", "generators", generators.read_generator_syntax)
    md.block.ruler.before("table", "label", generators.label_rule, {"alt": ["paragraph", "blockquote", "list"]})
    md.block.ruler.before("html_block", "markdown_tag", generators.markdown_tag_rule,
                          {"alt": ["paragraph", "reference", "blockquote"]})
    md.core.ruler.push("dialect_cleanup", _cleanup)
    md.core.ruler.before("text_join", "autorefs", inline_markup.autorefs)
    for kind in ("admonition_open", "alert_open", "directive_open"):
        md.add_render_rule(kind, _render_open)
    for kind in ("admonition_close", "alert_close", "directive_close"):
        md.add_render_rule(kind, _render_close)
    for kind in ("admonition_title_open", "alert_title_open"):
        md.add_render_rule(kind, lambda self, tokens, idx, options, env: '<p class="admonition-title">')
    for kind in ("admonition_title_close", "alert_title_close"):
        md.add_render_rule(kind, lambda self, tokens, idx, options, env: "</p>\n")
    md.add_render_rule("myst_role", _render_role)
    md.add_render_rule("myst_target", lambda self, tokens, idx, options, env:
                       f'<span id="{escapeHtml(tokens[idx].content)}"></span>\n')
    md.add_render_rule("myst_line_comment", lambda *args: "")
    md.add_render_rule("myst_block_break", lambda *args: "")
    md.add_render_rule("footnote_anchor", _render_footnote_anchor)
    return md


# ---- fenced directives ------------------------------------------------------------------

def _directive_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
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
    name = match.group(1).lower()
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


def _closing_line(state: StateBlock, start: int, end: int, marker: str, opened: int) -> tuple[int, bool]:
    """The line of the fence that closes the directive opened at `start`, or where it runs out."""
    line = start
    while True:
        line += 1
        if line >= end:
            return line, False
        begin = state.bMarks[line] + state.tShift[line]
        stop = state.eMarks[line]
        if begin < stop and state.sCount[line] < state.blkIndent:
            return line, False
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
    if base in CODE_DIRECTIVES:
        language = "math" if base == "math" else argument.split()[0] if argument else ""
        _code_block(state, language, state.getLines(body_start, body_end, state.blkIndent, True), start, body_end)
        return
    if base in COMMAND_DIRECTIVES:
        env.setdefault("command_directives", set()).add(base)
        _code_block(state, "console", f"$ {argument.strip()}\n", start, body_end)
        return
    if base in SILENT_DIRECTIVES or base.startswith("auto") or "." in base:
        env.setdefault("silent_directives", set()).add(base if "." not in base else "::: (autodoc)")
        return
    family = ADMONITIONS.get(base)
    if family is None:
        env.setdefault("text_directives", set()).add(base)
    if base in UNTITLED:
        title = ""     # their argument is a file, a URL or a selector, not words for the reader
    elif family is None:
        title = argument
    elif "{arg}" in TITLES.get(base, ""):
        title = TITLES[base].format(arg=argument).strip()
    else:
        title = argument or TITLES.get(base, base.capitalize())
    token = state.push("directive_open", "aside" if family else "div", 1)
    token.meta = {"family": family, "name": base}
    token.map, token.block = [start, body_end], True
    if title:
        token = state.push("admonition_title_open" if family else "paragraph_open", "p", 1)
        token.map = [start, start + 1]
        inline = state.push("inline", "", 0)
        inline.content, inline.map, inline.children = title, [start, start + 1], []
        state.push("admonition_title_close" if family else "paragraph_close", "p", -1)
    old_max, old_parent = state.lineMax, state.parentType
    state.lineMax, state.parentType = body_end, "directive"
    state.md.block.tokenize(state, body_start, _demo_end(state, body_start, body_end))
    state.lineMax, state.parentType = old_max, old_parent
    state.push("directive_close", "aside" if family else "div", -1).block = True


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


# ---- after parsing ------------------------------------------------------------------------

def _cleanup(state: StateCore) -> None:
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type in ("admonition_open", "alert_open"):
            kind = (token.meta.get("tag") or token.meta.get("kind") or "note").lower()
            token.meta = {"family": ADMONITIONS.get(kind, "note"), "name": kind}
        elif token.type == "heading_open":
            _heading_attrs(token, tokens[index + 1])
        elif token.type == "blockquote_open" and index + 2 < len(tokens):
            _escaped_alert(tokens, index)
        elif token.type == "list_item_open":
            inline_markup.task_item(tokens, index)
        elif token.type == "inline" and token.children:
            inline_markup.attributes(token.children)
            inline_markup.shortcodes(token.children)
            inline_markup.marked(token.children)
            inline_markup.wikilinks(token.children)


def _heading_attrs(heading, inline) -> None:
    """`## Title {#id}` / `## Title {: #id .class }`: the id is kept, the braces go."""
    match = _HEADING_ATTRS.search(inline.content)
    if match is None or not inline.children or inline.children[-1].type != "text":
        return
    last = inline.children[-1]
    tail = _HEADING_ATTRS.search(last.content)
    if tail is None:
        return
    last.content = last.content[:tail.start()]
    inline.content = inline.content[:match.start()]
    ids = [part[1:] for part in match.group(1).split() if part.startswith("#")]
    if ids:
        heading.meta["id"] = ids[0]


def _escaped_alert(tokens, index: int) -> None:
    """`> \\[!NOTE]` (a formatter escaped the bracket), and a callout with a title
    (`> [!warning] Symlinks`, Obsidian and pymdown): still the alert its author meant."""
    opening, paragraph, inline = tokens[index], tokens[index + 1], tokens[index + 2]
    match = _ESCAPED_ALERT.match(inline.content) if paragraph.type == "paragraph_open" else None
    if match is None or match.group(1).lower() not in ADMONITIONS:
        return
    kind = match.group(1).upper()
    shown = (match.group(2) or "").strip() or kind.capitalize()
    closing = next(t for t in tokens[index + 1:] if t.type == "blockquote_close" and t.level == opening.level)
    opening.type, opening.meta = "alert_open", {"family": ADMONITIONS.get(kind.lower(), "note"), "name": kind}
    closing.type = "alert_close"
    rest = inline.content[match.end():]
    title = Token("inline", "", 0)
    title.content, title.map = shown, inline.map
    title.children = [Token("text", "", 0)]
    title.children[0].content = shown
    tokens[index + 1:index + 1] = [Token("alert_title_open", "p", 1), title, Token("alert_title_close", "p", -1)]
    if not rest.strip():   # the marker was the whole paragraph
        for t in (paragraph, inline, tokens[index + 6]):
            t.hidden = True
        paragraph.type = tokens[index + 6].type = "myst_line_comment"   # renders as nothing
        inline.children = []
        return
    cut = next((i for i, c in enumerate(inline.children) if c.type in ("softbreak", "hardbreak")), None)
    inline.content = rest
    inline.children = inline.children[cut + 1:] if cut is not None else inline.children


# ---- rendering ----------------------------------------------------------------------------

def _render_open(self, tokens, idx, options, env) -> str:
    family = tokens[idx].meta.get("family")
    if family:
        return f'<aside class="admonition kind-{family}" role="note">\n'
    return '<div class="directive">\n'


def _render_close(self, tokens, idx, options, env) -> str:
    return "</aside>\n" if tokens[idx].tag == "aside" or tokens[idx].type != "directive_close" else "</div>\n"


def role_parts(name: str, content: str) -> tuple[str, str | None, str | None]:
    """(text shown, link target or None, abbreviation expansion or None) of a MyST role."""
    name = name.split(":")[-1]
    if name == "abbr":
        match = _ABBR.match(content)
        return (match.group(1), None, match.group(2)) if match else (content, None, None)
    match = _ROLE_TARGET.match(content)
    if match:
        return match.group(1) or match.group(2), match.group(2), None
    if name in ("doc", "ref", "any", "numref", "term"):
        return content.lstrip("~!"), content.lstrip("~!"), None
    return content, None, None


def _render_role(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    name = token.meta.get("name", "")
    if name in ("octicon", "fa", "icon", "material") or name.startswith("icon"):
        return ""
    text, _, expansion = role_parts(name, token.content)
    href = token.meta.get("href")
    inner = escapeHtml(text or token.meta.get("label", ""))
    if name == "kbd":
        return f"<kbd>{inner}</kbd>"
    if name in ("sub", "sup"):
        return f"<{name}>{inner}</{name}>"
    if name in ("code", "literal", "file", "command", "samp", "envvar", "option", "py:func", "func", "class",
                "meth", "mod", "attr", "data", "obj", "exc"):
        inner = f"<code>{inner}</code>"
    if expansion:
        return f'<abbr title="{escapeHtml(expansion)}">{inner}</abbr>'
    if href:
        return f'<a href="{escapeHtml(href)}">{inner}</a>'
    return inner


def _render_footnote_anchor(self, tokens, idx, options, env) -> str:
    n = tokens[idx].meta["id"] + 1
    sub = tokens[idx].meta.get("subId", 0)
    ref = f"fnref{n}" + (f":{sub}" if sub > 0 else "")
    # an inline-block (style.css, rules.INLINE_BLOCK_CLASSES): never part of the sentence before it
    return f' <a href="#{ref}" class="footnote-backref" title="Back to the text">↩︎</a>'
