"""The source gate on a content folder, through `trigsight verify`, and a demonstration that it refuses.

    python bench/citations/verify.py [--content DIR]     # exit 0 when every citation is placed
    python bench/citations/verify.py --demo              # plant a fabricated citation: exit 1

`--demo` copies the content folder, adds a citation to a sentence that no page contains,
and runs `trigsight verify` on the copy: it refuses, naming the file, line and passage.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
from common import ROOT, TRIGSIGHT  # noqa: E402

FABRICATED = "trigsight won the 2025 Turing Award for verifiable citations."


def verify(content: Path) -> int:
    started = time.perf_counter()
    done = subprocess.run([*TRIGSIGHT, "verify", "--content", str(content)], cwd=ROOT)
    verdict = "passed" if done.returncode == 0 else f"REFUSED (exit {done.returncode})"
    print(f"source gate {verdict} in {time.perf_counter() - started:.2f}s (`trigsight verify --content {content}`)")
    return done.returncode


def demo(content: Path) -> int:
    with tempfile.TemporaryDirectory() as scratch:
        copy = Path(scratch) / "content"
        shutil.copytree(content, copy)
        home = next((copy / name for name in ("index.md", "README.md") if (copy / name).exists()),
                    sorted(copy.rglob("*.md"))[0])
        with home.open("a", encoding="utf-8") as file:
            file.write(f"\n\nA bold claim about awards. [[cite:results|{FABRICATED}]]\n")
        print(f"planted a citation of a sentence no page contains in {home.name}:")
        print(f"  {FABRICATED}", flush=True)
        return verify(copy)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--demo", action="store_true", help="show the gate rejecting a fabricated passage")
    args = parser.parse_args()
    return demo(args.content) if args.demo else verify(args.content)


if __name__ == "__main__":
    sys.exit(main())
