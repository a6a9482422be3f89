"""A definition question ("What is a stream?") is answered by the sentence that says what the thing is."""
from __future__ import annotations

import pytest
from trigsight.answering import offline
from trigsight.answering.asked_terms import asked_term, key
from trigsight.answering.conversation import ChatSettings, run
from trigsight.answering.definitions import DEFINES_ON_ITS_PAGE, Definitions, defined_subject, names_of
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.publishing.publish import allowlist, write_json
from trigsight.publishing.published import ALLOWLIST, Release
from trigsight.retrieval.search import Retriever


@pytest.mark.parametrize("question, term", [
    ("What is a stream?", "stream"), ("what's an http Agent", "http Agent"), ("What are Buffers?", "Buffers"),
    ("What does EADDRINUSE mean?", "EADDRINUSE"), ("What is the purpose of package-lock.json?", "package-lock.json"),
    ("What is a stream in Node.js?", "stream"), ("What is the permalink option of the toc extension?", "permalink option"),
    ("Что такое поток?", "поток"), ("Для чего нужен модуль node:vm?", "node:vm"),
    ("ストリームとは何ですか？", "ストリーム"), ("Workerクラスとは何ですか？", "Worker"), ("Bufferって何？", "Buffer"),
    ("스트림이란 무엇인가요?", "스트림"), ("FastAPI에서 미들웨어란 무엇인가요?", "미들웨어"), ("컨테이너 이미지란?", "컨테이너 이미지"),
    ("什么是中间件？", "中间件"), ("Was ist ein Stream?", "Stream"),
    ("What is the TRUSTED_HOSTS config value?", "TRUSTED_HOSTS"), ("what's --force-exclude for in black?", "--force-exclude"),
    ("npm shrinkwrapは何をしますか？", "npm shrinkwrap"), ("Blackの--previewオプションは何をしますか？", "--preview"),
    ("What is the NODE_OPTIONS variable?", "NODE_OPTIONS"),
    ("What is an API key?", "API key"), ("What is the build configuration?", "build configuration"),   # things of their own
])
def test_a_definition_question_is_read_for_its_term(question, term):
    assert asked_term(question) == term


@pytest.mark.parametrize("question", [
    "What is the difference between npm ci and npm install?", "What is new in Python-Markdown 3.12.0?",
    "What is the default port?", "What is the maximum size of a Buffer?", "How do I read a file?",
    "What is the best way to read a file line by line when it is large?", "What is it?",
    "Как прочитать файл?", "ファイルを読むには？",
])
def test_a_question_that_asks_for_something_else_has_no_term(question):
    assert asked_term(question) is None


@pytest.mark.parametrize("text, subject", [
    ("A stream is an abstract interface for working with streaming data in Node.js.", ("stream", True)),
    ("Buffer objects are used to represent a fixed-length sequence of bytes.", ("Buffer objects", True)),
    ("The node:fs module enables interacting with the file system.", ("node:fs module", False)),
    ("Node-API (formerly N-API) is an API for building native Addons.", ("Node-API (formerly N-API)", True)),
    ("libuv: The C library that implements the Node.js event loop.", ("libuv", True)),
    ("permalink: Set to True or a string to generate permanent links.", ("permalink", True)),
    ("「依存性注入」 とは、コードが必要なものを宣言する方法です。", ("「依存性注入」", True)),
    ("컨테이너 이미지란 컨테이너에 필요한 모든 파일의 정적 버전입니다.", ("컨테이너 이미지", True)),
    ("Поток — это абстрактный интерфейс.", ("Поток", True)),
    ("This release is a rewrite of an earlier implementation.", None),   # about "this", not a name
    ("Black will allow single empty lines inside functions.", None),     # "Black will" is no name
    ("For an HTTP agent, this returns host:port.", None),
    # what the pages mean by a word
    ("The term process is usually used with a more specific meaning.", ("process", True)),
    ("Термин процесс имеет более узкое толкование.", ("процесс", True)),
    ("プロセスという言葉は通常、より具体的な意味で使われます。", ("プロセス", True)),
])
def test_the_subject_of_a_sentence_shaped_like_a_definition(text, subject):
    assert defined_subject(text) == subject


@pytest.mark.parametrize("subject, name", [
    ("New-Line-to-Break (nl2br) Extension", "nl2br"),       # its aside names it too
    ("markdown.util.Registry class", "Registry"),           # a dotted name's last part
    ("the node:stream module", "stream"),                   # role words and module prefix left out
    ("A source distribution, or sdist,", "sdist"),          # the other name it goes by
    ("Inline processors, previously called inline patterns,", "inline patterns"),
])
def test_a_subject_names_what_it_defines_in_several_ways(subject, name):
    assert key(name) in names_of(subject)


