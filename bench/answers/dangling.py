"""Offline answers that quote half a thought: a quote that leans on a sentence not shown, or whose
paragraph goes on with the sentence that finishes it, not shown.

    .venv/bin/python bench/answers/dangling.py RELEASE:QUESTIONS [...] [--label L] [--no-write]

Every question of each file (all splits, answerable or not) is answered with the code in place
(run it with a worktree of older code on PYTHONPATH for the "before"). Counted over the answers:
- leaning: a quote that opens with a word tying it to the sentence before ("However, …", "This means
  …", "Поэтому …", `continuations.CONTINUES`) while that sentence of its paragraph is not quoted;
- unfinished: a quote whose paragraph's next sentence opens so ("Otherwise …") and is not quoted.
Also the answers' length in quotes. Writes bench/answers/results/<date>-dangling[-label].md.
"""
from __future__ import annotations

import argparse
import importlib.util
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import offline  # noqa: E402
from trigsight.answering.evaluate import load_questions  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine, write_results  # noqa: E402


def _this_trees_continuations():
    """pipeline/answering/continuations.py of this checkout, loaded by its path, so that older code on
    PYTHONPATH (which may have no such module) is measured by the same rule."""
    spec = importlib.util.spec_from_file_location("continuations_rule", HERE.parents[1] / "pipeline" / "answering"
                                                  / "continuations.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TYING = _this_trees_continuations().CONTINUES


def count(release, quoted_ids: list[str]) -> tuple[int, int]:
    shown, leaning, unfinished = set(quoted_ids), 0, 0
    for passage_id in quoted_ids:
        passage = release.passage(passage_id)
        before = release.passage_at(passage.page, passage.order - 1)
        after = release.passage_at(passage.page, passage.order + 1)
        if TYING.match(passage.text) and before is not None and before.block == passage.block \
                and before.id not in shown:
            leaning += 1
        if after is not None and after.block == passage.block and TYING.match(after.text) \
                and not after.text.rstrip().endswith((":", "：")) and after.id not in shown:
            unfinished += 1
    return leaning, unfinished


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", help="RELEASE:QUESTIONS")
    parser.add_argument("--label", default="")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    loaded: dict[str, tuple] = {}
    rows = []
    totals = [0, 0, 0, 0, 0, 0]
    for spec in args.sets:
        release_dir, questions = spec.split(":")[:2]
        if release_dir not in loaded:
            loaded[release_dir] = (Release.load(release_dir), Retriever.load(release_dir))
        release, retriever = loaded[release_dir]
        answers = quotes = leaning = unfinished = with_leaning = with_unfinished = 0
        for question in load_questions(Path(questions), "all"):
            quoted, _ = offline.respond(question.question, retriever, release)
            if not quoted:
                continue
            lean, unfin = count(release, [q.passage_id for q in quoted])
            answers, quotes = answers + 1, quotes + len(quoted)
            leaning, unfinished = leaning + lean, unfinished + unfin
            with_leaning, with_unfinished = with_leaning + bool(lean), with_unfinished + bool(unfin)
        rows.append(f"| {Path(questions).name} | {release.release_id} | {answers} | {quotes} | "
                    f"{leaning} ({with_leaning}) | {unfinished} ({with_unfinished}) |")
        totals = [t + v for t, v in zip(totals, (answers, quotes, leaning, with_leaning, unfinished, with_unfinished))]
    lines = [f"# Quotes that lean on or stop short of a sentence not shown, {date.today().isoformat()}", "",
             f"- machine: {machine()}", "",
             "| questions | release | answers | quotes | leaning quotes (answers) | unfinished quotes (answers) |",
             "|---|---|---|---|---|---|", *rows,
             f"| all | | {totals[0]} | {totals[1]} | {totals[2]} ({totals[3]}) | {totals[4]} ({totals[5]}) |"]
    label = f"-{args.label}" if args.label else ""
    if args.no_write:
        print("\n".join(lines))
    else:
        write_results(lines, HERE / "results" / f"{date.today().isoformat()}-dangling{label}.md")


if __name__ == "__main__":
    main()
