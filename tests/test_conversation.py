"""One chat turn as events, on the bundled release: offline, with a model, and falling back."""
from __future__ import annotations

import pytest
from trigsight.answering.answer import LENIENT
from trigsight.answering.conversation import (
    ChatSettings,
    Turn,
    collect,
    detect_language,
    run,
)
from trigsight.answering.model_client import ModelSettings
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever

from fake_llm import Script, serve


@pytest.fixture(scope="module")
def bundled(bundled_release):
    return Release.load(bundled_release), Retriever.load(bundled_release)


@pytest.fixture(scope="module")
def fake():
    with serve() as running:
        yield running


@pytest.mark.parametrize("text, language", [
    ("What is a handle?", "en"), ("Что такое метка?", "ru"), ("ハンドルとは何ですか？", "ja"),
    ("漢字だけ", "ja"), ("핸들이란 무엇입니까?", "ko"),
])
def test_the_language_of_a_question_is_told_by_its_script(text, language):
    assert detect_language(text) == language


def test_an_offline_turn_streams_start_context_sentences_and_done(bundled):
    release, retriever = bundled
    events = list(run("What is the JavaScript budget per page?", (), retriever, release, ChatSettings()))
    kinds = [e.kind for e in events]
    assert kinds[:2] == ["start", "context"] and kinds[-1] == "done" and "sentence" in kinds
    assert events[0].data == {"mode": "offline", "filter": "strict", "language": "en"}
    done = events[-1].data
    assert done["backend"] == "extractive (offline)" and done["retrieval"] == retriever.backend
    assert done["resolution"] == {"emitted": 0, "resolved": 0, "attributed": 0, "reattributed": 0}


def test_a_model_turn_resolves_handles_sentence_by_sentence(bundled, fake):
    release, retriever = bundled
    fake.add(Script("What happens when a check fails?",
                    "When a check fails, the release exits with status 1 [{handle:exits with status 1}]. "
                    "It also sends an email to the author [{handle:exits with status 1}]."))
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    result = collect(run("What happens when a check fails?", (), retriever, release, settings))
    assert result["mode"] == "model"
    [shown] = result["answer"]
    assert shown["text"] == "When a check fails, the release exits with status 1."
    assert shown["citations"][0]["page"] == "/gates/source"
    assert result["dropped"]["sentences"] == 1 and result["dropped"]["unsupported"] == 1
    assert result["resolution"] == {"emitted": 2, "resolved": 2, "attributed": 0, "reattributed": 0}


def test_an_upstream_failure_answers_offline_with_a_note_in_the_question_language(bundled, fake):
    release, retriever = bundled
    fake.add(Script("ブラウザの検査では何をしますか？", status=503))
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    result = collect(run("ブラウザの検査では何をしますか？", (), retriever, release, settings))
    assert result["mode"] == "offline"
    assert "HTTP 503" in result["note"] and "モデル" in result["note"]
    assert result["answer"] and all(c["page"] == "/ja" for s in result["answer"] for c in s["citations"])


def test_a_sentence_without_a_handle_gets_the_chip_of_the_issued_passage_that_supports_it(bundled, fake):
    release, retriever = bundled
    fake.add(Script("How much JavaScript may a page ship?",
                    "The budget is 8 KB of brotli-compressed JavaScript per page. Pages are also printed on paper."))
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    result = collect(run("How much JavaScript may a page ship?", (), retriever, release, settings))
    [shown] = result["answer"]
    assert shown["text"] == "The budget is 8 KB of brotli-compressed JavaScript per page."
    assert all("8 KB" in c["quote"] for c in shown["citations"])
    assert result["resolution"]["attributed"] == 1 and result["dropped"]["sentences"] == 1


