"""MDX (Docusaurus 2 and later) read as the markdown it mostly is (pure).

A Docusaurus docs folder is `.md` and `.mdx` pages: markdown plus a little JavaScript.
What a reader of the built site sees of that JavaScript is kept, the rest produces nothing:

- ESM statements between blocks (`import Tabs from '@theme/Tabs';`, `export const x = {…};`,
  also over several lines, blank ones among them while a bracket is still open, as in a
  component's body) produce nothing;
- JSX comments `{/* … */}` produce nothing, except at the end of a heading, where
  `{/* #custom-id */}` is Docusaurus 3's explicit heading id (made `{#custom-id}`);
- a line of component tags (`<Tabs>`, `</TabItem>`, `<TypeScriptOverlap strict />`, also
  over several lines) produces nothing, except that `<TabItem value="❌ Incorrect">` shows its
  label (`label`, else `value`) as a paragraph, the way a tab's title shows on the built
  site: without it, a rule page's incorrect and correct examples read alike. Markdown-it
  cannot be left to read these tags as HTML: a JSX value (`label={"a b"}`) is not HTML, and
  the tag would be published as text. A component inside a sentence is raw HTML like any
  other, dropped by the sanitiser with its text kept;
- so does an HTML element written as JSX, with a `{…}` value, alone on its line or lines
  (Mintlify's `<video src="/demo.mp4" autoPlay style={{width: "100%"}} />`, `<div style={{…}}>`),
  which HTML cannot read either; its content on the lines after it is read as usual.

Code is never touched: fenced blocks are skipped, and so are code spans. Removed lines
become empty lines, so a content error still names the line the author wrote.
"""
from __future__ import annotations

import re

from markdown_it.rules_core import StateCore

from .generators import LABEL, fence_after, literal

_ESM_START = re.compile(r"^(?:import|export)\s")
_HEADING = re.compile(r"^ {0,3}#{1,6}(?:\s|$)")
_HEADING_ID = re.compile(r"\s*\{/\*\s*#([\w:.-]+)\s*\*/\}\s*$")
_QUOTED = r"""(?:'[^'\n]*'|"[^"\n]*")"""
_IMPORT = re.compile(rf"""^import\s+(?:type\s+)?(?:(?:[\w$]+\s*,?\s*)?(?:\{{[^{{}}]*\}}|\*\s*as\s+[\w$]+)?\s*from\s+)?"""
                     rf"""{_QUOTED}\s*;?$""")
_EXPORT = re.compile(rf"""^export\s+(?:(?:const|let|var)\s+[\w$]+\s*=|(?:default\s+)?(?:async\s+)?function\b"""
                     rf"""|(?:default\s+)?class\s+[\w$]+|\{{[^{{}}]*\}}\s*(?:from\s+{_QUOTED})?\s*;?$)""")
_OPENERS, _CLOSERS = "{([", "})]"
MAX_STATEMENT_LINES = 300
_DEEP_FENCE = re.compile(r"^( {4,})(?:`{3,}|~{3,})")
_LIST_TEXT = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s+")
# A code span (kept as written) or a JSX comment (removed); one pass, so a comment inside
# a code span is never seen as one.
_SPAN_OR_COMMENT = re.compile(r"(`+)(?:(?!\1)(?:[^\n]|\n(?![ \t]*\n)))*?\1|\{/\*[\s\S]*?\*/\}")
_JSX_VALUE = r"""(?:[^<>{}"']|"[^"]*"|'[^']*'|\{(?:[^{}]|\{[^{}]*\})*\})"""
_COMPONENT_TAG = re.compile(rf"</?([A-Z][\w.]*)({_JSX_VALUE}*?)/?>")
_COMPONENT_LINE = re.compile(rf"^\s*(?:</?[A-Z][\w.]*{_JSX_VALUE}*?/?>\s*)+$")
_COMPONENT_START = re.compile(r"^\s*</?[A-Z][\w.]*(?:\s|/?>|$)")
# An HTML element written as JSX: lower-case, with an attribute whose value is `{…}`.
_JSX_ELEMENT_START = re.compile(r"^\s*<[a-z][\w-]*(?:\s|$)")
_JSX_ELEMENT_LINE = re.compile(rf"^\s*<[a-z][\w-]*(?=[^<>]*?\s[\w:-]+=\{{){_JSX_VALUE}*?/?>\s*$")
MAX_TAG_LINES = 20
_TAB_LABEL = re.compile(r"""\b(label|value)\s*=\s*(?:"([^"]*)"|'([^']*)'|\{\s*(?:"([^"]*)"|'([^']*)'|`([^`$]*)`)\s*\})""")


def strip_javascript(state: StateCore) -> None:
    """markdown-it core rule, before block parsing: ESM statements and JSX comments go; in an `.mdx`
    page (env["mdx"]), a fence indented under a line of text opens code (see `fences_unindented`)."""
    state.src = without_javascript(fences_unindented(state.src) if state.env.get("mdx") else state.src)


