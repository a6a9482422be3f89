"""Answer figures of ideas measured and not shipped, each applied over the shipped code.

    .venv/bin/python bench/answers/variants.py VARIANT RELEASE:QUESTIONS:SPLIT [...] [--label NAME]
                                               [--golden BUNDLED_RELEASE]

VARIANT is `shipped` (nothing changed) or one of the ideas below, patched in for this process
only, so their figures can be compared with the shipped code's on the same releases and
development sets. Prints and writes the per-language lines of `trigsight eval` for each set
(answered correctly, expected sentence quoted, refused, expected sentence retrieved) to
bench/answers/results/<date>-variant-<VARIANT>[-label].md.

- `no-minority-bridge`: a question written mostly in the pages' main script bridges none of its
  other-script words ("GET" in a Russian question on Russian pages is not also read as "привести").
- `floor-relative`: the fusion's keyword hits need min(0.25, 0.9 x the best hit's coverage).
- `floor-seen`: the keyword floor (0.25) counts only the question's words the pages use.
- `stem-prefix`: in `unknown_share`, a Russian stem counts as used when a page stem starts with it.
- `names-any-script`: any question in another script than non-Latin pages is read by its names
  (stop 25 did it for Latin questions only).
- `cross-language-floor`: the same-language floor extended to a question whose first retrieved
  page is in another language, at 0.29 (the lowest answerable development question's 0.342, less
  0.05).
- `rare-names-only`: in a question without another script than Latin, only the rare terms of words
  written like names, and code-like terms, are rare (2026-12-04-gate-balanced-by-language.md).
- `no-default-questions`: default-value questions are not read as such (trigsight.answering.defaults,
  stop 57): the answers before it, with the same evaluator.
- `no-return-questions`: return-value questions are not read as such (trigsight.answering.returns, stop 58):
  the answers before it, with the same evaluator.
- `no-told-questions`: a question told with a story is read whole only; its asking sentences are
  never answered apart (`offline.choose_told`, stop 62): the answers before it.
- `no-leads`: a question asking what holds by default (whose setting no place answered) or why keeps its
  likeliest quote first instead of a passage that says a default or gives a reason (`leading.first`, stop 79);
  `no-reason-leads`: only the default questions are led so (the first half of stop 79).
- `change-logs-kept`: change logs' chunks keep their place among the retrieved ones for every question
  (`change_logs.current_hits`, stop 75): the answers before it.
- `number-near-top`: a question asking for a number is not held to lack one when a candidate at least 0.8 as
  likely as the best states one (Twisted's "…how long before those cached connections are closed?": "…by
  default after 240 seconds" third, at 0.84 of the best); measured at stop 76, not shipped.
- `rare-bridged`: a question with another script than Latin also has the rare terms of its bridged
  form (the question in the pages' words, as BM25 read it) as rare wording.

With `--model FILE`, the answers use that relevance model and gate (a relevance.json that
bench/answers/fit.py wrote) instead of the stored one. The last line sums, over the sets,
answered correctly, refused unanswerable and expected sentence quoted.
"""
from __future__ import annotations

import argparse
import bisect
import math
import re
import sys
from collections import Counter
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from trigsight.answering import change_logs, defaults, evaluate, leading, offline, overlap, relevance, returns  # noqa: E402
from trigsight.answering.overlap import Overlap, terms  # noqa: E402
from trigsight.files import unused_name  # noqa: E402
from trigsight.retrieval import evaluate as retrieval_evaluate  # noqa: E402
from trigsight.retrieval import lexicon  # noqa: E402
from trigsight.retrieval.search import Retriever, rrf, top  # noqa: E402
from trigsight.retrieval.tokenize import tokenize  # noqa: E402

from common import machine, write_results  # noqa: E402

GOLDEN = HERE.parent / "retrieval" / "golden.json"
_CYRILLIC = re.compile(r"^[а-яё]{4,}$")
_SCRIPT_OF = {"ja": "ja", "zh": "ja", "ko": "ko", "ru": "cyrillic", "uk": "cyrillic"}


def no_minority_bridge() -> None:
    shipped = lexicon.Lexicon.minority

    def minority(self, question):
        scripts = Counter(lexicon.script(u) for u in lexicon.words(question))
        return [] if scripts and scripts.most_common(1)[0][0] == self.main else shipped(self, question)
    lexicon.Lexicon.minority = minority


def _floor(coverage_of) -> None:
    def ranking(self, scores, level, leg, k=10):
        if leg != "hybrid":
            return shipped(self, scores, level, leg, k)
        lexical = scores.bm25_chunks if level == "chunk" else scores.bm25_passages
        cosine = scores.cos_chunks if level == "chunk" else scores.cos_passages
        coverage, floor = coverage_of(self, scores, level, lexical)
        legs = [[i for i in top(lexical, self.depth, positive_only=True) if coverage[i] >= floor]]
        if cosine is not None:
            legs.append(top(cosine, self.depth))
        return rrf(legs, self.rrf_k)[:k]
    shipped = Retriever.ranking
    Retriever.ranking = ranking


