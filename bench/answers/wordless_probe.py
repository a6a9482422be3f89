"""What the offline answer does with input that asks nothing (emoji, punctuation, control characters,
a greeting, thanks) and with a question wrapped in them.

    .venv/bin/python bench/answers/wordless_probe.py --release DIR[:QUESTIONS] [--release ...] [--out FILE]

A reader types "🤔", "???", "Hello" or "Спасибо!" into the chat; vector search still returns a nearest
chunk, and the relevance model may quote it ("Zlib", a cell of the Node.js docs' stability table, for
"😀😀😀"; the "Hello world" addon example for "Привет"). For each release, every input below is
answered in process as the chat answers it offline (`offline.respond`), and the number of quotes and
the first one are printed. The inputs that hold no informative word once greetings and thanks are
left out (`offline.asks_anything` false) should all be refused; the last ones, which do, show the
answer is still given where there is something to look up. The MCP tool `find_evidence` is asked the
same inputs as claims. With a question file after the release (RELEASE:QUESTIONS), each of its
answerable questions is also asked wrapped in a greeting and thanks in its language ("Hi! … Thanks!",
"Привет! … Спасибо!", "こんにちは。…ありがとうございます。", "안녕하세요! … 감사합니다!"), and the answers that differ from the plain question's are counted. Last, every question of the JSON files
under bench/ is read, and those without a word, and those a greeting or thanks is taken from, are
counted: neither check may touch a question of the evaluation sets.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE.parent.parent))
from trigsight.answering import offline  # noqa: E402
from trigsight.answering.evidence import find_evidence  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import ROOT, emit, machine  # noqa: E402

WORDLESS = ["😀😀😀", "🤔", "???", "!!!", "...", "\x00\x01", "\n\t", "こんにちは", "何何何", "Как Как Как", "Как?",
            "What is it?", "How do I?",
            "hello", "Hi there!", "Thanks!", "Привет", "Спасибо!", "안녕하세요", "감사합니다", "お疲れ様です", "你好",
            "Merci !", "Hola"]
WORDED = ["Hello world", "fs.readFile()", "What is a DAG?", "ไทย"]


def probe(release_dir: Path) -> list[str]:
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    lines = [f"release {release_dir} ({release.release_id}, {len(release.passages)} passages), "
             f"retrieval {retriever.backend}", "", "| input | asks something | quotes | first quote | find_evidence |",
             "|---|---|---|---|---|"]
    refused = 0
    for question in WORDLESS + WORDED:
        quotes, _ = offline.respond(question, retriever, release)
        first = release.passage(quotes[0].passage_id).text[:70].replace("|", "\\|") if quotes else "(refusal)"
        # "n/a" with the code of before the check (a worktree of it on PYTHONPATH), for the before table
        asks = getattr(offline, "asks_anything", lambda _: "n/a")(question)
        evidence = len(find_evidence(release, question, retriever).evidence)
        lines.append(f"| {question!r} | {asks} | {len(quotes)} | {first} | {evidence} |")
        refused += question in WORDLESS and not quotes
    lines += ["", f"inputs without a word refused: {refused}/{len(WORDLESS)}", ""]
    return lines


# How a reader opens and closes a question in each language of the sets: (before, after).
POLITE = {"en": ("Hi! ", " Thanks!"), "ru": ("Привет! ", " Спасибо!"), "ja": ("こんにちは。", "ありがとうございます。"),
          "ko": ("안녕하세요! ", " 감사합니다!")}


def polite(release_dir: Path, questions: Path) -> list[str]:
    """How many answerable questions of `questions` get another answer when wrapped in a greeting and
    thanks in their language ("Hi! … Thanks!", "Привет! … Спасибо!", …; English ones for the rest)."""
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    asked = [q for q in json.loads(questions.read_text("utf-8"))["questions"] if q.get("answerable")]
    changed, refused = [], 0
    for q in asked:
        question, (before, after) = q["question"], POLITE.get(q.get("language", "en"), POLITE["en"])
        plain = [q.passage_id for q in offline.respond(question, retriever, release)[0]]
        wrapped = [q.passage_id for q in offline.respond(f"{before}{question}{after}", retriever, release)[0]]
        if wrapped != plain:
            changed.append(question)
            refused += bool(plain) and not wrapped
    return [f"{questions.name} on {release.release_id}: {len(changed)} of {len(asked)} answerable questions answered "
            f"otherwise when wrapped in a greeting and thanks ({refused} of them refused)"
            + "".join(f"\n- {q!r}" for q in changed[:8]), ""]


def bench_questions() -> list[str]:
    """Every "question" string of the JSON files under bench/ (question sets, transcripts, pairs)."""
    found: list[str] = []

    def walk(value) -> None:
        if isinstance(value, dict):
            if isinstance(value.get("question"), str):
                found.append(value["question"])
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    for file in sorted((ROOT / "bench").rglob("*.json")):
        walk(json.loads(file.read_text("utf-8")))
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", action="append", required=True, help="DIR, or DIR:QUESTIONS")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [machine(), ""]
    for spec in args.release:
        release_dir, _, questions = spec.partition(":")
        lines += probe(Path(release_dir))
        if questions:
            lines += polite(Path(release_dir), Path(questions))
    questions = bench_questions()
    if hasattr(offline, "asks_anything"):
        wordless = [q for q in questions if not offline.asks_anything(q)]
        lines.append(f"questions of bench/ without a word: {len(wordless)} of {len(questions)}"
                     + "".join(f"\n- {q!r}" for q in wordless))
    try:
        from trigsight.answering import small_talk
    except ImportError:      # the code of before greetings were read
        small_talk = None
    if small_talk is not None:
        stripped = [q for q in questions if small_talk.strip(q) != q.strip()]
        lines.append(f"questions of bench/ that lose an opening or closing greeting: {len(stripped)} of {len(questions)}"
                     + "".join(f"\n- {q!r}" for q in stripped))
    emit(lines, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
