"""AsciiDoc's inline markup written as markdown's (pure).

What Asciidoctor draws, in the markdown the page reader already reads: `*strong*` and
`**strong**`, `_emphasis_` and `__emphasis__`, `` `code` `` and `` `+literal code+` ``,
`+passthrough+` as plain text, `#mark#` as its text; attribute references (`{name}` set by
the page, its includer or Asciidoctor's built-ins such as `{nbsp}`); links (`https://x[text]`,
`link:url[text]`, `mailto:`), cross-references to pages (`xref:page.adoc[text]`,
`<<page.adoc#id,text>>`, git's `linkgit:git-add[1]`) as links to those pages, and to a section
of the same page (`<<id>>`, `<<id,text>>`) as its text or the title it names; `image:x.png[alt]`,
`kbd:[Ctrl+C]` and `btn:[OK]`, `menu:File[Save]`, footnotes in parentheses; index terms and
inline anchors dropped. Text markdown would read as markup (`<pathspec>`, a line opening with
`#` or `1.`) is escaped, since AsciiDoc shows it as written.
"""
from __future__ import annotations

import re

BUILT_IN = {"asterisk": "*", "nbsp": "\u00a0", "zwsp": "\u200b", "wj": "\u2060", "sp": " ", "empty": "", "amp": "&", "lt": "<",
            "gt": ">", "quot": '"', "apos": "'", "plus": "+", "startsb": "[", "endsb": "]", "vbar": "|",
            "caret": "^", "tilde": "~", "backslash": "\\", "backtick": "`", "two-colons": "::",
            "two-semicolons": ";;", "cpp": "C++", "pp": "++", "deg": "°", "litdd": "--", "brvbar": "¦",
            "ldquo": "\u201c", "rdquo": "\u201d", "lsquo": "\u2018", "rsquo": "\u2019"}
_ATTRIBUTE = re.compile(r"(?<!\\)\{([\w][\w-]*)\}")
_CODE = re.compile(r"(?<![\w`\\])`\+(.+?)\+`(?![\w`])|(?<![\w`\\])`([^`\n]+?)`(?![\w`])|``(.+?)``")
_PASS = re.compile(r"\+\+\+(.+?)\+\+\+|\+\+(.+?)\+\+|(?<![\w+\\;:}\"'`])\+([^+\s](?:[^+]*?[^+\s])??)\+(?![\w+])"
                   r"|pass:[a-z,]*\[(.*?)\]")
