"""What static site generators write around the markdown, read as their sites show it (pure).

A docs folder is written for a generator (MkDocs Material, Jekyll, Hugo, GitBook, mdBook,
VitePress), and each adds syntax markdown-it does not know. This core rule runs before
block parsing, after mdx.py, outside fenced code:

- MkDocs Material content tabs (`=== "Python"`, then the tab's body indented four spaces):
  the label shows as a paragraph and the body is read as markdown, as on the built site.
  Left alone, the body was an indented code block and none of its sentences citable; VuePress's
  `@tab Label` (`@tab:active Label`) inside a `::: tabs` shows its label the same way;
- a line of template tags only the generator can fill in produces nothing and is reported:
  Liquid/Jinja `{% include … %}` (and `{{ macro() }}` alone on a line), Hugo shortcodes
  `{{< … >}}` and `{{% … %}}`, mdBook `{{#include …}}`, pymdown snippets `--8<-- "file"`,
  markdown-include `{!file!}`, and a code block holding nothing but such include lines;
- code blocks written as tags (Jekyll `{% highlight ruby %}`, Hugo `{{< highlight go >}}`)
  are code blocks;
- Hugo's `{{< figure src="x.png" caption="…" >}}` is the image with its caption after it;
- paired callout tags become the admonition they draw: GitBook `{% hint style="info" %}`,
  Hugo `{{< notice warning >}}`, `{{% alert %}}`, `{{< hint >}}`, `{{< callout >}}`; a
  GitBook `{% tab title="Python" %}` shows its title as a paragraph;
- table-of-contents markers (`[TOC]`, `[[toc]]`, `[[_TOC_]]`, `{:toc}`), a list item that only
  points at a page Sphinx generates (`- {ref}`genindex``, `search`, `modindex`: sphinx-quickstart's
  "Indices and tables", which showed as the items "genindex" and "search"), Python-Markdown
  abbreviation definitions (`*[HTML]: Hyper Text Markup Language`) and block attribute
  lines (`{: .lead }`) produce nothing.

A template expression inside a sentence (`{{ config.version }}`) stays as written, since
only the generator knows its value, and is reported so the author knows the sentence
reads differently here. Removed lines become empty lines, so a content error still names
the line the author wrote.

An HTML tag carrying Python-Markdown's `markdown` attribute (md_in_html: `<figure markdown>`,
`<div class="grid cards" markdown>`, `<blockquote markdown="1">`) alone on its line is a block of
its own (`markdown_tag_rule`), so the lines after it are read as markdown, as MkDocs does; left to
CommonMark, the tag took every line up to the next blank one as raw HTML, and `![image](x)` or
`**FastAPI**` showed as written.

A label line is marked with a private-use character and read by `label_rule`, which makes
it one paragraph that never swallows the next line (an HTML `<p>` line would take every
line up to the next blank one, code fences included).
"""
from __future__ import annotations

import re

from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore

LABEL = "\ue000"      # marks a label line (never in an author's text: private use)
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
_CONTENT_TAB = re.compile(r"""^(\s*)===[!+]?\s+"([^"\n]*)"\s*$""")
_QUOTE = re.compile(r"^((?: {0,3}> ?)*)(.*)$", re.S)     # a line's blockquote marks, and what follows them
_VUEPRESS_TAB = re.compile(r"^(\s*)@tab(?::active)?[ \t]+(\S.*?)\s*$")      # `@tab:active Linux` in a `::: tabs`
_LIQUID = r"\{%-?\s*(\w++)((?:[^%\n]|%(?!\}))*)%\}"
# One way to match each tag (a name is taken whole, arguments never run past a >}}), so a long
# line that is not all tags fails fast instead of backtracking for minutes.
_HUGO = r"\{\{([<%])\s*(?:(/)\s*)?([\w.][\w./-]*+)((?:[^>%\n]|[>%](?!\}\}))*)[>%]\}\}"
# Liquid/Jinja, Hugo, mdBook, then a bare `{{ … }}`: the kinds never overlap
_ANY_TAG = rf"{_LIQUID}|{_HUGO}|\{{\{{#(\w++)[^}}\n]*\}}\}}|\{{\{{(?![<%#])([^{{}}\n]+)\}}\}}"
_TAG = re.compile(_ANY_TAG)
_TAG_LINE = re.compile(rf"^\s*(?:(?:{_ANY_TAG})\s*)+$")
_ARGUMENT = re.compile(r"""\b([\w-]+)\s*=\s*(?:"([^"\n]*)"|'([^'\n]*)')""")
_HUGO_REF = re.compile(r"""\{\{[<%]\s*(?:rel)?ref\s+"([^"\n]+)"\s*[>%]\}\}""")
_HIGHLIGHT = re.compile(r"^\s*(?:\{%-?\s*highlight\s+([\w+-]+)[^%\n]*-?%\}|\{\{[<%]\s*highlight\s+([\w+-]+)[^\n]*?[>%]\}\})\s*$")
_HIGHLIGHT_END = re.compile(r"^\s*(?:\{%-?\s*endhighlight\s*-?%\}|\{\{[<%]\s*/highlight\s*[>%]\}\})\s*$")
_SNIPPET = re.compile(r"^\s*-{1,3}8<-{1,3}(?:\s+(\S.*))?$")
_INCLUDE = re.compile(r"^\s*\{!\s*[^!\n]+?\s*!\}\s*$")          # markdown-include: {!path/to/file.py!}
_MARKERS = re.compile(r"^\s*(?:\[TOC\]|\[\[_?toc_?\]\]|\{:\s*toc\s*\}|\*\[[^\]\n]+\]:.*|"
                      r"\{:?\s*[.#][^{}\n]*\}|\{:\s*[\w-]+=[^{}\n]*\}"
                      r"|[-*+]\s+\{(?:std:)?ref\}`(?:genindex|modindex|py-modindex|search)`)\s*$", re.I)
_EXPRESSION = re.compile(r"\{\{[^{}\n]+\}\}|\{%[^%\n]+%\}")
_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")
_CODE_SPAN = re.compile(r"(`+)[^`]*?\1")
_MARKDOWN_TAG = re.compile(r"""^<([A-Za-z][\w-]*)((?:\s+[^\s=>]+(?:=(?:"[^"]*"|'[^']*'|[^\s"'>]+))?)*?)"""
                           r"""\s+markdown(?:=(?:"[^"]*"|'[^']*'|[^\s"'>]+))?((?:\s+[^>]*)?)>\s*$""")
_STYLE = re.compile(r"""(?:\b(?:style|type|kind|title)\s*=\s*)?["']?([\w-]+)["']?""")
_TITLE = re.compile(r"""\btitle\s*=\s*(?:"([^"]*)"|'([^']*)')""")
# Tags that only frame what is shown anyway (their ends, tab groups, raw text): not worth a warning.
_UNSAID = frozenset("tabs endtab endtabs raw endraw else elsif elif endif endfor endunless endcapture".split())
CALLOUTS = frozenset("hint notice alert callout admonition".split())
# GitBook / Hugo theme styles → the admonition kinds dialects.py draws
_KINDS = {"success": "tip", "primary": "note", "secondary": "note", "default": "note", "grey": "note",
          "light": "note", "dark": "note", "question": "note", "orange": "warning", "red": "danger",
          "green": "tip", "blue": "info"}
_KNOWN_KINDS = frozenset("note info tip hint important warning caution danger error attention".split())