PAGES = {
    "stream.md": "# Stream\n\nStability: 2 - Stable\n\nstream {Readable} The stream to read from\n\n"
                 "A stream is an abstract interface for working with streaming data.\n"
                 "The stream module provides an API for it. Streams can be readable.\n\n"
                 "## Class: stream.Readable\n\nReadable streams are an abstraction for a source of data.\n",
    "rivers.md": "# Rivers\n\nA stream is a small river.\n",
    "api.md": "# util\n\n## util.inspect(object[, options])\n\n* object {any} Any JavaScript primitive or Object.\n"
              "* depth {number} How deep to go.\n\nThis is useful for inspecting large objects.\n\n"
              "The util.inspect() method returns a string representation of object.\n\n"
              "### Caveats\n\nThe util.inspect method is not stable across versions.\n\n"
              "## Static method: Buffer.alloc(size)\n\nStability: 3 - Legacy: Use something else instead.\n\n"
              "Allocates a new Buffer of size bytes.\n\n## --inspect[=port]\n\nActivate inspector on host:port.\n",
    "hatch.md": "# Hatch\n\nHatch is a modern, extensible Python project manager. It builds packages. "
                "See the Why Hatch? page for more information.\n",
    "npm-dedupe.md": "# npm-dedupe\n\n## Synopsis\n\n```\nnpm dedupe\n```\n\n## Description\n\n"
                     "Searches the local package tree and attempts to simplify the overall structure.\n",
    "config.md": "# Configuration\n\nStability: 1.1 - Active development\n\n"
                 "SECRET_KEY_FALLBACKS\n\nA list of old secret keys that can still be used for unsigning.\n\n"
                 "## npm ci\n\nThis command is similar to npm install, except it is meant for automated "
                 "environments.\n\n## Preprocessors\n\nPreprocessors munge the source text before it is parsed.\n\n"
                 "This is an excellent place to clean up bad characters.\n",
    "celery.md": "# Celery\n\n## Workers\n\nバックグラウンド計算が必要な場合、Celery のようなより大きなツールを使用します。\n",
}


@pytest.fixture
def site(write_content, tmp_path) -> Release:
    write_json(tmp_path / "release" / ALLOWLIST, allowlist(build(BuildConfig(write_content(PAGES)))))
    return Release.load(tmp_path / "release")


@pytest.mark.parametrize("term, retrieved, text", [
    # the page the term titles says it, even when another page was retrieved first
    ("stream", ["/rivers", "/stream"], "A stream is an abstract interface for working with streaming data."),
    ("Readable", [], "Readable streams are an abstraction for a source of data."),
    # a name alone on its line is said by the passage after it; a section's lead is its first whole sentence,
    # past the banner ("Stability: 1.1 - Active development") and the name
    ("SECRET_KEY_FALLBACKS", [], "A list of old secret keys that can still be used for unsigning."),
    ("Configuration", [], "A list of old secret keys that can still be used for unsigning."),
    # "This command…" speaks for its section
    ("npm ci", [], "This command is similar to npm install, except it is meant for automated environments."),
    ("Kubernetes", [], None),
    # an API entry: a statement about the name its own section heads is its description, before a
    # parameter, a first remark or a subsection's caveat; a label ("Stability: 3 - …") is no account
    ("util.inspect", [], "The util.inspect() method returns a string representation of object."),
    ("Buffer.alloc", [], "Allocates a new Buffer of size bytes."),
    ("--inspect", [], "Activate inspector on host:port."),     # a flag is named as written: not util.inspect
    # a page that opens with a synopsis says what its title is in its first sentence
    ("npm dedupe", [], "Searches the local package tree and attempts to simplify the overall structure."),
    # a bare "This" after a section's first sentence may be about that sentence, not the section's name
    ("Preprocessors", [], "Preprocessors munge the source text before it is parsed."),
    # a sentence in Japanese has few spaces: it says something by its length
    ("Workers", [], "バックグラウンド計算が必要な場合、Celery のようなより大きなツールを使用します。"),
])
def test_the_sentence_that_defines_a_term_is_found_by_its_shape_and_place(site, term, retrieved, text):
    found = Definitions(site).defining([key(term)], retrieved)
    assert (site.passage(found.passage_id).text if found else None) == text


def test_a_command_line_flag_is_its_own_name():
    assert key("--inspect") == frozenset({"--inspect"}) and key("--inspect") not in names_of("util.inspect")


@pytest.mark.parametrize("name, other", [
    ("url_for()", "URL"),            # "for" is a stop word: the code name is named whole
    ("SECRET_KEY", "secret"),
])
def test_a_code_name_is_not_named_by_a_part_of_it(name, other):
    assert key(name) != key(other)


def test_a_definition_on_the_page_the_term_titles_is_the_strongest(site):
    found = Definitions(site).defining([key("stream")], [])
    assert found.strength == DEFINES_ON_ITS_PAGE


def test_the_quote_goes_on_with_its_paragraph_until_a_sentence_points_elsewhere(site):
    found = Definitions(site).defining([key("Hatch")], [])
    assert [site.passage(q.passage_id).text for q in offline.defining_quotes(found, site)] == [
        "Hatch is a modern, extensible Python project manager.", "It builds packages."]


@pytest.fixture(scope="module")
def bundled(bundled_release):
    return Release.load(bundled_release), Retriever.load(bundled_release)


DEFINITION = "The source gate is the first check in a release, and it runs without a browser."


@pytest.mark.parametrize("question", ["What is the source gate?", "what's the source gate", "Define the source gate."])
def test_the_offline_answer_quotes_the_definition_first_with_its_own_chip(bundled, question):
    release, retriever = bundled
    quotes, hits = offline.respond(question, retriever, release)
    first = release.passage(quotes[0].passage_id)
    assert first.text == DEFINITION and first.id in {p.id for p in release.passages}
    assert hits[0].best_passage == first.id


def test_a_model_is_issued_the_defining_sentence_first(bundled):
    release, retriever = bundled
    events = list(run("What is the source gate?", (), retriever, release, ChatSettings()))
    [context] = [e.data for e in events if e.kind == "context"]
    assert DEFINITION in [p["text"] for p in context["sources"][0]["passages"]]


def test_a_term_the_pages_never_define_is_answered_as_any_other_question(bundled):
    release, retriever = bundled
    hits, _ = retriever.search_scored("What is Kubernetes?", k=offline.CANDIDATE_CHUNKS)
    assert offline.retrieve("What is Kubernetes?", retriever, release)[0] == hits
