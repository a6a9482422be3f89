"""`trigsight eval --answers`: does the offline answer answer, and refuse, in every language?

Questions (`trigsight.answers/1`, e.g. bench/answers/questions.json) are answerable ones,
naming their pages and answering sentence texts, and unanswerable on-topic ones. Each
answering text is mapped at eval time to the passage of an expected page whose folded
text contains it; a text that matches no passage, or several on one page, is an error in
the question set, never a silent miss. A text that several settings share ("Default: false.")
is told apart by the question's `names`, the passages naming what it is about: the match
that first follows one of them on the page is the one meant (each, when the same setting is
documented alike in several places: "timeout {number} …" under test(), describe() and
run()). Every question of the chosen split is answered in process exactly as the chat
answers it offline (retrieve, then choose the quotes), timed.

Per language and overall:
- answered correctly: an answerable question got at least one quote whose chip is on an
  expected page, or that is an expected sentence word for word (published on another page too);
- expected quote: of the answerable questions that got any quote, those whose quotes
  include an expected sentence or another sentence of its block;
- expected first: of those, the ones whose first quote is an expected sentence itself;
- refused: an unanswerable question got no quote at all;
- reachable: the expected sentence was in the retrieved chunks (what choosing can at best do);
- latency: p50 and p90 of retrieve + choose, after one warm-up question.
"""
from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from ..errors import Problem, TrigsightError
from ..files import unused_name
from ..matching.textmodel import normalise
from ..publishing.paths import published_path
from ..publishing.published import Release
from ..retrieval.search import Retriever
from . import offline

ANSWERS_SCHEMA = "trigsight.answers/1"
SPLITS = ("dev", "test", "all")


class AnswerSetError(TrigsightError):
    """The question set is malformed or does not match the release's text."""


@dataclass
class Question:
    id: str
    language: str
    split: str
    answerable: bool
    question: str
    pages: tuple[str, ...] = ()
    sentences: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    names: tuple[str, ...] = ()              # passages naming what a shared text is about (see the docstring)
    passages: frozenset[str] = frozenset()   # expected passages (resolve())
    blocks: frozenset[tuple[str, int]] = frozenset()   # (page, block) of each expected passage
    elsewhere: frozenset[str] = frozenset()  # passages of other pages whose text is an expected sentence


@dataclass
class Outcome:
    question: Question
    quoted: tuple[str, ...]        # passage ids quoted, in order
    pages: tuple[str, ...]         # their pages
    retrieved: tuple[str, ...]     # passage ids of the retrieved chunks
    seconds: float

    @property
    def answered(self) -> bool:
        return bool(self.quoted)

    @property
    def correct(self) -> bool:
        return self.answered and (any(p in self.question.pages for p in self.pages)
                                  or any(pid in self.question.elsewhere for pid in self.quoted))

    def expected_quote(self, release: Release) -> bool:
        return any(pid in self.question.passages or _block(release, pid) in self.question.blocks
                   for pid in self.quoted)

    @property
    def expected_first(self) -> bool:
        """The first quote is an expected sentence itself (not only its block): what a reader sees first."""
        return bool(self.quoted) and self.quoted[0] in self.question.passages

    @property
    def reachable(self) -> bool:
        return bool(self.question.passages & set(self.retrieved))


@dataclass
class AnswerEvaluation:
    release_id: str
    backend: str
    split: str
    outcomes: list[Outcome]
    release: Release = field(repr=False)

    def rows(self) -> list[dict]:
        """One row per language, then "all"."""
        languages = sorted({o.question.language for o in self.outcomes}, key=_language_order)
        return [self._row(language, [o for o in self.outcomes if o.question.language == language])
                for language in languages] + [self._row("all", self.outcomes)]

    def _row(self, name: str, outcomes: list[Outcome]) -> dict:
        answerable = [o for o in outcomes if o.question.answerable]
        unanswerable = [o for o in outcomes if not o.question.answerable]
        answered = [o for o in answerable if o.answered]
        seconds = [o.seconds for o in outcomes]
        return {"language": name, "answerable": len(answerable), "unanswerable": len(unanswerable),
                "correct": sum(o.correct for o in answerable), "answered": len(answered),
                "expected_quote": sum(o.expected_quote(self.release) for o in answered),
                "expected_first": sum(o.expected_first for o in answered),
                "refused": sum(not o.answered for o in unanswerable),
                "reachable": sum(o.reachable for o in answerable),
                "p50_ms": 1000 * statistics.median(seconds) if seconds else 0.0,
                "p90_ms": 1000 * _percentile(seconds, 0.9) if seconds else 0.0}


