"""`trigsight eval`: score a published release's retrieval against the golden set.

Golden questions name pages and the expected sentence *text* (stable across rebuilds,
unlike passage ids). At eval time each expected text is mapped to the one passage, on an
expected page, whose folded text contains it; a text that matches none or several is an
error in the golden set, never a silent miss.

Relevance, for each leg (bm25, vector) and the fusion (hybrid):
- document: a retrieved chunk is relevant if its page is an expected page;
- passage: a retrieved chunk is relevant if it contains an expected passage;
- sentence: a passage from `search_passages` is relevant if it is an expected passage.
recall@5 counts a question as found when at least one relevant item is in the top 5
(the original's definition); MRR@10 is 1/rank of the first relevant item in the top 10;
nDCG@10 uses binary gains, each expected page (document level) credited once, and an
ideal list holding every relevant item first.
"""
from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from ..errors import Problem, TrigsightError
from ..files import unused_name
from ..matching.textmodel import normalise
from ..publishing.paths import published_path
from ..publishing.published import Release
from .search import LEGS, Retriever

GOLDEN_SCHEMA = "trigsight.golden/1"
LEVELS = ("document", "passage", "sentence")
METRICS = ("recall@5", "mrr@10", "ndcg@10")


class GoldenSetError(TrigsightError):
    """The golden set is malformed or no longer matches the release's text."""


class BelowThreshold(TrigsightError):
    """A measured figure is below the floor the golden set declares."""


@dataclass
class Question:
    id: str
    language: str
    kinds: tuple[str, ...]
    question: str
    pages: tuple[str, ...]
    sentences: tuple[str, ...]
    passages: frozenset[str] = frozenset()   # filled by resolve()


@dataclass
class Outcome:
    """Where one question's relevant items landed, per (leg, level): 1-based rank or None."""

    question: Question
    ranks: dict[tuple[str, str], int | None] = field(default_factory=dict)
    top: dict[str, str] = field(default_factory=dict)   # leg → text of its first chunk


@dataclass
class Evaluation:
    backend: str
    model_id: str
    release_id: str
    rows: dict[tuple[str, str], dict[str, float]]
    outcomes: list[Outcome]
    thresholds: list[dict]
    failures: list[str]
    goals: list[dict] = field(default_factory=list)
    unmet_goals: list[str] = field(default_factory=list)


def load_golden(file: Path) -> tuple[list[Question], list[dict], list[dict]]:
    data = json.loads(Path(file).read_text("utf-8"))
    if data.get("schema") != GOLDEN_SCHEMA:
        raise GoldenSetError(f"schema {data.get('schema')!r}, expected {GOLDEN_SCHEMA!r}", str(file))
    questions = [Question(q["id"], q["language"], tuple(q.get("kinds", ())), q["question"], tuple(map(published_path, q["pages"])),
                          tuple(q["sentences"])) for q in data["questions"]]
    return questions, data.get("thresholds", []), data.get("goals", [])


def resolve(questions: list[Question], release: Release, golden: str = "golden.json") -> list[Question]:
    """Map each expected sentence text to its passage on the expected pages.

    The (folded) text must be contained in exactly one passage of a page, and be found on
    at least one expected page; an answer repeated on another page counts there too.
    """
    problems: list[Problem] = []
    resolved = []
    for question in questions:
        ids = set()
        for page in question.pages:
            if release.page(page) is None:
                problems.append(Problem(golden, None, f"{question.id}: page {page} is not in release {release.release_id}"))
        for sentence in question.sentences:
            wanted = normalise(sentence)
            found = {page: [p.id for p in release.passages_of(page) if wanted in normalise(p.text)]
                     for page in question.pages}
            for page, matches in found.items():
                if len(matches) > 1:
                    problems.append(Problem(golden, None, f"{question.id}: expected text {sentence!r} matches "
                                                          f"{len(matches)} passages on {page} (needs 1)"))
            if not any(found.values()):
                problems.append(Problem(golden, None, f"{question.id}: expected text {sentence!r} matches "
                                                      f"no passage on {', '.join(question.pages)}"))
            ids.update(pid for matches in found.values() for pid in matches)
        resolved.append(Question(**{**vars(question), "passages": frozenset(ids)}))
    if problems:
        raise GoldenSetError("golden set does not match the release", problems=problems)
    return resolved


