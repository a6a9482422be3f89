"""Inline markup of real docs' dialects, on markdown-it's inline tokens (pure; dialects.py's core rules).

- Python-Markdown's attr_list after an inline element (`**name**{ #name }`,
  `[guide](x.md){.internal-link target=_blank}`, `` `bug`{ .label } ``, `![logo](x.svg){ width="200" }`,
  an icon's `:material-lock:{ .lg }`): the id is kept, classes and other attributes go; pymdown's bracketed spans (`[words]{style="…"}`) show their words;
- GitHub's emoji shortcodes (`:white_check_mark:`) become the emoji, outside code; MkDocs
  Material's icon shortcodes (`:octicons-mark-github-16:`, `:material-check:`) produce nothing;
- mkdocs-autorefs cross-references (`[text][package.Class]`, `[package.Class][]`), which no
  definition on the page resolves, are shown as their text, as the MkDocs site shows its link;
- pymdown's `==marked words==` become `<mark>`;
- Obsidian wikilinks (`[[Other page]]`, `[[Other page|shown words]]`) link to the page of that
  file name (render.resolve_links), else show their words;
  an embedded image (`![[diagram.png]]`) is that image, other embeds show nothing;
- GitHub task list items (`- [x] Done`) lose their brackets and are drawn ticked or not by
  style.css, so the box is never part of the sentence a link quotes.
"""
from __future__ import annotations

import re

import emoji
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

# One attr_list item: #id, .class, key=value (the value bare or quoted).
_ATTR = r"""(?:[#.][\w:.-]+|[\w:.-]+=(?:"[^"\n]*"|'[^'\n]*'|[^\s"'{}]+))"""
_INLINE_ATTRS = re.compile(rf"^\{{:?\s*({_ATTR}(?:\s+{_ATTR})*)\s*\}}")
# mkdocs-autorefs cross-references, `[text][markdown.Markdown]` or `[markdown.Markdown][]`: without a
# definition on the page they are left as literal brackets, which MkDocs sites resolve to API pages.
_AUTOREF = re.compile(r"(?<![!\\\w])\[([^\[\]\n]+)\]\[([^\[\]\s]*)\]")
_AUTOREF_TAIL = re.compile(r"^([^\[\]]*)\]\[[^\[\]\s]*\]")
_COLON_ATTRS = re.compile(rf"\{{:\s*{_ATTR}(?:\s+{_ATTR})*\s*\}}")
_BRACKET_SPAN = re.compile(rf"(?<![\\!\]\w])\[([^\[\]\n]+)\]\{{:?\s*{_ATTR}(?:\s+{_ATTR})*\s*\}}")
_ICON = re.compile(r":(?:octicons|material|fontawesome|simple)-[a-z0-9-]+:")
_MARKED = re.compile(r"(?<![=\w])==(?=[^\s=])(.+?)(?<=[^\s=])==(?![=\w])")
_WIKILINK = re.compile(r"(!?)\[\[([^\[\]|#\n]*)(?:#([^\[\]|\n]*))?(?:\|([^\[\]\n]+))?\]\]")
_TASK = re.compile(r"^\[([ xX])\]\s+")
_IMAGE_FILE = re.compile(r"\.(?:png|jpe?g|gif|svg|webp|avif|ico|bmp)$", re.I)
# stand-alone only (never inside 10:30:00 or a:b:c), with the attribute list an icon may carry
_SHORTCODE = re.compile(rf"(?<![\w:])(:[a-z0-9_+-]+:)(?![\w:])(?:\{{:?\s*{_ATTR}(?:\s+{_ATTR})*\s*\}})?")


def attributes(children) -> None:
    """`**name**{ #name }`, `[guide](x.md){.internal-link target=_blank}`: Python-Markdown's attr_list after an
    inline element; the id is kept, the rest (classes, a link's target) is the generator's styling."""
    for i in range(1, len(children)):
        child, before = children[i], children[i - 1]
        if child.type != "text" or not (before.type.endswith("_close") or before.type in ("code_inline", "image")):
            continue
        match = _INLINE_ATTRS.match(child.content)
        if match is None:
            continue
        child.content = child.content[match.end():]
        ids = [part[1:] for part in re.findall(_ATTR, match.group(1)) if part.startswith("#")]
        opener = before if before.type in ("code_inline", "image") else next(
            (c for c in reversed(children[:i - 1]) if c.type == before.type.replace("_close", "_open")), None)
        if ids and opener is not None:
            opener.attrSet("id", ids[0])
    for child in children:
        if child.type == "text" and "{" in child.content:
            # `{: .class }` after what no rule made an element (an unresolved link); pymdown's bracketed
            # span `[words]{style="…"}` shows its words
            child.content = _BRACKET_SPAN.sub(r"\1", _COLON_ATTRS.sub("", child.content))


