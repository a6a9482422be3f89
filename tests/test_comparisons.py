"""A comparison question ("What is the difference between X and Y?") is answered by what tells them apart."""
from __future__ import annotations

import pytest
from trigsight.answering import offline
from trigsight.answering.compared_terms import compared_terms
from trigsight.answering.comparisons import _one_clause_each
from trigsight.answering.term_places import holds
from trigsight.retrieval.tokenize import tokenize

from indexed_site import indexed_site, quoted_texts


@pytest.mark.parametrize("question, pair", [
    ("What is the difference between preprocessors and postprocessors?", ("preprocessors", "postprocessors")),
    ("what's the main difference between a Blueprint and an app?", ("Blueprint", "app")),
    ("How does --extend-exclude differ from --exclude?", ("--extend-exclude", "--exclude")),
    ("Is npm ci the same as npm install?", ("npm ci", "npm install")),
    ("In the toc extension, should I use anchorlink or permalink?", ("anchorlink", "permalink")),
    ("Should I use the admonition extension or the details extension for collapsible notes?",
     ("admonition extension", "details extension")),
    ("When should I use markdown.markdownFromFile instead of markdown.markdown?",
     ("markdown.markdownFromFile", "markdown.markdown")),
    ("process.nextTick() vs setImmediate()?", ("process.nextTick()", "setImmediate()")),
    ("black --check vs --diff: which one should I use in CI?", ("black --check", "--diff")),
    ("npm ci or npm install - which one should I use?", ("npm ci", "npm install")),
    ("Чем --force-exclude отличается от --exclude?", ("--force-exclude", "--exclude")),
    ("В чём разница между slugify и slugify_unicode?", ("slugify", "slugify_unicode")),
    ("--fast と --safe はどう違うの？", ("--fast", "--safe")),
    ("md_in_html で markdown=\"block\" と markdown=\"span\" はどう違うの？", ("markdown=block", "markdown=span")),
    ("Flake8와 Pylint의 차이점은 무엇인가요?", ("Flake8", "Pylint")),
    ("中间件和依赖有什么区别？", ("中间件", "依赖")),
    ("Was ist der Unterschied zwischen Stream und Buffer?", ("Stream", "Buffer")),
    ("Quelle est la différence entre un stream et un buffer ?", ("stream", "buffer")),
    # a side that says more than a term: the term at its end (the first side) or its start (the second)
    ("파일 업로드를 받을 때 bytes와 UploadFile의 차이점은 무엇인가요?", ("bytes", "UploadFile")),
    ("Что лучше использовать: npm unpublish или npm deprecate, и чем они отличаются?", ("npm unpublish", "npm deprecate")),
    ("flask run vs app.run() — is there any difference in how the dev server behaves?", ("flask run", "app.run()")),
    ("データを更新するとき、PUTとPATCHの違いは何ですか？", ("PUT", "PATCH")),
    ("デプロイの話で出てくる「プログラム」と「プロセス」はどう違いますか？", ("プログラム", "プロセス")),   # what it quotes
    ("Чем объект g отличается от session во Flask?", ("g", "session")),
    # a call's arguments are no part of the name, and their comma does not split the pair
    ("What is the difference between setImmediate and setTimeout(fn, 0)?", ("setImmediate", "setTimeout()")),
    ("Should I use fs.readFile(path, cb) or fs.createReadStream(path)?", ("fs.readFile()", "fs.createReadStream()")),
])
def test_a_comparison_question_is_read_for_its_two_terms(question, pair):
    assert compared_terms(question) == pair


@pytest.mark.parametrize("question", [
    "What is a stream?", "Is it fast or slow?", "Does Black support Python 2 or Python 3?", "How do I read a file?",
    "What is the difference between it and this?", "Is the cache the same as the cache?",
    "pipx로 Hatch를 설치했더니 VS Code에서 Hatch 환경을 찾지 못합니다. 무엇을 확인해야 하나요?",   # an editor
    # which one is the case asks for a fact
    "markdown.markdown() で output_format を指定しなかった場合、出力は xhtml と html のどちらの形式になりますか？",
])
def test_a_question_that_compares_nothing_has_no_pair(question):
    assert compared_terms(question) is None


@pytest.mark.parametrize("name, text, held", [
    ("slugify", "Use slugify_unicode for Unicode.", False),        # a code name is not part of a longer one
    ("slugify_unicode", "The slugify callable keeps Unicode characters.", False),   # nor its words
    ("slugify_unicode", "Pass slugify_unicode to the option.", True),
    ("markdown.markdown", "markdown.markdownFromFile reads a file.", False),
])
def test_a_code_name_is_held_only_as_written(name, text, held):
    assert bool(holds(frozenset({name.casefold()}), set(tokenize(text)), text.casefold())) == held


