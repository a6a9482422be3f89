"""How many of the chunks a question is given are copies of a better-ranked one, before and after they are left out.

    .venv/bin/python bench/retrieval/duplicates.py RELEASE:QUESTIONS [...] [--show N]

QUESTIONS is a question set (bench/answers/*.json: its development split) or a text file of
questions, one per line. For each set it prints, over the fused chunk ranking as it was (the
first `CANDIDATE_CHUNKS` the offline answer weighs, the first `CONTEXT_CHUNKS` a model is
given): how many chunks repeat the text of a better-ranked one, and in how many questions;
then the same for what `Retriever.search_scored` returns now. With --show, the sources a
model is given for the first N questions of each text file, as ranked and as issued.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from trigsight.answering.offline import CANDIDATE_CHUNKS, CONTEXT_CHUNKS  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402


def questions_of(path: str) -> list[str]:
    text = Path(path).read_text("utf-8")
    if path.endswith(".json"):
        return [q["question"] for q in json.loads(text)["questions"] if q.get("split") == "dev"]
    return [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("#")]


def copies(texts: list[str]) -> int:
    return len(texts) - len(set(texts))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", metavar="RELEASE:QUESTIONS")
    parser.add_argument("--show", type=int, default=0)
    args = parser.parse_args()
    for spec in args.sets:
        release, path = spec.split(":", 1)
        retriever = Retriever.load(release)
        asked = questions_of(path)
        counts = {"ranked": [0, 0, 0, 0], "issued": [0, 0, 0, 0]}   # candidates, questions, context, questions
        for number, question in enumerate(asked):
            scores = retriever.scores(question)
            ranked = [retriever.chunks[n] for n, _ in retriever.ranking(scores, "chunk", "hybrid", CANDIDATE_CHUNKS)]
            issued = [retriever.chunks[retriever.chunk_row[h.chunk_id]]
                      for h in retriever.search_scored(question, k=CANDIDATE_CHUNKS)[0]]
            for name, chunks in (("ranked", ranked), ("issued", issued)):
                wide, narrow = copies([c.text for c in chunks]), copies([c.text for c in chunks[:CONTEXT_CHUNKS]])
                counts[name][0] += wide
                counts[name][1] += wide > 0
                counts[name][2] += narrow
                counts[name][3] += narrow > 0
            if number < args.show and not path.endswith(".json"):
                print(f"\n{question}")
                for name, chunks in (("as ranked", ranked), ("as issued", issued)):
                    print(f"  {name}:")
                    for label, chunk in enumerate(chunks[:CONTEXT_CHUNKS], start=1):
                        print(f"    S{label} {chunk.page}  {chunk.text[:90]}")
        print(f"\n{spec}: {len(asked)} questions")
        for name, (wide, wide_q, narrow, narrow_q) in counts.items():
            print(f"  {name:6}  copies among the first {CANDIDATE_CHUNKS}: {wide} of {CANDIDATE_CHUNKS * len(asked)}"
                  f" ({wide_q} questions); among the first {CONTEXT_CHUNKS}: {narrow} of"
                  f" {CONTEXT_CHUNKS * len(asked)} ({narrow_q} questions)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
