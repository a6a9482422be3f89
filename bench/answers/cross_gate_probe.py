"""Would the gate refuse more fairly if it were stricter with questions asked across languages?

    .venv/bin/python bench/answers/cross_gate_probe.py RELEASE:QUESTIONS:SPLIT [...]

Unanswerable questions in another language than the pages (Russian, Japanese or Korean about
English pages) are refused far less often than English ones on the same pages. This answers
every question of each file (the given split; use development files only) as the offline answer
does, keeps the question-level gate's probability and whether the first retrieved page is in
another language than the question, and prints, for offsets subtracted from the gate's log-odds
of such questions only, how many answerable questions are answered on an expected page and how
many unanswerable ones are refused. Questions the answer declines before the gate (no word to
look up, a dated heading) and those with no candidate are left out: no offset changes them.
"""
from __future__ import annotations

import argparse
import math
from pathlib import Path

from trigsight.answering import evaluate, offline, small_talk, spelling
from trigsight.answering.attribution import language_of
from trigsight.answering.overlap import terms
from trigsight.answering.relevance import default_gate, default_model, question_features
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever

OFFSETS = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5)


def outcomes(spec: str) -> list[dict]:
    """Per question of RELEASE:QUESTIONS:SPLIT: its gate probability, whether it is asked across
    languages, whether the gate's floor refuses it anyway, and whether its quotes are on an expected page."""
    release_dir, questions_file, split = spec.split(":")
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    model, gate = default_model(), default_gate()
    found = []
    for question in evaluate.resolve(evaluate.load_questions(Path(questions_file), split), release):
        asked = spelling.corrected(small_talk.strip(question.question) or question.question, retriever)
        hits, scores = retriever.search_scored(asked, k=offline.CANDIDATE_CHUNKS)
        if not offline.asks_anything(asked) or offline.dated_heading(asked, hits, release) is not None:
            continue
        scored = offline.weigh(asked, hits, scores, retriever, release, language_of(asked), model)
        if not scored:
            continue
        first = next((candidate for candidate, _ in scored if candidate.rank == 1), None)
        said = [(c, p) for c, p in scored if not offline.echoes(terms(asked), release.passage(c.passage_id), release)]
        quotes = offline.select(said, release, model.threshold, model.second)
        pages = {release.passage(quote.passage_id).page for quote in quotes}
        found.append({"answerable": question.answerable, "gate": gate.probability(question_features(scored)),
                      "threshold": gate.threshold, "cross": bool(first and first.features.get("cross")),
                      "floor": offline.far_from_pages(scored, offline.SAME_LANGUAGE_FLOOR, across=False),
                      "quotes": bool(quotes), "correct": bool(quotes) and bool(set(question.pages) & pages)})
    return found


def _log_odds(p: float) -> float:
    p = min(max(p, 1e-9), 1 - 1e-9)
    return math.log(p / (1 - p))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("specs", nargs="+", metavar="RELEASE:QUESTIONS:SPLIT")
    args = parser.parse_args()
    rows = [row for spec in args.specs for row in outcomes(spec)]
    answerable = [r for r in rows if r["answerable"]]
    unanswerable = [r for r in rows if not r["answerable"]]
    print(f"{len(rows)} questions: {sum(r['cross'] for r in answerable)} of {len(answerable)} answerable and "
          f"{sum(r['cross'] for r in unanswerable)} of {len(unanswerable)} unanswerable asked across languages")
    for offset in OFFSETS:
        def passes(r: dict) -> bool:
            odds = _log_odds(r["gate"]) - (offset if r["cross"] else 0.0)
            return not r["floor"] and r["quotes"] and odds >= _log_odds(r["threshold"])
        correct = sum(passes(r) and r["correct"] for r in answerable)
        refused = sum(not passes(r) for r in unanswerable)
        print(f"offset {offset:<4}  answered correctly {correct}/{len(answerable)}  "
              f"refused {refused}/{len(unanswerable)}  sum {correct + refused}")


if __name__ == "__main__":
    main()
