"""A real small model's replies (bench/chat/real-model.json) and how a replayed answer is scored against their labels.

Each labelled sentence lists the passages that support it (text fragments); a shown
sentence is *right* when it carries chips and every chip quotes a passage holding one of
those fragments, and a *violation* when it is shown with a chip that quotes none of them
(for a sentence no passage supports, any chip at all). A supported sentence counts as
*answerable here* only when one of its supporting passages was among the sources issued
for the request (the `context` of the JSON answer): the server can only attribute to
what it issued. Ambiguous sentences count neither way. Verbatim quotes that the offline
answer adds (when every model sentence was removed) are not model sentences and are not
scored, unless the model wrote that very sentence.
"""
from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "bench" / "chat" / "real-model.json"


def load() -> dict:
    return json.loads(FILE.read_text("utf-8"))


def fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def holds(quote: str, fragments: list[str]) -> bool:
    return any(fold(fragment) in fold(quote) for fragment in fragments)


@dataclass
class Score:
    supported_issued: int = 0      # labelled supported, and a supporting passage was issued
    right: int = 0                 # of those, shown with chips that all support it
    supported_elsewhere: int = 0   # labelled supported, but no supporting passage was issued
    unsupported: int = 0           # labelled unsupported
    violations: list[str] = field(default_factory=list)   # shown with a chip that does not support it
    missed: list[str] = field(default_factory=list)       # answerable here, but not shown rightly

    def add(self, other: "Score") -> None:
        for name in ("supported_issued", "right", "supported_elsewhere", "unsupported"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.violations += other.violations
        self.missed += other.missed


def score(item: dict, result: dict) -> Score:
    """Score one replayed JSON answer (`context` included) against the item's labels."""
    issued = [p["text"] for source in result.get("context", []) for p in source["passages"]]
    shown = {s["text"]: s for s in result["answer"] if s["status"] == "supported"}
    found = Score()
    labelled = {sentence["text"] for sentence in item["sentences"]}
    for text, sentence in shown.items():
        verbatim = len(sentence["citations"]) == 1 and sentence["citations"][0]["quote"] == text
        if text not in labelled and not verbatim:
            found.violations.append(f"unlabelled sentence shown: {text!r}")
    for sentence in item["sentences"]:
        if sentence.get("ambiguous"):
            continue
        fragments = sentence["supported_by"]
        answer = shown.get(sentence["text"])
        if answer is not None and not all(holds(c["quote"], fragments) for c in answer["citations"]):
            found.violations.append(f"{sentence['text']!r} shown with {[c['quote'] for c in answer['citations']]}")
        if not fragments:
            found.unsupported += 1
        elif any(holds(text, fragments) for text in issued):
            found.supported_issued += 1
            if answer is not None and answer["citations"] and all(holds(c["quote"], fragments)
                                                                  for c in answer["citations"]):
                found.right += 1
            else:
                found.missed.append(sentence["text"])
        else:
            found.supported_elsewhere += 1
    return found
