"""A question told with a story is answered by its asking sentences when the whole text finds nothing,
unless the story names something the pages never mention."""
from __future__ import annotations

import pytest
from trigsight.answering import offline
from trigsight.answering.conversation import ChatSettings, collect, run
from trigsight.answering.overlap import Overlap
from trigsight.answering.told_questions import asked_sentences
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever

PAGE_WORDS = {term: 3 for term in ("browser", "gate", "check", "releas", "page", "site", "fail", "keep", "budget",
                                   "payload", "слишком", "ブラ", "ラウ", "ウザ", "検査")}
STORY = "My site has forty pages and the release keeps failing. "


@pytest.fixture(scope="module")
def bundled(bundled_release):
    return Release.load(bundled_release), Retriever.load(bundled_release)


@pytest.mark.parametrize("question, asked", [
    (STORY + "What does the browser gate check?", "What does the browser gate check?"),
    ("What does the browser gate check? " + STORY, "What does the browser gate check?"),
    (STORY + "What does the browser gate check? What is the payload budget?",
     "What does the browser gate check? What is the payload budget?"),
    ("My site has forty pages,\n  e.g. a long one. What does the browser gate check?", "What does the browser gate check?"),
    ("公開が毎回失敗します。ブラウザの検査は何をしますか？", "ブラウザの検査は何をしますか？"),
    # no question mark: the last sentence asks when it opens with a question word or ends as a question
    (STORY + "how does the browser gate check pages", "how does the browser gate check pages"),
    ("公開が毎回失敗します。ブラウザの検査は何をしますか", "ブラウザの検査は何をしますか"),
    (STORY + "The browser gate checks pages.", ""),
    # every sentence asks: the question is read whole, as before
    ("What does the browser gate check? What is the payload budget?", ""),
    ("What does the browser gate check?", ""),
    # no sentence asks, or the asking one is about the story
    (STORY + "Tell me about the browser gate.", ""),
    (STORY + "Is that a bug?", ""),
    # the story names something the pages never mention: that is what it is about
    ("We host the site on Netlify. What does the browser gate check?", ""),
])
def test_the_asking_sentences_are_read_apart_from_the_story(question, asked):
    assert asked_sentences(question, Overlap(PAGE_WORDS, 100)) == asked


@pytest.mark.parametrize("question, page", [
    (STORY + "What does the browser gate check?", "/how-it-works"),
    (STORY + "what does the browser gate check", "/how-it-works"),
    ("We are choosing a tool for our portfolio site. Which languages can readers ask in?", "/retrieval"),
])
def test_a_story_around_a_question_does_not_cost_its_answer(bundled, question, page):
    release, retriever = bundled
    asked = question.split(". ")[-1]
    hits, scores = offline.retrieve(question, retriever, release)
    assert not offline.choose(question, hits, scores, retriever, release, "en")   # the whole text alone: refused
    quotes, _ = offline.respond(question, retriever, release)
    alone, _ = offline.respond(asked, retriever, release)
    assert page in {release.passage(q.passage_id).page for q in quotes}
    told = [q.passage_id for q in quotes]     # the asking sentence's quotes, from chunks the whole text found
    assert told == [q.passage_id for q in alone if q.passage_id in told]


def test_a_story_that_names_what_the_pages_lack_keeps_the_refusal(bundled):
    release, retriever = bundled
    quotes, _ = offline.respond("We host the site on Netlify and the release keeps failing. "
                                "What does the browser gate check?", retriever, release)
    assert quotes == []


def test_the_chat_quotes_the_asking_sentence_with_its_chips(bundled):
    release, retriever = bundled
    answer = collect(run(STORY + "What does the browser gate check?", (), retriever, release, ChatSettings()))
    quoted = [sentence for sentence in answer["answer"] if sentence["citations"]]
    assert quoted
    for sentence in quoted:
        passage = release.passage(sentence["citations"][0]["id"])
        assert passage.text == sentence["text"] and sentence["citations"][0]["url"] == passage.url
