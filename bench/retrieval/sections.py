"""Which chunks of a published release name their section apart, and what that costs at load.

    .venv/bin/python bench/retrieval/sections.py RELEASE_DIR [RELEASE_DIR ...] [--out FILE]

For each release, from its index (`index/index.json`, the chunks as built): how many chunks
there are, how many name more than their nearest heading in their context (`Chunk.levels`,
chunks.GENERIC_REPEATS), the generic headings that caused it with the number of the page's
sections each ends, and how many chunks sit right under their page's title heading (whose
context names the title once). Then the cost in the server: `Release.load` wall time, and
the part of it `chunks.section_levels` takes, best of three. Writes
bench/retrieval/results/<date>-sections.md (or --out).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.chunks import HEADING_KINDS, Chunk, section_levels  # noqa: E402

import common  # noqa: E402


def best_of_three(work) -> float:
    times = []
    for _ in range(3):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def measure(folder: Path) -> list[str]:
    chunks = [Chunk.from_json(c) for c in json.loads((folder / "index" / "index.json").read_text("utf-8"))["chunks"]]
    named_apart = [c for c in chunks if c.levels > 1]
    trails = {(c.page, c.headings) for c in chunks}
    ends = Counter((page, trail[-1]) for page, trail in trails if trail)
    generic = Counter()
    for chunk in named_apart:
        generic[(chunk.page, chunk.headings[-1])] = ends[(chunk.page, chunk.headings[-1])]
    under_title = sum(1 for c in chunks if c.headings and c.headings[-1] == c.title)
    release = Release.load(folder)
    sections = [(p.page, p.headings) for p in release.passages if p.kind not in HEADING_KINDS]
    load_ms = best_of_three(lambda: Release.load(folder))
    levels_ms = best_of_three(lambda: section_levels(sections))
    lines = [f"## `{folder}` (release {release.release_id})", "",
             f"- chunks: {len(chunks)}; naming their section apart (levels > 1): {len(named_apart)}; "
             f"right under their page's title heading: {under_title}",
             f"- passages: {len(release.passages)}; `Release.load` {load_ms:.0f} ms, of which "
             f"`section_levels` {levels_ms:.0f} ms (best of three)", ""]
    if generic:
        lines += ["| page | generic heading | sections of the page it ends |", "|---|---|---|"]
        lines += [f"| {page} | {heading} | {count} |" for (page, heading), count in generic.most_common(12)]
        lines.append("")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("releases", nargs="+", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [f"# Sections named apart, {date.today().isoformat()}", "", f"Machine: {common.machine()}", ""]
    for folder in args.releases:
        lines += measure(folder)
    common.write_results(lines, args.out or HERE / "results" / f"{date.today().isoformat()}-sections.md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
