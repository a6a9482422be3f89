"""What reading a release for its definitions (and headings) costs, and what it finds (trigsight.answering.definitions).

    .venv/bin/python bench/answers/definitions_index.py RELEASE [...] [--out FILE]

The first definition question a process answers on a release reads every passage of it once
for the sentences that define a name (`Definitions`); later questions look the term up. For
each release this prints its passages, the names defined, the sentences found at each strength,
and the time the reading took (the best of three, each with a cold cache of the names' tokens). A
definition that only opens a list counts one strength weaker, as the answer weighs it. The first
comparison question also reads the release's headings once, for a section headed by both terms
(trigsight.answering.comparisons); that reading is timed the same way.
"""
from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import asked_terms, definitions, term_places  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402

from common import emit, machine  # noqa: E402

STRENGTHS = ("on its page", "in its section", "says what", "leads its section", "says what for")


def measure(release_dir: str) -> str:
    release = Release.load(release_dir)
    times = []
    for _ in range(3):
        asked_terms.key.cache_clear()
        definitions.heading_names.cache_clear()
        start = time.perf_counter()
        found = definitions.Definitions(release)
        times.append(time.perf_counter() - start)
    heading_times = []
    for _ in range(3):
        term_places._HEADINGS.clear()
        start = time.perf_counter()
        headings = term_places.headings(release)
        heading_times.append(time.perf_counter() - start)
    strengths = Counter(min(entry[0], len(STRENGTHS) - 1) for entries in found.by_key.values() for entry in entries)
    counts = ", ".join(f"{name} {strengths[n]:,}" for n, name in enumerate(STRENGTHS))
    return (f"| {release.release_id} | {len(release.pages):,} | {len(release.passages):,} | {len(found.by_key):,} "
            f"| {counts} | {min(times):.2f} s | {len(headings):,} | {min(heading_times):.2f} s |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="+")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [f"# Definitions read from a release ({time.strftime('%Y-%m-%d')})", "", f"Machine: {machine()}", "",
             "| release | pages | passages | names defined | sentences by strength | reading time (best of 3) "
             "| headings | headings reading time (best of 3) |",
             "|---|---|---|---|---|---|---|---|"]
    lines += [measure(folder) for folder in args.releases]
    emit(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
