"""Two ideas for the cross-language support check, measured on the pair files and not shipped.

    .venv/bin/python bench/chat/support_probes.py grounding [FILE ...]
    .venv/bin/python bench/chat/support_probes.py swap [FILE ...]

- `grounding`: each Russian, Japanese or Korean word of a sentence (`lexicon.words`) is matched
  to its nearest English word of the passage in the index model's space; the share of the
  sentence's words with a near one (cosine at least 0.3 … 0.5) is compared between the pairs
  the shipped check accepts rightly and wrongly, with what each cut would remove.
- `swap`: for a pair whose sentence names two Latin-script names the passage also names, the
  two are swapped in the sentence; the rise of its cosine to the passage is printed, most
  negative first, to see whether a swapped sentence (a role swap) sits closer than a faithful one.

Default files: every bench/chat/pairs*.json. Results: bench/chat/results/2026-12-02-holdout-6-first-look.md
and -holdout-5-first-look.md.
"""
from __future__ import annotations

import itertools
import re
import statistics
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import run  # noqa: E402
from trigsight.retrieval import lexicon  # noqa: E402
from trigsight.retrieval.tokenize import STOPWORDS  # noqa: E402

_ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")
_NAME = re.compile(r"[A-Za-z_$][A-Za-z0-9_$.\-]*(?:\(\))?")


def load(files: list[Path]) -> list[dict]:
    return [p for f in files for p in run.json.loads(f.read_text("utf-8"))["pairs"]]


def grounding(pairs: list[dict]) -> None:
    model, cache = run._offline_model(), {}

    def vectors(words: list[str]) -> np.ndarray:
        new = [w for w in words if w not in cache]
        cache.update(zip(new, model.embed(new)) if new else ())
        return np.array([cache[w] for w in words])

    outcomes = run.pair_outcomes(pairs, run.pair_cosines(pairs))
    rows = []
    for pair, outcome in zip(pairs, outcomes):
        if not outcome["said"] or outcome["kind"] != "cross-language":
            continue
        foreign = [u for u in dict.fromkeys(lexicon.words(pair["sentence"]))
                   if lexicon.script(u) in ("ko", "ja", "cyrillic") and u not in lexicon.STANDALONE]
        english = [w for w in dict.fromkeys(m.casefold() for m in _ENGLISH_WORD.findall(pair["passage"]))
                   if w not in STOPWORDS]
        if foreign and english:
            rows.append((pair["supported"], (vectors(foreign) @ vectors(english).T).max(axis=1)))
    for near in (0.3, 0.4, 0.5):
        right = [float((best >= near).mean()) for supported, best in rows if supported]
        wrong = [float((best >= near).mean()) for supported, best in rows if not supported]
        print(f"near at {near}: accepted supported {len(right)}, median share {statistics.median(right):.2f}; "
              f"accepted unsupported {len(wrong)}, median share {statistics.median(wrong):.2f}")
        for cut in (0.3, 0.4, 0.5, 0.6):
            print(f"   share below {cut} refused: supported lost {sum(x < cut for x in right)}, "
                  f"unsupported caught {sum(x < cut for x in wrong)}")


def swap(pairs: list[dict]) -> None:
    model, rows = run._offline_model(), []
    for pair in pairs:
        sentence, passage = pair["sentence"], pair["passage"]
        names = list(dict.fromkeys(n.rstrip(".") for n in _NAME.findall(sentence)
                                   if len(n) > 2 and n in passage and (not n.islower() or "." in n)))
        swapped = [(a, b, sentence.replace(a, "\0").replace(b, a).replace("\0", b))
                   for a, b in itertools.combinations(names, 2) if a not in b and b not in a]
        if not swapped:
            continue
        vectors = model.embed([sentence, passage] + [s for _, _, s in swapped])
        base = float(vectors[0] @ vectors[1])
        rise = max(float(v @ vectors[1]) - base for v in vectors[2:])
        rows.append((rise, pair["supported"], pair["split"], pair.get("kind") or "", sentence[:80]))
    for rise, supported, split, kind, sentence in sorted(rows):
        print(f"{rise:+.3f} {'supported' if supported else 'unsupported':11} {split:10} {kind:12} {sentence}")


def main() -> None:
    probe, *files = sys.argv[1:] or ["grounding"]
    probes = {"grounding": grounding, "swap": swap}
    if probe not in probes:
        sys.exit(__doc__.split("\n\n")[1])
    probes[probe](load([Path(f) for f in files] or sorted(HERE.glob("pairs*.json"))))


if __name__ == "__main__":
    main()
