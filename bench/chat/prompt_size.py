"""How long is the prompt a model is sent? Characters of the chat messages, with and without history.

    .venv/bin/python bench/chat/prompt_size.py RELEASE_DIR:QUESTIONS_FILE [...]

For every question of each file (its `question` fields, answerable or not), the sources the
chat would issue (`offline.CONTEXT_CHUNKS` retrieved chunks) go into the messages exactly as
the model client builds them (`model_client.messages`), first without history, then with
the longest history the page can send (twelve turns of the most a turn may hold), of which
the client keeps `HISTORY_CHARS`. Prints the median and largest size per file, so the history
budget can be weighed against a small local model's context (2,048 or 4,096 tokens; about
four characters of English or one of Japanese per token). Writes
bench/chat/results/<date>-prompt-size.md.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from trigsight.answering.conversation import Turn, detect_language  # noqa: E402
from trigsight.answering.handles import HandleTable  # noqa: E402
from trigsight.answering.model_client import HISTORY_CHARS, messages  # noqa: E402
from trigsight.answering.offline import CONTEXT_CHUNKS  # noqa: E402
from trigsight.files import unused_name  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine, write_results  # noqa: E402

LONGEST_TURNS = 12            # what the page sends (site/static/chat.js), each up to the server's limit
LONGEST_TURN_CHARS = 4000


def _questions(data):
    """Every `question` string in a question file, whatever its layout (bench/answers, bench/chat)."""
    if isinstance(data, dict):
        if isinstance(data.get("question"), str):
            yield data["question"]
        for value in data.values():
            yield from _questions(value)
    elif isinstance(data, list):
        for value in data:
            yield from _questions(value)


def sizes(release_dir: Path, questions_file: Path) -> tuple[list[int], list[int]]:
    release, retriever = Release.load(release_dir), Retriever.load(release_dir)
    asked = list(_questions(json.loads(questions_file.read_text("utf-8"))))
    history = tuple(Turn("user" if n % 2 == 0 else "assistant", "x" * LONGEST_TURN_CHARS)
                    for n in range(LONGEST_TURNS))
    bare, full = [], []
    for question in asked:
        table = HandleTable.issue(retriever.search(question, k=CONTEXT_CHUNKS), release)
        language = detect_language(question)
        bare.append(sum(len(m["content"]) for m in messages(question, (), table, language)))
        full.append(sum(len(m["content"]) for m in messages(question, history, table, language)))
    return bare, full


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="RELEASE_DIR:QUESTIONS_FILE")
    args = parser.parse_args()
    lines = [f"# Prompt size, {date.today().isoformat()}", "", f"Machine: {machine()}", "",
             f"Sources: {CONTEXT_CHUNKS} retrieved chunks; history: the page's longest ({LONGEST_TURNS} turns of "
             f"{LONGEST_TURN_CHARS} characters), of which the client keeps {HISTORY_CHARS} characters.", "",
             "| questions | release | questions asked | characters without history: median / largest "
             "| with the longest history: median / largest |", "|---|---|---|---|---|"]
    for spec in args.sets:
        release_dir, questions_file = spec.rsplit(":", 1)
        bare, full = sizes(Path(release_dir), Path(questions_file))
        lines.append(f"| `{questions_file}` | {Release.load(release_dir).release_id} | {len(bare)} | "
                     f"{statistics.median(bare):.0f} / {max(bare)} | {statistics.median(full):.0f} / {max(full)} |")
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-prompt-size.md"))


if __name__ == "__main__":
    main()
