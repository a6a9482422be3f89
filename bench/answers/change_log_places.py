"""How many of the retrieved chunks' places change logs take, as retrieved and as the answer is given them.

    .venv/bin/python bench/answers/change_log_places.py RELEASE:QUESTIONS[:SPLIT] [...] [--out FILE]

For the answerable questions of each file (all splits unless SPLIT): of the CANDIDATE_CHUNKS places the
offline answer and the model's sources are chosen from, how many hold a chunk of a change log page
(`change_logs.is_change_log`) in the fused ranking (`Retriever.search_scored`) and in what
`offline.retrieve` hands on (`change_logs.current_hits`); and for how many questions a chunk holding an
expected sentence is among those places, each way.
"""
from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))
from trigsight.answering import evaluate, offline  # noqa: E402
from trigsight.answering.change_logs import is_change_log  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import emit, machine, sets_arguments  # noqa: E402


def measure(spec: str) -> dict:
    release_dir, questions_file, *split = spec.split(":")
    release, retriever = Release.load(Path(release_dir)), Retriever.load(Path(release_dir))
    questions = evaluate.resolve(evaluate.load_questions(Path(questions_file), split[0] if split else "all"),
                                 release, questions_file)
    logged = {page.path: is_change_log(page.path, page.title or "") for page in release.pages}
    row = {"set": questions_file, "release": release.release_id, "questions": 0, "places": 0,
           "logged_retrieved": 0, "logged_handed": 0, "found_retrieved": 0, "found_handed": 0}
    for question in (q for q in questions if q.answerable):
        retrieved, _ = retriever.search_scored(question.question, k=offline.CANDIDATE_CHUNKS)
        handed, _ = offline.retrieve(question.question, retriever, release)
        row["questions"] += 1
        row["places"] += offline.CANDIDATE_CHUNKS
        for name, hits in (("retrieved", retrieved), ("handed", handed)):
            row[f"logged_{name}"] += sum(logged.get(hit.page, False) for hit in hits)
            row[f"found_{name}"] += any(set(hit.passage_ids) & question.passages for hit in hits)
    return row


def main() -> None:
    args = sets_arguments(__doc__, out=True)
    lines = ["# Change logs among the retrieved chunks", "", f"Machine: {machine()}", "",
             f"Places: the {offline.CANDIDATE_CHUNKS} chunks each answerable question retrieves. Retrieved: the "
             "fused ranking; handed on: what `offline.retrieve` gives the answer and the model.", "",
             "| set | release | questions | places | change log places, retrieved → handed on "
             "| answering chunk among them, retrieved → handed on |", "|---|---|---|---|---|---|"]
    for spec in args.sets:
        r = measure(spec)
        lines.append(f"| `{r['set']}` | {r['release']} | {r['questions']} | {r['places']} | "
                     f"{r['logged_retrieved']} → {r['logged_handed']} | {r['found_retrieved']} → {r['found_handed']} |")
    emit(lines, args.out)


if __name__ == "__main__":
    main()
