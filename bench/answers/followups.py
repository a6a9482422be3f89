"""Does the chat answer a follow-up ("And on macOS?") from the conversation so far, offline?

    .venv/bin/python bench/answers/followups.py --release NODE_RELEASE [--conversations FILE]
        [--split dev|test|all] [--results DIR]

Each conversation of bench/answers/followups.json (`trigsight.followups/1`, written blind) is a first
question, the answer a docs chat would have quoted, and a follow-up that means nothing on its own.
The follow-up is asked through the chat's own turn (`conversation.run`, no model, as `POST /api/chat`
runs it) twice: with the conversation's history, as the page's script sends it, and alone. Scored as
`trigsight eval --answers` scores questions (pipeline/answering/evaluate.py): an answerable follow-up
is answered correctly when a quote's chip is on an expected page; a topic switch (a follow-up about
the same topic that no page answers) should be refused. "Retrieved" counts the expected sentence
among the sources the turn issued.

    .venv/bin/python bench/answers/followups.py --release NODE_RELEASE --standalone bench/answers/questions.json

The other side: a question that stands on its own must not be read with the one before it. Each
question of an answers file (`trigsight.answers/1`) is asked after the file's previous question in
its language, and alone; the questions whose outcome (quoted passages, or the refusal) differs are
counted and listed, with the per-language table of the questions asked after another. With
`--opener`, each is asked as a reader opens a new question in conversation ("And …", "А …",
"じゃあ、…", "그럼 …"): "А как настроить webpack…?" after a question about streams is a new question.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))
from trigsight.answering import conversation, evaluate  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import emit, machine  # noqa: E402

SCHEMA = "trigsight.followups/1"


def load(file: Path, split: str) -> list[tuple[evaluate.Question, tuple]]:
    data = json.loads(file.read_text("utf-8"))
    if data.get("schema") != SCHEMA:
        raise SystemExit(f"{file}: schema {data.get('schema')!r}, expected {SCHEMA!r}")
    return [(evaluate.Question(c["id"], c["language"], c["split"], bool(c["answerable"]), c["question"],
                               tuple(c.get("pages", ())), tuple(c.get("sentences", ())), (c["kind"],)),
             tuple(conversation.Turn(t["role"], t["content"]) for t in c["history"]))
            for c in data["conversations"] if split == "all" or c["split"] == split]


def turn(question: str, history: tuple, retriever, release) -> tuple[list[str], list[str], float]:
    """(quoted passage ids, issued passage ids, seconds) of one offline chat turn."""
    started = time.perf_counter()
    quoted, issued = [], []
    for event in conversation.run(question, history, retriever, release, conversation.ChatSettings()):
        if event.kind == "context":
            issued = [p["id"] for source in event.data["sources"] for p in source["passages"]]
        elif event.kind == "sentence":
            quoted += [c["id"] for c in event.data["citations"]]
    return quoted, issued, time.perf_counter() - started


def measure(release_dir: Path, file: Path, split: str) -> list[str]:
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    conversations = load(file, split)
    evaluate.resolve([q for q, _ in conversations], release, str(file))
    turn(conversations[0][0].question, (), retriever, release)      # load the question embedder first
    out = [f"release `{release.release_id}` ({release_dir}), conversations `{file.name}`, split **{split}**, "
           f"retrieval {retriever.backend}", ""]
    for name, with_history in (("with the conversation's history", True), ("the follow-up alone", False)):
        outcomes = []
        for question, history in conversations:
            quoted, issued, seconds = turn(question.question, history if with_history else (), retriever, release)
            outcomes.append(evaluate.Outcome(question, tuple(quoted), tuple(release.passage(p).page for p in quoted),
                                             tuple(issued), seconds))
        evaluation = evaluate.AnswerEvaluation(release.release_id, retriever.backend, split, outcomes, release)
        out += [f"### {name}", "", *evaluate.table(evaluation), ""]
        out += [f"- `{o.question.id}` ({o.question.language}) “{o.question.question}” — "
                + ("refused" if not o.answered else "quoted " + ", ".join(sorted(set(o.pages))))
                for o in outcomes if (o.question.answerable and not o.correct) or (not o.question.answerable and o.answered)]
        out.append("")
    return out


OPENERS = {"en": "And ", "ru": "А ", "ja": "じゃあ、", "ko": "그럼 "}


def opened(question: str, language: str) -> str:
    """The question as a reader opens it in conversation ("And how do I…?"), in its language."""
    opener = OPENERS.get(language, "")
    if opener and language in ("en", "ru") and question[:1].isupper() and question[1:2].islower():
        question = question[0].lower() + question[1:]
    return opener + question


def standalone(release_dir: Path, file: Path, split: str, opener: bool = False) -> list[str]:
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    questions = evaluate.resolve(evaluate.load_questions(file, split), release, str(file))
    turn(questions[0].question, (), retriever, release)
    before: dict[str, str] = {}
    outcomes, changed = [], []
    for question in questions:
        previous = before.get(question.language)
        before[question.language] = question.question
        if previous is None:
            continue
        asked = opened(question.question, question.language) if opener else question.question
        history = (conversation.Turn("user", previous), conversation.Turn("assistant", ""))
        quoted, issued, seconds = turn(asked, history, retriever, release)
        alone = turn(question.question, (), retriever, release)[0]
        if quoted != alone:
            changed.append(f"- `{question.id}` ({question.language}) “{asked}” after “{previous}”: "
                           f"{len(alone)} quotes alone, {len(quoted)} after it")
        outcomes.append(evaluate.Outcome(question, tuple(quoted), tuple(release.passage(p).page for p in quoted),
                                         tuple(issued), seconds))
    evaluation = evaluate.AnswerEvaluation(release.release_id, retriever.backend, split, outcomes, release)
    how = ", each opened as in conversation (`--opener`)" if opener else ""
    return [f"release `{release.release_id}`, questions `{file.name}`, split **{split}**: {len(outcomes)} questions "
            f"asked after the previous one in their language{how}; {len(changed)} answered otherwise than alone", "",
            *evaluate.table(evaluation), "", *changed, ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", required=True, type=Path)
    parser.add_argument("--conversations", type=Path, default=HERE / "followups.json")
    parser.add_argument("--split", choices=("dev", "test", "all"), default="dev")
    parser.add_argument("--standalone", type=Path, action="append", default=[],
                        help="an answers file whose questions are asked each after the one before it")
    parser.add_argument("--opener", action="store_true",
                        help="with --standalone: open each question as in conversation (And …, А …, じゃあ、…, 그럼 …)")
    parser.add_argument("--out", type=Path, help="write the report here (markdown) instead of printing it")
    args = parser.parse_args()
    lines = [f"# Follow-up questions, offline chat ({args.split} split)", "", machine(), ""]
    if args.standalone:
        for file in args.standalone:
            lines += standalone(args.release, file, args.split, args.opener)
    else:
        lines += measure(args.release, args.conversations, args.split)
    emit(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
