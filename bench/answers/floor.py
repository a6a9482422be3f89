"""How far from the pages answerable and unanswerable questions sit: the figures behind the offline gate's floor.

    .venv/bin/python bench/answers/floor.py RELEASE:QUESTIONS[:SPLIT] ...

For every question of each set (all splits, or SPLIT), the offline answer's candidates are
scored as the chat scores them, and this prints the nearest chunk's cosine (`cos_chunk_max`),
grouped by whether the first retrieved page is in the question's own language or another,
and by answerable / unanswerable; for the unanswerable ones also whether the gate lets them
through. `offline.SAME_LANGUAGE_FLOOR` is the lowest answerable same-language development
question's cosine less 0.05 (bench/answers/results/2026-12-02-same-language-floor.md).
Question files may be in bench/answers' layout or bench/chat/questions.json's.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import offline, relevance  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine  # noqa: E402

SHOWN = 8     # lowest cosines printed per group


def questions_of(path: Path, split: str | None) -> list[dict]:
    data = json.loads(path.read_text("utf-8"))
    if isinstance(data.get("answerable"), list):       # bench/chat/questions.json
        return ([dict(q, answerable=True) for q in data["answerable"]]
                + [dict(q, answerable=False) for q in data["unanswerable"]])
    return [q for q in data["questions"] if split is None or q.get("split") == split]


def scored_questions(release_dir: Path, questions: list[dict]):
    """Each question with its language and its candidates scored as the chat scores them."""
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    model = relevance.default_model()
    for question in questions:
        text = question["question"]
        language = question.get("language") or offline.language_of(text)
        hits, scores = retriever.search_scored(text, k=offline.CANDIDATE_CHUNKS)
        yield question, language, offline.weigh(text, hits, scores, retriever, release, language, model)


def measure(release_dir: Path, questions: list[dict]) -> list[dict]:
    gate = relevance.default_gate()
    rows = []
    for question, _, scored in scored_questions(release_dir, questions):
        text = question["question"]
        first = next((c for c, _ in scored if c.rank == 1), None)
        features = relevance.question_features(scored)
        rows.append({"answerable": question["answerable"], "question": text,
                     "across": bool(first and first.features.get("cross")),
                     "cosine": features["cos_chunk_max"],
                     "gate": gate is None or gate.probability(features) >= gate.threshold})
    return rows


def report(rows: list[dict]) -> list[str]:
    lines = []
    for across in (False, True):
        for answerable in (True, False):
            group = sorted((r for r in rows if r["across"] == across and r["answerable"] == answerable),
                           key=lambda r: r["cosine"])
            where = "another language" if across else "its own language"
            kind = "answerable" if answerable else "unanswerable"
            lowest = ", ".join(f"{r['cosine']:.3f}" + ("" if answerable or not r["gate"] else " (gate passes)")
                               for r in group[:SHOWN])
            lines.append(f"first page in {where}, {kind}: {len(group)} questions; lowest: {lowest}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="RELEASE_DIR:QUESTIONS_FILE[:SPLIT]")
    args = parser.parse_args()
    rows = []
    for spec in args.sets:
        release, questions, *split = spec.split(":")
        rows += measure(Path(release), questions_of(Path(questions), split[0] if split else None))
    print(f"Machine: {machine()}")
    print(f"{len(rows)} questions; same-language floor shipped: {offline.SAME_LANGUAGE_FLOOR}")
    print("\n".join(report(rows)))


if __name__ == "__main__":
    main()
