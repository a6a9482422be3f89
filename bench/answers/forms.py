"""The offline answer's figures by the form of the question: how-to, why, yes/no, and the rest.

    .venv/bin/python bench/answers/forms.py RELEASE:QUESTIONS[:SPLIT] [...] [--out FILE]

A question's form is read from its words, in English, Russian, Japanese and Korean: "How do I…",
"Как…", "どうすれば…", "어떻게…" ask how; "Why…", "Почему…", "なぜ…", "왜…" ask why; "Is/Does/Can…",
"…ли", "…ますか", "…나요" ask yes or no; any other question is "what/other". Over every set given
(all splits unless one is named), each form's answerable questions answered with a chip on an
expected page, the answered ones quoting an expected sentence (or its block), and its unanswerable
ones refused: which kind of question the answer serves worst, to choose the next thing to work on.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import evaluate  # noqa: E402

from common import machine, write_results  # noqa: E402

HOW = re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?how\s+(?:do|can|should|would|to|could)\b|^how\b|どうすれば|どうやって|方法"
                 r"|どのように|어떻게|방법|^\s*как\b|каким\s+образом")
WHY = re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?why\b|なぜ|どうして|왜|почему|зачем")
YES_NO = re.compile(r"(?i)^\s*(?:is|are|does|do|can|will|should|must|may|could|would|did)\b|ますか[？?]?$|나요[？?]?$"
                    r"|\bли\b")
FORMS = ("how", "why", "yes/no", "what/other")


def form_of(question: str) -> str:
    return "how" if HOW.search(question) else "why" if WHY.search(question) else \
        "yes/no" if YES_NO.search(question) else "what/other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", metavar="RELEASE:QUESTIONS[:SPLIT]")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    counts: dict[str, list[int]] = defaultdict(lambda: [0] * 6)
    for spec in args.sets:
        release_dir, questions, *split = spec.split(":")
        run = evaluate.run(Path(release_dir), Path(questions), split[0] if split else "all")
        for outcome in run.outcomes:
            row = counts[form_of(outcome.question.question)]
            if outcome.question.answerable:
                row[0] += 1
                row[1] += outcome.correct
                row[2] += outcome.answered
                row[3] += outcome.answered and outcome.expected_quote(run.release)
            else:
                row[4] += 1
                row[5] += not outcome.answered
    share = lambda part, whole: f"{part}/{whole} = {part / whole:.0%}" if whole else "—"  # noqa: E731
    lines = [f"# Offline answers by the form of the question, {date.today().isoformat()}", "",
             f"Machine: {machine()}", "", f"Sets: {len(args.sets)} ({', '.join(s.split(':')[1] for s in args.sets)})", "",
             "| form | answered correctly | expected sentence quoted (of answered) | refused unanswerable |",
             "|---|---|---|---|"]
    for form in FORMS:
        answerable, correct, answered, expected, unanswerable, refused = counts[form]
        lines.append(f"| {form} | {share(correct, answerable)} | {share(expected, answered)} | "
                     f"{share(refused, unanswerable)} |")
    out = args.out or HERE / "results" / f"{date.today().isoformat()}-forms.md"
    write_results(lines, out)


if __name__ == "__main__":
    main()