def floor_relative() -> None:
    def coverage_of(self, scores, level, lexical):
        coverage = scores.coverage_chunks if level == "chunk" else scores.coverage_passages
        best = max((coverage[i] for i in top(lexical, self.depth, positive_only=True)), default=0.0)
        return coverage, min(self.min_coverage, 0.9 * best)
    _floor(coverage_of)


def floor_seen() -> None:
    def coverage_of(self, scores, level, lexical):
        index = self.bm25_chunks if level == "chunk" else self.bm25_passages
        never = math.log(index.n_docs + 0.5) - math.log(0.5)     # what coverage() counts an unseen term
        unseen = total = 0.0
        for token in dict.fromkeys(self._tokens):
            term = index.vocabulary.get(token)
            weight = never if term is None else max(float(index.idf[term]), 0.0)
            total += weight
            unseen += weight if term is None else 0.0
        scale = total / (total - unseen) if total > unseen else 1.0
        coverage = scores.coverage_chunks if level == "chunk" else scores.coverage_passages
        return coverage * scale, self.min_coverage
    shipped_scores = Retriever.scores

    def scores(self, query):
        found = shipped_scores(self, query)
        self._tokens = tokenize(found.bridged or query)
        return found
    Retriever.scores = scores
    _floor(coverage_of)


def stem_prefix() -> None:
    def used(self, term):
        if self.df.get(term):
            return True
        if not _CYRILLIC.match(term):
            return False
        keys = self.__dict__.setdefault("_cyrillic", sorted(k for k in self.df if _CYRILLIC.match(k)))
        i = bisect.bisect_left(keys, term)
        return i < len(keys) and keys[i].startswith(term)

    def unknown_share(self, question):
        wanted = [t for t in terms(question) if overlap._SPACED_TERM.match(t) and not t.isdigit()]
        total = sum(self.idf(t) for t in wanted)
        return sum(self.idf(t) for t in wanted if not used(self, t)) / total if total else 0.0
    Overlap.unknown_share = unknown_share


