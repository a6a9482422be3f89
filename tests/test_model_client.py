"""The OpenAI-compatible backend, against a local replay server: what the model sees, how it fails."""
from __future__ import annotations

import pytest
from trigsight.answering.conversation import Turn
from trigsight.answering.handles import HandleTable
from trigsight.answering.model_client import (
    HISTORY_CHARS,
    MAX_GENERATED_TOKENS,
    ModelSettings,
    UpstreamError,
    messages,
    served,
    stream,
    without_reasoning,
)
from trigsight.answering.reasoning import REASONING_APART, held_until_reasoning_ends
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.gates.liveserver import free_port
from trigsight.publishing.publish import allowlist, write_json
from trigsight.publishing.published import ALLOWLIST, Release
from trigsight.retrieval.search import Hit

from allowlists import write_allowlist
from fake_llm import Script, serve


@pytest.fixture
def table(tmp_path) -> HandleTable:
    release = Release.load(write_allowlist(tmp_path, {
        "/gates": ["The browser gate loads every page in headless Chromium."],
        "/chat": ["The server drops every handle it did not issue."],
    }))
    return HandleTable.issue([Hit(f"c{n}", (p.id,), p.page, 0.1, p.id) for n, p in enumerate(release.passages)],
                             release)


@pytest.fixture
def fake():
    with serve() as running:
        yield running


def test_the_model_reads_which_release_a_changelog_item_belongs_to(write_content, tmp_path):
    markdown = "".join(f"## {v}\n\n### Bug Fixes\n\n* Fix {n} of {v}.\n\n" for n, v in enumerate(["7.8.1", "7.8.0", "7.7.0"]))
    write_json(tmp_path / "release" / ALLOWLIST, allowlist(build(BuildConfig(write_content({"CHANGELOG.md": markdown})))))
    release = Release.load(tmp_path / "release")
    item = next(p for p in release.passages if p.text == "Fix 0 of 7.8.1.")
    table = HandleTable.issue([Hit("c1", (item.id,), item.page, 0.1, item.id)], release)
    assert "[S1] (Changelog › 7.8.1 › Bug Fixes)\nFix 0 of 7.8.1." in messages("What changed?", (), table, "en")[-1]["content"]


def test_the_model_sees_handles_and_passages_but_no_link_or_passage_id(table):
    chat = messages("What does the gate do?", (), table, "en")
    assert chat[0]["role"] == "system" and "[S1]" in chat[0]["content"]
    prompt = chat[-1]["content"]
    assert "[S1] (Page gates › About gates)\nThe browser gate loads every page in headless Chromium." in prompt
    assert "[S2] (Page chat › About chat)" in prompt
    assert prompt.endswith("Question: What does the gate do?")
    everything = " ".join(m["content"] for m in chat)
    assert "http" not in everything and "#:~:" not in everything and "/gates" not in everything
    assert not any(pid in everything for source in table for pid in source.passage_ids)


def test_earlier_turns_go_before_the_sources_without_their_old_handles(table):
    history = (Turn("user", "What is a handle?"), Turn("assistant", "A short label [S1]. It resolves [S2]."))
    chat = messages("And then?", history, table, "ja")
    assert [m["role"] for m in chat] == ["system", "user", "assistant", "user"]
    assert chat[2]["content"] == "A short label . It resolves ."
    assert "Answer in Japanese" in chat[0]["content"]


def test_only_the_latest_earlier_turns_that_fit_a_small_models_context_are_sent(table):
    history = tuple(Turn("user" if n % 2 == 0 else "assistant", f"turn {n} " + "x" * 700) for n in range(12))
    chat = messages("And then?", history, table, "en")
    earlier = [m["content"] for m in chat[1:-1]]
    assert [c.split()[1] for c in earlier] == ["9", "10", "11"]          # the newest, in order
    assert sum(map(len, earlier)) <= HISTORY_CHARS
    [alone] = messages("And then?", (Turn("assistant", "y" * 4000),), table, "en")[1:-1]
    assert alone["content"] == "y" * HISTORY_CHARS


def test_the_answer_streams_in_the_pieces_the_server_sends(table, fake):
    fake.add(Script("Q1", "The gate loads pages [{handle:headless}].", piece=5))
    settings = ModelSettings(base_url=fake.base_url, model="scripted", timeout=5)
    pieces = list(stream(settings, messages("Q1", (), table, "en")))
    assert "".join(pieces) == "The gate loads pages [S1]."
    assert len(pieces) == 6
    assert fake.requests[-1]["model"] == "scripted" and fake.requests[-1]["stream"] is True
    assert fake.requests[-1]["max_tokens"] == MAX_GENERATED_TOKENS     # a small model that does not stop is cut off


