"""Does the contents page follow the author's own table of contents? Before and after reading it.

    .venv/bin/python bench/corpora/reading_order.py [--label NAME] [CORPUS ...]

A real docs folder states its reading order in its generator's settings: MkDocs' `nav:` in
`mkdocs.yml` beside the docs folder, MyST's `toc:` in `myst.yml`, Sphinx `{toctree}` directives.
For each PyPI corpus of fetch.py, this harness unpacks the cached sdist's docs folder *with*
those settings files (fetch.py keeps only the pages), builds the site in process (no browser)
twice — once as the folder's own order (front matter, numbered names, titles) and once with
the reading order the product reads — and compares each contents page with the author's order.

The author's order is read here on its own terms, not by the product's code: the `.md` names
in the text of the `nav:` block in the order they are written (following `INHERIT:`), the
`file:` values of `myst.yml` in order, and a depth-first walk of the `{toctree}` blocks' lines
from `index.md`. Two figures, over the pages both list:
- pairs in order: of every two pages, the share the contents page puts in the author's order;
- next page: of the author's consecutive pages, the share whose "next" link is the author's next.

Results: bench/corpora/results/<date>-reading-order[-label].md, naming the machine.
"""
from __future__ import annotations

import argparse
import posixpath
import re
import sys
import tarfile
import tempfile
from datetime import date
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import trigsight  # noqa: E402
from fetch import CORPORA, DEFAULT_ROOT, PYPI_URL, _pypi_sdist  # noqa: E402
from trigsight.build import reading_order  # noqa: E402
from trigsight.build.builder import BuildConfig, run  # noqa: E402

from common import machine, write_results  # noqa: E402

DEFAULT = ("python-markdown", "hatch", "fastapi-ja", "fastapi-ko", "fastapi-ru",
           "jupyter-book", "black", "furo")
_CONTENTS_LINK = re.compile(r'<a href="(/[^"]*)" lang="[^"]*">')


def unpack(name: str, work: Path, whole: bool = False) -> Path:
    """The corpus's docs folder with the settings files of the folders above it and beside those
    (`whole`: with every file of the sdist, as its project keeps them)."""
    corpus = CORPORA[name]
    archive, _ = _pypi_sdist(corpus, Path(DEFAULT_ROOT) / "_downloads", PYPI_URL)
    subdir = PurePosixPath(corpus.subdir)
    root = work / name
    with tarfile.open(archive, "r:*") as tar:
        for member in tar:
            parts = PurePosixPath(member.name).parts[1:]
            path = PurePosixPath(*parts) if parts else PurePosixPath()
            inside = subdir in path.parents
            settings = path.suffix in (".yml", ".yaml") and len(path.parts) <= len(subdir.parts)
            if member.isfile() and (inside or settings or whole) and ".." not in path.parts:
                out = root.joinpath(*path.parts)
                out.parent.mkdir(parents=True, exist_ok=True)
                out.write_bytes(tar.extractfile(member).read())
    return root.joinpath(*subdir.parts)


def authors_order(content: Path) -> tuple[str, list[str]]:
    """(where it was read, the content files in the author's order), read by plain text rules."""
    for up, folder in enumerate((content, *content.parents[:3])):
        config = folder / "mkdocs.yml"
        if config.is_file():
            text = config.read_text("utf-8")
            docs_dir = re.search(r"^docs_dir:\s*(\S+)", text, re.M)
            while "\nnav:" not in "\n" + text and (parent := re.search(r"^INHERIT:\s*(\S+)", text, re.M)):
                config = config.parent / parent.group(1)
                text = config.read_text("utf-8")
            block = re.search(r"^nav:\n((?:[ \t-].*\n|\n)*)", text, re.M)
            prefix = (folder / (docs_dir.group(1) if docs_dir else "docs")).resolve().relative_to(content.resolve())
            files = [posixpath.normpath(posixpath.join(prefix.as_posix(), f))
                     for f in re.findall(r"([\w./-]+\.md)\b", block.group(1) if block else "")]
            return "../" * up + "mkdocs.yml", files
    if (content / "myst.yml").is_file():
        return "myst.yml", re.findall(r"\bfile:\s*(\S+)", (content / "myst.yml").read_text("utf-8"))
    files: list[str] = []

    def walk(file: str) -> None:
        files.append(file)
        text = (content / file).read_text("utf-8") if (content / file).is_file() else ""
        for block in re.findall(r"```\{toctree\}\n(.*?)```", text, re.S):
            lines = block.split("---\n")[-1] if block.startswith("---") else block
            for line in lines.splitlines():
                line = line.strip()
                target = re.sub(r"^.*<(.+)>$", r"\1", line)
                if line and not line.startswith(":"):
                    found = posixpath.normpath(posixpath.join(posixpath.dirname(file), target)) + ".md"
                    if found not in files:
                        walk(found)
    walk("index.md")
    return "{toctree}", files


def contents_order(content: Path, follow: bool) -> tuple[list[str], dict[str, str]]:
    """(the contents page's URL paths in order, content file → URL path), with or without the reading order."""
    saved = reading_order.toc_files.run, reading_order.toctrees
    if not follow:
        reading_order.toc_files.run, reading_order.toctrees = (lambda *a: None), (lambda *a: None)
    try:
        built = run(BuildConfig(content))
    finally:
        reading_order.toc_files.run, reading_order.toctrees = saved
    contents = next(page for page in built.pages if page.generated).html.split('<ul class="contents">')[1]
    return _CONTENTS_LINK.findall(contents), {p.source.source: p.path for p in built.authored}


def agreement(authors: list[str], listed: list[str]) -> tuple[int, int, int, int]:
    """(pairs in order, pairs, next links right, consecutive pairs) over the pages both list."""
    place = {path: at for at, path in enumerate(listed)}
    order = [path for path in dict.fromkeys(authors) if path in place]
    pairs = [(a, b) for i, a in enumerate(order) for b in order[i + 1:]]
    in_order = sum(place[a] < place[b] for a, b in pairs)
    right_next = sum(place[b] == place[a] + 1 for a, b in zip(order, order[1:]))
    return in_order, len(pairs), right_next, max(len(order) - 1, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=list(DEFAULT))
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    lines = [f"# Contents order against the author's table of contents, {date.today().isoformat()}", "",
             f"Machine: {machine()}; code: {Path(trigsight.__file__).parent}", "",
             "| corpus | author's order in | pages listed there | pairs in order: before → after | "
             "next page right: before → after |", "|---|---|---|---|---|"]
    with tempfile.TemporaryDirectory() as work:
        for name in args.corpora:
            content = unpack(name, Path(work))
            origin, files = authors_order(content)
            cells = []
            for follow in (False, True):
                listed, paths = contents_order(content, follow)
                authors = [paths[f] for f in files if f in paths]
                in_order, pairs, right, consecutive = agreement(authors, listed)
                cells.append((in_order, pairs, right, consecutive))
            (b_in, pairs, b_next, consecutive), (a_in, _, a_next, _) = cells
            lines.append(f"| {name} | {origin} | {len(set(authors))} | {b_in}/{pairs} = {b_in / max(pairs, 1):.0%} → "
                         f"{a_in}/{pairs} = {a_in / max(pairs, 1):.0%} | {b_next}/{consecutive} → {a_next}/{consecutive} |")
            print(lines[-1], file=sys.stderr, flush=True)
    write_results(lines, HERE / "results" / (f"{date.today().isoformat()}-reading-order"
                                             + (f"-{args.label}" if args.label else "") + ".md"))


if __name__ == "__main__":
    main()
