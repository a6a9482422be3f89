"""Time pre-compression of a published release's files: encoded anew, and taken from the release before.

    .venv/bin/python bench/scale/compress_reuse.py --release DIR [--rounds 3] [--label NAME]

Copies the served files of the release folder DIR (its pages and static files, without their
`.br` and `.gz` siblings) into a fresh folder, then times `compress.run` over it as a first
release does (every sibling encoded at brotli 11 and gzip 9) and as a re-release of the same
files does (`previous=DIR`: each sibling of DIR read, decoded and compared before it is taken),
alternating, ROUNDS times each, a fresh copy every time; checks that both write siblings that
decode to their files. Writes bench/scale/results/compress-reuse-<date>[-NAME].md.
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from trigsight.files import unused_name
from trigsight.publishing import compress

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402

HERE = Path(__file__).resolve().parent


def copy_served(release: Path, into: Path) -> int:
    """The served files of `release`, without siblings, copied under `into`; how many."""
    files = compress.served_files(release)
    for file in files:
        target = into / file.relative_to(release)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(file, target)
    return len(files)


def timed(release: Path, previous: Path | None) -> tuple[float, int]:
    """Seconds `compress.run` takes over a fresh copy of `release`'s files, and how many files."""
    with tempfile.TemporaryDirectory(prefix="compress-reuse-") as folder:
        root = Path(folder)
        count = copy_served(release, root)
        started = time.perf_counter()
        compress.run(root, previous)
        seconds = time.perf_counter() - started
        if compress.stale(root):
            sys.exit(f"siblings that do not decode to their files: {compress.stale(root)[:3]}")
    return seconds, count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, required=True, help="a published release folder")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    release = args.release.resolve()
    anew, reused, count = [], [], 0
    for _ in range(args.rounds):
        seconds, count = timed(release, None)
        anew.append(seconds)
        reused.append(timed(release, release)[0])
    lines = [f"# Pre-compression encoded anew and reused, {date.today().isoformat()}", "",
             f"Machine: {common.machine()}", "", f"Release: `{release}` ({count} served files)", "",
             "| siblings | median of rounds | rounds |", "|---|---|---|",
             f"| encoded anew (brotli {compress.BROTLI_QUALITY}, gzip {compress.GZIP_LEVEL}) | "
             f"{statistics.median(anew):.2f} s | {', '.join(f'{s:.2f}' for s in anew)} |",
             f"| taken from the release before, once decoded | {statistics.median(reused):.2f} s | "
             f"{', '.join(f'{s:.2f}' for s in reused)} |"]
    label = f"-{args.label}" if args.label else ""
    common.write_results(lines, unused_name(HERE / "results" / f"compress-reuse-{date.today().isoformat()}{label}.md"))


if __name__ == "__main__":
    main()
