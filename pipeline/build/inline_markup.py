"""Inline markup of real docs' dialects, on markdown-it's inline tokens (pure; dialects.py's core rules).

- Python-Markdown's attr_list after an inline element (`**name**{ #name }`): the id is kept;
- GitHub's emoji shortcodes (`:white_check_mark:`) become the emoji, outside code;
- mkdocs-autorefs cross-references (`[text][package.Class]`, `[package.Class][]`), which no
  definition on the page resolves, are shown as their text, as the MkDocs site shows its link.
"""
from __future__ import annotations

import re

import emoji
from markdown_it.rules_core import StateCore

_INLINE_ATTRS = re.compile(r"^\{:?\s*([#.][\w:.-]+(?:\s+[#.][\w:.-]+)*)\s*\}")
# mkdocs-autorefs cross-references, `[text][markdown.Markdown]` or `[markdown.Markdown][]`: without a
# definition on the page they are left as literal brackets, which MkDocs sites resolve to API pages.
_AUTOREF = re.compile(r"(?<![!\\\w])\[([^\[\]\n]+)\]\[([^\[\]\s]*)\]")
_AUTOREF_TAIL = re.compile(r"^([^\[\]]*)\]\[[^\[\]\s]*\]")
_SHORTCODE = re.compile(r"(?<![\w:]):[a-z0-9_+-]+:(?![\w:])")   # stand-alone only: never inside 10:30:00 or a:b:c


def attributes(children) -> None:
    """`**name**{ #name }`: Python-Markdown's attr_list after an inline element; the id is kept."""
    for i in range(1, len(children)):
        child, before = children[i], children[i - 1]
        if child.type != "text" or not before.type.endswith("_close"):
            continue
        match = _INLINE_ATTRS.match(child.content)
        if match is None:
            continue
        child.content = child.content[match.end():]
        ids = [part[1:] for part in match.group(1).split() if part.startswith("#")]
        opener = next((c for c in reversed(children[:i - 1]) if c.type == before.type.replace("_close", "_open")), None)
        if ids and opener is not None:
            opener.attrSet("id", ids[0])


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
    """`:white_check_mark:` as the emoji it names (stand-alone only, never in code)."""
    for child in children:
        if child.type == "text" and ":" in child.content:
            child.content = _SHORTCODE.sub(lambda m: emoji.emojize(m.group(0), language="alias"), child.content)
