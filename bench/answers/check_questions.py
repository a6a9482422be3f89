"""Check bench/answers/questions.json against the Node.js API docs it was written from.

Usage: python3 bench/answers/check_questions.py [DOCS_DIR] [--questions FILE]
       (defaults: /usr/share/doc/nodejs/api, bench/answers/questions.json; bench/answers/holdout.json
       is checked the same way)

For every answerable question, each expected sentence must
  - sit inside one prose block (paragraph or list item) of its page, not in a code block,
    table, heading, HTML comment or stability banner, and
  - occur exactly once on the page's whole markdown,
both compared after a rough strip of inline markup (backticks, emphasis, link syntax),
whitespace collapse and case folding. Unanswerable questions must carry a "why".
Prints counts per language and split, and exits 1 on any problem. Standard library only.
"""

from __future__ import annotations

import collections
import json
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).resolve().parent
DEFAULT_DOCS = "/usr/share/doc/nodejs/api"
LANGUAGES = ("en", "ru", "ja", "ko")
KINDS = {"direct", "paraphrase", "cross-language", "clause", "scenario"}
MIN_WORDS = 6

_COMMENT = re.compile(r"<!--.*?-->", re.S)
_IMAGE = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_INLINE_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_REF_LINK = re.compile(r"\[([^\]]+)\]\[[^\]]*\]")
_ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!<>|])")
_EMPHASIS = re.compile(r"(?<![\w*])(\*{1,3}|_{1,3})(?=\S)(.+?)(?<=\S)\1(?![\w*])")
_TAG = re.compile(r"</?(?:a|code|em|strong|i|b|span|sup|sub|kbd)(?:\s[^>]*)?>", re.I)
_SPACE = re.compile(r"\s+")
_CODE = re.compile(r"(`+)(.+?)\1", re.S)
_DEFINITION = re.compile(r"^\s*\[([^\]]+)\]:\s", re.M)
_SHORTCUT = re.compile(r"\[([^\]]+)\](?![(\[:])")


def strip_inline(text: str, labels: frozenset = frozenset()) -> str:
    """Markdown source -> roughly the text a reader sees, folded for comparison.

    Code spans are set aside first (no escapes or emphasis inside them), then links
    keep their text, escapes and emphasis markers go, and whitespace collapses.
    `labels` are the page's reference-link labels, so a shortcut link [label] keeps
    only its text.
    """
    text = _COMMENT.sub(" ", text)
    codes: list[str] = []

    def keep(match: re.Match) -> str:
        codes.append(match.group(2))
        return f"\x00{len(codes) - 1}\x00"

    text = _CODE.sub(keep, text)
    text = _IMAGE.sub(r"\1", text)
    text = _INLINE_LINK.sub(r"\1", text)
    text = _REF_LINK.sub(r"\1", text)
    if labels:
        text = _SHORTCUT.sub(
            lambda m: m.group(1) if _fold_label(m.group(1)) in labels else m.group(0), text)
    text = _ESCAPE.sub(r"\1", text)
    for _ in range(2):
        text = _EMPHASIS.sub(r"\2", text)
    text = _TAG.sub("", text)
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    text = re.sub("\x00(\\d+)\x00", lambda m: codes[int(m.group(1))], text)
    return _SPACE.sub(" ", text).strip().casefold()


def _fold_label(label: str) -> str:
    return _SPACE.sub(" ", label.replace("`", "")).strip().casefold()


def reference_labels(markdown: str) -> frozenset:
    return frozenset(_fold_label(label) for label in _DEFINITION.findall(markdown))


def fold(text: str) -> str:
    return _SPACE.sub(" ", text).strip().casefold()


def prose_blocks(markdown: str) -> list[str]:
    """Paragraphs and list items, without code, tables, headings, comments, banners."""
    labels = reference_labels(markdown)
    markdown = _COMMENT.sub("\n", markdown)
    blocks: list[str] = []
    current: list[str] = []
    fence = None

    def flush() -> None:
        if current:
            blocks.append(" ".join(current))
            current.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        match = re.match(r"(`{3,}|~{3,})", stripped)
        if match:
            flush()
            fence = match.group(1)
            continue
        if not stripped:
            flush()
            continue
        if line.startswith("    ") and not current:
            continue  # indented code block (or a continuation we do not need)
        if stripped.startswith("#") or stripped.startswith("|") or stripped.startswith("<"):
            flush()
            continue
        if stripped.startswith(">"):
            flush()
            continue  # stability banners and other block quotes
        if re.match(r"^\[[^\]]+\]:\s", stripped):
            flush()
            continue  # link reference definitions
        if re.match(r"^([*+-]|\d+\.)\s+", stripped):
            flush()
            stripped = re.sub(r"^([*+-]|\d+\.)\s+", "", stripped)
        current.append(stripped)
    flush()
    return [strip_inline(block, labels) for block in blocks]