def names_any_script() -> None:
    scripts = (("ko", re.compile(r"[\uac00-\ud7af]")), ("ja", re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")),
               ("cyrillic", re.compile(r"[\u0400-\u04ff]")))

    def script_of(text):
        counts = {name: len(pattern.findall(text)) for name, pattern in scripts}
        best = max(counts, key=counts.get)
        return best if counts[best] else "latin"

    def reads_names_only(self, question):
        return self.language in overlap.NON_LATIN_LANGUAGES and script_of(question) != _SCRIPT_OF.get(self.language)

    def names_of(text):
        every = bool(overlap.NON_LATIN.search(text))
        return " ".join([*overlap._name_words(text, every_word=every), *sorted(overlap.code_names(text))])
    Overlap.reads_names_only = reads_names_only
    Overlap.names_of = staticmethod(names_of)


def cross_language_floor(floor: float = 0.29) -> None:
    shipped = offline.answered
    offline.answered = lambda scored, gate: (shipped(scored, gate)
                                             and not (gate is not None and offline.far_from_pages(scored, floor, True)))


def rare_names_only() -> None:
    shipped_rare = Overlap.rare
    code_like = re.compile(r"[._$0-9-]")

    def rare(self, question):
        if overlap.NON_LATIN.search(question):
            return shipped_rare(self, question)
        named = {t for w in overlap._name_words(question) for t in terms(w)}
        return [t for t in shipped_rare(self, question) if t in named or code_like.search(t)]
    Overlap.rare = rare


def rare_bridged() -> None:
    shipped_candidates, shipped_rare = relevance.candidates, Overlap.rare

    def candidates(question, hits, scores, retriever, release, question_language):
        bridged = scores.bridged
        if not bridged or not overlap.NON_LATIN.search(question):
            return shipped_candidates(question, hits, scores, retriever, release, question_language)

        def rare(self, asked):
            own = shipped_rare(self, asked)
            return own + [t for t in shipped_rare(self, bridged) if t not in own]
        Overlap.rare = rare
        try:
            return shipped_candidates(question, hits, scores, retriever, release, question_language)
        finally:
            Overlap.rare = shipped_rare
    relevance.candidates = offline.candidates = candidates


ENGLISH_FUNCTION_WORDS = """
i me my mine myself we us our ours ourselves you your yours yourself yourselves he him his himself she her hers
herself it its itself they them their theirs themselves one ones someone somebody something anyone anybody anything
everyone everybody everything nobody nothing none this that these those some any each every either neither all both
few many much more most other another such own same several about above across after against along among around
before behind below beneath beside besides between beyond down during except inside into near off onto out outside
over past per since through throughout till toward towards under underneath until up upon via within without nor yet
because although though while whereas whether unless am being having doing done could may might must shall should
ought also just only even still already again ever never always often sometimes usually very too quite rather really
almost enough here anyway instead else however therefore thus otherwise yes not don doesn didn isn aren wasn weren
hasn haven hadn won wouldn shouldn couldn can't let's
""".split()


def function_words() -> None:
    words = frozenset(t for w in ENGLISH_FUNCTION_WORDS for t in terms(w))
    shipped_rare, shipped_unknown = Overlap.rare, Overlap.unknown

    def rare(self, question):
        return [t for t in shipped_rare(self, question) if t not in words]

    def unknown(self, question):
        return [t for t in shipped_unknown(self, question) if t not in words]

    def unknown_share(self, question):
        wanted = [t for t in terms(question) if overlap._SPACED_TERM.match(t) and not t.isdigit() and t not in words]
        total = sum(self.idf(t) for t in wanted)
        return sum(self.idf(t) for t in wanted if not self.df.get(t)) / total if total else 0.0
    Overlap.rare, Overlap.unknown, Overlap.unknown_share = rare, unknown, unknown_share


def use_model(file: Path) -> None:
    """Answer with the relevance model and gate stored in `file` instead of relevance.json."""
    relevance.MODEL_FILE = file.resolve()
    for cached in (relevance._stored, relevance.default_model, relevance.default_gate):
        cached.cache_clear()


def summed(runs: list) -> str:
    outcomes = [(run, o) for run in runs for o in run.outcomes]
    answerable = [(run, o) for run, o in outcomes if o.question.answerable]
    unanswerable = [o for _, o in outcomes if not o.question.answerable]
    correct = sum(o.correct for _, o in answerable)
    refused = sum(not o.answered for o in unanswerable)
    answered = [(run, o) for run, o in answerable if o.answered]
    expected = sum(o.expected_quote(run.release) for run, o in answered)
    return (f"Over the {len(runs)} sets: answered correctly {correct}/{len(answerable)}, refused "
            f"{refused}/{len(unanswerable)} (together {correct + refused}), expected sentence quoted "
            f"{expected}/{len(answered)} of answered.")


def no_default_questions() -> None:
    defaults.defaulting = lambda *args, **kwargs: None


def no_return_questions() -> None:
    returns.returning = lambda *args, **kwargs: None


def no_told_questions() -> None:
    offline.choose_told = lambda *args, **kwargs: []


def no_leads() -> None:
    leading.LEADS_AT = math.inf


def no_reason_leads() -> None:
    leading.KINDS = [(asking, saying) for asking, saying in leading.KINDS if asking is not leading.asks_why]


def change_logs_kept() -> None:
    offline.sets_change_logs_aside = change_logs.sets_change_logs_aside = lambda question, release: False


def number_near_top() -> None:
    original = relevance.question_features

    def question_features(scored):
        out = original(scored)
        if out.get("number_missing_top") and scored:
            top = max(p for _, p in scored)
            if any(c.features["number_missing"] == 0.0 and p >= 0.8 * top for c, p in scored):
                out["number_missing_top"] = 0.0
        return out
    relevance.question_features = offline.question_features = question_features


VARIANTS = {"shipped": lambda: None, "number-near-top": number_near_top, "change-logs-kept": change_logs_kept, "no-default-questions": no_default_questions,
            "no-leads": no_leads, "no-reason-leads": no_reason_leads,
            "no-return-questions": no_return_questions, "no-told-questions": no_told_questions,
            "rare-names-only": rare_names_only, "rare-bridged": rare_bridged,
            "function-words": function_words,
            "cross-language-floor": cross_language_floor, "no-minority-bridge": no_minority_bridge, "floor-relative": floor_relative, "floor-seen": floor_seen,
            "stem-prefix": stem_prefix, "names-any-script": names_any_script}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=sorted(VARIANTS))
    parser.add_argument("sets", nargs="+", help="RELEASE_DIR:QUESTIONS_FILE:SPLIT")
    parser.add_argument("--label", default="")
    parser.add_argument("--golden", metavar="RELEASE_DIR",
                        help="also the golden set's retrieval figures (bench/retrieval/golden.json) on this release")
    parser.add_argument("--model", type=Path, metavar="RELEVANCE_JSON",
                        help="answer with this relevance model and gate instead of the stored ones")
    args = parser.parse_args()
    VARIANTS[args.variant]()
    if args.model:
        use_model(args.model)
    lines = [f"# Answer figures, variant `{args.variant}`, {date.today().isoformat()}", "",
             f"Machine: {machine()}; relevance model {relevance.default_model().version}, gate "
             f"{getattr(relevance.default_gate(), 'version', 'none')}", ""]
    runs = []
    for spec in args.sets:
        release, questions, split = spec.rsplit(":", 2)
        run = evaluate.run(Path(release), Path(questions), split)
        runs.append(run)
        lines += [f"## `{questions}` ({split}) on release {run.release_id}", "", *evaluate.table(run), ""]
    lines += [summed(runs), ""]
    if args.golden:
        evaluation = retrieval_evaluate.run(Path(args.golden), GOLDEN)
        lines += [f"## `{GOLDEN.relative_to(HERE.parent.parent)}` on release {evaluation.release_id}", "", "```",
                  *retrieval_evaluate.lines(evaluation), "```", ""]
    label = f"-{args.label}" if args.label else ""
    write_results(lines, unused_name(HERE / "results" / f"{date.today().isoformat()}-variant-{args.variant}{label}.md"))


if __name__ == "__main__":
    main()
