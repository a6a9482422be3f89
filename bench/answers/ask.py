"""Ask a published release questions and print what the offline answer would quote, and why.

    .venv/bin/python bench/answers/ask.py --release DIR "question" ["question" ...]

For trying the offline answer on a docs folder nobody labelled (a corpus of
bench/corpora/fetch.py, released with `trigsight release`): for each question, the form
BM25 read (when the lexicon bridged a foreign word), the question-level gate's probability,
and each quote with its relevance probability, page and text, or the refusal.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from trigsight.answering import offline, relevance
from trigsight.answering.attribution import language_of
from trigsight.answering.offline import CANDIDATE_CHUNKS
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("questions", nargs="+")
    args = parser.parse_args()
    release, retriever = Release.load(args.release), Retriever.load(args.release)
    model, gate = relevance.default_model(), relevance.default_gate()
    print(f"release {release.release_id}: {len(retriever.passage_ids)} indexed passages; {retriever.backend}; "
          f"lexicon {len(retriever.lexicon.words) if retriever.lexicon else 0} words")
    for question in args.questions:
        hits, scores = retriever.search_scored(question, k=CANDIDATE_CHUNKS)
        scored = offline.weigh(question, hits, scores, retriever, release, language_of(question), model)
        allowed = gate.probability(relevance.question_features(scored)) if gate else 1.0
        quotes = offline.choose(question, hits, scores, retriever, release, language_of(question))
        print(f"\n{question}")
        if scores.bridged:
            print(f"  BM25 read: {scores.bridged}")
        print(f"  gate {allowed:.2f}" + (f" (refuses below {gate.threshold:.2f})" if gate else ""))
        for quote in quotes:
            passage = release.passage(quote.passage_id)
            print(f"  {quote.relevance:.2f} {passage.page}  {passage.text[:120]}")
        if not quotes:
            print("  refused")


if __name__ == "__main__":
    main()
