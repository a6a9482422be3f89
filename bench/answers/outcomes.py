"""Each question's offline outcome (the passages quoted, or the refusal), to tell two versions apart.

    .venv/bin/python bench/answers/outcomes.py OUT.json RELEASE:QUESTIONS [...]
    .venv/bin/python bench/answers/outcomes.py --diff BEFORE.json AFTER.json

The first form answers every question of each file (all splits) on its release with the code
in place and writes {"QUESTIONS:id": [language, [passage ids] or "REFUSED"]}; run it once with
the code before a change (a worktree of it on PYTHONPATH) and once after. The second form
prints the questions whose outcome differs and how many there are. A per-language rate can hide
an answer lost here and one won there; this cannot.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from trigsight.answering import offline  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402


def outcomes(specs: list[str]) -> dict[str, list]:
    found: dict[str, list] = {}
    for spec in specs:
        release_dir, questions = spec.split(":")[:2]
        release, retriever = Release.load(release_dir), Retriever.load(release_dir)
        for question in json.loads(Path(questions).read_text("utf-8"))["questions"]:
            quotes, _ = offline.respond(question["question"], retriever, release)
            found[f"{questions}:{question['id']}"] = [question["language"],
                                                      [q.passage_id for q in quotes] or "REFUSED"]
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--diff", nargs=2, metavar=("BEFORE", "AFTER"))
    parser.add_argument("out", nargs="?")
    parser.add_argument("sets", nargs="*", metavar="RELEASE:QUESTIONS")
    args = parser.parse_args()
    if args.diff:
        before, after = (json.loads(Path(f).read_text("utf-8")) for f in args.diff)
        changed = [key for key in before if key in after and before[key] != after[key]]
        for key in changed:
            print(f"{key}: {before[key]} -> {after[key]}")
        print(f"{len(changed)} of {len(set(before) & set(after))} questions changed outcome")
        return 0
    if not args.out or not args.sets:
        parser.error("give OUT.json and at least one RELEASE:QUESTIONS, or --diff BEFORE AFTER")
    found = outcomes(args.sets)
    Path(args.out).write_text(json.dumps(found, ensure_ascii=False, indent=0), "utf-8")
    print(f"{len(found)} questions answered; written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
