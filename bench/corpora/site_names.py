"""Does a released docs folder keep its own name? The site name read from each corpus's settings.

    .venv/bin/python bench/corpora/site_names.py [--label NAME] [CORPUS ...]

Without TRIGSIGHT_SITE_TITLE, trigsight names the site as the folder's generator names it
(pipeline/build/site_name.py: mkdocs.yml's `site_name`, conf.py's `project`, myst.yml's title,
…); before, every site was called "trigsight". For each corpus of fetch.py (PyPI sdists and npm
tarballs, unpacked whole so the settings beside or above the docs folder are there), this
harness reports the name read and where from, and, on its own terms, the name the settings file
states (the first `site_name:`/`project =`/`title` line found by plain text rules in the files a
generator keeps its name in), so a reader can check the two agree. Debian's Node.js docs have no
generator settings and are skipped.

Results: bench/corpora/results/<date>-site-names[-label].md, naming the machine.
"""
from __future__ import annotations

import argparse
import re
import sys
from datetime import date
from pathlib import Path, PurePosixPath

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import trigsight  # noqa: E402
from fetch import CORPORA, whole  # noqa: E402
from trigsight.build import site_name  # noqa: E402

from common import machine, write_results  # noqa: E402

# (file name, the line that names the site in it), as the generators' own docs write them
_STATED = [("mkdocs.yml", r"^site_name:\s*['\"]?(.+?)['\"]?\s*$"), ("conf.py", r"^project\s*=\s*['\"](.+?)['\"]"),
           ("myst.yml", r"^  title:\s*['\"]?(.+?)['\"]?\s*$"), ("_config.yml", r"^title:\s*['\"]?(.+?)['\"]?\s*$"),
           ("book.toml", r"^title\s*=\s*['\"](.+?)['\"]"), ("docusaurus.config.js", r"^\s*title:\s*['\"](.+?)['\"]")]


def stated(content: Path, root: Path) -> str:
    """The name the nearest settings file states, by plain text rules (not the product's reading);
    an mkdocs.yml that states none is followed to the file its `INHERIT:` names."""
    for folder in (content, *content.parents[:3]):
        for file_name, pattern in _STATED:
            file = folder / file_name
            for _ in range(3):
                if not file.is_file():
                    break
                text = file.read_text("utf-8", "replace")
                if match := re.search(pattern, text, re.M):
                    return f"{match.group(1)} ({file.resolve().relative_to(root.resolve()).as_posix()})"
                parent = re.search(r"^INHERIT:\s*(\S+)", text, re.M)
                file = file.parent / parent.group(1) if parent else file.parent / "-"
    return "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=[n for n, c in CORPORA.items() if c.registry != "debian"])
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    lines = [f"# Site names read from the docs folders' settings, {date.today().isoformat()}", "",
             f"Machine: {machine()}; code: {Path(trigsight.__file__).parent}", "",
             "| corpus | generator | site named | read from | stated there (plain text rule) |",
             "|---|---|---|---|---|"]
    named = 0
    for name in args.corpora:
        content = whole(name)
        root = content.parents[len(PurePosixPath(CORPORA[name].subdir).parts) - 1]
        found = site_name.run(content)
        named += bool(found.title)
        lines.append(f"| {name} | {CORPORA[name].generator} | {found.title or '(trigsight)'} | "
                     f"{found.origin or '-'} | {stated(content, root)} |")
        print(lines[-1], file=sys.stderr, flush=True)
    lines += ["", f"Named from their own settings: {named} of {len(args.corpora)} corpora (before: none; every "
              "site was called trigsight unless TRIGSIGHT_SITE_TITLE was set)."]
    write_results(lines, HERE / "results" / (f"{date.today().isoformat()}-site-names"
                                             + (f"-{args.label}" if args.label else "") + ".md"))


if __name__ == "__main__":
    main()
