"""Inside a retrieved chunk, which sentence answers? How often each ordering puts it first.

    .venv/bin/python bench/answers/in_chunk.py --release NODE_RELEASE [--bundled-release release]

Over the development questions (bench/answers/questions.json, and with --bundled-release the
bundled site's golden questions), every retrieved chunk of two or more allowlisted sentences
that holds an expected sentence is one case. For each ordering of the chunk's sentences it
counts the cases where an expected sentence comes first: the relevance model's probability
alone, the sentence's own cosine, its overlap, and the shipped rule (offline.in_chunk_order:
the model's log-odds plus IN_CHUNK times cosine plus overlap); "random" is the expected count
of a random order. Prints what it measured and on which release.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

from trigsight.answering import offline, relevance
from trigsight.answering.attribution import language_of
from trigsight.matching.textmodel import normalise
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever

ROOT = Path(__file__).resolve().parents[2]
ORDERS = {
    "model": lambda c, p: p,
    "cosine": lambda c, p: c.features["cos_passage"],
    "overlap": lambda c, p: c.features["overlap"],
    "shipped": offline.in_chunk_score,
}


def cases(release_dir: Path, questions: list[dict]) -> Counter:
    release, retriever, model = Release.load(release_dir), Retriever.load(release_dir), relevance.default_model()
    tally: Counter = Counter()
    for question in questions:
        hits, scores = retriever.search_scored(question["question"], k=offline.CANDIDATE_CHUNKS)
        scored = offline.weigh(question["question"], hits, scores, retriever, release,
                               language_of(question["question"]), model)
        wanted = [normalise(s) for s in question["sentences"]]
        expected = {c.passage_id for c, _ in scored
                    if any(w in normalise(release.passage(c.passage_id).text) for w in wanted)}
        by_chunk = defaultdict(list)
        for candidate, probability in scored:
            by_chunk[candidate.rank].append((candidate, probability))
        for group in by_chunk.values():
            if len(group) < 2 or not any(c.passage_id in expected for c, _ in group):
                continue
            tally["cases"] += 1
            for name, key in ORDERS.items():
                tally[name] += max(group, key=lambda pair: key(*pair))[0].passage_id in expected
            tally["random"] += sum(c.passage_id in expected for c, _ in group) / len(group)
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, required=True, help="a published release of the Node.js API docs")
    parser.add_argument("--bundled-release", type=Path, help="a published release of content/")
    args = parser.parse_args()
    node = [q for q in json.loads((ROOT / "bench/answers/questions.json").read_text("utf-8"))["questions"]
            if q["split"] == "dev" and q["answerable"]]
    runs = [("Node.js dev questions", args.release, node)]
    if args.bundled_release:
        golden = json.loads((ROOT / "bench/retrieval/golden.json").read_text("utf-8"))["questions"]
        runs.append(("bundled golden questions", args.bundled_release, golden))
    for label, release_dir, questions in runs:
        tally = cases(release_dir, questions)
        shown = ", ".join(f"{name} {tally[name]}" for name in ORDERS)
        print(f"{label} on release {Release.load(release_dir).release_id}: {tally['cases']} chunks holding an "
              f"expected sentence among others; expected sentence first by {shown}, random {tally['random']:.1f}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
