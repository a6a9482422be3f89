"""Links inside a released site: how many reach a page, and how many of those land on their anchor.

    .venv/bin/python bench/corpora/links.py [--label NAME] [CORPUS ...]   # default: every corpus

Each corpus (fetch.py) is built in process (build + source gate, no browser, as
`run.py --source-only`). Every link of every page that stays on the site (no scheme, not
`//host`, not a text fragment, not a published asset under /static/) is resolved as the
browser would, against the page's URL: a dead link is one whose path is no page of the
release (the reader gets a 404). Every live link that names an anchor (`#processexitcode`,
`/fs#fsreadfilepath-options-callback`) is checked against the ids of the target page's HTML;
a broken one sends the reader to the top of the page instead of the section. To compare two
versions of the code, run it once with each (a worktree of the older one on PYTHONPATH).

Results: bench/corpora/results/<date>-anchors[-label].md, naming the machine.
"""
from __future__ import annotations

import argparse
import re
import sys
from datetime import date
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import trigsight  # noqa: E402
from fetch import CORPORA, fetch  # noqa: E402
from trigsight.build.builder import BuildConfig, run  # noqa: E402

from common import machine, write_results  # noqa: E402

_ID = re.compile(r'\sid="([^"]+)"')
_HREF = re.compile(r'<a\s[^>]*?href="([^"]*)"')
_EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:|^//", re.I)
SHOWN = 5


def links(folder: Path) -> dict:
    """Internal links, dead ones as (page, href), anchor links to live pages and the broken ones."""
    return links_of(run(BuildConfig(folder)))


def links_of(built) -> dict:
    """links() of a site already built."""
    ids = {page.path: set(_ID.findall(page.html)) for page in built.pages}
    found = {"internal": 0, "dead": [], "anchors": 0, "broken": []}
    for page in built.pages:
        main = page.html.split("<main", 1)[-1].split("</main>", 1)[0]    # the author's links, not the chrome's
        for href in _HREF.findall(main):
            if _EXTERNAL.match(href) or ":~:" in href:
                continue
            path, _, anchor = href.partition("#")
            target = urlsplit(urljoin(f"http://site{page.path}", path)).path if path else page.path
            if target.startswith("/static/"):
                continue
            found["internal"] += 1
            target = target.rstrip("/") or "/"
            if target not in ids:
                found["dead"].append((page.path, href))
                continue
            if anchor:
                found["anchors"] += 1
                if anchor not in ids[target] and unquote(anchor) not in ids[target]:
                    found["broken"].append((page.path, href))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=sorted(CORPORA))
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    lines = [f"# Links inside the site, {date.today().isoformat()}", "",
             f"Machine: {machine()}; code: {Path(trigsight.__file__).parent}", "",
             "| corpus | internal links | dead (no such page) | anchor links to live pages | anchor broken | examples |",
             "|---|---|---|---|---|---|"]
    totals = dict.fromkeys(("internal", "dead", "anchors", "broken"), 0)
    for name in args.corpora:
        found = links(fetch(name))
        for key in totals:
            totals[key] += found[key] if isinstance(found[key], int) else len(found[key])
        examples = ", ".join(f"`{page}` → `{href}`" for page, href in (found["dead"] + found["broken"])[:SHOWN])
        lines.append(f"| {name} | {found['internal']} | {len(found['dead'])} | {found['anchors']} | "
                     f"{len(found['broken'])} | {examples} |")
        print(lines[-1], file=sys.stderr, flush=True)
    lines.append(f"| all | {totals['internal']} | {totals['dead']} | {totals['anchors']} | {totals['broken']} | |")
    write_results(lines, HERE / "results" / (f"{date.today().isoformat()}-links"
                                             + (f"-{args.label}" if args.label else "") + ".md"))


if __name__ == "__main__":
    main()
