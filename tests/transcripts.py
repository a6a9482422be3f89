"""The scripted transcripts of bench/chat/transcripts.json, and what each one expects of an answer."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "bench" / "chat" / "transcripts.json"


def load() -> dict:
    return json.loads(FILE.read_text("utf-8"))


def misses(expect: dict, result: dict) -> list[str]:
    """The expectations (keys of `expect`) that the JSON answer `result` does not meet."""
    shown = [s for s in result["answer"] if s["status"] != "refusal"]
    dropped = result["dropped"]
    rules = {"shown": lambda v: len(shown) == v, "min_shown": lambda v: len(shown) >= v,
             "min_citations": lambda v: sum(len(s["citations"]) for s in shown) >= v,
             "dropped_sentences": lambda v: dropped["sentences"] == v,
             "min_dropped_citations": lambda v: dropped["citations"] >= v,
             "min_links": lambda v: dropped["links"] >= v, "min_markup": lambda v: dropped["markup"] >= v,
             "refusal": lambda v: any(s["status"] == "refusal" for s in result["answer"]) == v,
             "mode": lambda v: result["mode"] == v, "note": lambda v: bool(result["note"]) == v}
    return [key for key, value in expect.items() if not rules[key](value)]