def read_generator_syntax(state: StateCore) -> None:
    """markdown-it core rule, before block parsing (see the module's docstring)."""
    lines = state.src.split("\n")
    notes = state.env.setdefault("generator_tags", set())
    expressions = state.env.setdefault("template_expressions", set())
    callouts: list[str] = []           # names of the callout tags opened and not yet closed
    closers = _closing_tags(lines)
    fence = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        if fence == "highlight":
            if _HIGHLIGHT_END.match(line):
                lines[index], fence = "```", ""
        elif not fence and (end := _included_block(lines, index)):   # a code block filled from files
            notes.add("{!…!} (markdown-include)" if "{!" in "".join(lines[index:end]) else "--8<-- (snippets)")
            lines[index:end + 1] = [""] * (end + 1 - index)
            index = end
        elif fence or fence_after(line, ""):     # code, or the fence line that opens or closes it
            fence = fence_after(line, fence)
        elif (highlight := _HIGHLIGHT.match(line)):     # Jekyll and Hugo code blocks
            lines[index], fence = "```" + (highlight.group(1) or highlight.group(2)), "highlight"
        elif (tab := _CONTENT_TAB.match((quoted := _QUOTE.match(line)).group(2))):
            quote = quoted.group(1)     # tabs inside a blockquote (a `> TIP:` callout) keep its marks
            _dedent_tab(lines, index, len(tab.group(1)), quote)
            lines[index] = f"{quote}{tab.group(1)}{LABEL}{tab.group(2)}"
        elif (tab := _VUEPRESS_TAB.match(line)):
            lines[index] = f"{tab.group(1)}{LABEL}{tab.group(2)}"
        elif _TAG_LINE.match(line):
            lines[index] = _tags_shown(line, callouts, closers, notes)
        elif _INCLUDE.match(line):
            notes.add("{!…!} (markdown-include)")
            lines[index] = ""
        elif (snippet := _SNIPPET.match(line)):
            notes.add("--8<-- (snippets)")
            lines[index] = ""
            if snippet.group(1) is None:       # the block form: file names, then --8<-- again
                end = next((n for n in range(index + 1, len(lines)) if _SNIPPET.match(lines[n])), index)
                lines[index:end + 1] = [""] * (end + 1 - index)
                index = end
        elif _MARKERS.match(line):
            lines[index] = ""
        elif "{{" in line or "{%" in line:
            line = lines[index] = _HUGO_REF.sub(r"\1", line)     # [text]({{< ref "page.md" >}})
            expressions.update(m.group() for m in _EXPRESSION.finditer(_CODE_SPAN.sub("", line)))
        index += 1
    state.src = "\n".join(lines)


def _included_block(lines: list[str], index: int) -> int:
    """When a code fence opens at `index` and holds nothing but include lines (markdown-include's
    `{!../docs_src/app.py!}`, pymdown's `--8<-- "app.py"`), the index of its closing line, else 0:
    the generator fills it from files outside the page, which are not ours to read."""
    fence = fence_after(lines[index], "")
    included = False
    for end in range(index + 1, len(lines) if fence else index):
        line = lines[end]
        if not fence_after(line, fence):
            return end if included else 0
        if line.strip():
            if not (_INCLUDE.match(line) or _SNIPPET.match(line)):
                return 0      # code of its own: stop at its first line
            included = True
    return 0


def fence_after(line: str, fence: str) -> str:
    """The code fence open after `line` ("" for none), given the one open before it."""
    opened = _FENCE.match(line)
    if not fence:
        return opened.group(1) if opened else ""
    closes = opened is not None and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
        and not line.strip()[len(opened.group(1)):].strip()
    return "" if closes else fence


def _dedent_tab(lines: list[str], index: int, indent: int, quote: str = "") -> None:
    """The tab's body (blank lines and lines indented past the label) loses four spaces; inside a
    blockquote, its lines are those with the label's quote marks, each read after them."""
    body = indent + 4
    last = index
    for number in range(index + 1, len(lines)):
        marks, text = _QUOTE.match(lines[number]).groups()
        if marks.rstrip() != quote.rstrip():
            break
        text = _spaces_for_tabs(text)
        lines[number] = marks + text
        if text.strip() and len(text) - len(text.lstrip(" ")) < body:
            break
        if text.strip():
            last = number
    for number in range(index + 1, last + 1):
        marks, text = _QUOTE.match(lines[number]).groups()
        lines[number] = marks + (text[:indent] + text[body:] if text.strip() else "")


def _spaces_for_tabs(line: str) -> str:
    """A line's leading tabs as four-column stops (Python-Markdown's own reading of them)."""
    lead = len(line) - len(line.lstrip(" \t"))
    return line[:lead].expandtabs(4) + line[lead:] if "\t" in line[:lead] else line


def _closing_tags(lines: list[str]) -> set[str]:
    """Callout tag names that are closed somewhere on the page (only those become admonitions)."""
    found = set()
    for line in (line for line in lines if "{" in line):
        for tag in _TAG.finditer(line):
            if tag.group(1) and tag.group(1).startswith("end"):
                found.add(tag.group(1)[3:])
            elif tag.group(4) == "/":
                found.add(tag.group(5))
    return found


