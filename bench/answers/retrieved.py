"""Where does the chunk holding the answering sentence rank? Per language, on the answer questions.

    .venv/bin/python bench/answers/retrieved.py --release NODE_RELEASE [--split dev|test|all] [--label NAME]

For every answerable question of bench/answers/questions.json (or --questions FILE) in the
split, the hybrid retriever ranks chunks as the offline answer does (its first 20); the
case is the rank of the first chunk that holds an expected sentence. Prints, per language,
recall@5, recall@20 (what the answer can at best quote) and MRR@20, with the release and
the retrieval backend, and writes bench/answers/results/<date>-retrieved-<split>[-<label>].md
(a second run the same day gets -2, -3…).
"""
from __future__ import annotations

import argparse
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py
from trigsight.answering import evaluate  # noqa: E402
from trigsight.answering.offline import CANDIDATE_CHUNKS  # noqa: E402
from trigsight.files import unused_name  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.evaluate import first_rank  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine, write_results  # noqa: E402

LANGUAGES = ("en", "ru", "ja", "ko")


def ranks(retriever: Retriever, questions: list[evaluate.Question]) -> dict[str, list[int | None]]:
    """Per language, each question's rank of its first answering chunk (None beyond CANDIDATE_CHUNKS)."""
    found: dict[str, list[int | None]] = {}
    for q in questions:
        hits = retriever.search(q.question, k=CANDIDATE_CHUNKS)
        found.setdefault(q.language, []).append(first_rank(hits, lambda hit: set(hit.passage_ids) & q.passages))
    return found


def row(name: str, values: list[int | None]) -> str:
    n = len(values)
    at5 = sum(r is not None and r <= 5 for r in values)
    at20 = sum(r is not None for r in values)
    mrr = sum(1 / r for r in values if r is not None) / n
    return f"| {name} | {n} | {at5}/{n} = {at5 / n:.3f} | {at20}/{n} = {at20 / n:.3f} | {mrr:.3f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--questions", type=Path, default=HERE / "questions.json")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--label", default="", help="a word for the results file's name")
    args = parser.parse_args()
    release, retriever = Release.load(args.release), Retriever.load(args.release)
    questions = [q for q in evaluate.resolve(evaluate.load_questions(args.questions, args.split), release,
                                             str(args.questions)) if q.answerable]
    found = ranks(retriever, questions)
    lines = [f"# Rank of the answering chunk, {date.today().isoformat()} — {args.split} split"
             + (f" ({args.label})" if args.label else ""), "",
             f"- release `{release.release_id}` ({len(retriever.passage_ids)} indexed passages), questions "
             f"`{args.questions.name}`; retrieval: {retriever.backend}",
             f"- machine: {machine()}", "",
             "| language | answerable | recall@5 | recall@20 | MRR@20 |", "|---|---|---|---|---|"]
    lines += [row(language, found[language]) for language in LANGUAGES if language in found]
    lines.append(row("all", [r for language in found for r in found[language]]))
    name = f"{date.today().isoformat()}-retrieved-{args.split}" + (f"-{args.label}" if args.label else "")
    write_results(lines, unused_name(HERE / "results" / f"{name}.md"))


if __name__ == "__main__":
    main()
