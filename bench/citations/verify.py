"""Run the source gate alone over a content folder and print what it resolved.

    python bench/citations/verify.py [--content DIR]     # exit 0 when every citation is placed
    python bench/citations/verify.py --demo              # plant a fabricated citation: exit 1

`--demo` copies the content folder, adds a citation to a sentence that no page contains,
and shows the gate refusing it with the file, line and passage named.
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

from trigsight.build.builder import BuildConfig, run
from trigsight.errors import TrigsightError

ROOT = Path(__file__).resolve().parents[2]
FABRICATED = "trigsight won the 2025 Turing Award for verifiable citations."


def verify(content: Path) -> int:
    started = time.perf_counter()
    try:
        build = run(BuildConfig(content))
    except TrigsightError as error:
        for problem in error.problems:
            print(problem)
        print(f"source gate: REFUSED ({len(error.problems)} problem(s)) in {time.perf_counter() - started:.2f}s")
        return 1
    for resolved in build.gate.resolved:
        print(f"{resolved.citation.source}:{resolved.citation.line}: ok -> {resolved.url}")
    print(f"source gate: passed — {len(build.pages)} pages, {len(build.passages)} passages, "
          f"{len(build.gate.resolved)} author citations, {time.perf_counter() - started:.2f}s")
    return 0


def demo(content: Path) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "content"
        shutil.copytree(content, copy)
        home = next((copy / name for name in ("index.md", "README.md") if (copy / name).exists()),
                    sorted(copy.rglob("*.md"))[0])
        with home.open("a", encoding="utf-8") as file:
            file.write(f"\n\nA bold claim about awards. [[cite:results|{FABRICATED}]]\n")
        print(f"planted a citation of a sentence no page contains in {home.name}:")
        print(f"  {FABRICATED}")
        return verify(copy)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--demo", action="store_true", help="show the gate rejecting a fabricated passage")
    args = parser.parse_args()
    return demo(args.content) if args.demo else verify(args.content)


if __name__ == "__main__":
    sys.exit(main())
