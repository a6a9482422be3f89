"""Which language each page of real docs folders is served in, when its front matter names none.

    .venv/bin/python bench/corpora/page_languages.py [CORPUS ...]   (default: the corpora below)

For each corpus of bench/corpora/fetch.py (fetched from its registry at bench time), every
markdown page is read as `trigsight release` reads it (front matter first, then
`trigsight.build.languages.page_language`: the script, or in Latin letters the function
words), and the tags are counted; "site" is a page too short to tell, left to
`TRIGSIGHT_LANGUAGE`. English folders should show "en" and "site" only, a translated folder
its own language. Prints a markdown table and
writes it to bench/corpora/results/<date>-page-languages.md.
"""
from __future__ import annotations

import sys
from collections import Counter
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from bench.common import machine, write_results  # noqa: E402
from bench.corpora.fetch import fetch  # noqa: E402
from trigsight.build import content  # noqa: E402
from trigsight.files import unused_name  # noqa: E402

DEFAULT = ("nodejs-api", "python-markdown", "hatch", "fastapi-ja", "fastapi-ko", "fastapi-ru", "fastapi-zh",
           "fastapi-de", "fastapi-es", "fastapi-fr", "fastapi-pt")


def tags(folder: Path) -> Counter:
    """How many pages of `folder` get each language tag ("site": none told, the site's language)."""
    counted: Counter = Counter()
    for file in sorted(folder.rglob("*.md")):
        page, _ = content.read_page(file, folder, "site")
        if page is not None:
            counted[page.language] += 1
    return counted


def main(argv: list[str]) -> int:
    names = argv or list(DEFAULT)
    lines = [f"# Page languages, {date.today().isoformat()}", "", f"Machine: {machine()}", "",
             "| corpus | pages | tags |", "|---|---|---|"]
    for name in names:
        counted = tags(fetch(name))
        said = ", ".join(f"{tag} {count}" for tag, count in counted.most_common())
        lines.append(f"| {name} | {sum(counted.values())} | {said} |")
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-page-languages.md"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
