"""How often the offline answer shows the expected sentence itself, with a second sentence of a quoted block.

    .venv/bin/python bench/answers/mates.py RELEASE:QUESTIONS [...] [--shares 1.01 0.95 0.9 ...] [--label NAME]

A quote stands for its block: the evaluation counts an answer whose quote shares a paragraph with the
expected sentence as quoting it. A reader sees only the quoted sentence, though, and a paragraph often
answers in two ("… mypy generates an error if you override a base class method without using the
@override decorator. An error will not be emitted for overrides of __init__ or __new__."). The offline
answer therefore follows a quote with the other sentence of its block when that one is nearly as likely
(`offline.MATE` of the quote's probability). For each share (1.01 quotes no second sentence), over every
question of the sets, per split: the answered questions, those with an expected sentence itself among
the quotes, those whose first quote is one, the quotes per answer, the answers of more than three quotes,
and how many questions were answered or refused otherwise than with the first share (it must be none:
a second sentence is only ever added). Writes bench/answers/results/<date>-mates[-label].md.
"""
from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import offline  # noqa: E402
from trigsight.answering.evaluate import load_questions, resolve  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine, write_results  # noqa: E402

SHARES = (1.01, 0.95, 0.9, 0.85, 0.8)


def answers(specs: list[str]) -> dict[tuple[str, str], tuple[str, bool, tuple[str, ...], frozenset[str]]]:
    """Each question's (split, answerable, its quotes, its expected passages) under the current `offline.MATE`."""
    loaded: dict[str, tuple] = {}
    out = {}
    for spec in specs:
        release_dir, questions = spec.split(":")[:2]
        if release_dir not in loaded:
            loaded[release_dir] = (Release.load(release_dir), Retriever.load(release_dir))
        release, retriever = loaded[release_dir]
        for question in resolve(load_questions(Path(questions), "all"), release, questions):
            quoted, _ = offline.respond(question.question, retriever, release)
            out[(questions, question.id)] = (question.split, question.answerable,
                                             tuple(q.passage_id for q in quoted), question.passages)
    return out


def row(share: float, split: str, found: dict, first: dict) -> str:
    mine = {key: value for key, value in found.items() if value[0] == split}
    answered = [(quotes, expected) for _, answerable, quotes, expected in mine.values() if answerable and quotes]
    itself = sum(bool(set(quotes) & expected) for quotes, expected in answered)
    leading = sum(quotes[0] in expected for quotes, expected in answered)
    every = [quotes for _, _, quotes, _ in mine.values() if quotes]
    changed = sum(bool(found[key][2]) != bool(first[key][2]) for key in mine)
    per = sum(map(len, every)) / len(every) if every else 0.0
    return (f"| {share:g} | {split} | {len(answered)} | {itself} | {leading} | {per:.2f} | "
            f"{sum(len(q) > 3 for q in every)} | {changed} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", metavar="RELEASE:QUESTIONS")
    parser.add_argument("--shares", nargs="+", type=float, default=list(SHARES))
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    shipped, rows, first = offline.MATE, [], None
    try:
        for share in args.shares:
            offline.MATE = share
            found = answers(args.sets)
            first = first or found
            rows += [row(share, split, found, first) for split in ("dev", "test")]
    finally:
        offline.MATE = shipped
    lines = [f"# A second sentence of a quoted block, {date.today().isoformat()}", "",
             f"- machine: {machine()}", f"- shipped share (offline.MATE): {shipped:g}",
             f"- {len(args.sets)} sets: {' '.join(args.sets)}", "",
             "| share | split | answered (answerable) | expected sentence itself quoted | itself quoted first | "
             "quotes per answer | answers of more than 3 quotes | answered or refused otherwise than the first share |",
             "|---|---|---|---|---|---|---|---|", *rows]
    label = f"-{args.label}" if args.label else ""
    write_results(lines, HERE / "results" / f"{date.today().isoformat()}-mates{label}.md")


if __name__ == "__main__":
    main()
