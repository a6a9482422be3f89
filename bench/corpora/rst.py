"""reStructuredText docs folders: what a reader of the released site gets of them.

    .venv/bin/python bench/corpora/rst.py [--label NAME] [--release] [CORPUS ...]

Most Python projects write their Sphinx docs in reStructuredText. For each corpus of fetch.py
whose pages are reStructuredText (`.rst`, or Django's `.txt` as its conf.py says), this harness
unpacks the *whole* cached sdist (so `.. include:: ../CHANGES.rst` finds its file), builds the
site in process (build and source gate, no browser) and reports:
- the reStructuredText files and the pages published (before this reader every `.rst` file was
  named in a warning and left out: a folder of only `.rst` pages was refused);
- prose paragraphs reached: each paragraph of those files, found by plain text rules here
  (a block of lines starting with a letter, outside literal blocks, code directives and comments),
  counts as reached when its longest run of words without inline markup (five words at least) is
  in its page's text;
- passages published, the problems docutils names (file:line), the directive kinds shown as
  their text and those shown as nothing (autodoc), internal links to no page (links.py), and the
  passages holding markup a reader should not see (scan.py; Sphinx's own manual quotes rST in
  its code, which counts there too);
- what the folder's conf.py gave (sphinx_conf.py): the page suffixes, the root document, the files
  its patterns exclude or its suffixes leave out, the default role, the link roles (extlinks,
  sphinx-issues) with the links they made on the pages, the substitutions and prolog/epilog.

With `--release`, each folder is also released with the real CLI (`trigsight release`, cold proof
cache: Chromium proves every passage) and the passages proven, the predictor/browser agreement
and the wall time are reported.

Results: bench/corpora/results/<date>-rst[-label].md, naming the machine.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import trigsight  # noqa: E402
from includes import released  # noqa: E402
from links import links_of  # noqa: E402
from reading_order import unpack  # noqa: E402
from scan import scan  # noqa: E402
from trigsight.build import builder, rst_project, sphinx_conf  # noqa: E402

from common import machine, write_results  # noqa: E402

DEFAULT = ("flask", "jinja", "sphinx", "pytest", "nbsphinx", "django")
WORDS = 5
_CODE_DIRECTIVE = re.compile(r"^\s*\.\.\s+(?:[\w-]+:)?(code-block|sourcecode|code|literalinclude|toctree|doctest|"
                             r"testcode|testoutput|testsetup|ipython|productionlist|autosummary|raw|math|graphviz|"
                             r"csv-table|list-table|only|ifconfig)::")
# inline markup of every kind: roles, links, literals, emphasis, substitutions, footnote marks
_MARKUP = re.compile(r"(:[\w:.+-]+:)?`[^`]*`_{0,2}|\*\*?[^*]+\*\*?|\|[^|]+\|_{0,2}|\[[#*\w-]*\]_|\S+_\b|\\")
# docutils' explicit markup that is not a comment: a directive (its name is a "simple name"), a target,
# a footnote or a citation; anything else after `..` is a comment, indented lines and all
_EXPLICIT = re.compile(r"^\.\.\s+(?:(?:\|[^|]+\|\s+)?(?:(?!_)\w)+(?:[-._+:](?:(?!_)\w)+)*::(?:\s|$)|_|\[)")
_ENUMERATOR = re.compile(r"^(?:(?:[a-zA-Z]|[ivxlcdm]+|\d+|#)[.)]|\((?:[a-zA-Z]|[ivxlcdm]+|\d+|#)\))\s")


def paragraphs(text: str) -> list[str]:
    """The longest run of plain words (no inline markup) of each prose paragraph of a reStructuredText
    file, by plain text rules (not docutils): outside literal blocks, code directives and comments."""
    found, skip_indent = [], None
    for block in re.split(r"\n[ \t]*\n", text):
        lines = block.split("\n")
        first = lines[0]
        indent = len(first) - len(first.lstrip())
        if skip_indent is not None:
            if indent > skip_indent or not first.strip():
                continue
            skip_indent = None
        stripped = first.strip()
        if block.rstrip().endswith("::") or _CODE_DIRECTIVE.match(first) or stripped.startswith("..") and \
                not _EXPLICIT.match(stripped):      # a literal block, a code directive, a comment: their indented lines
            skip_indent = indent
        if not stripped or not stripped[0].isalpha() or stripped.startswith("..") or _ENUMERATOR.match(stripped):
            continue
        if len(lines) > 1 and re.fullmatch(r"([=\-~^\"'`#*+<>:._])\1+", lines[1].strip() or "x"):
            continue       # a title
        if any(line.lstrip().startswith((":", "..", "- ", "* ", "|", ">>>")) for line in lines):
            continue
        prose = re.sub(r"\s*::$", lambda m: "" if m.group().startswith(" ") else ":", " ".join(l.strip() for l in lines))
        runs = [chunk.strip(" ,.;:()").split() for chunk in _MARKUP.split(prose) if chunk]
        longest = max(runs, key=len, default=[])
        if len(longest) >= WORDS:
            found.append(" ".join(longest))
    return found


def rst_files(content: Path) -> list[Path]:
    """The files read as reStructuredText: `.rst`, or what the folder's conf.py makes so (Django's `.txt`)."""
    kinds = sphinx_conf.page_kinds(sphinx_conf.read(content))
    return sorted(p for p in content.rglob("*") if p.is_file() and kinds.get(p.suffix.lower()) == "rst")


def reached(built, content: Path) -> tuple[int, int]:
    """(prose paragraphs of the .rst files whose first words are on their page, all of them)."""
    pages = {page.source.source: " ".join(built.texts[page.path].main_text.split()) for page in built.authored}
    found = total = 0
    for file in rst_files(content):
        relative = file.relative_to(content).as_posix()
        if relative not in pages:
            continue
        for paragraph in paragraphs(file.read_text("utf-8", "replace")):
            total += 1
            found += paragraph in pages[relative]
    return found, total


def conf_read(content: Path, built) -> str:
    """What the folder's conf.py gave the site, and the links its roles made on the pages."""
    conf = sphinx_conf.read(content)
    if conf is None:
        return "no conf.py"
    project = rst_project.project(conf)
    kinds = sphinx_conf.page_kinds(conf)
    files = [p.relative_to(content).as_posix() for p in content.rglob("*") if p.is_file() and
             p.suffix.lower() in kinds and not any(part.startswith((".", "_")) for part in p.relative_to(content).parts)]
    _, excluded, unread = conf.select(files)
    prefixes = tuple(pattern.split("{n}")[0] for pattern, *_ in project.links.values())
    made = sum(1 for page in built.pages for href in re.findall(r'href="([^"]+)"', page.body_html)
               if prefixes and href.startswith(prefixes))
    parts = [f"pages {', '.join(sorted(s for s in kinds if s not in sphinx_conf.KINDS or s == '.rst'))}",
             f"root {conf.root_doc}", f"{len(excluded)} excluded, {len(unread)} not Sphinx's",
             f"default role {project.default_role or '-'}",
             f"{len(project.links)} link roles: {made:,} links",
             "substitutions " + (", ".join(sorted(project.substitutions)) or "-"),
             "prolog/epilog " + ("/".join(n for n, (t, _) in (("prolog", project.prolog), ("epilog", project.epilog))
                                          if t) or "-")]
    return "; ".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=list(DEFAULT))
    parser.add_argument("--label", default="")
    parser.add_argument("--release", action="store_true", help="also release each folder in Chromium")
    args = parser.parse_args()
    lines = [f"# reStructuredText docs folders, {date.today().isoformat()}", "",
             f"Machine: {machine()}; code: {Path(trigsight.__file__).parent}", "",
             "| corpus | rST files | pages published | prose paragraphs reached | passages | docutils problems | "
             "dead internal links | passages with markup | build | directive kinds shown as text / as nothing | "
             "conf.py read |"
             + (" cold release: passages proven | agreement | time |" if args.release else ""),
             "|---|---|---|---|---|---|---|---|---|---|---|" + ("---|---|---|" if args.release else "")]
    with tempfile.TemporaryDirectory() as work:
        for name in args.corpora:
            content = unpack(name, Path(work), whole=True)
            files = [p for p in rst_files(content) if not any(part.startswith((".", "_"))
                                                              for part in p.relative_to(content).parts)]
            started = time.perf_counter()
            built = builder.run(builder.BuildConfig(content))
            seconds = time.perf_counter() - started
            found, total = reached(built, content)
            problems = next((w.split(": ")[1] for w in built.warnings if w.startswith("reStructuredText problems")), "0")
            kinds = [len(w.split(": ", 1)[1].split("; ")) for start in ("directives shown as their text",
                                                                          "directives with nothing to show")
                     for w in built.warnings if w.startswith(start)] + [0, 0]
            dead = len(links_of(built)["dead"])
            markup = scan(passage.text for passage in built.passages)
            shown = ", ".join(f"{kind} {len(found)}" for kind, found in sorted(markup.items()))
            marked = len({text for found in markup.values() for text in found})
            marked = f"{marked} ({shown})" if shown else "0"
            lines.append(f"| {name} | {len(files)} | {len(built.authored)} | {found}/{total} = {found / total:.0%} | "
                         f"{len(built.passages):,} | {problems} | {dead} | {marked} | {seconds:.1f} s | "
                         f"{kinds[0]} / {kinds[1]} | {conf_read(content, built)} |"
                         + (released(content, Path(work) / f"rel-{name}") if args.release else ""))
            print(lines[-1], file=sys.stderr, flush=True)
    write_results(lines, HERE / "results" / (f"{date.today().isoformat()}-rst"
                                             + (f"-{args.label}" if args.label else "") + ".md"))


if __name__ == "__main__":
    main()
