"""Count the markdown dialect features a fetched corpus uses.

    python bench/corpora/census.py [name ...]     # fetches (cached) then counts
    python bench/corpora/census.py --json ...     # machine-readable

A line scanner, not a parser: it skips the bodies of ordinary fenced code blocks
(and of MyST code directives), keeps the bodies of other directives and
admonitions (they are markdown), and strips inline code spans before looking
for HTML, footnotes and the like. Counts are occurrences unless said otherwise;
each feature keeps up to three examples as ``file:line: text``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from pathlib import Path, PurePosixPath

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fetch import CORPORA, DEFAULT_ROOT, FetchError, fetch, manifest  # noqa: E402

CODE_DIRECTIVES = {"code", "code-block", "code-cell", "sourcecode", "literalinclude", "math", "mermaid"}
FENCE = re.compile(r"^(?P<indent> {0,3}|\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>.*)$")
COLON = re.compile(r"^\s*(?P<fence>:{3,})\s*(?P<info>.*)$")
FRONT = re.compile(r"\A---\s*\n(.*?)\n(?:---|\.\.\.)\s*\n", re.S)
INLINE_CODE = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
ROLE = re.compile(r"(?<![\w$`{])\{(?P<name>[A-Za-z][\w:.-]*)\}`[^`]*`")
TAG = re.compile(r"</?(?P<name>[A-Za-z][A-Za-z0-9-]*)(?=[\s/>])[^<>]*>")
HEADING_ID = re.compile(r"^#{1,6}\s.*\{\s*#[\w.:-]+[^}]*\}\s*$")
ATTR_LIST = re.compile(r"\{:?\s*(?:[.#][\w-]+|[\w-]+=)[^}]*\}\s*$")
FOOTREF = re.compile(r"\[\^[^\]\s]+\](?!:)")
FOOTDEF = re.compile(r"^\s*\[\^[^\]\s]+\]:")
ALERT = re.compile(r"^\s*>\s*\[!(?P<kind>[A-Za-z]+)\]")
KINDS = r"Note|Warning|Tip|Important|Caution|Info|Danger"
PSEUDO = re.compile(
    rf"^\s*>\s*(?:(?:\*\*|__)(?P<bold>{KINDS}):?(?:\*\*|__)|(?:[^\w\s>]{{1,3}}\s*)?(?P<plain>{KINDS})\s*:)"
)
MKDOCS_ADM = re.compile(r"^\s*(?P<mark>!!!|\?\?\?\+?)\s*(?P<kind>[\w-]+)?")
BLOCKS = re.compile(r"^\s*///\s*(?P<kind>[\w-]+)?")
TABS = re.compile(r'^\s*===\+?\s+"')
AUTODOC = re.compile(r"^\s*:::\s+[A-Za-z_][\w.]*\s*$")
SNIPPET = re.compile(r"^\s*-{1,2}8<-{1,2}")
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}")
TARGET = re.compile(r"^\s*\([\w.:-]+\)=\s*$")
MYST_COMMENT = re.compile(r"^%(?!%)")
ABBR_DEF = re.compile(r"^\*\[[^\]]+\]:")
DEF_LINE = re.compile(r"^:\s{1,4}\S")
EMOJI = re.compile(r"(?<![\w`:]):(?:material|octicons|fontawesome|simple)-[\w-]+:")
MDX = re.compile(r"^(?:import\s.+\sfrom\s+['\"]|export\s+(?:default|const|function)\b)")
OPTION = re.compile(r"^\s*:[\w-]+:(?:\s|$)")
NODE_TYPE = re.compile(r"(?<![\w$`{])\{(?:[A-Za-z][\w.]*(?:\[\])?(?:<[^}]*>)?)(?:\s*\|\s*[A-Za-z][\w.]*(?:\[\])?(?:<[^}]*>)?)*\}(?![`\ue000])")
LINK = re.compile(r"(?<!!)\[(?P<text>[^\]]*)\]\((?P<target><[^>]*>|[^)\s]*)(?:\s+\"[^\"]*\")?\)")
REFDEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(?P<target>\S+)")
DOLLAR_BLOCK = re.compile(r"^\s*\$\$")
META_LINE = re.compile(r"^[A-Za-z][\w-]*:\s")
DOCUSAURUS = re.compile(r"^\s*:::(?P<kind>[a-z]+)\b")


class Census:
    def __init__(self) -> None:
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.examples: dict[str, list[str]] = defaultdict(list)
        self.files_with: dict[str, set] = defaultdict(set)

    def add(self, feature: str, key: str, where: str, text: str, n: int = 1) -> None:
        self.counts[feature][key] += n
        self.files_with[feature].add(where.split(":", 1)[0])
        ex = self.examples[feature]
        if len(ex) < 3 and not any(e.split(": ", 1)[0].split(":")[0] == where.split(":")[0] for e in ex):
            ex.append(f"{where}: {text.strip()[:110]}")

    def as_dict(self) -> dict:
        return {
            f: {"total": sum(c.values()), "files": len(self.files_with[f]),
                "by": dict(c.most_common()), "examples": self.examples[f]}
            for f, c in sorted(self.counts.items())
        }


def _link_problem(target: str, rel: str, root: Path) -> str | None:
    """Why a relative link target names no page or file of the folder (None if it does)."""
    target = target.strip("<>")
    if not target or target.startswith("#") or re.match(r"^[a-zA-Z][\w+.-]*:", target):
        return None
    path = re.split(r"[#?]", target, 1)[0]
    if not path:
        return None
    base = PurePosixPath(rel).parent
    joined = PurePosixPath(path.lstrip("/")) if path.startswith("/") else base / path
    parts: list[str] = []
    for part in joined.parts:
        if part == "..":
            if not parts:
                return "outside the docs folder"
            parts.pop()
        elif part != ".":
            parts.append(part)
    resolved = root.joinpath(*parts) if parts else root
    if resolved.is_file():
        return None
    if resolved.with_name(resolved.name + ".md").is_file():
        return "extensionless (needs .md added)"
    if resolved.is_dir() and (resolved / "index.md").is_file():
        return None
    if resolved.suffix == ".html" and resolved.with_suffix(".md").is_file():
        return ".html name of a page"
    return "missing in the folder"


def scan_file(path: Path, rel: str, census: Census, root: Path, line_files: dict) -> None:
    text = path.read_text(encoding="utf-8", errors="replace")
    body_offset = 0
    m = FRONT.match(text)
    if m:
        census.add("pages with front matter", "pages", f"{rel}:1", "---")
        for k in re.findall(r"^([A-Za-z_][\w-]*)\s*:", m.group(1), re.M):
            census.add("front-matter keys", k, f"{rel}:1", f"{k}: …")
        body_offset = m.group(0).count("\n")
    lines = text.splitlines()
    if not any(re.match(r"^#\s", ln) for ln in lines) and not any(
            re.match(r"^=+\s*$", ln) for ln in lines) and not (m and re.search(r"^title\s*:", m.group(1), re.M)):
        census.add("pages with no h1 and no title", "pages", f"{rel}:1", lines[body_offset] if len(lines) > body_offset else "(empty)")

    code_fence: tuple[str, int] | None = None   # (char, length) of an open code fence
    directives: list[tuple[str, int]] = []      # open non-code MyST backtick directives
    in_comment = False
    in_mkdocs_adm = False
    for i in range(body_offset, len(lines)):
        line = lines[i]
        where = f"{rel}:{i + 1}"
        if code_fence:
            fm_ = FENCE.match(line)
            if fm_ and fm_.group("fence")[0] == code_fence[0] and len(fm_.group("fence")) >= code_fence[1] \
                    and not fm_.group("info").strip():
                code_fence = None
            continue
        fm_ = FENCE.match(line)
        if fm_:
            fence, info = fm_.group("fence"), fm_.group("info").strip()
            d = re.match(r"\{([\w:.-]+)\}\s*(.*)", info)
            if d:
                census.add("MyST directives (backtick fence)", d.group(1), where, line)
                if d.group(1) in CODE_DIRECTIVES:
                    code_fence = (fence[0], len(fence))
                else:
                    directives.append((fence[0], len(fence)))
                continue
            if not info and directives:
                for k in range(len(directives) - 1, -1, -1):
                    if directives[k][0] == fence[0] and len(fence) >= directives[k][1]:
                        del directives[k:]
                        break
                else:
                    k = None
                if k is not None:
                    continue
            lang = info.split()[0] if info else "(none)"
            census.add("code fence languages", lang, where, line)
            code_fence = (fence[0], len(fence))
            continue

        stripped = INLINE_CODE.sub("", line)
        masked = INLINE_CODE.sub(lambda mm: "\ue000" * len(mm.group(0)), line)
        if line.strip() and len(line.strip()) > 30 and not line.startswith(("    ", "\t")):
            line_files[line.strip()].add(rel)

        # HTML comments (may span lines), outside inline code.
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        for cm in re.finditer(r"<!--(.*?)(-->|$)", stripped):
            kind = "single-line" if cm.group(2) else "multi-line"
            head = cm.group(1).strip().split()[0] if cm.group(1).strip() else "(blank)"
            head = re.split(r"[=:]", head)[0]
            census.add("HTML comments", f"{kind} <!--{head}", where, line)
            if not cm.group(2):
                in_comment = True

        c = COLON.match(line)
        if c:
            info = c.group("info").strip()
            d = re.match(r"\{([\w:.-]+)\}", info)
            if d:
                census.add("MyST directives (colon fence)", d.group(1), where, line)
            elif AUTODOC.match(line):
                census.add("mkdocstrings autodoc (::: ident)", "lines", where, line)
            elif DOCUSAURUS.match(line):
                k = DOCUSAURUS.match(line).group("kind")
                titled = "titled" if info[len(k):].strip() else "untitled"
                census.add("Docusaurus admonitions (:::kind)", f"{k} ({titled})", where, line)
            elif not info:
                census.add("bare ::: closers", "lines", where, line)
            continue
        if (ma := MKDOCS_ADM.match(line)) and ma.group("kind"):
            census.add("MkDocs admonitions (!!! / ???)", f"{ma.group('mark')} {ma.group('kind')}", where, line)
            in_mkdocs_adm = True
        elif in_mkdocs_adm:
            if line.strip() and not line.startswith(("    ", "\t")):
                in_mkdocs_adm = False
            elif line.strip():
                census.add("MkDocs admonition body lines (4-space indented)", "lines", where, line)
        if (mb := BLOCKS.match(line)):
            census.add("pymdown blocks (/// kind)", mb.group("kind") or "/// (closer)", where, line)
        if (al := ALERT.match(line)):
            census.add("GitHub alerts (> [!KIND])", al.group("kind").upper(), where, line)
        elif (ps := PSEUDO.match(line)):
            census.add("blockquote pseudo-admonitions (> **Note** / > ℹ️ Note:)", ps.group("bold") or ps.group("plain"), where, line)
        if re.match(r"^\s*>\s*Stability:", line):
            census.add("Node stability blockquotes (> Stability: N)", "lines", where, line)
        if TABS.match(line):
            census.add('pymdown tabs (=== "Tab")', "lines", where, line)
        if SNIPPET.match(line):
            census.add("includes", "--8<-- snippet", where, line)
        if TARGET.match(line):
            census.add("MyST targets ((label)=)", "lines", where, line)
        if MYST_COMMENT.match(line):
            census.add("MyST % comments", "lines", where, line)
        if ABBR_DEF.match(line):
            census.add("abbreviation definitions (*[X]: …)", "lines", where, line)
        if re.match(r"^\s*\[TOC\]\s*$", line):
            census.add("[TOC] markers", "lines", where, line)
        if OPTION.match(line) and (directives or (i > 0 and (OPTION.match(lines[i - 1]) or COLON.match(lines[i - 1])
                                                             or FENCE.match(lines[i - 1])))):
            census.add("directive option lines (:key: value)", "lines", where, line)
        if DEF_LINE.match(line) and i > 0 and lines[i - 1].strip() and not lines[i - 1].startswith((":", "#", "|")):
            census.add("definition lists (term / : definition)", "definitions", where, lines[i - 1] + " ⏎ " + line)
        if DOLLAR_BLOCK.match(line):
            census.add("math ($$)", "lines", where, line)
        if MDX.match(line):
            census.add("MDX import/export", "lines", where, line)
        if HEADING_ID.match(line):
            census.add("heading ids ({#id})", "headings", where, line)
        elif ATTR_LIST.search(line) and not line.lstrip().startswith(("{{", "```")):
            census.add("attr_list / {.class} attributes", "lines", where, line)
        if re.match(r"^\s*\+\+\+", line):
            census.add("MyST block breaks (+++)", "lines", where, line)

        for r in ROLE.finditer(line):
            census.add("MyST roles ({name}`…`)", r.group("name"), where, r.group(0))
        for t in TAG.finditer(stripped):
            name = t.group("name").lower()
            census.add("HTML tags", name, where, t.group(0))
            for attr in re.findall(r"\s(on\w+|style|markdown|id|class|href|src|align)=", t.group(0)):
                census.add("HTML attributes", attr, where, t.group(0))
        for _ in FOOTREF.finditer(stripped):
            census.add("footnotes", "references [^x]", where, line)
        if FOOTDEF.match(stripped):
            census.add("footnotes", "definitions [^x]:", where, line)
        if JINJA.search(stripped):
            census.add("template syntax ({{ }} / {% %})", "lines", where, line)
        if EMOJI.search(stripped):
            census.add("icon shortcodes (:material-…:)", "spans", where, line)
        if re.match(r"^\s*[*-]\s", masked) and NODE_TYPE.search(masked):
            census.add("Node type annotations in lists ({string|Buffer})", "items", where, line)
        targets = [(lk.group("text"), lk.group("target")) for lk in LINK.finditer(masked)]
        if (rd := REFDEF.match(line)) and not line.lstrip().startswith("[^"):
            targets.append((None, rd.group("target")))
        for text_, target in targets:
            if text_ == "":
                census.add("links with empty text ([](target))", "links", where, line)
            if re.match(r"^[a-z]+:(?!//)", target) and not target.startswith("mailto:"):
                census.add("links with non-URL schemes (xref:, doi:, …)", target.split(":", 1)[0], where, line)
            why = _link_problem(target, rel, root)
            if why:
                census.add("relative links naming no file in the folder", why, where, line)
            elif target.split("#")[0].endswith(".html") and not re.match(r"^[a-z]+:", target):
                census.add("relative links to .html pages", "links", where, line)


def census_of(folder: Path) -> dict:
    c = Census()
    line_files: dict[str, set] = defaultdict(set)
    for p in sorted(p for suffix in ("*.md", "*.mdx") for p in folder.rglob(suffix)):
        scan_file(p, p.relative_to(folder).as_posix(), c, folder, line_files)
    feature = "same visible line on ≥ 5 pages (boilerplate)"
    for text, files in sorted(line_files.items(), key=lambda kv: -len(kv[1])):
        if len(files) < 5 or re.fullmatch(r"[=\-*_#\s]+", text) or REFDEF.match(text):
            continue
        c.add(feature, text[:60], f"{sorted(files)[0]}:?", text, n=len(files))
        c.files_with[feature].update(files)
    return c.as_dict()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--dest", type=Path, default=DEFAULT_ROOT)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = {}
    for name in args.names or list(CORPORA):
        try:
            folder = fetch(name, args.dest)
        except FetchError as e:
            print(f"census: {e}", file=sys.stderr)
            return 1
        m = manifest(folder)
        out[name] = {"version": m["version"], "pages": m["pages"], "features": census_of(folder)}
    if args.json:
        print(json.dumps(out, indent=1, ensure_ascii=False))
        return 0
    for name, r in out.items():
        print(f"## {name} {r['version']} ({r['pages']} pages)")
        for feature, d in r["features"].items():
            top = ", ".join(f"{k} {v}" for k, v in list(d["by"].items())[:14])
            print(f"- {feature}: {d['total']} in {d['files']} files — {top}")
            for e in d["examples"]:
                print(f"    {e}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
