"""Links inside a released site that name an anchor: how many land on an element with that id.

    .venv/bin/python bench/corpora/anchors.py [--label NAME] [CORPUS ...]   # default: every corpus

Each corpus (fetch.py) is built in process (build + source gate, no browser, as
`run.py --source-only`), and every link of every page whose target is a page of the site and
that names an anchor (`#processexitcode`, `/fs#fsreadfilepath-options-callback`) is checked
against the ids of the target page's HTML; text fragments (`#:~:text=`) are not anchors. A
broken one sends the reader to the top of the page instead of the section. To compare two
versions of the code, run it once with each (a worktree of the older one on PYTHONPATH).

Results: bench/corpora/results/<date>-anchors[-label].md, naming the machine.
"""
from __future__ import annotations

import argparse
import re
import sys
from datetime import date
from pathlib import Path
from urllib.parse import unquote

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import trigsight  # noqa: E402
from fetch import CORPORA, fetch  # noqa: E402
from trigsight.build.builder import BuildConfig, run  # noqa: E402

from common import machine, write_results  # noqa: E402

_ID = re.compile(r'\sid="([^"]+)"')
_HREF = re.compile(r'href="([^"]*#[^"]*)"')
SHOWN = 5


def broken_anchors(folder: Path) -> tuple[int, list[tuple[str, str]]]:
    """(anchor links to the site's own pages, the broken ones as (page, href))."""
    built = run(BuildConfig(folder))
    ids = {page.path: set(_ID.findall(page.html)) for page in built.pages}
    total, broken = 0, []
    for page in built.pages:
        for href in _HREF.findall(page.html):
            path, _, anchor = href.partition("#")
            target = path or page.path
            if anchor.startswith(":~:") or target not in ids:
                continue
            total += 1
            if anchor not in ids[target] and unquote(anchor) not in ids[target]:
                broken.append((page.path, href))
    return total, broken


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=sorted(CORPORA))
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    lines = [f"# Anchor links inside the site, {date.today().isoformat()}", "",
             f"Machine: {machine()}; code: {Path(trigsight.__file__).parent}", "",
             "| corpus | anchor links | broken | examples |", "|---|---|---|---|"]
    totals = [0, 0]
    for name in args.corpora:
        total, broken = broken_anchors(fetch(name))
        totals[0] += total
        totals[1] += len(broken)
        examples = ", ".join(f"`{page}` → `{href}`" for page, href in broken[:SHOWN])
        lines.append(f"| {name} | {total} | {len(broken)} | {examples} |")
        print(lines[-1], file=sys.stderr, flush=True)
    lines.append(f"| all | {totals[0]} | {totals[1]} | |")
    write_results(lines, HERE / "results" / (f"{date.today().isoformat()}-anchors"
                                             + (f"-{args.label}" if args.label else "") + ".md"))


if __name__ == "__main__":
    main()