def first_rank(items: list, relevant) -> int | None:
    return next((rank for rank, item in enumerate(items, 1) if relevant(item)), None)


def ndcg(gains: list[int], ideal_count: int, k: int = 10) -> float:
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(gains[:k]))
    idcg = sum(1 / math.log2(i + 2) for i in range(min(ideal_count, k)))
    return dcg / idcg if idcg else 0.0


def score_question(retriever: Retriever, question: Question) -> tuple[Outcome, dict]:
    """Ranks and per-question metric values for every leg and level."""
    scores = retriever.scores(question.question)
    outcome, values = Outcome(question), {}
    expected_chunks = {n for n, members in enumerate(retriever.chunk_passages)
                       if any(retriever.passage_ids[m] in question.passages for m in members)}
    for leg in LEGS:
        chunks = [n for n, _ in retriever.ranking(scores, "chunk", leg, 10)]
        passages = [n for n, _ in retriever.ranking(scores, "passage", leg, 10)]
        pages = [retriever.chunks[n].page for n in chunks]
        if chunks:
            outcome.top[leg] = retriever.chunks[chunks[0]].text
        seen: set[str] = set()
        page_gains = []
        for page in pages:
            page_gains.append(int(page in question.pages and page not in seen))
            seen.add(page)
        lists = {
            "document": ([int(p in question.pages) for p in pages], page_gains, len(question.pages)),
            "passage": ([int(n in expected_chunks) for n in chunks],) * 2 + (len(expected_chunks),),
            "sentence": ([int(retriever.passage_ids[n] in question.passages) for n in passages],) * 2
                        + (len(question.passages),),
        }
        for level, (relevant, gains, ideal) in lists.items():
            rank = first_rank(relevant, bool)
            outcome.ranks[(leg, level)] = rank
            values[(leg, level)] = {"recall@5": float(rank is not None and rank <= 5),
                                    "mrr@10": 1 / rank if rank else 0.0, "ndcg@10": ndcg(gains, ideal)}
    return outcome, values


def run(release_dir: Path, golden_file: Path, api_key: str = "", base_url: str = "") -> Evaluation:
    release = Release.load(release_dir)
    retriever = Retriever.load(release_dir, api_key=api_key, base_url=base_url)
    questions, thresholds, goals = load_golden(golden_file)
    questions = resolve(questions, release, str(golden_file))
    outcomes, totals = [], {}
    for question in questions:
        outcome, values = score_question(retriever, question)
        outcomes.append(outcome)
        for key, metrics in values.items():
            for name, value in metrics.items():
                totals.setdefault(key, {}).setdefault(name, 0.0)
                totals[key][name] += value
    rows = {key: {name: total / len(questions) for name, total in metrics.items()} for key, metrics in totals.items()}
    return Evaluation(retriever.backend, retriever.model_id, release.release_id, rows, outcomes, thresholds,
                      _below(rows, thresholds, f"the floor {{:.3f}} set in {golden_file}"), goals,
                      _below(rows, goals, "the goal {:.3f}"))


def _below(rows: dict, limits: list[dict], what: str) -> list[str]:
    missed = []
    for limit in limits:
        value = rows.get((limit["leg"], limit["level"]), {}).get(limit["metric"], 0.0)
        if value < limit["min"]:
            missed.append(f"{limit['leg']} {limit['level']} {limit['metric']} = {value:.3f} is below "
                          + what.format(limit["min"]))
    return missed


def leg_label(evaluation: Evaluation, leg: str) -> str:
    if leg == "bm25":
        return "bm25 (rank-bm25 Okapi formula, trigsight tokenizer)"
    if leg == "vector":
        return f"vector ({evaluation.model_id})"
    return evaluation.backend


def lines(evaluation: Evaluation) -> list[str]:
    """One line per (leg, level), each naming the backend and model."""
    out = []
    for leg in LEGS:
        for level in LEVELS:
            row = evaluation.rows.get((leg, level))
            if row is None:
                continue
            figures = "  ".join(f"{name} {row[name]:.3f}" for name in METRICS)
            out.append(f"{leg:<6} {level:<8}  {figures}  [{leg_label(evaluation, leg)}]")
    return out