def _tags_shown(line: str, callouts: list[str], closers: set[str], notes: set[str]) -> str:
    """A line of template tags as what the reader sees of it: a fence, a label or nothing."""
    shown = []
    indent = line[:len(line) - len(line.lstrip())]
    for tag in _TAG.finditer(line):
        liquid, hugo_close, hugo_name, hugo_args, mdbook = tag.group(1), tag.group(4), tag.group(5), tag.group(6), tag.group(7)
        name = liquid or hugo_name or ""
        arguments = tag.group(2) if liquid else hugo_args or ""
        if (liquid or "").startswith("end") and liquid[3:] in callouts or hugo_close and hugo_name in callouts:
            callouts.remove(liquid[3:] if liquid else hugo_name)
            shown.append(":::")
        elif name in CALLOUTS and name in closers and not hugo_close:
            callouts.append(name)
            shown.append(f":::{_kind(arguments)}{_title(arguments)}")
        elif liquid == "tab":
            title = _title(arguments).strip()
            shown.append(f"{LABEL}{title}" if title else "")
        elif liquid in _UNSAID:
            continue
        elif hugo_name == "figure" and (figure := _figure(hugo_args or "")):
            shown.append(figure)
        else:
            notes.add(_described(liquid, hugo_name, mdbook, tag.group()))
    return indent + shown[-1] if shown else ""     # one line stays one line


def _figure(arguments: str) -> str:
    """Hugo's built-in `{{< figure src="x.png" alt="…" caption="…" >}}` as the image (media.py
    publishes it) and its caption or title after it; "" without a src."""
    values = {m.group(1).lower(): m.group(2) or m.group(3) for m in _ARGUMENT.finditer(arguments)}
    if not values.get("src"):
        return ""
    words = values.get("caption") or values.get("title") or ""
    alt = (values.get("alt") or words).replace("]", "")
    return f"![{alt}](<{values['src']}>)" + (f" {words}" if words else "")


def _kind(arguments: str) -> str:
    match = _STYLE.search(re.sub(r"""\btitle\s*=\s*(?:"[^"]*"|'[^']*')""", "", arguments))
    word = (match.group(1) if match else "note").lower()
    word = _KINDS.get(word, word)
    return word if word in _KNOWN_KINDS else "note"


def _title(arguments: str) -> str:
    match = _TITLE.search(arguments)
    title = next((g for g in match.groups() if g), "") if match else ""
    return f" {title}" if title.strip() else ""


def _described(liquid: str | None, hugo: str | None, mdbook: str | None, written: str) -> str:
    if liquid:
        return f"{{% {liquid} %}}"
    if hugo:
        return f"{{{{< {hugo} >}}}}"
    if mdbook:
        return f"{{{{#{mdbook}}}}}"
    return written if len(written) <= 40 else written[:37] + "…}}"


def literal(text: str) -> str:
    """`text` escaped so that markdown shows it as written (a label that is a string, not markdown)."""
    return _PUNCTUATION.sub(r"\\\g<0>", text)


def label_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """A label line (see LABEL) as one paragraph of its own."""
    pos = state.bMarks[start] + state.tShift[start]
    if state.is_code_block(start) or not state.src.startswith(LABEL, pos):
        return False
    if silent:
        return True
    text = state.src[pos + len(LABEL):state.eMarks[start]].strip()
    if text:
        opening = state.push("paragraph_open", "p", 1)
        opening.map, opening.attrs = [start, start + 1], {"class": "tab-label"}
        inline = state.push("inline", "", 0)
        inline.content, inline.map, inline.children = text, [start, start + 1], []
        state.push("paragraph_close", "p", -1)
    state.line = start + 1
    return True


def markdown_tag_rule(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """`<figure markdown>` alone on a line: the tag (without the attribute) is a block of its own."""
    if state.is_code_block(start):
        return False
    line = state.src[state.bMarks[start] + state.tShift[start]:state.eMarks[start]]
    match = _MARKDOWN_TAG.match(line)
    if match is None or re.search(r"""\smarkdown=["']?0\b""", line):
        return False
    if silent:
        return True
    token = state.push("html_block", "", 0)
    token.map, token.content = [start, start + 1], f"<{match.group(1)}{match.group(2)}{match.group(3)}>\n"
    state.line = start + 1
    return True
