"""Which page word does each Japanese or Korean dev-question word reach by sound, and how near in meaning?

    .venv/bin/python bench/answers/loanword_probe.py --release NODE_RELEASE

For every katakana or Hangul word of the development questions (bench/answers/questions.json)
that the lexicon's nearest word does not bridge (cosine below lexicon.NEAREST), prints its
romanisation, the nearest page word, the two page words of the same sound
(loanwords.Sounds.candidates) with their cosines, the best cut of a katakana compound, and
what the lexicon now does with it. The loanword thresholds in lexicon.py were read off this.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from trigsight.retrieval import lexicon, loanwords
from trigsight.retrieval.search import Retriever

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, required=True, help="a published release of the Node.js API docs")
    args = parser.parse_args()
    retriever = Retriever.load(args.release)
    words = retriever.lexicon
    questions = [q for q in json.loads((ROOT / "bench/answers/questions.json").read_text("utf-8"))["questions"]
                 if q["split"] == "dev" and q["language"] in ("ja", "ko")]
    units = list(dict.fromkeys(u for q in questions for u in words.foreign(q["question"]) if loanwords.romanize(u)))
    vectors = retriever.embedder.embed(units)
    print(f"release {args.release}: {len(words.words)} lexicon words, {len(units)} katakana "
          f"or Hangul words in the dev questions; those the nearest word does not bridge:")
    for unit, vector in zip(units, vectors):
        similarity = np.asarray(words.vectors @ vector)
        nearest = int(similarity.argmax())
        if similarity[nearest] >= lexicon.NEAREST:
            continue
        heard = sorted(words.sounds.candidates(unit), key=lambda n: -similarity[n])[:2]
        cuts = []
        for parts in words.sounds.splits(unit):
            chosen = [max(part, key=lambda n: similarity[n]) for part in parts]
            joined = words.vectors[chosen].sum(axis=0)
            cuts.append((float(joined @ vector) / float(np.linalg.norm(joined)), [words.words[n] for n in chosen]))
        cut = max(cuts, default=None)
        print(f"  {unit} ({loanwords.romanize(unit)}): nearest {words.words[nearest]} {similarity[nearest]:.2f}"
              f" | same sound " + (", ".join(f"{words.words[n]} {similarity[n]:.2f}" for n in heard) or "none")
              + (f" | cut {' + '.join(cut[1])} {cut[0]:.2f}" if cut else "")
              + f" | bridged: {words.loanword(unit, vector, similarity) or '-'}")


if __name__ == "__main__":
    main()
