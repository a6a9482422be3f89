"""What this code would publish from an earlier release's own pages: passages cut differently.

    .venv/bin/python bench/corpora/resplit.py RELEASE_DIR [RELEASE_DIR ...] [--label NAME]

For each published release (any corpus, built by any earlier code), every rendered page is
read again by this code's passage extraction (`build_page_text`: segments, sentences,
directives), and its passage texts are compared with the ones the release published. A change
in sentence splitting shows as published passages that are gone and new ones that replace
them, with examples. The HTML is the release's own, so only extraction is compared, never
rendering. Writes bench/corpora/results/<date>-resplit[-label].md.
"""
from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.build.passages import build_page_text  # noqa: E402
from trigsight.files import unused_name  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402

from common import machine, write_results  # noqa: E402

EXAMPLES = 4


def compare(root: Path) -> list[str]:
    release = Release.load(root)
    changed, gone, added, examples = 0, 0, 0, []
    for page in release.pages:
        old = [p.text for p in release.passages_of(page.path)]
        new = [p.text for p in build_page_text(page.path, release.page_file(page).read_text("utf-8")).passages]
        lost, whole = [t for t in old if t not in new], [t for t in new if t not in old]
        if not (lost or whole) or not old:      # a generated page (contents) publishes none
            continue
        changed, gone, added = changed + 1, gone + len(lost), added + len(whole)
        examples += [f"  - `{page.path}`: {len(lost)} → {len(whole)}: “{whole[0][:160]}”" if whole else
                     f"  - `{page.path}`: {len(lost)} gone: “{lost[0][:160]}”"]
    head = (f"- `{root}` (release {release.release_id}, {len(release.passages)} passages): "
            f"{changed} pages read differently; {gone} published passages are {added} passages now")
    return [head, *examples[:EXAMPLES]]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("releases", nargs="+", type=Path)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    lines = [f"# Passages of earlier releases read again, {date.today().isoformat()}", "",
             f"Machine: {machine()}", ""]
    for root in args.releases:
        lines += compare(root)
    label = f"-{args.label}" if args.label else ""
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-resplit{label}.md"))


if __name__ == "__main__":
    main()