def _language_order(language: str) -> tuple[int, str]:
    order = ("en", "ru", "ja", "ko")
    return (order.index(language) if language in order else len(order), language)


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def _block(release: Release, passage_id: str) -> tuple[str, int] | None:
    passage = release.passage(passage_id)
    return (passage.page, passage.block) if passage else None


def load_questions(file: Path, split: str = "test") -> list[Question]:
    data = json.loads(Path(file).read_text("utf-8"))
    if data.get("schema") != ANSWERS_SCHEMA:
        raise AnswerSetError(f"schema {data.get('schema')!r}, expected {ANSWERS_SCHEMA!r}", str(file))
    return [Question(q["id"], q["language"], q["split"], bool(q["answerable"]), q["question"],
                     tuple(map(published_path, q.get("pages", ()))), tuple(q.get("sentences", ())),
                     tuple(q.get("kinds", ())), tuple(q.get("names", ())))
            for q in data["questions"] if split == "all" or q["split"] == split]


def resolve(questions: list[Question], release: Release, source: str = "questions.json") -> list[Question]:
    """Map each answering text to its passage on the expected pages (see the module docstring)."""
    problems: list[Problem] = []
    texts = {path: [(p, normalise(p.text)) for p in release.passages_of(path)]
             for q in questions for path in q.pages}
    by_text: dict[str, list[str]] = {}
    for passage in release.passages:
        by_text.setdefault(normalise(passage.text), []).append(passage.id)
    for question in questions:
        if not question.answerable:
            continue
        found = []
        for page in question.pages:
            if release.page(page) is None:
                problems.append(Problem(source, None, f"{question.id}: page {page} is not in release "
                                                      f"{release.release_id}"))
        for sentence in question.sentences:
            wanted = normalise(sentence)
            matches = {}
            for page in question.pages:
                hits = [p for p, text in texts[page] if wanted in text]
                meant = _meant(hits, texts[page], question.names)
                if len(hits) > 1 and not meant:
                    problems.append(Problem(source, None, f"{question.id}: {sentence!r} matches {len(hits)} "
                                                          f"passages on {page} (needs 1)"))
                matches[page] = meant or hits
            if not any(matches.values()):
                problems.append(Problem(source, None, f"{question.id}: {sentence!r} matches no passage on "
                                                      f"{', '.join(question.pages)}"))
            found += [p for hits in matches.values() for p in hits]
        question.passages = frozenset(p.id for p in found)
        question.blocks = frozenset((p.page, p.block) for p in found)
        question.elsewhere = frozenset(pid for sentence in question.sentences
                                       for pid in by_text.get(normalise(sentence), ())) - question.passages
    if problems:
        raise AnswerSetError("the question set does not match the release", problems=problems)
    return questions


def _meant(hits: list, page: list, names: tuple[str, ...]) -> list:
    """Of several passages of a page holding an expected text, the ones that first follow a passage naming what
    the question is about (none when the question names nothing there)."""
    if len(hits) < 2 or not names:
        return []
    wanted = [normalise(name) for name in names]
    named = [p for p, text in page if any(name in text for name in wanted)]
    following = {min((h for h in hits if h.order >= p.order), key=lambda h: h.order, default=None) for p in named}
    return sorted((h for h in following if h is not None), key=lambda h: h.order)


Answerer = Callable[[str, Retriever, Release], tuple[list[str], list[str]]]


def offline_answerer(question: str, retriever: Retriever, release: Release) -> tuple[list[str], list[str]]:
    """(quoted passage ids, retrieved passage ids): the chat's offline answer, in process."""
    quotes, hits = offline.respond(question, retriever, release)
    return [q.passage_id for q in quotes], [pid for hit in hits for pid in hit.passage_ids]


