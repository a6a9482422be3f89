"""What the offline answer does with input that asks nothing: emoji, punctuation, control characters, a greeting.

    .venv/bin/python bench/answers/wordless_probe.py --release DIR [--release DIR ...] [--out FILE]

A reader types "🤔", "???" or "こんにちは" into the chat; vector search still returns a nearest chunk,
and the relevance model may quote it ("Zlib", a cell of the Node.js docs' stability table, for "😀😀😀").
For each release, every input below is answered in process as the chat answers it offline
(`offline.respond`), and the number of quotes and the first one are printed. The inputs that hold
no informative word (`offline.asks_anything` false) should all be refused; the last ones, which do,
show the answer is still given where there is something to look up. The MCP tool `find_evidence` is
asked the same inputs as claims. Last, every question of the JSON files under bench/ is read, and
those without a word are counted: the check must leave every question of the evaluation sets alone.
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

from common import ROOT, machine, write_results  # noqa: E402

WORDLESS = ["😀😀😀", "🤔", "???", "!!!", "...", "\x00\x01", "\n\t", "こんにちは", "何何何", "Как Как Как", "Как?",
            "What is it?", "How do I?"]
WORDED = ["hello", "fs.readFile()", "Привет", "안녕하세요", "ไทย"]


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
    parser.add_argument("--release", action="append", required=True, type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    lines = [machine(), ""]
    for release_dir in args.release:
        lines += probe(release_dir)
    questions = bench_questions()
    if hasattr(offline, "asks_anything"):
        wordless = [q for q in questions if not offline.asks_anything(q)]
        lines.append(f"questions of bench/ without a word: {len(wordless)} of {len(questions)}"
                     + "".join(f"\n- {q!r}" for q in wordless))
    if args.out:
        write_results(lines, args.out)
    else:
        print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
