"""What the offline answer's question-level gate weighs, question by question.

    .venv/bin/python bench/answers/gate_contributions.py RELEASE:QUESTIONS[:SPLIT] ...

For every question of each set (all splits, or SPLIT), the candidates are scored as the chat
scores them and the gate's log-odds is taken apart: each feature's weight times its
standardised value. It prints, per question, the gate's probability, whether it lets the
question through, and the contributions at or beyond ±0.25; then, per language and for
answerable and unanswerable questions apart, each feature's mean contribution. The gate
answers a question when its probability reaches the stored threshold (and the same-language
floor, `offline.SAME_LANGUAGE_FLOOR`, does not refuse it first: not shown here).
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from floor import questions_of, scored_questions  # noqa: E402
from trigsight.answering import relevance  # noqa: E402

from common import machine  # noqa: E402

SHOWN = 0.25   # contributions smaller than this (either sign) are left out of a question's line


def contributions(gate: relevance.RelevanceModel, features: dict[str, float]) -> dict[str, float]:
    return {name: weight * (features[name] - mean) / scale
            for name, weight, mean, scale in zip(gate.features, gate.weights, gate.mean, gate.scale) if weight}


def measure(release_dir: Path, questions: list[dict]) -> list[dict]:
    gate = relevance.default_gate()
    rows = []
    for question, language, scored in scored_questions(release_dir, questions):
        features = relevance.question_features(scored)
        rows.append({"id": question.get("id", question["question"][:40]), "language": language,
                     "answerable": question["answerable"],
                     "p": gate.probability(features), "through": gate.probability(features) >= gate.threshold,
                     "parts": contributions(gate, features)})
    return rows


def report(rows: list[dict]) -> list[str]:
    lines = []
    for row in rows:
        parts = " ".join(f"{name} {value:+.2f}" for name, value in row["parts"].items() if abs(value) >= SHOWN)
        verdict = "through" if row["through"] else "refused"
        lines.append(f"{'A' if row['answerable'] else 'U'} {row['language']} p={row['p']:.2f} {verdict:7} "
                     f"{row['id']}: {parts}")
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["language"], row["answerable"])].append(row)
    lines.append("")
    names = list(rows[0]["parts"]) if rows else []
    lines.append("| language | questions | through | " + " | ".join(names) + " |")
    lines.append("|---|---|---|" + "---|" * len(names))
    for (language, answerable), group in sorted(groups.items(), key=lambda item: (item[0][0], not item[0][1])):
        means = [sum(row["parts"][name] for row in group) / len(group) for name in names]
        kind = "answerable" if answerable else "unanswerable"
        lines.append(f"| {language} | {len(group)} {kind} | {sum(row['through'] for row in group)} | "
                     + " | ".join(f"{mean:+.2f}" for mean in means) + " |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", metavar="RELEASE:QUESTIONS[:SPLIT]")
    args = parser.parse_args()
    print(f"# Question-level gate, feature by feature\n\nMachine: {machine()}; gate {relevance.default_gate().version}\n")
    for spec in args.sets:
        release, questions, *split = spec.split(":")
        print(f"## {questions} on {release}{' (' + split[0] + ')' if split else ''}\n")
        print("\n".join(report(measure(Path(release), questions_of(Path(questions), split[0] if split else None)))))
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
