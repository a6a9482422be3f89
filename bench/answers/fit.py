"""Fit the offline answer's relevance model on the development split; choose its refusal threshold there.

    .venv/bin/python bench/answers/fit.py --release DIR [--questions FILE ...] [--bundled-release DIR]
                                         [--corpus RELEASE QUESTIONS[:all] ...] [--write]

1. Every dev question of bench/answers/questions.json (or of each --questions file, such as
   questions.json and dev-extra.json) is retrieved as the offline answer retrieves it (its
   first offline.CANDIDATE_CHUNKS chunks); every allowlisted passage of those chunks becomes a row of features
   (trigsight.answering.relevance.FEATURES), labelled 1 when it is an expected answering
   sentence or shares its block, else 0 (every passage of an unanswerable question is 0).
2. Model choices (feature set, L2 strength) and the decision rule (threshold, the share of
   the first quote's probability a further quote needs) are compared on out-of-fold
   probabilities: five folds over questions, so a question's passages never help score it.
   A second, question-level model (the gate: relevance.QUESTION_FEATURES, from the
   question's out-of-fold candidate probabilities, labelled answerable or not) is fitted on
   the same folds; its threshold is chosen with the others (0 = no gate). Both models keep
   each feature's weight to the sign its meaning allows (fitting.SIGNS): a feature the
   dev questions would weigh the other way is left out.
   The objective is the summed shortfall below the issue's targets (answered correctly 0.9,
   refused 0.9, answered correctly 0.8 in every language, expected quote 0.8), then the
   mean of the answered-correctly and refusal rates; with --objective answering, the
   shortfall below the answering targets alone (0.9, and 0.8 in every language), then the
   refusal rate, then the expected quote (fit 12 of results/2026-12-01-fit.md: not shipped).
   With --bundled-release (a release of content/), the bundled site's questions join the
   development set: the 55 answerable ones of bench/retrieval/golden.json and the
   unanswerable ones of bench/answers/bundled.json, so the models see a second, smaller
   and multilingual site, not only the Node.js docs. bench/chat/questions.json, where the
   offline answer on the bundled site is reported, is never read. Each --corpus RELEASE
   QUESTIONS adds another docs site's dev questions (bench/answers/markdown-dev.json on a
   release of Python-Markdown's docs; its test set, markdown.json, is never read); QUESTIONS:all
   adds every question of a set whose figures are no longer held out (a first-look set that
   has since been worked on).
3. The chosen model and gate are refitted on all dev rows; with --write it goes to
   pipeline/answering/relevance.json, with a version naming the date, the dev questions
   and the release it was fitted on. The test split is never read. `--only SET L2` fits one
   feature set at one L2 strength instead of searching them all (a minute, not forty);
   `--gate-only` keeps the stored passage model and thresholds and refits the gate alone on
   that model's probabilities. `--gate-balance language` weights the gate's questions so that
   in every language answerable and unanswerable ones carry their shares over all languages
   (2026-12-04-gate-balanced-by-language.md: not shipped).
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
sys.path.insert(0, str(HERE.parent))  # bench/common.py
from trigsight.answering import evaluate, fitting, relevance  # noqa: E402
from trigsight.answering.conversation import detect_language  # noqa: E402
from trigsight.answering.offline import CANDIDATE_CHUNKS, select  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

from common import ROOT  # noqa: E402

FEATURE_SETS = {
    # `cross` (the question's language differs from the page's) is left out: in this question set
    # most unanswerable questions are English and most answerable ones are not, a shortcut no
    # other site would share.
    "all": tuple(f for f in relevance.FEATURES if f != "cross"),
    "no-ranks": tuple(f for f in relevance.FEATURES if f not in ("rank", "best", "cross")),
    # Earlier candidates (vectors+overlap, +numbers, +rare, small, small+pages: results of
    # 2026-12-01 in bench/answers/results) never won once the names and the gate came in.
    "vectors+overlap+numbers+names+substance": ("cos_passage", "cos_chunk", "cos_heading", "gap_passage", "gap_chunk",
                                                "overlap", "names", "named", "unknown", "number_missing",
                                                "unknown_names", "substance", "lead_in", "unknown_share"),
}
L2 = (0.3, 1.0, 3.0)
THRESHOLDS = tuple(round(t, 2) for t in np.arange(0.05, 0.96, 0.025))
SECONDS = (0.1, 0.2, 0.3, 0.5, 0.7, 0.9)
GATES = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7)
GATE_L2 = 1.0
FOLDS = 5
PAGE_LABEL = 0.0     # the label of a passage on an expected page that is not the answering block
GATE_BALANCE = "none"   # "language": the gate's questions weighted so that no language tells the label


@dataclass
class Asked:
    question: evaluate.Question
    candidates: list            # relevance.Candidate
    labels: np.ndarray
    release: Release


def collect(release: Release, retriever: Retriever, questions: list[evaluate.Question]) -> list[Asked]:
    asked = []
    for q in questions:
        hits, scores = retriever.search_scored(q.question, k=CANDIDATE_CHUNKS)
        found = relevance.candidates(q.question, hits, scores, retriever, release, detect_language(q.question))
        labels = np.array([1.0 if c.passage_id in q.passages or _block(release, c.passage_id) in q.blocks
                           else PAGE_LABEL if release.passage(c.passage_id).page in q.pages else 0.0
                           for c in found])
        asked.append(Asked(q, found, labels, release))
    return asked


def bundled_questions(release: Release) -> list[evaluate.Question]:
    """The bundled site's development questions: golden.json's (answerable) and bundled.json's (unanswerable)."""
    golden = json.loads((ROOT / "bench" / "retrieval" / "golden.json").read_text("utf-8"))["questions"]
    answerable = [evaluate.Question(f"golden-{q['id']}", q["language"], "dev", True, q["question"], tuple(q["pages"]),
                                    tuple(q["sentences"]), tuple(q.get("kinds", ()))) for q in golden]
    answerable = evaluate.resolve(answerable, release, "bench/retrieval/golden.json")
    return answerable + evaluate.load_questions(HERE / "bundled.json", "dev")