def run(release_dir: Path, questions_file: Path, split: str = "test", answerer: Answerer = offline_answerer,
        api_key: str = "", base_url: str = "") -> AnswerEvaluation:
    release = Release.load(release_dir)
    retriever = Retriever.load(release_dir, api_key=api_key, base_url=base_url)
    questions = resolve(load_questions(questions_file, split), release, str(questions_file))
    if questions:
        answerer(questions[0].question, retriever, release)     # load the question embedder first
    outcomes = []
    for question in questions:
        started = time.perf_counter()
        quoted, retrieved = answerer(question.question, retriever, release)
        seconds = time.perf_counter() - started
        outcomes.append(Outcome(question, tuple(quoted), tuple(release.passage(p).page for p in quoted),
                                tuple(retrieved), seconds))
    return AnswerEvaluation(release.release_id, retriever.backend, split, outcomes, release)


def _share(count: int, total: int) -> str:
    return f"{count}/{total} = {count / total:.0%}" if total else "—"


def table(evaluation: AnswerEvaluation) -> list[str]:
    """The per-language table, as markdown lines."""
    out = ["| language | answered correctly | expected sentence quoted (of answered) | expected sentence itself "
           "quoted first | refused unanswerable | expected sentence retrieved | latency p50 / p90 |",
           "|---|---|---|---|---|---|---|"]
    for row in evaluation.rows():
        out.append(f"| {row['language']} | {_share(row['correct'], row['answerable'])} | "
                   f"{_share(row['expected_quote'], row['answered'])} | {_share(row['expected_first'], row['answered'])} | "
                   f"{_share(row['refused'], row['unanswerable'])} | {_share(row['reachable'], row['answerable'])} | "
                   f"{row['p50_ms']:.0f} / {row['p90_ms']:.0f} ms |")
    return out


def lines(evaluation: AnswerEvaluation) -> list[str]:
    """Plain lines for the terminal: one per language."""
    out = []
    for row in evaluation.rows():
        correct = row["correct"] / row["answerable"] if row["answerable"] else float("nan")
        refused = row["refused"] / row["unanswerable"] if row["unanswerable"] else float("nan")
        quoted = row["expected_quote"] / row["answered"] if row["answered"] else float("nan")
        out.append(f"{row['language']:<4} answered correctly {row['correct']:>3}/{row['answerable']:<3} {correct:6.1%}  "
                   f"expected quote {quoted:6.1%}  first {row['expected_first']:>2}  refused {row['refused']:>2}/{row['unanswerable']:<2} {refused:6.1%}  "
                   f"p50 {row['p50_ms']:5.1f} ms  p90 {row['p90_ms']:5.1f} ms")
    return out


def report(evaluation: AnswerEvaluation, questions_file: Path, machine: str = "", when: datetime | None = None) -> str:
    when = when or datetime.now(timezone.utc)
    release = evaluation.release
    text = [f"# Answer eval {when:%Y-%m-%d} — {evaluation.split} split, offline answer", "",
            f"- release `{evaluation.release_id}` ({len(release.pages)} pages, {len(release.passages)} passages), "
            f"questions `{questions_file}`, split **{evaluation.split}**",
            f"- retrieval: {evaluation.backend}; answer: {offline.describe()}",
            "- latency: in process, retrieve + choose quotes, one question at a time after a warm-up"
            + (f"; machine: {machine}" if machine else ""), "", *table(evaluation), ""]
    wrong = [o for o in evaluation.outcomes if (o.question.answerable and not o.correct)
             or (not o.question.answerable and o.answered)]
    text += ["## Misses", ""]
    for o in wrong:
        what = "refused" if not o.answered else "quoted " + ", ".join(
            f"{release.passage(pid).page} “{release.passage(pid).text[:90]}”" for pid in o.quoted)
        reach = "" if not o.question.answerable else (" (expected sentence was retrieved)" if o.reachable
                                                     else " (expected sentence not retrieved)")
        text.append(f"- `{o.question.id}` ({o.question.language}) “{o.question.question}” — {what}{reach}")
    if not wrong:
        text.append("- none")
    return "\n".join(text) + "\n"


def write_report(evaluation: AnswerEvaluation, questions_file: Path, results_dir: Path, machine: str = "",
                 suffix: str = "") -> Path:
    when = datetime.now(timezone.utc)
    results_dir.mkdir(parents=True, exist_ok=True)
    file = unused_name(results_dir / f"{when:%Y-%m-%d}-{evaluation.split}{suffix}.md")
    file.write_text(report(evaluation, questions_file, machine, when), "utf-8")
    return file