def fences_unindented(source: str) -> str:
    """MDX has no indented code, so a fence indented four spaces or more still opens a code block,
    even right under a paragraph ("Example:" then an indented ```` ```python ````, as Mintlify's
    generated API pages write it); CommonMark reads it as more of the paragraph, or as indented code.
    Such a fence and its lines are moved left to where the nearest line above it that is indented
    less starts its text (a list item's text, not its marker)."""
    lines = source.split("\n")
    fence, shift = "", 0
    for index, line in enumerate(lines):
        if fence:
            lines[index] = _dedented(line, shift)
            fence = fence_after(line, fence)
            continue
        fence, shift = fence_after(line, ""), 0
        opened = _DEEP_FENCE.match(line)
        if fence and opened:
            depth = len(opened.group(1))
            above = next((lines[n] for n in range(index - 1, -1, -1)
                          if lines[n].strip() and len(lines[n]) - len(lines[n].lstrip(" ")) < depth), "")
            item = _LIST_TEXT.match(above)
            shift = depth - (len(item.group()) if item else len(above) - len(above.lstrip(" ")))
            lines[index] = _dedented(line, shift)
    return "\n".join(lines)


def _dedented(line: str, shift: int) -> str:
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, max(shift, 0)):]


def without_javascript(source: str) -> str:
    lines = source.split("\n")
    fence = ""
    prose: list[int] = []          # lines outside fenced code, in order
    index = 0
    while index < len(lines):
        line = lines[index]
        if fence or fence_after(line, ""):      # code, or the fence line that opens or closes it
            fence = fence_after(line, fence)
            index += 1
            continue
        if _ESM_START.match(line) and _starts_block(lines, index):
            end = _statement_end(lines, index)
            if end is not None:
                index = _replace(lines, index, end, "")
                continue
        elif _JSX_ELEMENT_START.match(line) and (end := _tags_end(lines, index, _JSX_ELEMENT_LINE)) is not None:
            index = _replace(lines, index, end, "")
            continue
        elif _COMPONENT_START.match(line):
            end = _tags_end(lines, index)
            if end is not None:
                shown = "".join(_tab_title(tag) for tag in _COMPONENT_TAG.finditer("\n".join(lines[index:end + 1])))
                index = _replace(lines, index, end, shown)
                continue
        if _HEADING.match(line):
            lines[index] = _HEADING_ID.sub(r" {#\1}", line)
        prose.append(index)
        index += 1
    return "\n".join(_without_comments(lines, prose))


def _starts_block(lines: list[str], index: int) -> bool:
    """ESM may only open a block: after a blank line, a heading, or the start of the page."""
    before = lines[index - 1] if index else ""
    return not before.strip() or bool(_HEADING.match(before))


def _statement_end(lines: list[str], start: int) -> int | None:
    """The last line of the ESM statement opening at `start`, or None when it is not one."""
    depth = 0
    for end in range(start, min(len(lines), start + MAX_STATEMENT_LINES)):
        for char in lines[end]:
            depth += (char in _OPENERS) - (char in _CLOSERS)
        following = lines[end + 1] if end + 1 < len(lines) else ""
        if depth <= 0 and (lines[end].rstrip().endswith(";") or not following.strip() or _ESM_START.match(following)):
            statement = " ".join(part.strip() for part in lines[start:end + 1])
            return end if _IMPORT.match(statement) or _EXPORT.match(statement) else None
        if not lines[end].strip() and depth <= 0:
            return None
    return None


def _without_comments(lines: list[str], prose: list[int]) -> list[str]:
    """JSX comments cut from the prose lines (runs of them, so a comment may span lines)."""
    runs: list[list[int]] = []
    for number in prose:
        if runs and runs[-1][-1] == number - 1:
            runs[-1].append(number)
        else:
            runs.append([number])
    for run in runs:
        text = "\n".join(lines[n] for n in run)
        if "{/*" not in text:
            continue
        kept = _SPAN_OR_COMMENT.sub(lambda m: m.group() if m.group(1) else "\n" * m.group().count("\n"), text)
        for number, line in zip(run, kept.split("\n")):
            lines[number] = line
    return lines


def _replace(lines: list[str], start: int, end: int, shown: str) -> int:
    """Lines start…end become `shown` then empty lines (the page keeps its line numbers)."""
    lines[start:end + 1] = [shown] + [""] * (end - start)
    return end + 1


def _tags_end(lines: list[str], start: int, tags: re.Pattern = _COMPONENT_LINE) -> int | None:
    """The last line of the component tags opening at `start` when they are all the line(s) hold."""
    for end in range(start, min(len(lines), start + MAX_TAG_LINES)):
        if tags.match("\n".join(lines[start:end + 1])):
            return end
        if not lines[end].strip():
            return None
    return None


def _tab_title(tag: re.Match) -> str:
    """A `<TabItem …>` tag as its label in a paragraph; any other tag as nothing."""
    if tag.group(1) != "TabItem" or tag.group().startswith("</"):
        return ""
    found = _TAB_LABEL.findall(tag.group(2))
    labels = {name: next(value for value in values if value) for name, *values in found if any(values)}
    label = (labels.get("label") or labels.get("value") or "").strip()
    return f"{LABEL}{literal(label)}" if label else ""