def page_file(docs: pathlib.Path, page: str) -> pathlib.Path:
    """The page's markdown: /guides is guides.md, or guides/index.md for a folder's index page."""
    stem = page.strip("/") or "index"
    path = docs / f"{stem}.md"
    return path if path.exists() or not (docs / stem / "index.md").exists() else docs / stem / "index.md"


def check(questions: dict, docs: pathlib.Path) -> list[str]:
    problems: list[str] = []
    seen_ids: set[str] = set()
    cache: dict[str, tuple[str, list[str]]] = {}
    for index, item in enumerate(questions["questions"]):
        where = f"questions[{index}] {item.get('id', '?')}"
        if item.get("id") in seen_ids:
            problems.append(f"{where}: duplicate id")
        seen_ids.add(item.get("id"))
        if item.get("language") not in LANGUAGES:
            problems.append(f"{where}: language {item.get('language')!r}")
        if item.get("split") not in ("dev", "test"):
            problems.append(f"{where}: split {item.get('split')!r}")
        if not str(item.get("question", "")).strip():
            problems.append(f"{where}: empty question")
        if not item.get("answerable"):
            if not str(item.get("why", "")).strip():
                problems.append(f"{where}: unanswerable question without a why")
            continue
        kinds = set(item.get("kinds", []))
        if not kinds or not kinds <= KINDS:
            problems.append(f"{where}: kinds {sorted(kinds)}")
        if (item["language"] != "en") != ("cross-language" in kinds):
            problems.append(f"{where}: cross-language kind must match a non-English question")
        pages = item.get("pages") or []
        sentences = item.get("sentences") or []
        if not pages or not sentences:
            problems.append(f"{where}: needs pages and sentences")
            continue
        for page in pages:
            path = page_file(docs, page)
            if page not in cache:
                if not path.is_file():
                    problems.append(f"{where}: no page file {path}")
                    continue
                source = path.read_text(encoding="utf-8")
                cache[page] = (strip_inline(source, reference_labels(source)), prose_blocks(source))
        for sentence in sentences:
            needle = fold(sentence)
            if len(needle.split()) < MIN_WORDS and not needle.endswith((".", "?", "!", ":")):
                problems.append(f"{where}: short piece is not a whole sentence: {sentence!r}")
            hits = []
            for page in pages:
                if page not in cache:
                    continue
                whole, blocks = cache[page]
                count = whole.count(needle)
                in_prose = sum(block.count(needle) for block in blocks)
                if count:
                    hits.append((page, count, in_prose))
            if not hits:
                problems.append(f"{where}: sentence not found on {pages}: {sentence!r}")
                continue
            for page, count, in_prose in hits:
                if count != 1:
                    problems.append(f"{where}: found {count} times on {page}: {sentence!r}")
                if in_prose != 1:
                    problems.append(f"{where}: not inside one prose block on {page}: {sentence!r}")
    return problems


def report(questions: dict, docs: pathlib.Path) -> None:
    table: collections.Counter = collections.Counter()
    pages: set[str] = set()
    kinds: collections.Counter = collections.Counter()
    for item in questions["questions"]:
        answer = "answerable" if item.get("answerable") else "unanswerable"
        table[(item["language"], item["split"], answer)] += 1
        if item.get("answerable"):
            pages.update(item.get("pages", []))
            kinds.update(item.get("kinds", []))
    print(f"docs: {docs}")
    print(f"{'lang':5} {'dev ans':>8} {'test ans':>9} {'dev un':>7} {'test un':>8} {'total':>6}")
    for language in LANGUAGES:
        row = [table[(language, s, a)] for a in ("answerable", "unanswerable") for s in ("dev", "test")]
        print(f"{language:5} {row[0]:8} {row[1]:9} {row[2]:7} {row[3]:8} {sum(row):6}")
    total = [sum(table[(l, s, a)] for l in LANGUAGES)
             for a in ("answerable", "unanswerable") for s in ("dev", "test")]
    print(f"{'all':5} {total[0]:8} {total[1]:9} {total[2]:7} {total[3]:8} {sum(total):6}")
    print(f"pages with answers: {len(pages)}; kinds: {dict(sorted(kinds.items()))}")


def main(argv: list[str]) -> int:
    args = argv[1:]
    file = HERE / "questions.json"
    if "--questions" in args:
        at = args.index("--questions")
        file = pathlib.Path(args[at + 1])
        del args[at:at + 2]
    docs = pathlib.Path(args[0] if args else DEFAULT_DOCS)
    questions = json.loads(file.read_text(encoding="utf-8"))
    report(questions, docs)
    problems = check(questions, docs)
    for problem in problems:
        print("PROBLEM", problem)
    print("ok" if not problems else f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
