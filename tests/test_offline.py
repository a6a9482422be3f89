"""The offline answer quotes passages verbatim, and only those that carry the question's words."""
from __future__ import annotations

import pytest
from trigsight.answering.offline import Relevance, answer, choose, terms
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Hit

from allowlists import write_allowlist


@pytest.mark.parametrize("text, wanted, unwanted", [
    ("What does the browser gate check?", {"browser", "gate", "check"}, {"what", "does", "the"}),
    ("ブラウザの検査では何をしますか？", {"ブラ", "ラウ", "ウザ", "検査"}, {"何", "しま", "すか", "では"}),
    ("브라우저 검사는 무엇을 합니까?", {"브라", "라우", "우저", "검사"}, {"무엇", "을", "합니", "니까", "사는"}),
    ("Что делает проверка в браузере?", {"браузер", "проверк"}, {"что", "в"}),
])
def test_terms_keep_the_words_that_carry_meaning(text, wanted, unwanted):
    found = terms(text)
    assert wanted <= found
    assert not unwanted & found


@pytest.fixture
def release(tmp_path) -> Release:
    return Release.load(write_allowlist(tmp_path, {
        "/budget": ["The payload budget is 8 KB of brotli-compressed JavaScript per page.",
                    "A page over the budget fails the release."],
        "/author": ["The author writes about text fragments.", "The author lives by the sea."],
        "/gate": ["The browser gate loads every page in headless Chromium.",
                  "The browser gate proves each link lands on one sentence."],
    }))


def hits_of(release: Release, *paths: str) -> list[Hit]:
    hits = []
    for path in paths:
        ids = tuple(p.id for p in release.passages_of(path))
        hits.append(Hit("c" + path, ids, path, 0.1, ids[0]))
    return hits


def test_a_word_the_site_never_uses_weighs_most_so_the_question_is_refused(release):
    relevance = Relevance.of(release)
    about = release.passages_of("/author")[0]
    assert relevance.score("Who is the author's dentist?", about) < 0.5
    assert choose("Who is the author's dentist?", hits_of(release, "/author"), release) == []


def test_the_best_sentence_of_each_relevant_chunk_is_quoted_verbatim_with_its_chip(release):
    sentences = answer("What is the JavaScript budget per page?", hits_of(release, "/gate", "/budget"), release)
    [only] = sentences
    assert only.text == "The payload budget is 8 KB of brotli-compressed JavaScript per page."
    [chip] = only.citations
    assert chip.quote == only.text and chip.url == release.passage(chip.id).url and chip.page == "/budget"


def test_quotes_come_most_relevant_first_and_weak_ones_stay_out(release):
    chosen = choose("What does the browser gate prove about each link?", hits_of(release, "/budget", "/gate"), release)
    assert [release.passage(q.passage_id).text for q in chosen] == \
        ["The browser gate proves each link lands on one sentence."]


def test_no_more_than_the_limit_is_quoted(release):
    assert len(choose("page", hits_of(release, "/budget", "/gate"), release, threshold=0.1, limit=1)) == 1
