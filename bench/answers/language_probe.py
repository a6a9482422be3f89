"""Two figures behind the Latin-script languages (pipeline/languages.py, retrieval/lexicon.py).

    .venv/bin/python bench/answers/language_probe.py [--release NODE_RELEASE]

1. Which texts of `bench/` (questions, pair sentences and passages, claims, transcripts) and of
   the real model's transcripts change language from the script-only reading the chat used
   before (Hangul ko, kana or Han ja, Cyrillic ru, else en) to `trigsight.languages.language_of`,
   outside the sets written in the new languages: the change must leave them as they were.
2. With a release, each word of a few German, French, Spanish and Portuguese questions embedded
   as written and case-folded, with the nearest words of the release's lexicon: why the bridge
   embeds a word of another Latin-script language as the question writes it.
Prints both; nothing is written.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))

from trigsight.languages import language_of  # noqa: E402

TRANSCRIPTS = ROOT.parent / "shared" / "transcripts" / "real-model-1.5b.json"
NEW_SETS = ("latin", "fastapi-de")
WORDS = ("Datei", "Zeile", "Puffer", "Ereignis", "Standardwert", "fichier", "serveur", "archivo", "linha", "arquivo")
_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_KANA_OR_HAN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff66-\uff9f]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


def by_script(text: str) -> str:
    """The reading before: the script alone."""
    if _HANGUL.search(text):
        return "ko"
    if _KANA_OR_HAN.search(text):
        return "ja"
    return "ru" if _CYRILLIC.search(text) else "en"


def texts() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []

    def walk(source: str, value) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                if key in ("question", "sentence", "passage", "claim", "text", "expected") and isinstance(inner, str):
                    found.append((source, inner))
                else:
                    walk(source, inner)
        elif isinstance(value, list):
            for inner in value:
                walk(source, inner)

    for file in sorted((ROOT / "bench").rglob("*.json")):
        if not any(name in file.name for name in NEW_SETS):
            walk(str(file.relative_to(ROOT)), json.loads(file.read_text("utf-8")))
    if TRANSCRIPTS.is_file():
        data = json.loads(TRANSCRIPTS.read_text("utf-8"))
        for item in data["items"] if isinstance(data, dict) else data:
            found.append(("transcripts", item["question"]))
            found += [("transcripts", s) for s in re.split(r"(?<=[.!?。])\s+", item["raw_output"]) if s.strip()]
    return found


def nearest(release: Path) -> None:
    from trigsight.retrieval.search import Retriever
    retriever = Retriever.load(release)
    lexicon = retriever.lexicon
    print(f"\nNearest lexicon words ({len(lexicon.words)} words, {retriever.backend}), as written / folded:")
    for word in WORDS:
        rows = []
        for form in (word, word.casefold()):
            similarity = np.asarray(lexicon.vectors @ retriever.embed([form])[0])
            best = np.argsort(-similarity)[:3]
            rows.append(", ".join(f"{lexicon.words[i]} {similarity[i]:.2f}" for i in best))
        print(f"- {word}: {rows[0]}  /  {rows[1]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, help="a release of the Node.js docs (bench/corpora/run.py nodejs-api)")
    args = parser.parse_args()
    found = texts()
    changed = [(source, text, by_script(text), language_of(text)) for source, text in found
               if by_script(text) != language_of(text)]
    print(f"{len(found)} texts outside the new-language sets; {len(changed)} change language")
    for source, text, before, after in changed:
        print(f"- {source}: {before} -> {after}: {text[:100]}")
    if args.release:
        nearest(args.release)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