@pytest.mark.parametrize("script", [
    Script("Q1", "The gate loads pages [{handle:headless}].", reasoning="Let me weigh every source. " * 120),
    Script("Q1", "<think>" + "Let me weigh every source. " * 120 + "</think>The gate loads pages [{handle:headless}]."),
])
def test_a_thinking_model_has_room_to_answer_after_hundreds_of_tokens_of_reasoning(table, fake, script):
    fake.add(script)     # 3,240 characters of reasoning: some 800 tokens, more than a whole answer used to get
    settings = ModelSettings(base_url=fake.base_url, model="scripted", timeout=5)
    assert "".join(stream(settings, messages("Q1", (), table, "en"))) == "The gate loads pages [S1]."


@pytest.mark.parametrize("reply, piece, shown", [
    ("<think>The user asks about the gate. S1 fits.</think>\n\nThe gate loads pages [{handle:headless}].", 7,
     "\n\nThe gate loads pages [S1]."),
    ("<thinking>Plan.</thinking>It drops unknown handles [{handle:drops}].", 3, "It drops unknown handles [S2]."),
    ("The gate loads pages [{handle:headless}]. <think>And now more thoughts that never end", 4,
     "The gate loads pages [S1]. "),
    ("a < b and x <b>y</b> stay [{handle:headless}].", 2, "a < b and x <b>y</b> stay [S1]."),
    ("<|channel|>analysis<|message|>S2 fits.<|end|><|start|>assistant<|channel|>final<|message|>"
     "It drops unknown handles [{handle:drops}].<|return|>", 5, "It drops unknown handles [S2]."),
])
def test_a_thinking_models_reasoning_never_reaches_the_answer(table, fake, reply, piece, shown):
    fake.add(Script("Q1", reply, piece=piece))
    settings = ModelSettings(base_url=fake.base_url, model="scripted", timeout=5)
    assert "".join(stream(settings, messages("Q1", (), table, "en"))) == shown


@pytest.mark.parametrize("model, script, streams", [
    # the template opened the reasoning and the server has no reasoning parser: nothing before
    # </think> is read, the answer after it streams
    ("deepseek-r1-distill-qwen-7b", Script("Q1", "The user asks about the gate. S1 says pages load. So: S1."
                                                 "</think>\n\nThe gate loads pages [{handle:headless}].", piece=6), True),
    ("qwq:32b", Script("Q1", "Hmm.</think>The gate loads pages [{handle:headless}].", piece=3), True),
    # the server sends the reasoning apart: the answer streams as it comes
    ("Qwen3-30B-A3B-Thinking-2507", Script("Q1", "The gate loads pages [{handle:headless}].",
                                           reasoning="S1 says pages load. ", piece=5), True),
    # no reasoning at all: the whole reply, at its end
    ("deepseek-r1:8b", Script("Q1", "The gate loads pages [{handle:headless}].", piece=5), False),
])
def test_a_model_whose_template_opens_its_reasoning_shows_only_its_answer(table, fake, model, script, streams):
    fake.add(script)
    settings = ModelSettings(base_url=fake.base_url, model=model, timeout=5)
    shown = list(stream(settings, messages("Q1", (), table, "en")))
    assert "".join(shown).strip() == "The gate loads pages [S1]." and (len(shown) > 1) == streams


@pytest.mark.parametrize("pieces, shown", [
    (["The user asks", " about X.", "</th", "ink>The answer."], "The answer."),
    (["<think>plan</think>", "The answer."], "<think>plan</think>The answer."),     # left to without_reasoning
    (["No reasoning", " at all."], "No reasoning at all."),
    (["Held", REASONING_APART, "The ", "answer."], "HeldThe answer."),
])
def test_pieces_are_held_until_the_reasoning_the_template_opened_ends(pieces, shown):
    assert "".join(held_until_reasoning_ends(iter(pieces))) == shown


@pytest.mark.parametrize("pieces, shown", [
    (["reasoning the template opened", "</think>The answer."], "reasoning the template openedThe answer."),
    (["reasoning the template opened</think>The answer."], "The answer."),   # a server that does not stream
    (["<thi", "nk>plan</th", "ink>The answer."], "The answer."),
    (["<THINK>x</THINK>Y"], "Y"),
    # gpt-oss's harmony format, when the server leaves it in the content
    (["<|channel|>analysis<|message|>User asks X. S1 says Y.<|end|><|start|>assistant<|channel|>final<|message|>"
      "Y holds [S1].<|return|>"], "Y holds [S1]."),
    (["<|chan", "nel|>analysis<|mess", "age|>Thinking.<|e", "nd|><|start|>assistant<|channel|>fi",
      "nal<|message|>Answer."], "Answer."),
    (["Use a<|b> c."], "Use a<|b> c."),
    (["Ends with <"], "Ends with <"),
])
def test_reasoning_is_cut_across_pieces_as_far_as_it_was_not_handed_on(pieces, shown):
    assert "".join(without_reasoning(iter(pieces))) == shown