def backend_slug(evaluation: Evaluation) -> str:
    if not evaluation.backend.startswith("hybrid"):
        return "bm25-only"
    where = "offline" if "(offline)" in evaluation.backend else "api"
    return f"{where}-{re.sub(r'[^a-z0-9.-]+', '-', evaluation.model_id.lower())}"


def report(evaluation: Evaluation, golden_file: Path, when: datetime | None = None) -> str:
    when = when or datetime.now(timezone.utc)
    questions = [o.question for o in evaluation.outcomes]
    languages = sorted({q.language for q in questions})
    kinds = sorted({k for q in questions for k in q.kinds})
    text = [f"# Retrieval eval {when:%Y-%m-%d} — {evaluation.backend}", "",
            f"- release `{evaluation.release_id}`, golden set `{golden_file}`: {len(questions)} questions "
            f"({', '.join(f'{lang} {sum(q.language == lang for q in questions)}' for lang in languages)})",
            f"- backend: {evaluation.backend}; vector model `{evaluation.model_id}`",
            "- relevance: document = chunk on an expected page; passage = chunk containing an expected "
            "sentence; sentence = `search_passages` result that is an expected sentence "
            "(definitions in pipeline/evaluate.py)", "",
            "| leg | level | recall@5 | MRR@10 | nDCG@10 |", "|---|---|---|---|---|"]
    for leg in LEGS:
        for level in LEVELS:
            row = evaluation.rows.get((leg, level))
            if row:
                text.append(f"| {leg_label(evaluation, leg)} | {level} | " +
                            " | ".join(f"{row[m]:.3f}" for m in METRICS) + " |")
    text += ["", "## Hybrid by kind of question (passage-level recall@5 / document-level MRR@10)", "",
             "| kind | questions | passage recall@5 | document MRR@10 |", "|---|---|---|---|"]
    for group in languages + kinds:
        members = [o for o in evaluation.outcomes if o.question.language == group or group in o.question.kinds]
        recall = sum((o.ranks[("hybrid", "passage")] or 99) <= 5 for o in members) / len(members)
        mrr = sum(1 / r if (r := o.ranks[("hybrid", "document")]) else 0 for o in members) / len(members)
        text.append(f"| {group} | {len(members)} | {recall:.3f} | {mrr:.3f} |")
    text += ["", "## Hybrid misses (expected sentence not in the top 5 chunks, or page not first)", ""]
    misses = [o for o in evaluation.outcomes
              if (o.ranks[("hybrid", "passage")] or 99) > 5 or o.ranks[("hybrid", "document")] != 1]
    for o in misses:
        ranks = ", ".join(f"{leg} {lvl} {o.ranks[(leg, lvl)] or '—'}" for leg in LEGS for lvl in ("document", "passage"))
        text.append(f"- `{o.question.id}` ({o.question.language}) “{o.question.question}” — ranks: {ranks}; "
                    f"hybrid's first chunk: “{o.top.get('hybrid', '')[:140]}”")
    if not misses:
        text.append("- none")
    text += ["", "## Floors (`trigsight eval` exits 1 below one) and goals (reported only)", ""]
    text += [f"- floor: {t['leg']} {t['level']} {t['metric']} ≥ {t['min']}" for t in evaluation.thresholds]
    text += [f"- goal: {t['leg']} {t['level']} {t['metric']} ≥ {t['min']}" for t in evaluation.goals]
    text += ["", "Result: " + ("below a floor: " + "; ".join(evaluation.failures) if evaluation.failures else "all floors met")
             + (". Goals not met: " + "; ".join(evaluation.unmet_goals) if evaluation.unmet_goals else
                ". All goals met" if evaluation.goals else "") + ".", ""]
    return "\n".join(text)


def write_report(evaluation: Evaluation, golden_file: Path, results_dir: Path) -> Path:
    when = datetime.now(timezone.utc)
    results_dir.mkdir(parents=True, exist_ok=True)
    file = unused_name(results_dir / f"{when:%Y-%m-%d}-{backend_slug(evaluation)}.md")
    file.write_text(report(evaluation, golden_file, when), "utf-8")
    return file