_URL = re.compile(r"(?<![\w/\[\"'(=])(?:link:)?((?:https?|ftp|irc|mailto):[^\s\[\]<>]+|link:[^\s\[\]]+)\[([^\]]*)\]")
_XREF = re.compile(r"xref:([^\s\[\]]+)\[([^\]]*)\]|<<([^,>]+?)(?:,\s*([^>]+?))?>>")
_LINKGIT = re.compile(r"linkgit:([\w.-]+)\[(\d+)\]")
_IMAGE = re.compile(r"image:([^\s:\[][^\s\[]*)\[([^\],]*)[^\]]*\]")
_KBD = re.compile(r"kbd:\[([^\]]+)\]")
_BTN = re.compile(r"btn:\[([^\]]+)\]")
_MENU = re.compile(r"menu:([^\s\[]+)\[([^\]]*)\]")
_FOOTNOTE = re.compile(r"footnote(?:ref)?:(?:[\w-]+)?\[([^\]]*)\]")
_INDEX = re.compile(r"\(\(\((.*?)\)\)\)|indexterm:\[[^\]]*\]|\[\[[\w:.-]+(?:,[^\]]*)?\]\]|anchor:[\w:.-]+\[[^\]]*\]")
_VISIBLE_INDEX = re.compile(r"\(\((.+?)\)\)|indexterm2:\[([^\]]*)\]")
_STRONG = re.compile(r"\*\*(.+?)\*\*|(?<![\w*\\;:}])\*(\S(?:.*?\S)??)\*(?![\w*])")
_EMPHASIS = re.compile(r"__(.+?)__|(?<![\w_\\;:}])_(\S(?:.*?\S)??)_(?![\w_])")
_MARK = re.compile(r"##(.+?)##|(?<![\w#\\])#(\S(?:.*?\S)??)#(?![\w#])|\[[\w. -]*\]#(.+?)#")
# Constrained marks open only after a space or punctuation other than ; : } (and for + also not a quote),
# as Asciidoctor reads them: "+" lines is a plus sign in quotes.
# AsciiDoc Python's quotes, kept by Asciidoctor's compat mode: ``double'' and `single'.
_LEGACY_DOUBLE = re.compile(r"``([^`'\n]+?)''")
_LEGACY_SINGLE = re.compile(r"(?<![\w`])`([^`'\n\u0000]+?)'(?!\w)")
_DASH = re.compile(r"(?<=\w)--(?=\w)|(?<= )--(?= )")     # Asciidoctor's em dash: "git--read", "a -- b"
_ROLE = re.compile(r"(?<![\w\]])\[[\w. -]+\](?=[*_#`\u0000])")      # [filename]*_~/bin_*: a role, not shown
_COMPAT_EMPHASIS = re.compile(r"(?<![\w'])'(\S(?:[^'\n]*?\S)??)'(?![\w'])")
# A backslash escapes a double mark anywhere, a single one only where it could open (C:\_ ends an emphasis).
_ESCAPED = re.compile(r"\\(\*\*|__|##|\+\+|[\[\]{}<>])|(?<![\w;:}])\\([*_#`+])(?=\S)")
_SLOT = "\u0000{}\u0000"
_SLOT_BACK = re.compile("\u0000(\\d+)\u0000")
_BLOCK_START = re.compile(r"^(\s*)([#>+=|%:-]|\d+[.)])")   # % opens a MyST comment, : a definition


def attributes_in(text: str, attributes: dict[str, str]) -> str:
    """`text` with its attribute references replaced, also those the values hold (`rh: Red{nbsp}Hat`)."""
    for _ in range(5):
        replaced = _ATTRIBUTE.sub(lambda m: attributes.get(m.group(1), BUILT_IN.get(m.group(1), m.group())), text)
        if replaced == text:
            break
        text = replaced
    return text


def _page_link(target: str, modules: str = "") -> str:
    """`other.adoc#id` → `other#id`: the page's own address, extension-less as the site serves it; an
    Antora page of a named module (`admin:users.adoc`) by its file, from `modules`, the way from the
    page's folder up to its component's `modules/` folder (so the site gives it its address)."""
    path, _, anchor = target.partition("#")
    module, _, path = path.rpartition(":")
    path = re.sub(r"\.(?:adoc|asciidoc|asc)$", "", path)
    if module:
        module = module.rpartition(":")[2]
        path = f"{modules}{module}/pages/{path}" if modules else "/" + ("" if module == "ROOT" else module + "/") + path
    return path + (f"#{anchor}" if anchor and path else "")


