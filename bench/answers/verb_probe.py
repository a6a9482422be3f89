"""How near is each form of a Japanese verb to the pages' words? The verb units of lexicon.py were read off this.

    .venv/bin/python bench/answers/verb_probe.py --release DIR [FORM ...]

Embeds each form with the release's own model (as written: 変わりました, 変わり, 置き換えられ…)
and prints the four nearest words of the release's lexicon with their cosines, then the unit
`lexicon.words` cuts from the form and whether that unit is bridged (`lexicon.VERB_NEAREST`).
Without forms, the ones the results of 2026-12-03-japanese-verbs.md quote.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from trigsight.retrieval import lexicon  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

FORMS = ("変わりました", "変わり", "置き換えられてしまうことはありません", "置き換えられ", "置き換えられて",
         "付けたいです", "済み", "止める", "閉じる", "取り消す", "作る", "書き込む")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", required=True)
    parser.add_argument("forms", nargs="*")
    args = parser.parse_args()
    retriever = Retriever.load(args.release)
    words, vectors = retriever.lexicon, np.asarray(retriever.lexicon.vectors)
    forms = args.forms or list(FORMS)
    embedded = retriever.embedder.embed(forms)
    print(f"release {args.release}: lexicon of {len(words.words)} words, model {retriever.embedder.model_id}, "
          f"verbs bridged at {lexicon.VERB_NEAREST}")
    for form, row in zip(forms, embedded @ vectors.T):
        nearest = ", ".join(f"{words.words[i]} {row[i]:.2f}" for i in np.argsort(-row)[:4])
        units = lexicon.words(form)
        bridged = words.translations(units, retriever.embedder.embed(units)) if units else {}
        print(f"{form}: {nearest}  | unit {units} → {bridged or 'not bridged'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
