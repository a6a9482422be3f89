"""The markdown dialects docs are written in, on one markdown-it parser (pure).

CommonMark, tables and strikethrough, plus what real docs folders use:

- admonitions: MkDocs `!!! note "Title"` (mdit-py-plugins `admon`), GitHub alerts
  `> [!NOTE]` (markdown-it-py's own), and fenced directives (fenced_directives.py):
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
from markdown_it.rules_core import StateCore
from markdown_it.token import Token
from mdit_py_plugins.admon import admon_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.footnote import footnote_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

from . import fenced_directives, generators, inline_markup, mdx, pandoc_divs
from .directive_kinds import ADMONITIONS, CODE_DIRECTIVES, COMMAND_DIRECTIVES, SILENT_DIRECTIVES, TITLES, UNTITLED

__all__ = ["ADMONITIONS", "CODE_DIRECTIVES", "COMMAND_DIRECTIVES", "SILENT_DIRECTIVES", "TITLES", "UNTITLED",
           "make_parser", "role_parts"]

_HEADING_ATTRS = re.compile(r"\s*\{:?\s*([#.]\\?[\w:.-]+(?:\s+[#.]\\?[\w:.-]+)*)\s*\}\s*$")   # {: #\6.0} too
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
    md.block.ruler.before("fence", "directive", fenced_directives.directive_rule,
                          {"alt": ["paragraph", "reference", "blockquote", "list", "footnote_def"]})
    md.core.ruler.after("normalize", "mdx", mdx.strip_javascript)
    md.core.ruler.after("mdx", "generators", generators.read_generator_syntax)
    md.block.ruler.before("table", "label", generators.label_rule, {"alt": ["paragraph", "blockquote", "list"]})
    md.block.ruler.before("html_block", "markdown_tag", generators.markdown_tag_rule,
                          {"alt": ["paragraph", "reference", "blockquote"]})
    md.core.ruler.push("dialect_cleanup", _cleanup)
    md.core.ruler.push("interlinks", pandoc_divs.interlinks)
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
    ids = [part[1:].lstrip("\\") for part in match.group(1).split() if part.startswith("#")]
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
    full, name = name, name.split(":")[-1]
    if name == "abbr":
        match = _ABBR.match(content)
        return (match.group(1), None, match.group(2)) if match else (content, None, None)
    match = _ROLE_TARGET.match(content)
    if match:
        return match.group(1) or match.group(2), match.group(2), None
    if name in ("doc", "ref", "any", "numref"):
        return content.lstrip("~!"), content.lstrip("~!"), None
    if name == "term":
        return without_inventory(content.lstrip("~!")), content.lstrip("~!"), None
    if name in _OBJECT_ROLES:
        return object_shown(full, content), None, None
    if name in ("envvar", "option") and not full.startswith("rst:"):
        return without_inventory(content), None, None
    return content, None, None


# Sphinx's cross-references to a Python object, shown as code
_OBJECT_ROLES = frozenset("func meth class attr data obj exc mod const type".split())


def object_shown(name: str, target: str) -> str:
    """What Sphinx shows for a cross-reference to an object: `~a.b.c` shows `c`, `!x` (no link) `x`,
    a function or method gains `()`, and another project's object (`python:ValueError`, found in that
    project's intersphinx inventory) shows without the inventory's name."""
    shown = target.lstrip("!.")
    name, inventory = name.split(":")[-1], not name.startswith("rst:")   # `rst:dir` names a directive
    shown = without_inventory(shown).lstrip("!.") if inventory else shown
    if name in _PYTHON_ROLES and shown.lstrip("~").startswith("@"):
        # no Python name starts with "@": Celery's abbreviations (its docs' celerydocs extension), where
        # `@config_from_object` is the app's method and `@-x` is x, shown as x
        shown = ("~" if shown.startswith("~") else "") + shown.lstrip("~").removeprefix("@-").lstrip("@")
    shown = shown[1:].rpartition(".")[2] if shown.startswith("~") else shown
    if name in ("func", "meth") and not shown.endswith(")"):
        shown += "()"
    return shown


def zzzeek_shown(name: str, text: str, prefixes: dict[str, str]) -> str:
    """The object zzzeeksphinx shows for a cross-reference (its `replace_synonyms`), written as the target
    `object_shown` shows so. A leading module prefix of conf.py's (`_orm` in `_orm.Session.commit`) stands for
    its module; then a method, attribute or parameter shows its last two names ("Session.commit()"; three for a
    class's method's parameter), and a function, object, module or class reached through a prefix
    (`_engine.Engine`) or searched for (`.Engine`) its last name. A target with its own title, or any other
    role, stays as written."""
    if "<" in text:
        return text
    target = text.lstrip("~")
    target = target[1:] if target.startswith(".") else target
    tokens = target.split(".")
    renamed = tokens[0] in prefixes
    if renamed:
        tokens[0] = prefixes[tokens[0]]
    if name in ("meth", "attr", "paramref"):
        need = 3 if name == "paramref" and len(tokens) >= 3 and tokens[-3][:1].isupper() else min(len(tokens), 2)
        return ".".join(tokens[-need:])
    if name in ("func", "obj", "data", "mod") and (renamed or text[:1] in ".~") or \
            name == "class" and (renamed or text[:1] == "."):
        return tokens[-1]
    return text


ZZZEEK_ROLES = frozenset("meth attr paramref func obj data mod class".split())
# zzzeeksphinx's marks in an SQL code block (`{execsql}BEGIN (implicit)`, `ROLLBACK{stop}`): where the SQL a
# statement emits starts and stops, drawn as a box on its site, never shown as written
_SQL_MARKS = re.compile(r"\{(?:sql|execsql|opensql|printsql|stop)\}")


def zzzeek_sql(code: str) -> str:
    """An SQL code block of a zzzeeksphinx project without the marks of where each statement's SQL starts and stops."""
    return _SQL_MARKS.sub("", code)