@pytest.mark.parametrize("text, each", [
    ("All features in the --preview style are expected next year; features in the --unstable style only if fixed.", True),
    ("Use --preview; it is safe.", False),                              # one term only
    ("Both --preview and --unstable are flags; they change the style.", False),   # named together, not apart
])
def test_a_sentence_that_says_one_thing_of_each_in_its_own_clause_compares_them(text, each):
    readings = [(frozenset({"--preview"}),), (frozenset({"--unstable"}),)]
    assert _one_clause_each(text, readings) == each


PAGES = {
    "processors.md": "# Processors\n\n## Preprocessors\n\n"
                     "Preprocessors change the source text before it is parsed into a tree.\n\n"
                     "This is an excellent place to clean up bad characters.\n\n"
                     "## Postprocessors\n\n"
                     "Postprocessors change the output after the tree has been serialized.\n\n"
                     "Note that preprocessors use a list of lines while postprocessors use a single string.\n",
    "timers.md": "# Timers\n\nTimers call a function later.\n\n"
                 "## process.nextTick() vs setImmediate()\n\n"
                 "We have two calls that are similar as far as users are concerned, but their timing differs.\n\n"
                 "## setImmediate()\n\nSchedules the immediate execution of the callback after I/O events.\n",
    "garden.md": "# Garden\n\n## Beds\n\nA raised bed is a frame of boards filled with soil.\n\n"
                 "Trellis and cloche both run along a bed.\n\n"
                 "## Raised beds for a sunny pot garden\n\nSun matters most in the first weeks of spring.\n\n"
                 "## Pots\n\nA pot is a container that holds one plant and its soil.\n\n"
                 "Black is a colour of soil and of pots.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return indexed_site(tmp_path_factory.mktemp("comparisons"), PAGES)


@pytest.mark.parametrize("question, quoted", [
    # a sentence that says how they differ, then what each one is
    ("What is the difference between preprocessors and postprocessors?", [
        "Note that preprocessors use a list of lines while postprocessors use a single string.",
        "Preprocessors change the source text before it is parsed into a tree.",
        "Postprocessors change the output after the tree has been serialized."]),
    # a section headed by both: its first sentence
    ("process.nextTick() vs setImmediate()?", [
        "We have two calls that are similar as far as users are concerned, but their timing differs.",
        "Schedules the immediate execution of the callback after I/O events."]),
    # never compared, both defined: the two definitions (a heading that only holds both words compares nothing)
    ("Should I use a raised bed or a pot?", [
        "A raised bed is a frame of boards filled with soil.",
        "A pot is a container that holds one plant and its soil."]),
    # a name the pages never give: nothing tells the two apart
    ("What is the difference between Black and autopep8?", []),
    # a name the pages define nowhere: what they say of it where they speak of it
    ("Should I use a Trellis or a pot?", [
        "Trellis and cloche both run along a bed.", "A pot is a container that holds one plant and its soil."]),
])
def test_a_comparison_is_answered_by_what_tells_the_two_apart(site, question, quoted):
    release, retriever = site
    quotes, _ = offline.respond(question, retriever, release)
    assert [release.passage(q.passage_id).text for q in quotes] == quoted
    assert all(release.passage(q.passage_id).id in {p.id for p in release.passages} for q in quotes)


def test_a_model_is_issued_the_comparing_sentence_first(site):
    release, retriever = site
    hits, _ = offline.retrieve("How do preprocessors differ from postprocessors?", retriever, release)
    comparing = "Note that preprocessors use a list of lines while postprocessors use a single string."
    assert release.passage(hits[0].best_passage).text == comparing


def test_a_question_that_compares_nothing_is_retrieved_as_before(site):
    release, retriever = site
    hits, _ = retriever.search_scored("How often do pots need soil?", k=offline.CANDIDATE_CHUNKS)
    assert offline.retrieve("How often do pots need soil?", retriever, release)[0] == hits


POINTING_PAGES = {
    "globals.md": "# Globals\n\n## setImmediate\n\nsetImmediate is described in the timers section.\n\n"
                  "## setTimeout\n\nsetTimeout is described in the timers section.\n",
    "timers.md": "# Timers\n\n## setImmediate(callback)\n\n"
                 "Schedules the immediate execution of the callback after I/O events' callbacks.\n\n"
                 "## setTimeout(callback, delay)\n\nSchedules execution of a one-time callback after delay milliseconds.\n",
}


@pytest.mark.parametrize("question", [
    "What is the difference between setImmediate and setTimeout(fn, 0)?",
    "Чем setImmediate отличается от setTimeout?",
])
def test_what_each_is_comes_from_where_it_is_described_not_from_a_sentence_pointing_there(tmp_path, question):
    release, retriever = indexed_site(tmp_path, POINTING_PAGES)
    assert quoted_texts(question, release, retriever) == [
        "Schedules the immediate execution of the callback after I/O events' callbacks.",
        "Schedules execution of a one-time callback after delay milliseconds."]