@pytest.mark.parametrize("reply, removed", [
    ("Pages may ship as much JavaScript as they like.", 1),
    # a refusal beside an unsupported claim is not all the model wrote
    ("I cannot find that in these pages. Pages may ship as much JavaScript as they like.", 2),
])
def test_when_every_model_sentence_is_removed_the_pages_are_quoted_with_a_note(bundled, fake, reply, removed):
    release, retriever = bundled
    fake.add(Script("What is the JavaScript budget per page?", reply))
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    result = collect(run("What is the JavaScript budget per page?", (), retriever, release, settings))
    assert result["answer"] and all(s["text"] == s["citations"][0]["quote"] for s in result["answer"])
    assert "could be checked" in result["note"] and result["dropped"]["sentences"] == removed


def test_when_nothing_survives_and_no_page_answers_the_server_writes_the_refusal(bundled, fake):
    release, retriever = bundled
    fake.add(Script("Who is the author's dentist?", "The author's dentist works in a large clinic downtown."))
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    [refusal] = collect(run("Who is the author's dentist?", (), retriever, release, settings))["answer"]
    assert refusal == {"text": "I can't find that in these pages.", "citations": [], "status": "refusal", "item": False}


def test_lenient_turns_keep_unsupported_sentences_as_unverified(bundled, fake):
    release, retriever = bundled
    fake.add(Script("Who maintains the project?", "It is maintained by a large team at a big company."))
    settings = ChatSettings(filter=LENIENT, model=ModelSettings(base_url=fake.base_url, timeout=5))
    [sentence] = collect(run("Who maintains the project?", (Turn("user", "Hi"),), retriever, release,
                             settings))["answer"]
    assert sentence["status"] == "unverified" and sentence["citations"] == []


def test_without_a_model_name_the_server_is_asked_for_the_model_it_serves(bundled):
    release, retriever = bundled
    with serve() as ollama:
        ollama.models = ["nomic-embed-text:latest", "qwen2.5:1.5b"]
        ollama.known_models_only = True
        ollama.add(Script("How much JavaScript may a page ship?", "The budget is 8 KB per page [{handle:8 KB}]."))
        settings = ChatSettings(model=ModelSettings(base_url=ollama.base_url, timeout=5))
        result = collect(run("How much JavaScript may a page ship?", (), retriever, release, settings))
    assert result["mode"] == "model" and ollama.requests[-1]["model"] == "qwen2.5:1.5b"
    assert result["backend"] == f"qwen2.5:1.5b at {ollama.base_url.split('/')[2]}"
    assert result["answer"][0]["citations"]


def test_a_model_name_the_server_does_not_have_answers_offline_and_says_so(bundled):
    release, retriever = bundled
    with serve() as ollama:
        ollama.models = ["qwen2.5:1.5b"]
        ollama.known_models_only = True
        settings = ChatSettings(model=ModelSettings(base_url=ollama.base_url, model="llama3.2", timeout=5))
        result = collect(run("How much JavaScript may a page ship?", (), retriever, release, settings))
    assert result["mode"] == "offline" and "has no model 'llama3.2'" in result["note"]
    assert result["answer"] and all(s["citations"] for s in result["answer"])


@pytest.mark.parametrize("question, reply, refusal", [
    ("What is the JavaScript budget per page?", "I cannot find that in these pages.",
     "I can't find that in these pages."),
    ("Сколько лет автору?", "В предоставленных источниках нет информации о возрасте автора.",
     "Я не нахожу ответа на этих страницах."),
    ("作者は何歳ですか？", "提供された資料には、その答えが見つかりません。", "これらのページには、その答えが見つかりません。"),
])
def test_when_the_model_only_says_the_sources_do_not_answer_the_reader_gets_the_refusal(bundled, fake, question,
                                                                                         reply, refusal):
    release, retriever = bundled
    fake.add(Script(question, reply))
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    result = collect(run(question, (), retriever, release, settings))
    assert result["mode"] == "model" and result["note"] == ""
    assert result["answer"] == [{"text": refusal, "citations": [], "status": "refusal", "item": False}]

