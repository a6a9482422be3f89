"""Does a long, narrative question do better when the offline answer weighs only the sentence that asks?

    .venv/bin/python bench/answers/focus_probe.py --release RELEASE --answers bench/answers/markdown-dev.json

Real users tell a story before they ask ("My extension keeps a cache on self … Why isn't it
being called?"), and on Python-Markdown the gate refused several such questions whose
answering sentence was retrieved. This answers every question of the file (all splits; use
development files only) five ways and prints the eval's per-language lines for each:

- base: the question as asked (what ships);
- focus0: only the asking sentence(s): from the first sentence ending in "?" to the last
  (else the last sentence);
- focus1: the same with the sentence before them;
- both0 / both1: the question as asked and its focus both answered; the one whose gate is
  surer is kept.

A question of one sentence is the same in every variant.
"""
from __future__ import annotations

import argparse
from pathlib import Path

from trigsight.answering import evaluate, offline
from trigsight.answering.attribution import language_of
from trigsight.answering.relevance import default_gate, default_model, question_features
from trigsight.matching.sentences import split_sentences

VARIANTS = ("base", "focus0", "focus1", "both0", "both1")


def focus(question: str, before: int) -> str:
    sentences = [question[s:e].strip() for s, e in split_sentences(question) if question[s:e].strip()]
    if len(sentences) < 2:
        return question
    asking = [n for n, s in enumerate(sentences) if s.endswith(("?", "？"))] or [len(sentences) - 1]
    return " ".join(sentences[max(0, asking[0] - before):asking[-1] + 1])


def answer(question: str, retriever, release):
    """(gate probability, quotes, hits) of the shipped offline answer."""
    hits, scores = retriever.search_scored(question, k=offline.CANDIDATE_CHUNKS)
    model, gate = default_model(), default_gate()
    scored = offline.weigh(question, hits, scores, retriever, release, language_of(question), model)
    sure = gate.probability(question_features(scored)) if gate else 1.0
    quotes = offline.select(scored, release, model.threshold, model.second) if gate is None or sure >= gate.threshold else []
    return sure, quotes, hits


def answerer(variant: str):
    before = int(variant[-1]) if variant != "base" else 0

    def run(question: str, retriever, release):
        asked = focus(question, before)
        tried = [question] if variant == "base" else [asked] if variant.startswith("focus") else [question, asked]
        _, quotes, hits = max((answer(q, retriever, release) for q in dict.fromkeys(tried)), key=lambda t: t[0])
        return [q.passage_id for q in quotes], [pid for hit in hits for pid in hit.passage_ids]
    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--answers", type=Path, required=True, help="a development question file")
    args = parser.parse_args()
    questions = evaluate.load_questions(args.answers, "all")
    narrative = sum(len(split_sentences(q.question)) > 1 for q in questions)
    print(f"{args.answers}: {len(questions)} questions, {narrative} of more than one sentence; release {args.release}")
    for variant in VARIANTS:
        evaluation = evaluate.run(args.release, args.answers, "all", answerer=answerer(variant))
        for line in evaluate.lines(evaluation):
            print(f"{variant:<7} {line}")


if __name__ == "__main__":
    main()