def autorefs(state: StateCore) -> None:
    """`[text][identifier]` that no definition resolved (mkdocs-autorefs): shown as its text, the way the
    MkDocs site shows its link. The text may hold markup: `[`md.reset()`][markdown.Markdown.reset]`.
    Runs before escapes join the text around them, so `\\[x\\]\\[y\\]` stays as written."""
    for token in state.tokens:
        if token.type == "inline" and token.children:
            _unbracket(token.children)


def _unbracket(children) -> None:
    for i, child in enumerate(children):
        if child.type != "text" or "][" not in child.content:
            continue
        child.content = _AUTOREF.sub(lambda m: m.group(1), child.content)
        tail = _AUTOREF_TAIL.match(child.content)
        if tail is None:
            continue
        # the opening bracket is the last one of an earlier text token, with only inline markup between
        for j in range(i - 1, -1, -1):
            before = children[j]
            if before.type != "text":
                if before.type in ("softbreak", "hardbreak", "text_special", "html_inline"):
                    break
                continue
            opening = before.content.rfind("[")
            if opening < 0:
                if "]" in before.content:
                    break
                continue
            if "]" not in before.content[opening:] and not re.search(r"[!\w]$", before.content[:opening]):
                before.content = before.content[:opening] + before.content[opening + 1:]
                child.content = tail.group(1) + child.content[tail.end():]
            break


def shortcodes(children) -> None:
    """`:white_check_mark:` as the emoji it names, an icon's as nothing (stand-alone only, never in code)."""
    for child in children:
        if child.type == "text" and ":" in child.content:
            child.content = _SHORTCODE.sub(_emoji_or_nothing, child.content)


def _emoji_or_nothing(shortcode: re.Match) -> str:
    """`:material-lock:{ .lg .middle }` is nothing, `:rocket:` its emoji; an unknown name stays as written."""
    name = shortcode.group(1)
    if _ICON.fullmatch(name):
        return ""
    shown = emoji.emojize(name, language="alias")
    return shown if shown != name else shortcode.group()


def marked(children: list[Token]) -> None:
    """`==words==` (pymdown's mark) as `<mark>words</mark>`, within one text token."""
    _replace_in_text(children, "==", _MARKED, lambda match: [
        _token("html_inline", "<mark>"), _token("text", match.group(1)), _token("html_inline", "</mark>")])


def wikilinks(children: list[Token]) -> None:
    """`[[Page]]` / `[[Page#Heading|words]]` as a `wikilink` role naming Page; `![[flow.png]]` (or
    `![[flow.png|300]]`, a width) as that image (media.py finds the file); another embed as nothing."""
    def link(match: re.Match) -> list[Token]:
        embed, target, heading, words = match.groups()
        shown = (words or target or heading or "").strip()
        if embed and _IMAGE_FILE.search(target.strip()):
            # Obsidian: `|300` or `|300x200` is a size; the file's name stands for words otherwise
            alt = words.strip() if words and not words.strip().replace("x", "").isdigit() else \
                target.strip().rsplit("/", 1)[-1].rsplit(".", 1)[0]
            image = Token("image", "img", 0, attrs={"src": target.strip(), "alt": ""}, children=[_token("text", alt)])
            image.content = alt
            return [image]
        if embed or not shown:
            return []
        role = _token("myst_role", f"{shown} <{target.strip()}>" if target.strip() else shown)
        role.meta = {"name": "wikilink" if target.strip() else "text"}
        return [role]
    _replace_in_text(children, "[[", _WIKILINK, link)


def _replace_in_text(children: list[Token], marker: str, pattern: re.Pattern, tokens_for) -> None:
    """Each match of `pattern` in a text token becomes the tokens `tokens_for(match)` gives."""
    index = 0
    while index < len(children):
        child = children[index]
        match = pattern.search(child.content) if child.type == "text" and marker in child.content else None
        if match is None:
            index += 1
            continue
        middle = tokens_for(match)
        children[index:index + 1] = [_token("text", child.content[:match.start()]), *middle,
                                     _token("text", child.content[match.end():])]
        index += 1 + len(middle)      # the rest of the text may hold another match


def task_item(tokens: list[Token], index: int) -> None:
    """`- [x] Done`: the list item at `index` (list_item_open) becomes a task, ticked or not."""
    if index + 2 >= len(tokens) or tokens[index + 1].type != "paragraph_open":
        return
    inline = tokens[index + 2]
    first = inline.children[0] if inline.children else None
    match = _TASK.match(first.content) if first is not None and first.type == "text" else None
    if match is None:
        return
    first.content = first.content[match.end():]
    inline.content = _TASK.sub("", inline.content, count=1)
    tokens[index].attrSet("class", "task task-done" if match.group(1) != " " else "task")


def _token(kind: str, content: str) -> Token:
    token = Token(kind, "", 0)
    token.content = content
    return token


def without_links(children: list[Token], opening: set[int]) -> list[Token]:
    """`children` without the links whose opening tokens (by `id`) are in `opening`; their words stay."""
    out, closing = [], False
    for child in children:
        if id(child) in opening:
            closing = True
        elif closing and child.type == "link_close":
            closing = False
        else:
            out.append(child)
    return out