@pytest.mark.parametrize("script, reason", [
    (Script("Q", status=500), "HTTP 500"),
    (Script("Q", status=401), "HTTP 401"),
    (Script("Q", hang=3), "silent for 1 s"),
    (Script("Q", "Words that never finish arriving.", piece=4, cut_after=2), "broke off"),
    (Script("Q", "  \n"), "empty"),
    (Script("Q", "<think>Thinking until the tokens run out", piece=6), "empty"),
])
def test_every_upstream_failure_becomes_one_error_with_a_reason(table, fake, script, reason):
    fake.add(script)
    settings = ModelSettings(base_url=fake.base_url, timeout=1)
    with pytest.raises(UpstreamError, match=reason):
        list(stream(settings, messages("Q", (), table, "en")))


def test_an_unreachable_server_is_an_upstream_error(table):
    settings = ModelSettings(base_url=f"http://127.0.0.1:{free_port()}/v1", timeout=2)
    with pytest.raises(UpstreamError, match="could not be reached"):
        list(stream(settings, messages("Q", (), table, "en")))


@pytest.mark.parametrize("settings, enabled, described", [
    (ModelSettings(), False, "gpt-4o-mini at api.openai.com"),
    (ModelSettings(api_key="sk-test"), True, "gpt-4o-mini at api.openai.com"),
    (ModelSettings(base_url="http://127.0.0.1:8080/v1", model="llama"), True, "llama at 127.0.0.1:8080"),
    (ModelSettings(base_url="http://127.0.0.1:8080/v1"), True, "the model it lists at 127.0.0.1:8080"),
])
def test_a_key_or_a_base_url_turns_the_model_on(settings, enabled, described):
    assert settings.enabled is enabled
    assert settings.describe() == described


@pytest.mark.parametrize("listed, asked", [
    (["scripted"], "scripted"),                                          # llama.cpp, vLLM: the model loaded
    (["nomic-embed-text:latest", "qwen2.5:1.5b", "llama3.2"], "qwen2.5:1.5b"),   # Ollama: every model pulled
    (["bge-reranker-v2-m3", "text-embedding-3-small", "Qwen3-4B"], "Qwen3-4B"),
])
def test_without_a_model_name_the_first_chat_model_the_server_lists_is_asked(table, fake, listed, asked):
    fake.models = listed
    fake.known_models_only = True
    fake.add(Script("Q", "The gate loads pages."))
    settings = ModelSettings(base_url=fake.base_url, timeout=5)
    assert "".join(stream(settings, messages("Q", (), table, "en"))) == "The gate loads pages."
    assert fake.requests[-1]["model"] == asked and served(settings).model == asked
    assert fake.listings == 1                                            # looked up once, then reused


def test_a_choice_among_several_chat_models_is_logged_with_the_others(table, fake, caplog):
    fake.models = ["nomic-embed-text:latest", "qwen2.5:1.5b", "llama3.2"]
    with caplog.at_level("WARNING", logger="trigsight.answering.model_client"):
        assert served(ModelSettings(base_url=fake.base_url, timeout=5)).model == "qwen2.5:1.5b"
    assert "asking the first, qwen2.5:1.5b (others: llama3.2)" in caplog.text


@pytest.mark.parametrize("listed", [[], ["nomic-embed-text:latest"]])
def test_a_server_that_lists_no_chat_model_is_an_upstream_error(table, fake, listed):
    fake.models = listed
    with pytest.raises(UpstreamError, match="lists no chat model"):
        list(stream(ModelSettings(base_url=fake.base_url, timeout=5), messages("Q", (), table, "en")))


def test_a_model_the_server_does_not_have_is_named_in_the_error(table, fake):
    fake.known_models_only = True
    with pytest.raises(UpstreamError, match="has no model 'gpt-4o-mini'"):
        list(stream(ModelSettings(base_url=fake.base_url, model="gpt-4o-mini", timeout=5),
                    messages("Q", (), table, "en")))


def test_the_hosted_api_is_asked_for_the_default_model_without_a_listing():
    assert served(ModelSettings(api_key="sk-test")).model == "gpt-4o-mini"
    assert served(ModelSettings(api_key="sk-test", base_url="https://api.openai.com/v1")).model == "gpt-4o-mini"
    assert served(ModelSettings(base_url="http://127.0.0.1:1/v1", model="mine")).model == "mine"


def test_a_base_url_without_v1_gets_a_hint_in_the_log(table, fake, caplog):
    root = fake.base_url.removesuffix("/v1")              # Ollama's address as people write it
    with caplog.at_level("WARNING", logger="trigsight.answering.model_client"), \
            pytest.raises(UpstreamError, match="HTTP 404"):
        list(stream(ModelSettings(base_url=root, timeout=5), messages("Q", (), table, "en")))
    assert f"set OPENAI_BASE_URL={root}/v1" in caplog.text