def _block(release: Release, pid: str):
    p = release.passage(pid)
    return (p.page, p.block)


def matrix(asked: list[Asked], features: tuple[str, ...]) -> tuple[np.ndarray, np.ndarray]:
    rows = [[c.features[f] for f in features] for a in asked for c in a.candidates]
    labels = np.concatenate([a.labels for a in asked]) if asked else np.zeros(0)
    return np.array(rows, dtype=np.float64).reshape(-1, len(features)), labels


def model_of(rows, labels, features, l2, threshold=0.5, second=0.5, version="") -> relevance.RelevanceModel:
    weights, bias, mean, scale = fitting.fit(rows, labels, l2, signs=fitting.signs_of(tuple(features)))
    return relevance.RelevanceModel(version, tuple(features), tuple(map(float, mean)), tuple(map(float, scale)),
                                    tuple(map(float, weights)), bias, threshold, second)


def folds(asked: list[Asked]) -> dict[int, int]:
    order = sorted(range(len(asked)), key=lambda i: hashlib.sha1(asked[i].question.id.encode()).hexdigest())
    return {i: n % FOLDS for n, i in enumerate(order)}


def gate_rows(asked: list[Asked], probs: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    rows = [[relevance.question_features(list(zip(a.candidates, p)))[f] for f in relevance.QUESTION_FEATURES]
            for a, p in zip(asked, probs)]
    return np.array(rows, dtype=np.float64), np.array([float(a.question.answerable) for a in asked])


def question_weights(asked: list[Asked]) -> np.ndarray | None:
    """With --gate-balance language, each question's weight in the gate's fit: in every language,
    answerable and unanswerable questions get the shares they have over all languages, and the
    language keeps its number of questions. A development set whose cross-language questions are
    mostly answerable would otherwise teach the gate a question's script (2026-12-04-gate-contributions.md).
    A language with only one kind of question keeps weight 1."""
    if GATE_BALANCE == "none":
        return None
    answerable = np.array([a.question.answerable for a in asked], dtype=bool)
    languages = np.array([a.question.language for a in asked])
    share = answerable.mean()
    weights = np.ones(len(asked))
    for language in set(languages):
        mine = languages == language
        own_share = answerable[mine].mean()
        if 0 < own_share < 1:
            weights[mine & answerable] = share / own_share
            weights[mine & ~answerable] = (1 - share) / (1 - own_share)
    return weights


def _balanced() -> str:
    """What a fitted model's version says of --gate-balance."""
    return "-balanced" if GATE_BALANCE != "none" else ""


def gate_of(rows, labels, threshold=0.5, version="", weights=None) -> relevance.RelevanceModel:
    weights, bias, mean, scale = fitting.fit(rows, labels, GATE_L2, signs=fitting.signs_of(relevance.QUESTION_FEATURES),
                                             sample_weights=weights)
    return relevance.RelevanceModel(version, relevance.QUESTION_FEATURES, tuple(map(float, mean)),
                                    tuple(map(float, scale)), tuple(map(float, weights)), bias, threshold)


def gate_out_of_fold(asked: list[Asked], probs: list[np.ndarray]) -> np.ndarray:
    """Each question's gate probability from a gate that never saw it (its passage probabilities out of fold too)."""
    rows, labels = gate_rows(asked, probs)
    weights = question_weights(asked)
    fold_of = folds(asked)
    out = np.zeros(len(asked))
    for fold in range(FOLDS):
        train = np.array([fold_of[i] != fold for i in range(len(asked))])
        gate = gate_of(rows[train], labels[train], weights=None if weights is None else weights[train])
        for i in np.flatnonzero(~train):
            out[i] = gate.probability(dict(zip(relevance.QUESTION_FEATURES, rows[i])))
    return out


def gated(probs: list[np.ndarray], gate_probs: np.ndarray, gate: float) -> list[np.ndarray]:
    return [p if g >= gate else np.zeros_like(p) for p, g in zip(probs, gate_probs)]


def out_of_fold(asked: list[Asked], features, l2) -> list[np.ndarray]:
    """Probabilities for each question's candidates from a model that never saw that question."""
    fold_of = folds(asked)
    probs: list[np.ndarray] = [np.zeros(0)] * len(asked)
    for fold in range(FOLDS):
        train = [a for i, a in enumerate(asked) if fold_of[i] != fold]
        model = model_of(*matrix(train, features), features, l2)
        for i, a in enumerate(asked):
            if fold_of[i] == fold:
                probs[i] = np.array([model.probability(c.features) for c in a.candidates])
    return probs


def outcome(asked: list[Asked], probs, threshold, second) -> dict:
    per_language: dict[str, list[int]] = {}
    correct = answerable = refused = unanswerable = quoted_expected = answered = 0
    for a, p in zip(asked, probs):
        release = a.release
        quotes = select(list(zip(a.candidates, p)), release, threshold, second)
        if a.question.answerable:
            answerable += 1
            pages = {release.passage(q.passage_id).page for q in quotes}
            right = bool(pages & set(a.question.pages))
            correct += right
            per_language.setdefault(a.question.language, []).append(right)
            if quotes:
                answered += 1
                quoted_expected += any(q.passage_id in a.question.passages
                                       or _block(release, q.passage_id) in a.question.blocks for q in quotes)
        else:
            unanswerable += 1
            refused += not quotes
    rates = {lang: sum(v) / len(v) for lang, v in per_language.items()}
    return {"correct": correct / answerable, "refused": refused / unanswerable if unanswerable else 1.0,
            "expected": quoted_expected / answered if answered else 0.0, "worst_language": min(rates.values()),
            "languages": rates}


def best_rule(asked: list[Asked], probs: list[np.ndarray], gates: tuple[float, ...] = GATES,
              thresholds: tuple[float, ...] = THRESHOLDS, seconds: tuple[float, ...] = SECONDS) -> tuple:
    """The decision rule with the best objective on these out-of-fold probabilities:
    (objective key, gate threshold, passage threshold, second, outcome)."""
    gate_probs = gate_out_of_fold(asked, probs)
    best = None
    for gate in gates:
        passed = gated(probs, gate_probs, gate)
        for threshold in thresholds:
            for second in seconds:
                result = outcome(asked, passed, threshold, second)
                key = objective(result) + (threshold,)
                if best is None or key > best[0]:
                    best = (key, gate, threshold, second, result)
    return best


def shortfall(result: dict) -> tuple:
    """How far below the issue's targets (0.9 answered correctly, 0.9 refused, 0.8 in every language,
    0.8 expected quote), then the balanced rate."""
    short = (max(0.0, 0.9 - result["correct"]) + max(0.0, 0.9 - result["refused"])
             + max(0.0, 0.8 - result["worst_language"]) + max(0.0, 0.8 - result["expected"]))
    return (round(-short, 4), round(0.5 * result["correct"] + 0.5 * result["refused"], 4), result["expected"])


def answering_first(result: dict) -> tuple:
    """How far below the answering targets (0.9 answered correctly, 0.8 in every language), then the
    refusal rate, then the expected quote."""
    short = max(0.0, 0.9 - result["correct"]) + max(0.0, 0.8 - result["worst_language"])
    return (round(-short, 4), round(result["refused"], 4), round(result["expected"], 4))


OBJECTIVES = {"shortfall": shortfall, "answering": answering_first}
objective = shortfall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, required=True, help="a published release of the Node.js API docs")
    parser.add_argument("--bundled-release", type=Path, help="a published release of content/ (adds its dev questions)")
    parser.add_argument("--questions", type=Path, action="append",
                        help="a question file whose dev split is fitted on (repeatable; default questions.json)")
    parser.add_argument("--corpus", nargs=2, action="append", metavar=("RELEASE", "QUESTIONS[:SPLIT]"), default=[],
                        help="another docs site: a published release of it and a question file whose dev split (or "
                             "the split named after a colon: all) is fitted on (repeatable; e.g. "
                             "bench/answers/markdown-dev.json on Python-Markdown's docs)")
    parser.add_argument("--write", action="store_true", help="store the chosen model in relevance.json")
    parser.add_argument("--gate", type=float, choices=GATES,
                        help="hold the gate's threshold at this value instead of choosing it with the rest")
    parser.add_argument("--objective", choices=sorted(OBJECTIVES), default="shortfall",
                        help="what the choice of model and thresholds maximises (see the module docstring)")
    parser.add_argument("--gate-only", action="store_true",
                        help="keep the stored passage model and its thresholds; refit the gate alone on its probabilities")
    parser.add_argument("--only", nargs=2, metavar=("FEATURE_SET", "L2"),
                        help="fit this feature set at this L2 strength only, instead of choosing among them all")
    parser.add_argument("--gate-balance", choices=("none", "language"), default="none",
                        help="weight the gate's questions so that no language tells whether a question is answerable")
    parser.add_argument("--page-label", type=float, default=PAGE_LABEL,
                        help="soft label of a passage on an expected page outside the answering block")
    parser.add_argument("--variant", help="fit with an idea of bench/answers/variants.py patched in (its name)")
    args = parser.parse_args()
    if args.variant:
        import variants
        variants.VARIANTS[args.variant]()
    globals()["PAGE_LABEL"] = args.page_label
    globals()["GATE_BALANCE"] = args.gate_balance
    globals()["objective"] = OBJECTIVES[args.objective]
    release = Release.load(args.release)
    retriever = Retriever.load(args.release)
    files = args.questions or [HERE / "questions.json"]
    questions = [q for file in files
                 for q in evaluate.resolve(evaluate.load_questions(file, "dev"), release, str(file))]
    asked = collect(release, retriever, questions)
    bundled_release = Release.load(args.bundled_release) if args.bundled_release else None
    if bundled_release is not None:
        bundled = bundled_questions(bundled_release)
        asked += collect(bundled_release, Retriever.load(args.bundled_release), bundled)
        questions += bundled
    others = []
    for other_spec, spec in args.corpus:
        other_dir, (other_file, _, split) = Path(other_spec), spec.partition(":")
        other_file = Path(other_file)
        other = Release.load(other_dir)
        found = evaluate.resolve(evaluate.load_questions(other_file, split or "dev"), other, str(other_file))
        asked += collect(other, Retriever.load(other_dir), found)
        questions += found
        others.append(f"{other_file.name} on release {other.release_id}")
    rows = sum(len(a.candidates) for a in asked)
    positives = int(sum((a.labels == 1).sum() for a in asked))
    print(f"dev: {len(asked)} questions, {rows} candidate passages, {positives} positive; "
          f"answerable with a positive candidate: "
          f"{sum((a.labels == 1).any() for a in asked if a.question.answerable)}/{sum(a.question.answerable for a in asked)}")
    if args.gate_only:
        refit_gate(asked, questions, args)
        return
    best = None
    choices = ([(args.only[0], float(args.only[1]))] if args.only
               else [(name, l2) for name in FEATURE_SETS for l2 in L2])
    for name, l2 in choices:
        features = FEATURE_SETS[name]
        probs = out_of_fold(asked, features, l2)
        key, gate, threshold, second, result = best_rule(asked, probs, GATES if args.gate is None else (args.gate,))
        if best is None or key > best[0]:
            best = (key, name, l2, gate, threshold, second, result, probs)
        print(f"  {name:<16} l2 {l2:<5} out-of-fold shortfall {-key[0]:.3f}: correct {result['correct']:.2f}, "
              f"refused {result['refused']:.2f}, worst language {result['worst_language']:.2f}, expected "
              f"{result['expected']:.2f} at gate {gate}, threshold {threshold}, second {second}")
    _, name, l2, gate_threshold, threshold, second, result, probs = best
    features = FEATURE_SETS[name]
    version = f"{date.today().isoformat()}-{name}-l2{l2:g}{_balanced()}-dev{len(questions)}-{_digest(questions)}"
    model = model_of(*matrix(asked, features), features, l2, threshold, second, version)
    model = relevance.RelevanceModel(**{**model.__dict__, "fitted_on":
                                        f"{len(questions)} dev questions of {' and '.join(f.name for f in files)} on release "
                                        f"{release.release_id}"
                                        + (f" and of the bundled site on release {bundled_release.release_id}"
                                           if bundled_release is not None else "")
                                        + "".join(f" and of {other}" for other in others)
                                        + "; out-of-fold: answered correctly "
                                        f"{result['correct']:.3f}, refused {result['refused']:.3f}, expected quote "
                                        f"{result['expected']:.3f}, by language "
                                        + ", ".join(f"{k} {v:.2f}" for k, v in sorted(result["languages"].items()))})
    print(f"chosen: {name}, l2 {l2}, gate {gate_threshold}, threshold {threshold}, second {second}: {model.fitted_on}")
    for feature, weight in sorted(zip(features, model.weights), key=lambda fw: -abs(fw[1])):
        print(f"  {feature:<18} {weight:+.3f}")
    stored = model.to_json()
    if gate_threshold > 0:
        # Fitted on the out-of-fold passage probabilities: what the gate sees of a new question.
        gate = gate_of(*gate_rows(asked, probs), gate_threshold, f"{version}-gate", question_weights(asked))
        stored["gate"] = gate.to_json()
        for feature, weight in sorted(zip(gate.features, gate.weights), key=lambda fw: -abs(fw[1])):
            print(f"  gate {feature:<13} {weight:+.3f}")
    if args.write:
        relevance.MODEL_FILE.write_text(json.dumps(stored, indent=1) + "\n", "utf-8")
        print(f"written to {relevance.MODEL_FILE.relative_to(ROOT)}")


