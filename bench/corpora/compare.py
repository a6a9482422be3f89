"""Passages a corpus publishes with an earlier commit's code and with this code, page by page.

    .venv/bin/python bench/corpora/compare.py REV CORPUS [CORPUS ...] [--label NAME]

Each corpus (fetch.py) is built and put through the source gate twice, in-process as
`run.py --source-only` does: once by the code of git revision REV (checked out into a
temporary worktree and imported ahead of this checkout), once by this checkout. Prints, per
corpus, the passages published before and after, how many pages differ, and examples of
passages gone and new, so a rendering change is measured on real docs, not on a guess. Writes
bench/corpora/results/<date>-compare[-label].md.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from fetch import fetch  # noqa: E402
from trigsight.files import unused_name  # noqa: E402

from common import machine, write_results  # noqa: E402

EXAMPLES = 5


def passages_by_page(folder: Path) -> dict[str, list[str]]:
    """What the importable trigsight publishes from `folder` (build + source gate)."""
    from trigsight.build.builder import BuildConfig, run

    build = run(BuildConfig(folder))
    pages: dict[str, list[str]] = {page.path: [] for page in build.pages}
    for passage in build.passages:
        pages.setdefault(passage.page, []).append(passage.text)
    return pages


def passages_at(rev: str, folders: list[Path]) -> list[dict[str, list[str]]]:
    """passages_by_page for each folder, by the code of `rev` (a worktree, in a child process)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree, shim = Path(tmp) / "tree", Path(tmp) / "shim"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
        try:
            shim.mkdir()
            (shim / "trigsight").symlink_to(tree / "pipeline")
            env = {**os.environ, "PYTHONPATH": str(shim)}
            child = subprocess.run([sys.executable, __file__, "--dump", *map(str, folders)], env=env,
                                   capture_output=True, text=True, check=True)
            return json.loads(child.stdout)
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)], check=True)


def compare(name: str, before: dict[str, list[str]], after: dict[str, list[str]]) -> list[str]:
    changed, gone_total, new_total, examples = 0, 0, 0, []
    for page in sorted(set(before) | set(after)):
        old, new = before.get(page, []), after.get(page, [])
        gone, added = list((Counter(old) - Counter(new)).elements()), list((Counter(new) - Counter(old)).elements())
        if not (gone or added):
            continue
        changed, gone_total, new_total = changed + 1, gone_total + len(gone), new_total + len(added)
        shown = "; ".join([f"gone “{t[:110]}”" for t in gone[:1]] + [f"new “{t[:110]}”" for t in added[:1]])
        examples.append(f"  - `{page}`: {len(gone)} gone, {len(added)} new: {shown}")
    head = (f"- **{name}**: {sum(map(len, before.values()))} → {sum(map(len, after.values()))} passages; "
            f"{changed} pages differ, "
            f"{gone_total} passages gone, {new_total} new")
    return [head, *examples[:EXAMPLES]] + ([f"  - … and {len(examples) - EXAMPLES} more pages"]
                                           if len(examples) > EXAMPLES else [])


def main() -> None:
    if sys.argv[1:2] == ["--dump"]:
        json.dump([passages_by_page(Path(folder)) for folder in sys.argv[2:]], sys.stdout)
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("rev")
    parser.add_argument("corpora", nargs="+")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    folders = [fetch(name) for name in args.corpora]
    before = passages_at(args.rev, folders)
    lines = [f"# Passages published by {args.rev} and by this code, {date.today().isoformat()}", "",
             f"Machine: {machine()}", ""]
    for name, folder, old in zip(args.corpora, folders, before):
        lines += compare(name, old, passages_by_page(folder))
    label = f"-{args.label}" if args.label else ""
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-compare{label}.md"))


if __name__ == "__main__":
    main()