# "python:" of `python:ValueError`: an intersphinx inventory's name. A C++ name ("std::vector") has two colons,
# and a domain's name is no inventory's (Sphinx's change log writes of the `py:function` directive).
_INVENTORY = re.compile(r"^[~!]?([a-z][\w-]*):(?=[^:\s])(?!//)")
_DOMAINS = frozenset("py c cpp js rst math std http".split())
_PYTHON_ROLES = frozenset("func meth class exc attr obj data mod".split())


def without_inventory(target: str) -> str:
    """The target of a cross-reference to another project's docs without that project's inventory name
    ("python:implementations" → "implementations"): what Sphinx, which reads the inventory, shows for an
    object, and the nearest to its title for a section or a page of that project."""
    match = _INVENTORY.match(target)
    if match is None or match.group(1) in _DOMAINS:
        return target
    mark = target[:1] if target[:1] in "~!" else ""
    return mark + target[match.end():]


def standard_reference(name: str, text: str) -> tuple[str, str, str] | None:
    """(title written or "", "PEP 8" or "RFC 2616", its URL) of Sphinx's `pep`/`rfc` role on `8`,
    `8#anchor` or `title <8#anchor>`; None when the text names no number."""
    match = re.fullmatch(r"(?:(.*?)\s*<)?\s*(\d+)(#[^>\s]*)?\s*>?", text, re.S)
    if match is None:
        return None
    title, number, anchor = match.group(1) or "", int(match.group(2)), match.group(3) or ""
    if name.lower().startswith("pep"):
        return title, f"PEP {number}", f"https://peps.python.org/pep-{number:04d}/{anchor}"
    return title, f"RFC {number}", f"https://datatracker.ietf.org/doc/html/rfc{number}.html{anchor}"


def _render_role(self, tokens, idx, options, env) -> str:
    token = tokens[idx]
    name = token.meta.get("name", "")
    if name in ("octicon", "fa", "icon", "material") or name.startswith("icon"):
        return ""
    if name.lower() in ("pep", "rfc") and (standard := standard_reference(name, token.content)):
        title, shown, url = standard
        return f'<a href="{escapeHtml(url)}">{escapeHtml(title or shown)}</a>'
    text, _, expansion = role_parts(name, token.content)
    if name in ("file", "samp"):      # Sphinx reads `\\` in them as one backslash, `\{` as a brace
        text = re.sub(r"\\([\\{}])", r"\1", text)
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