def _digest(questions: list) -> str:
    """A short digest of the question ids a model is fitted on, for its version."""
    return hashlib.sha1(json.dumps(sorted(q.id for q in questions)).encode()).hexdigest()[:8]


def refit_gate(asked: list[Asked], questions: list, args) -> None:
    """The stored passage model kept as it is; the gate (and its threshold, unless --gate holds it)
    refitted on that model's probabilities for every development question, chosen out of fold."""
    model = relevance.default_model()
    probs = [np.array([model.probability(c.features) for c in a.candidates]) for a in asked]
    _, gate_threshold, _, _, result = best_rule(asked, probs, GATES if args.gate is None else (args.gate,),
                                                  (model.threshold,), (model.second,))
    version = f"{model.version}-gate-{date.today().isoformat()}{_balanced()}-dev{len(questions)}-{_digest(questions)}"
    print(f"passage model kept: {model.version}; gate at {gate_threshold}, out of fold: answered correctly "
          f"{result['correct']:.3f}, refused {result['refused']:.3f}, expected quote {result['expected']:.3f}, by language "
          + ", ".join(f"{k} {v:.2f}" for k, v in sorted(result["languages"].items())))
    gate = gate_of(*gate_rows(asked, probs), gate_threshold, version, question_weights(asked))
    for feature, weight in sorted(zip(gate.features, gate.weights), key=lambda fw: -abs(fw[1])):
        print(f"  gate {feature:<18} {weight:+.3f}")
    if args.write:
        stored = json.loads(relevance.MODEL_FILE.read_text("utf-8"))
        stored["gate"] = gate.to_json()
        relevance.MODEL_FILE.write_text(json.dumps(stored, indent=1) + "\n", "utf-8")
        print(f"written to {relevance.MODEL_FILE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
