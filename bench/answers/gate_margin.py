"""How much room the offline answer's refusal gate leaves, over any number of answer sets.

    .venv/bin/python bench/answers/gate_margin.py RELEASE:QUESTIONS:SPLIT [...] [--label NAME]

For every question it answers as the chat does (`offline.respond`) and also reads the question-level
gate's probability and the best candidate's relevance (`relevance.question_features`, the features
the gate weighs). It then prints and writes to bench/answers/results/<date>-gate-margin[-NAME].md:

1. names no page uses: how many unanswerable questions name one (`Overlap.unknown_names`), and how
   many of those are answered anyway; the same for answerable ones;
2. the gate's threshold raised: for each higher threshold, how many of the unanswerable questions
   answered now would be refused, against how many answerable questions answered correctly now
   would be lost (a question answered by a rule of its own kind, a default or a definition,
   counts as the gate would judge it: an upper bound on what a higher threshold changes);
3. the quote threshold lowered: among questions the gate lets through but no passage reaches the
   quote threshold (refused for that), how many are answerable and how many are not, by how far
   the best candidate falls short.

Nothing here changes the answer; it measures what moving the stored thresholds would trade.
"""
from __future__ import annotations

import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import offline, small_talk, spelling  # noqa: E402
from trigsight.answering.attribution import language_of  # noqa: E402
from trigsight.answering.evaluate import load_questions, resolve  # noqa: E402
from trigsight.answering.overlap import Overlap  # noqa: E402
from trigsight.answering.relevance import default_gate, default_model, question_features  # noqa: E402
from trigsight.files import unused_name  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine, sets_arguments, write_results  # noqa: E402

RAISED = (0.62, 0.65, 0.68, 0.7, 0.75, 0.8)
SHORT_OF = (0.045, 0.04, 0.03, 0.02)


def measure(specs: list[str]) -> list[dict]:
    """One record per question: answerable, answered, correct, names no page uses, gate p, best relevance."""
    model, gate = default_model(), default_gate()
    records, loaded = [], {}
    for spec in specs:
        folder, questions, split = spec.rsplit(":", 2)
        if folder not in loaded:
            loaded.clear()
            release = Release.load(Path(folder))
            loaded[folder] = (release, Retriever.load(Path(folder)), Overlap.of(release))
        release, retriever, overlap = loaded[folder]
        for question in resolve(load_questions(Path(questions), split), release, questions):
            quotes, _ = offline.respond(question.question, retriever, release)
            pages = {release.passage(q.passage_id).page for q in quotes}
            asked = spelling.corrected(small_talk.strip(question.question) or question.question, retriever)
            hits, scores = offline.retrieve(asked, retriever, release)
            scored = offline.weigh(asked, hits, scores, retriever, release, language_of(asked), model)
            features = question_features(scored)
            records.append({"answerable": question.answerable, "answered": bool(quotes),
                            "correct": bool(pages & set(question.pages)),
                            "names": bool(overlap.unknown_names(question.question)),
                            "gate": gate.probability(features) if gate else 1.0, "top": features["top"]})
    return records


def report(records: list[dict], threshold: float, quote: float) -> list[str]:
    unanswerable = [r for r in records if not r["answerable"]]
    answerable = [r for r in records if r["answerable"]]
    wrongly = [r for r in unanswerable if r["answered"]]
    right = [r for r in answerable if r["answered"] and r["correct"]]
    named = [r for r in unanswerable if r["names"]]
    lines = [f"{len(records)} questions: {len(answerable)} answerable ({len(right)} answered correctly), "
             f"{len(unanswerable)} unanswerable ({len(wrongly)} answered).", "",
             "## 1. Names no page uses", "",
             f"- unanswerable questions naming one: {len(named)}, answered anyway: {sum(r['answered'] for r in named)}",
             f"- answerable questions naming one: {sum(r['names'] for r in answerable)}, answered correctly: "
             f"{sum(r['names'] for r in right)}",
             f"- unanswerable questions answered that name none: {sum(not r['names'] for r in wrongly)}", "",
             f"## 2. The gate's threshold ({threshold:.2f}) raised", "",
             "| threshold | unanswerable answered now, refused then | answered correctly now, refused then |",
             "|---|---|---|"]
    for raised in RAISED:
        lines.append(f"| {raised:.2f} | {sum(r['gate'] < raised for r in wrongly)} | {sum(r['gate'] < raised for r in right)} |")
    held = [r for r in records if not r["answered"] and r["gate"] >= threshold and r["top"] < quote]
    lines += ["", f"## 3. The quote threshold ({quote:.2f}) lowered, for questions the gate lets through", "",
              "| best candidate at least | answerable refused now | unanswerable refused now |", "|---|---|---|"]
    for lower in SHORT_OF:
        near = [r for r in held if r["top"] >= lower]
        lines.append(f"| {lower:.3f} | {sum(r['answerable'] for r in near)} | {sum(not r['answerable'] for r in near)} |")
    return lines


def main() -> None:
    args = sets_arguments(__doc__)
    model, gate = default_model(), default_gate()
    lines = [f"# Gate margin, {date.today().isoformat()}", "", f"Machine: {machine()}; relevance model {model.version}",
             "", f"Sets: {len(args.sets)}", ""]
    lines += report(measure(args.sets), gate.threshold if gate else 0.0, model.threshold)
    label = f"-{args.label}" if args.label else ""
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-gate-margin{label}.md"))


if __name__ == "__main__":
    main()
