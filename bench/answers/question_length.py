"""Long questions against short ones: how many terms a question has, and what its length does to the
keyword leg's vote and to the coverage the answer reads.

    .venv/bin/python bench/answers/question_length.py RELEASE:QUESTIONS[:SPLIT] [...] [--out FILE]

For every answerable question of each file (all splits unless SPLIT): its number of distinct BM25
terms (as the retriever reads it), the rank of the first chunk holding an expected sentence in the
keyword leg alone (first 200) and in the fused ranking (first 40), and, among the offline answer's
scored candidates, the chunk coverage of the best-scored expected sentence. Prints the median number
of terms of the English questions per file, and per band of question length (characters) how many
have the answering chunk among the keyword leg's and the fused first 20, and per band of terms the
median coverage and cosine of the answering sentence's chunk.
"""
from __future__ import annotations

import statistics
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))
from trigsight.answering import evaluate, offline, relevance  # noqa: E402
from trigsight.answering.attribution import language_of  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.evaluate import first_rank  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402
from trigsight.retrieval.tokenize import tokenize  # noqa: E402

from common import emit, machine, sets_arguments  # noqa: E402

LENGTHS = ((0, 100), (100, 160), (160, 10_000))
TERMS = ((0, 9), (9, 12), (12, 16), (16, 1_000))


def measure(spec: str, model) -> list[dict]:
    release_dir, questions_file, *split = spec.split(":")
    release, retriever = Release.load(Path(release_dir)), Retriever.load(Path(release_dir))
    questions = evaluate.resolve(evaluate.load_questions(Path(questions_file), split[0] if split else "all"),
                                 release, questions_file)
    rows = []
    for q in questions:
        if not q.answerable:
            continue
        hits, scores = retriever.search_scored(q.question, k=offline.CANDIDATE_CHUNKS)

        def rank(leg: str, depth: int) -> int | None:
            ranking = retriever.ranking(scores, "chunk", leg, depth)
            return first_rank(retriever.hits(scores, ranking), lambda hit: set(hit.passage_ids) & q.passages)
        scored = offline.weigh(q.question, hits, scores, retriever, release, language_of(q.question), model)
        expected = [(c, p) for c, p in scored if c.passage_id in q.passages]
        best = max(expected, key=lambda pair: pair[1])[0].features if expected else None
        rows.append({"file": Path(questions_file).name, "language": q.language, "characters": len(q.question),
                     "terms": len(set(tokenize(scores.bridged or q.question))), "keyword": rank("bm25", 200),
                     "fused": rank("hybrid", 40), "coverage": best and best["coverage_chunk"],
                     "cosine": best and best["cos_chunk"]})
    return rows


def report(rows: list[dict]) -> list[str]:
    lines = ["| file | English questions | median distinct terms |", "|---|---|---|"]
    for name in dict.fromkeys(r["file"] for r in rows):
        english = [r["terms"] for r in rows if r["file"] == name and r["language"] == "en"]
        lines.append(f"| `{name}` | {len(english)} | {statistics.median(english) if english else '—'} |")
    lines += ["", "| characters | questions | answering chunk in the keyword leg's first 20 | in the fused first 20 |",
              "|---|---|---|---|"]
    within = lambda rank: rank is not None and rank <= 20   # noqa: E731
    for low, high in LENGTHS:
        band = [r for r in rows if low <= r["characters"] < high]
        lines.append(f"| {low}–{high - 1} | {len(band)} | {sum(within(r['keyword']) for r in band)} | "
                     f"{sum(within(r['fused']) for r in band)} |")
    lines += ["", "| distinct terms | answering sentences scored | median chunk coverage | median chunk cosine |",
              "|---|---|---|---|"]
    for low, high in TERMS:
        band = [r for r in rows if low <= r["terms"] < high and r["coverage"] is not None]
        if band:
            lines.append(f"| {low}–{high - 1} | {len(band)} | {statistics.median(r['coverage'] for r in band):.2f} | "
                         f"{statistics.median(r['cosine'] for r in band):.2f} |")
    return lines


def main() -> int:
    args = sets_arguments(__doc__, out=True)
    model = relevance.default_model()
    rows = [row for spec in args.sets for row in measure(spec, model)]
    emit(["# Question length, keyword vote and coverage", "", machine(), "", *report(rows), ""], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
