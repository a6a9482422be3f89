"""Questions told with a story against questions asked plainly: how the offline answer does on each.

    .venv/bin/python bench/answers/told.py RELEASE:QUESTIONS[:SPLIT] [...] [--label NAME]

A question is told with a story when it has more than one sentence and a second reading
(`told_questions.asked_sentences`: its asking sentences apart from the telling ones); every
other question is asked plainly. For each kind, over all the sets given (split `all` unless
one is named), prints answered correctly and refused unanswerable twice: answered as the chat
answers (`offline.respond`), and read whole only (`offline.choose_told` off, the answer before
stop 62). Writes bench/answers/results/<date>-told[-label].md.
"""
from __future__ import annotations

import sys
from collections import Counter
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import evaluate, offline  # noqa: E402
from trigsight.answering.overlap import Overlap  # noqa: E402
from trigsight.answering.told_questions import asked_sentences  # noqa: E402
from trigsight.files import unused_name  # noqa: E402

from common import machine, sets_arguments, write_results  # noqa: E402

KINDS = ("told with a story", "asked plainly")


def tally(specs: list[str]) -> Counter:
    """(kind, reading, what) → count over every question of the sets."""
    counts: Counter = Counter()
    shipped = offline.choose_told
    for reading, told in (("whole only", lambda *args, **kwargs: []), ("as shipped", shipped)):
        offline.choose_told = told
        for spec in specs:
            release, questions, split = (spec.split(":") + ["all"])[:3]
            run = evaluate.run(Path(release), Path(questions), split)
            overlap = Overlap.of(run.release)
            for outcome in run.outcomes:
                question = outcome.question
                kind = KINDS[0] if asked_sentences(question.question, overlap) else KINDS[1]
                if question.answerable:
                    counts[kind, reading, "answerable"] += 1
                    counts[kind, reading, "correct"] += outcome.correct
                    counts[kind, reading, "wrong page"] += outcome.answered and not outcome.correct
                else:
                    counts[kind, reading, "unanswerable"] += 1
                    counts[kind, reading, "refused"] += not outcome.answered
    offline.choose_told = shipped
    return counts


def table(counts: Counter) -> list[str]:
    lines = ["| questions | reading | answered correctly | answered on another page | refused unanswerable |",
             "|---|---|---|---|---|"]
    for kind in KINDS:
        for reading in ("whole only", "as shipped"):
            c = {what: counts[kind, reading, what] for what in
                 ("answerable", "correct", "wrong page", "unanswerable", "refused")}
            lines.append(f"| {kind} | {reading} | {c['correct']}/{c['answerable']} | {c['wrong page']} | "
                         f"{c['refused']}/{c['unanswerable']} |")
    return lines


def main() -> None:
    args = sets_arguments(__doc__)
    lines = [f"# Questions told with a story, {date.today().isoformat()}", "", f"Machine: {machine()}", "",
             f"{len(args.sets)} sets: " + ", ".join(f"`{spec.split(':')[1]}`" for spec in args.sets), "",
             *table(tally(args.sets)), ""]
    print("\n".join(lines))
    label = f"-{args.label}" if args.label else ""
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-told{label}.md"))


if __name__ == "__main__":
    main()
