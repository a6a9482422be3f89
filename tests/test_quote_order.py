"""The passages worth quoting come in a fitted order: a yes-or-no question puts a sentence that says "not" or "only" first."""
from __future__ import annotations

import numpy as np
import pytest
from trigsight.answering.fitting import fit_order
from trigsight.answering.offline import select
from trigsight.answering.quote_order import (
    FEATURES,
    QuoteOrder,
    asks_yes_or_no,
    order_features,
    states_polarity,
)
from trigsight.answering.relevance import Candidate
from trigsight.publishing.published import Release

from allowlists import write_allowlist


@pytest.mark.parametrize("question, language, yes_or_no", [
    ("Does going past the maximum listener count stop new listeners from being attached?", "en", True),
    ("I'm still on Jupytext 1.16 — will the Jupytext Sync extension work with it?", "en", True),
    ("Is npm-shrinkwrap.json the same as package-lock.json?", "en", True),
    ("What does the prefer-offline config do?", "en", False),
    ("Which tag is used when I don't specify one?", "en", False),
    ("How do I read a file line by line?", "en", False),
    ("Можно ли присвоить module.exports позже, например внутри колбэка?", "ru", True),
    ("Помогут ли worker threads ускорить работу, которая ждёт диск?", "ru", True),
    ("Как пользоваться Corepack на сервере без интернета?", "ru", False),
    ("Какой репортер используется по умолчанию?", "ru", False),
    ("trio.run() の中から asyncio.sleep() を await しても大丈夫ですか？", "ja", True),
    ("どの環境変数を使えばいいですか？", "ja", False),
    ("その例外でトランザクションはコミットされますか、ロールバックされますか？", "ja", True),
    ("zlib의 비동기 압축은 메인 스레드에서 실행되나요?", "ko", True),
    ("내장 punycode 모듈 대신 무엇을 써야 하나요?", "ko", False),
    ("Est-ce que cela fonctionne ?", "fr", False),      # no reading of the other languages' questions
])
def test_a_question_asks_yes_or_no_when_it_names_nothing_it_asks_for(question, language, yes_or_no):
    assert asks_yes_or_no(question, language) is yes_or_no


@pytest.mark.parametrize("text, polar", [
    ("It does not provide security guarantees in the presence of malicious code.", True),
    ("Overrides are only considered in the root package.json file for a project.", True),
    ("The Jupytext Sync extension requires Jupytext 1.17.3 or later.", True),
    ("Entries in the imports field must always start with #.", True),
    ("Corepack の設定は不要です。", True),
    ("The punycode module provides a simple implementation of the Punycode standard.", False),
    ("Workers are useful for performing CPU-intensive JavaScript operations.", False),
])
def test_a_sentence_states_a_polarity_when_it_says_not_only_or_must(text, polar):
    assert states_polarity(text) is polar


def groups_where_the_first_feature_answers(seed: int = 0, questions: int = 40):
    rng = np.random.default_rng(seed)
    groups = []
    for _ in range(questions):
        rows = rng.normal(size=(6, 3))
        labels = np.zeros(6)
        answer = rng.integers(6)
        rows[answer, 0] += 2.0          # the answer stands out on feature 0
        rows[answer, 1] -= 1.0          # and is lower on feature 1, which may only push up
        labels[answer] = 1.0
        groups.append((rows, labels))
    return groups


def test_the_fitted_order_puts_what_marks_an_answer_first():
    weights, mean, scale = fit_order(groups_where_the_first_feature_answers(), l2=1.0)
    assert weights[0] > 1.0 and weights[1] < 0
    held = groups_where_the_first_feature_answers(seed=1)
    firsts = sum(labels[np.argmax(((rows - mean) / scale) @ weights)] for rows, labels in held)
    assert firsts >= 0.8 * len(held)


def test_a_weight_of_the_wrong_sign_is_dropped_and_the_rest_refitted():
    weights, _, _ = fit_order(groups_where_the_first_feature_answers(), l2=1.0, signs=(1, 1, 0))
    assert weights[1] == 0.0 and weights[0] > 1.0


def test_an_order_reads_back_and_refuses_features_it_does_not_know():
    order = QuoteOrder("test", FEATURES, (0.5,) * len(FEATURES), (2.0,) * len(FEATURES), (1.0,) * len(FEATURES))
    assert QuoteOrder.from_json(order.to_json()) == order
    with pytest.raises(ValueError, match="unknown features"):
        QuoteOrder.from_json({**order.to_json(), "features": ["shoe_size"]})


@pytest.fixture
def release(tmp_path) -> Release:
    return Release.load(write_allowlist(tmp_path, {
        "/permissions": ["The permission model restricts access to the file system.",
                         "It does not provide security guarantees in the presence of malicious code."],
    }))


def test_the_order_decides_which_quote_comes_first_and_the_probability_only_whether(release):
    restricts, guarantees = (p.id for p in release.passages_of("/permissions"))
    scored = [(Candidate(restricts, 1, {}), 0.6), (Candidate(guarantees, 2, {}), 0.4)]
    polar_first = QuoteOrder("test", FEATURES, (0.0,) * len(FEATURES), (1.0,) * len(FEATURES),
                             tuple(1.0 if name == "polar_answer" else 0.0 for name in FEATURES))
    first = lambda quotes: release.passage(quotes[0].passage_id).text   # noqa: E731
    assert first(select(scored, release, 0.3, 0.1)).startswith("The permission model")
    assert first(select(scored, release, 0.3, 0.1, order=polar_first, yes_or_no=True)).startswith("It does not")
    assert first(select(scored, release, 0.3, 0.1, order=polar_first, yes_or_no=False)).startswith("The permission")
    assert select(scored, release, 0.5, 0.1, order=polar_first, yes_or_no=True)[0].passage_id == restricts


def test_order_features_read_the_relevance_features_and_the_polarity():
    features = order_features({"cos_passage": 0.7, "cross": 1.0}, 0.5, "Only the root file counts.", True)
    assert set(features) == set(FEATURES)
    assert features["cos_passage"] == 0.7 and features["log_odds"] == 0.0
    assert features["polarity"] == features["polar_answer"] == 1.0
