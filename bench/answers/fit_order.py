"""Fit the order in which the offline answer quotes the passages it may quote, judged on corpora it never saw.

    .venv/bin/python bench/answers/fit_order.py RELEASE:QUESTIONS:SPLIT [...] [--hold-out RELEASE ...]
                                               [--l2 X ...] [--write] [--label NAME]

For every answerable question of the sets (SPLIT as given: pass questions.json:dev, so the Node.js
test split is never read), the passages the offline answer may quote are gathered as it gathers them
(`offline.weigh`, `in_chunk_order`, the quote threshold): one group per question, a passage labelled
1 when it is an expected answering sentence or shares its block. Left out, and counted: a question
answered by a rule of its kind (`offline.by_kind`: a default, a definition…), which never reaches
the order; one the gate refuses; and one whose expected sentence is not among the quotable, which
cannot teach an order.

1. Leave corpora out: the corpora (release folders) not held out are dealt into five folds; for each
   L2 strength the order (`fitting.fit_order` over `quote_order.FEATURES`, sign-held) is fitted on
   four folds and judged on the fifth by the quotes `offline.select` then chooses: is an expected
   sentence's block among them, and first, against the relevance model's own order (most likely
   first, as before).
2. The L2 with the most questions quoting an expected block is refitted on every corpus not held
   out; each --hold-out release is judged by that fit alone, never fitted on.
3. With --write the fit goes to pipeline/answering/quote_order.json, with a version naming the date,
   the L2 and the number of questions.

The quotes judged here are `select`'s, before the lists and continuations the answer adds to them;
bench/answers/variants.py (`relevance-order` against `shipped`) measures the answers themselves.
Prints and writes bench/answers/results/<date>-quote-order[-NAME].md.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import fitting, offline, quote_order, small_talk, spelling  # noqa: E402
from trigsight.answering.attribution import language_of  # noqa: E402
from trigsight.answering.evaluate import load_questions, resolve  # noqa: E402
from trigsight.answering.overlap import terms  # noqa: E402
from trigsight.answering.relevance import default_gate, default_model  # noqa: E402
from trigsight.files import unused_name  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import machine, write_results  # noqa: E402

L2 = (1.0, 3.0, 10.0, 30.0)
FOLDS = 5


def gather(specs: list[str]) -> tuple[dict[str, list], dict[str, int]]:
    """Per release folder, one `Group` per question the order may decide; and how many were left out, why."""
    model, gate, groups = default_model(), default_gate(), {}
    left = {"answered by a rule of its kind": 0, "refused by the gate": 0, "no expected sentence among the quotable": 0}
    for spec in specs:
        folder, questions, split = spec.rsplit(":", 2)
        release, retriever = Release.load(Path(folder)), Retriever.load(Path(folder))
        for question in resolve(load_questions(Path(questions), split), release, questions):
            if not question.answerable:
                continue
            asked = spelling.corrected(small_talk.strip(question.question) or question.question, retriever)
            language = language_of(asked)
            hits, scores = offline.retrieve(asked, retriever, release)
            if offline.by_kind(asked, hits, scores, retriever, release) is not None:
                left["answered by a rule of its kind"] += 1
                continue
            scored = offline.weigh(asked, hits, scores, retriever, release, language, model)
            if not offline.answered(scored, gate):
                left["refused by the gate"] += 1
                continue
            worth = [(c, p) for c, p in offline.in_chunk_order(scored) if p >= model.threshold]
            asked_terms = terms(asked)
            blocks = {(release.passage(pid).page, release.passage(pid).block) for pid in question.passages}
            labels = np.array([(release.passage(c.passage_id).page, release.passage(c.passage_id).block) in blocks
                               for c, _ in worth], dtype=float)
            if not labels.any():
                left["no expected sentence among the quotable"] += 1
                continue
            yes_or_no = quote_order.asks_yes_or_no(asked, language)
            rows = np.array([[quote_order.order_features(c.features, p, release.passage(c.passage_id).text,
                                                         yes_or_no)[name] for name in quote_order.FEATURES]
                             for c, p in worth])
            said = [(c, p) for c, p in scored if not offline.echoes(asked_terms, release.passage(c.passage_id), release)]
            groups.setdefault(folder, []).append(Group(np.clip(np.nan_to_num(rows), -50, 50), labels,
                                                       said, release, yes_or_no, blocks))
    return groups, left


def judge(groups: list, order: quote_order.QuoteOrder | None) -> tuple[int, int, int]:
    """(questions whose quotes include an expected block, whose first quote is one, questions), the quotes
    chosen by `offline.select` in `order` (None: the relevance model's, most likely first)."""
    model = default_model()
    quoted = first = 0
    for group in groups:
        quotes = offline.select(group.said, group.release, model.threshold, model.second, order=order,
                                yes_or_no=group.yes_or_no)
        places = [(group.release.passage(q.passage_id).page, group.release.passage(q.passage_id).block)
                  for q in quotes]
        quoted += any(place in group.blocks for place in places)
        first += bool(places) and places[0] in group.blocks
    return quoted, first, len(groups)


def fit(groups: list, l2: float, version: str = "", fitted_on: str = "") -> quote_order.QuoteOrder:
    w, mean, scale = fitting.fit_order([(g.rows, g.labels) for g in groups], l2,
                                       signs=fitting.signs_of(quote_order.FEATURES))
    return quote_order.QuoteOrder(version, quote_order.FEATURES, tuple(map(float, mean)), tuple(map(float, scale)),
                                  tuple(map(float, w)), fitted_on)


@dataclass
class Group:
    """One answerable question: its quotable passages' order features and labels, and what `select` reads."""
    rows: np.ndarray
    labels: np.ndarray
    said: list            # (candidate, probability), echoes left out, as `offline.choose` hands `select`
    release: Release
    yes_or_no: bool
    blocks: set           # (page, block) of its expected sentences


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="RELEASE_DIR:QUESTIONS_FILE:SPLIT")
    parser.add_argument("--hold-out", nargs="*", default=[], help="release folders judged, never fitted on")
    parser.add_argument("--l2", nargs="*", type=float, default=list(L2))
    parser.add_argument("--write", action="store_true", help="store the fit in pipeline/answering/quote_order.json")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    groups, left = gather(args.sets)
    held = {str(Path(h)) for h in args.hold_out}
    fitted_on = sorted(folder for folder in groups if str(Path(folder)) not in held)
    lines = [f"# Quote order, {date.today().isoformat()}", "", f"Machine: {machine()}", "",
             f"{sum(len(groups[f]) for f in fitted_on)} questions of {len(fitted_on)} corpora to fit on; "
             f"left out: {left}.", "", "## Leave corpora out (five folds of corpora)", "",
             "| L2 | expected block quoted | quoted first | relevance order: quoted | quoted first |",
             "|---|---|---|---|---|"]
    best = None
    for l2 in args.l2:
        totals = np.zeros(5, dtype=int)
        for fold in range(FOLDS):
            out = set(fitted_on[fold::FOLDS])
            train = [g for f in fitted_on if f not in out for g in groups[f]]
            test = [g for f in out for g in groups[f]]
            if not test:
                continue
            quoted, first, n = judge(test, fit(train, l2))
            base_quoted, base_first, _ = judge(test, None)
            totals += (quoted, first, n, base_quoted, base_first)
        quoted, first, n, base_quoted, base_first = totals
        lines.append(f"| {l2:g} | {quoted}/{n} = {quoted / n:.1%} | {first}/{n} = {first / n:.1%} | "
                     f"{base_quoted}/{n} = {base_quoted / n:.1%} | {base_first}/{n} = {base_first / n:.1%} |")
        best = max(best or (quoted, l2), (quoted, l2), key=lambda pair: pair[0])
    l2 = best[1]
    train = [g for f in fitted_on for g in groups[f]]
    digest = hashlib.sha256(" ".join(sorted(args.sets)).encode()).hexdigest()[:8]
    order = fit(train, l2, f"{date.today().isoformat()}-l2{l2:g}-q{len(train)}-{digest}",
                f"{len(train)} answerable questions of {len(fitted_on)} corpora")
    lines += ["", f"Fitted on every corpus at L2 {l2:g}: weights (standardised features)", "",
              "| feature | weight |", "|---|---|"]
    lines += [f"| {name} | {weight:+.3f} |" for name, weight in zip(order.features, order.weights)]
    for folder in sorted(held & set(groups)):
        quoted, first, n = judge(groups[folder], order)
        base_quoted, base_first, _ = judge(groups[folder], None)
        lines += ["", f"Held out, `{folder}`: expected block quoted {quoted}/{n} (relevance order "
                      f"{base_quoted}/{n}), first {first}/{n} ({base_first}/{n})."]
    if args.write:
        quote_order.ORDER_FILE.write_text(json.dumps(order.to_json(), indent=1) + "\n", "utf-8")
        lines += ["", f"Wrote {quote_order.ORDER_FILE.name}: version {order.version}."]
    name = f"{date.today().isoformat()}-quote-order{'-' + args.label if args.label else ''}"
    write_results(lines, unused_name(HERE / "results" / f"{name}.md"))


if __name__ == "__main__":
    main()