def markdown(text: str, attributes: dict[str, str], titles: dict[str, str] | None = None, modules: str = "") -> str:
    """One paragraph's inline AsciiDoc as markdown (`modules`: see _page_link)."""
    kept: list[str] = []

    def keep(value: str) -> str:
        kept.append(value)
        return _SLOT.format(len(kept) - 1)

    def code(match: re.Match) -> str:
        body = next(g for g in match.groups() if g is not None)
        fence = "``" if "`" in body else "`"
        pad = " " if body.startswith("`") or body.endswith("`") else ""
        return keep(f"{fence}{pad}{body}{pad}{fence}")

    text = attributes_in(text, attributes)
    # AsciiDoc's escapes (\*not bold*, \**/ for a literal **, \{name}): the marks as written, kept from
    # every rule below and escaped for markdown, which shows them as written too.
    text = _ESCAPED.sub(lambda m: keep(_escaped(re.sub(r"([*_`#+\[\]])", r"\\\1", m.group(1) or m.group(2)))), text)
    text = _LEGACY_DOUBLE.sub("\u201c\\1\u201d", text)
    text = _CODE.sub(code, text)
    text = _LEGACY_SINGLE.sub("\u2018\\1\u2019", text)     # after code spans, which may hold a quote
    text = _PASS.sub(lambda m: keep(_escaped(next(g for g in m.groups() if g is not None))), text)
    text = _LINKGIT.sub(lambda m: keep(f"[{m.group(1)}({m.group(2)})]({m.group(1)})"), text)
    text = _XREF.sub(lambda m: keep(_xref(m, titles or {}, modules)), text)
    text = _URL.sub(lambda m: keep(_url(m.group(1), m.group(2))), text)
    text = _IMAGE.sub(lambda m: keep(f"![{m.group(2)}]({m.group(1)})"), text)
    text = _KBD.sub(lambda m: keep(f"`{m.group(1)}`"), text)
    text = _BTN.sub(lambda m: m.group(1), text)
    text = _MENU.sub(lambda m: " > ".join([m.group(1), *[p.strip() for p in m.group(2).split(">") if p.strip()]]),
                     text)
    text = _FOOTNOTE.sub(lambda m: f" ({m.group(1)})" if m.group(1) else "", text)
    text = _INDEX.sub("", text)
    text = _VISIBLE_INDEX.sub(lambda m: m.group(1) or m.group(2), text)
    text = _escaped(_ROLE.sub("", text))
    text = _STRONG.sub(lambda m: f"**{m.group(1) or m.group(2)}**", text)
    text = _EMPHASIS.sub(lambda m: f"*{m.group(1) or m.group(2)}*", text)
    if "compat-mode" in attributes:          # AsciiDoc Python's 'emphasis', as Asciidoctor's compat mode reads it
        text = _COMPAT_EMPHASIS.sub(r"*\1*", text)
    text = _MARK.sub(lambda m: m.group(1) or m.group(2) or m.group(3), text)
    text = _DASH.sub("\u2014", text)
    text = re.sub(r"\\(?=[*_])", r"\\\\", text)   # a backslash before a mark is shown (C:\), not markdown's escape
    while _SLOT_BACK.search(text):
        text = _SLOT_BACK.sub(lambda m: kept[int(m.group(1))], text)
    return text


def _escaped(text: str) -> str:
    """Text markdown would take for HTML or an entity kept as AsciiDoc shows it."""
    return text.replace("<", "&lt;").replace(">", "&gt;") if "<" in text or ">" in text else text


def _url(target: str, label: str) -> str:
    target = target.removeprefix("link:")
    label = label.split(",")[0].strip().strip('"') or target.removeprefix("mailto:")
    return f"[{label}]({_page_link(target) if '://' not in target and ':' not in target else target})"


def _xref(match: re.Match, titles: dict[str, str], modules: str) -> str:
    target, label = (match.group(1), match.group(2)) if match.group(1) else (match.group(3), match.group(4))
    target, label = target.strip(), (label or "").strip()
    page, _, anchor = target.partition("#")
    if page and ("." in page or match.group(1)):             # another page: a link the site resolves
        return f"[{label or titles.get(anchor) or _page_link(page).rsplit('/', 1)[-1]}]({_page_link(target, modules)})"
    return label or titles.get(anchor or page) or (anchor or page).replace("-", " ").replace("_", " ")


def line_start_escaped(text: str) -> str:
    """A paragraph line markdown would read as a heading, quote, list, table, comment or definition kept as text."""
    def escape(match: re.Match) -> str:
        mark = match.group(2)
        return match.group(1) + (mark[:-1] + "\\" + mark[-1] if mark[0].isdigit() else "\\" + mark)
    return _BLOCK_START.sub(escape, text, count=1)
