"""A typo in a code name: is the question still answered as when spelt right?

    .venv/bin/python bench/answers/typo_probe.py RELEASE:QUESTIONS[:SPLIT] [...] [--out FILE]

A reader types "fs.readfle()" for fs.readFile(). For every answerable question of each file (all
splits unless SPLIT) that names code (`support.code_names`) with a word of 7 letters or more, the
longest such word loses its middle letter ("readFile" → "readile"), and the question is answered
in process as the chat answers it offline (`evaluate.offline_answerer`), spelt right and with the typo.
Prints, per file: how many were answered correctly (a quote on an expected page) each way. Then,
over every question of the files as written (spelt right, answerable or not), how many the reading
of misspelt code names (`pipeline/answering/spelling.py`) changes at all: it should change none.
Run it with the code of before the reading on PYTHONPATH (a worktree) for the before figures.
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))
from trigsight.answering import evaluate  # noqa: E402
from trigsight.answering.support import code_names  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import emit, machine  # noqa: E402

LONG_WORD = re.compile(r"[A-Za-z][A-Za-z0-9]{6,}")


def misspelt(question: str) -> str:
    """The question with the middle letter of its longest code-name word left out, as written (capitals
    kept), or "" when it has none."""
    found = []     # (word, start in the question)
    for name in code_names(question):
        at = re.search(re.escape(name), question, flags=re.IGNORECASE)
        if at:
            found += [(w.group(), at.start() + w.start()) for w in LONG_WORD.finditer(at.group())]
    if not found:
        return ""
    word, start = max(found, key=lambda pair: (len(pair[0]), -pair[1]))
    middle = start + len(word) // 2
    return question[:middle] + question[middle + 1:]


def correct(question: evaluate.Question, text: str, retriever, release) -> bool:
    quoted, _ = evaluate.offline_answerer(text, retriever, release)
    return evaluate.Outcome(question, tuple(quoted), tuple(release.passage(p).page for p in quoted), (), 0.0).correct


def probe(spec: str) -> tuple[list[str], int, int]:
    release_dir, questions_file, *split = spec.split(":")
    release, retriever = Release.load(Path(release_dir)), Retriever.load(Path(release_dir))
    questions = evaluate.resolve(evaluate.load_questions(Path(questions_file), split[0] if split else "all"),
                                 release, questions_file)
    spelling = sys.modules.get("trigsight.answering.spelling")
    changed = sum(spelling.corrected(q.question, retriever) != q.question for q in questions) if spelling else 0
    right = wrong = asked = 0
    examples = []
    for question in questions:
        typo = misspelt(question.question) if question.answerable else ""
        if not typo:
            continue
        asked += 1
        plain, typed = correct(question, question.question, retriever, release), correct(question, typo, retriever,
                                                                                          release)
        right, wrong = right + plain, wrong + typed
        if plain and not typed:
            examples.append(f"  - lost with the typo: “{typo}”")
    lines = [f"`{Path(questions_file).name}` on {release.release_id}: {asked} answerable questions with a code-name "
             f"word of 7 letters or more; answered correctly spelt right {right}/{asked}, with the typo "
             f"{wrong}/{asked}", *examples]
    return lines, len(questions), changed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="RELEASE_DIR:QUESTIONS_FILE[:SPLIT]")
    parser.add_argument("--out", type=Path, help="write the report here (markdown) instead of printing it")
    args = parser.parse_args()
    lines, total, changed = ["# A typo in a code name, offline answer", "", machine(), ""], 0, 0
    for spec in args.sets:
        found, count, touched = probe(spec)
        lines += [*found, ""]
        total, changed = total + count, changed + touched
    reading = ("questions spelt right that the reading of misspelt code names changes: "
               f"{changed} of {total}" if "trigsight.answering.spelling" in sys.modules
               else "(this code has no reading of misspelt code names)")
    emit([*lines, reading, ""], args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
