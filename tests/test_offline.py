"""The offline answer quotes passages verbatim: the ones the relevance model finds likely enough, most likely first."""
from __future__ import annotations

import json

import numpy as np
import pytest
from trigsight.answering import small_talk
from trigsight.answering.change_logs import is_change_log, on_current_pages, present_first
from trigsight.answering.dated_headings import dated_heading
from trigsight.answering.fitting import SIGNS, fit
from trigsight.answering.offline import (
    LIST_ITEMS,
    SAME_LANGUAGE_FLOOR,
    Quoted,
    answered,
    asks_anything,
    echoes,
    in_chunk_order,
    is_label,
    points_elsewhere,
    select,
    sentences,
    with_continuations,
    with_lists,
)
from trigsight.answering.overlap import Overlap, terms
from trigsight.answering.relevance import (
    FEATURES,
    MODEL_FILE,
    QUESTION_FEATURES,
    Candidate,
    RelevanceModel,
    code_names,
    default_gate,
    default_model,
    lacks_number,
    question_features,
    stated_by,
)
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.publishing.publish import allowlist, write_json
from trigsight.publishing.published import ALLOWLIST, Release

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


@pytest.mark.parametrize("text, names", [
    ("What does fs.watch() do on macOS?", {"fs.watch", "macos"}),
    ("NODE_OPTIONS와 명령줄에 같은 옵션을 주면?", {"node_options"}),
    ("Можно ли передать --max-old-space-size через execArgv?", {"--max-old-space-size", "execargv"}),
    ("How do I read a file?", set()),
    ("What is new in v7.8.0?", set()),                  # a version is a number, not a name
])
def test_code_names_are_read_out_of_a_question_in_any_language(text, names):
    assert code_names(text) == names


@pytest.mark.parametrize("question, asks", [
    ("😀😀😀", False), ("???", False), ("\x00\x01", False), ("こんにちは", False), ("What is it?", False),
    ("Как?", False), ("fs.readFile()?", True), ("What is the payload budget?", True), ("予算は？", True),
    ("예산은?", True), ("Какой бюджет?", True), ("NODE_OPTIONS", True),
    # greetings and thanks are said to the chat, not asked of the pages
    ("Hello", False), ("Hi there!", False), ("Thanks!", False), ("Привет", False), ("Спасибо!", False),
    ("안녕하세요", False), ("감사합니다", False), ("お疲れ様です", False), ("你好", False), ("Merci !", False),
    ("Hello world", True), ("Thanks, what is the budget?", True), ("What does nice do?", True), ("A DAG?", True),
])
def test_a_question_asks_something_only_with_a_word_or_a_code_name(question, asks):
    assert asks_anything(question) is asks


@pytest.mark.parametrize("question, asked", [
    ("Hi! How do I read a file? Thanks!", "How do I read a file?"),
    ("Thanks in advance: what is NODE_OPTIONS?", "what is NODE_OPTIONS?"),
    ("Привет! Как прочитать файл?", "Как прочитать файл?"),
    ("안녕하세요 파일은 어떻게 읽나요? 감사합니다", "파일은 어떻게 읽나요?"),
    ("こんにちは、予算は？", "予算は?"),
    ("Hello world", "Hello world"),                       # a greeting opens a question only before a mark
    ("Привет мир", "Привет мир"),
    ("How do I say hello?", "How do I say hello?"),       # and closes it only after one
    ("Is it ok to call it twice?", "Is it ok to call it twice?"),
    ("Hello!", ""),
    ("Hi! --env-file or NODE_OPTIONS?", "--env-file or NODE_OPTIONS?"),
    ("does it work without a key thanks", "does it work without a key"),   # thanks close it without a mark
    ("How do I print hello", "How do I print hello"),                       # a greeting does not
    ("こんにちは。チップを押すと何が起きますかありがとうございます。", "チップを押すと何が起きますか"),
])
def test_the_greetings_and_thanks_around_a_question_are_not_what_it_asks(question, asked):
    assert small_talk.strip(question) == asked


@pytest.fixture
def release(tmp_path) -> Release:
    return Release.load(write_allowlist(tmp_path, {
        "/budget": ["The payload budget is 8 KB of brotli-compressed JavaScript per page.",
                    "A page over the budget fails the release."],
        "/author": ["The author writes about text fragments.", "The author lives by the sea."],
        "/copy": ["The payload budget is 8 KB of brotli-compressed JavaScript per page."],
    }))


def test_a_word_the_site_never_uses_weighs_most_in_the_overlap(release):
    about = release.passages_of("/author")[0]
    overlap = Overlap.of(release)
    assert overlap.score("Who is the author's dentist?", about) < 0.5
    assert overlap.score("What does the author write about?", about) > 0.5


def candidate(release, path: str, number: int = 0, rank: int = 1) -> Candidate:
    return Candidate(release.passages_of(path)[number].id, rank, {})


def test_quotes_come_most_likely_first_and_only_above_the_threshold(release):
    scored = [(candidate(release, "/author", 0, 1), 0.55), (candidate(release, "/budget", 0, 2), 0.9),
              (candidate(release, "/author", 1, 3), 0.2)]
    chosen = select(scored, release, threshold=0.5, second=0.5)
    assert [q.relevance for q in chosen] == [0.9, 0.55]
    assert select(scored, release, threshold=0.95, second=0.5) == []


def test_a_further_quote_must_be_nearly_as_likely_as_the_first(release):
    scored = [(candidate(release, "/budget", 0, 1), 0.9), (candidate(release, "/author", 0, 2), 0.5)]
    assert len(select(scored, release, threshold=0.3, second=0.5)) == 2
    assert len(select(scored, release, threshold=0.3, second=0.6)) == 1


def test_the_same_sentence_on_another_page_adds_nothing(release):
    scored = [(candidate(release, "/budget", 0, 1), 0.9), (candidate(release, "/copy", 0, 2), 0.8)]
    assert [release.passage(q.passage_id).page for q in select(scored, release, 0.3, 0.1)] == ["/budget"]


def one_block(tmp_path, texts: list[str]) -> Release:
    """A page whose sentences all sit in one paragraph."""
    folder = write_allowlist(tmp_path, {"/p": texts, "/q": ["Pipes move data."]})
    data = json.loads((folder / "allowlist.json").read_text("utf-8"))
    for passage in data["passages"]:
        passage["block"] = 1 if passage["page"] == "/p" else 2
    (folder / "allowlist.json").write_text(json.dumps(data), "utf-8")
    return Release.load(folder)


@pytest.mark.parametrize("probabilities, quoted", [
    ([0.9, 0.7], ["Streams are buffered."]),                                      # far less likely: left out
    ([0.9, 0.85], ["Streams are buffered.", "Each stream has a highWaterMark."]),  # nearly as likely: it follows
    ([0.85, 0.9], ["Each stream has a highWaterMark.", "Streams are buffered."]),  # the likelier comes first
    ([0.9, 0.88, 0.86], ["Streams are buffered.", "Each stream has a highWaterMark."]),   # one more at most
])
def test_a_second_sentence_of_a_quoted_block_follows_it_only_when_nearly_as_likely(tmp_path, probabilities, quoted):
    texts = ["Streams are buffered.", "Each stream has a highWaterMark.", "Streams emit events."][:len(probabilities)]
    site = one_block(tmp_path, texts)
    scored = [(Candidate(passage.id, 1, {}), p) for passage, p in zip(site.passages_of("/p"), probabilities)]
    chosen = select(scored, site, 0.3, 0.1)
    assert [site.passage(q.passage_id).text for q in chosen] == quoted
    assert [q.text for q in sentences(chosen, site)] == [c.quote for q in sentences(chosen, site) for c in q.citations]


def test_a_second_sentence_of_a_block_takes_no_other_places_room(tmp_path):
    site = one_block(tmp_path, ["Streams are buffered.", "Each stream has a highWaterMark."])
    first, second = site.passages_of("/p")
    scored = [(Candidate(first.id, 1, {}), 0.9), (Candidate(second.id, 1, {}), 0.85),
              (Candidate(site.passages_of("/q")[0].id, 2, {}), 0.8)]
    assert [site.passage(q.passage_id).text for q in select(scored, site, 0.3, 0.1, limit=2)] == [
        "Streams are buffered.", "Each stream has a highWaterMark.", "Pipes move data."]


def test_one_table_row_gives_one_quote(tmp_path):
    row = ["nl2br", "New Line to Break", "markdown.extensions.nl2br"]
    table = Release.load(write_allowlist(tmp_path, {"/extensions": row + ["Tables add pipes."]}, cells=frozenset(row)))
    first, second, third, other = table.passages_of("/extensions")
    scored = [(Candidate(first.id, 1, {}), 0.9), (Candidate(second.id, 1, {}), 0.85), (Candidate(third.id, 1, {}), 0.8),
              (Candidate(other.id, 2, {}), 0.7)]
    assert [q.passage_id for q in select(scored, table, 0.3, 0.1)] == [first.id, other.id]


@pytest.mark.parametrize("pointer_probability, others, quoted", [
    (0.9, [0.6], ["Streams buffer data."]),                  # a pointer is passed over for what says something
    (0.9, [0.1], ["See Streams for details."]),              # nothing else qualifies: the pointer, alone
    (0.9, [], ["See Streams for details."]),
])
def test_a_sentence_that_only_points_elsewhere_is_quoted_only_alone(tmp_path, pointer_probability, others, quoted):
    pages = {"/a": ["See Streams for details."], "/b": ["Streams buffer data."], "/c": ["Streams have a highWaterMark."]}
    site = Release.load(write_allowlist(tmp_path, pages))
    scored = [(Candidate(site.passages_of("/a")[0].id, 1, {}), pointer_probability)]
    scored += [(Candidate(site.passages_of(path)[0].id, 2 + n, {}), p) for n, (path, p) in enumerate(zip(["/b", "/c"], others))]
    chosen = select(scored, site, threshold=0.3, second=0.1)
    assert [site.passage(q.passage_id).text for q in chosen] == quoted


@pytest.mark.parametrize("markdown, title", [
    ("# Streams\n\n!!! note\n    Streams buffer data.\n", "Note"),                          # MkDocs
    ("# Streams\n\n```{warning}\nStreams buffer data.\n```\n", "Warning"),                  # MyST
    ("# Streams\n\n> [!TIP]\n> Streams buffer data.\n", "Tip"),                              # GitHub alert
])
def test_an_admonitions_title_is_a_label_never_quoted_even_alone(write_content, tmp_path, markdown, title):
    site = built(write_content, tmp_path, markdown)
    label, said = (the_passage(site, text) for text in (title, "Streams buffer data."))
    assert is_label(label) and not is_label(said)
    assert [q.passage_id for q in select([(Candidate(label.id, 1, {}), 0.9), (Candidate(said.id, 1, {}), 0.5)],
                                         site, 0.3, 0.1)] == [said.id]
    assert select([(Candidate(label.id, 1, {}), 0.9)], site, 0.3, 0.1) == []


@pytest.mark.parametrize("text, pointing", [
    ("See Streams for details.", True), ("This is now covered in Caching.", True),
    ("It is described in the user guide.", True), ("This page has moved to Installation.", True),
    ("This is the default.", False), ("It is documented that caching is on.", False),
    ("setImmediate is described in the timers section.", True),
    ("The options are documented on the API reference page.", True),
    ("The format is described in RFC 3986.", False),
])
def test_what_only_points_elsewhere_is_told_from_what_says_something(tmp_path, text, pointing):
    site = Release.load(write_allowlist(tmp_path, {"/a": [text]}))
    assert points_elsewhere(site.passages_of("/a")[0]) is pointing


def built(write_content, tmp_path, markdown: str) -> Release:
    """`markdown` as index.md, built by the real builder and loaded as its allowlist."""
    write_json(tmp_path / "release" / ALLOWLIST, allowlist(build(BuildConfig(write_content({"index.md": markdown})))))
    return Release.load(tmp_path / "release")


FAQ = """# FAQ

Can I build PDFs without LaTeX?
: rinohtype provides a PDF builder that replaces the LaTeX one.

## What readers searched for

- how to install pip ubuntu
- What does pip stand for?

## Installing

Why would you install it twice? Nobody should.

Run the installer once.
"""


@pytest.mark.parametrize("asked, quoted", [
    # a FAQ's question is answered by the description under it
    ("Can I build PDFs without LaTeX?", ["rinohtype provides a PDF builder that replaces the LaTeX one."]),
    # a search phrase or a question a page lists says nothing; what tells is quoted instead
    ("how to install pip ubuntu", ["Run the installer once."]),
    ("What does pip stand for?", ["Run the installer once."]),
    ("Why would you install it twice?", ["Run the installer once."]),
])
def test_a_passage_that_asks_is_never_quoted_as_an_answer(write_content, tmp_path, asked, quoted):
    site = built(write_content, tmp_path, FAQ)
    by_text = {p.text: p for p in site.passages}
    scored = [(Candidate(by_text[asked].id, 1, {}), 0.9), (Candidate(by_text["Run the installer once."].id, 2, {}), 0.5)]
    chosen = select(scored, site, threshold=0.3, second=0.1)
    assert [site.passage(q.passage_id).text for q in chosen][:1] == quoted


ITEMS = [f"Step {n} is taken in order." for n in range(1, LIST_ITEMS + 3)]


@pytest.mark.parametrize("markdown, lead, quoted", [
    ("Every handle goes through these steps:\n\n* The server looks it up.\n* It checks the allowlist.\n\nLater.",
     "Every handle goes through these steps:",
     ["Every handle goes through these steps:", "The server looks it up.", "It checks the allowlist."]),
    ("The options are:\n\n" + "\n".join(f"* {item}" for item in ITEMS),       # a long list: its first items
     "The options are:", ["The options are:"] + ITEMS[:LIST_ITEMS]),
    ("Two kinds:\n\n* Local ones:\n  * Files.\n* Remote ones.\n\nEnd.",         # a nested list comes along
     "Two kinds:", ["Two kinds:", "Local ones:", "Files.", "Remote ones."]),
    ("Run it like this:\n\n```\nnpm ci\n```\n\n* A list further on.",            # code, not a list, follows
     "Run it like this:", ["Run it like this:"]),
    ("The steps:\n\nA paragraph, not a list.\n\n* Item.", "The steps:", ["The steps:"]),
    ("Nothing follows this one.\n\n* Item one.\n* Item two.", "Nothing follows this one.",
     ["Nothing follows this one."]),
])
def test_a_lead_in_brings_the_first_items_of_its_list_each_with_its_own_chip(write_content, tmp_path, markdown,
                                                                            lead, quoted):
    site = built(write_content, tmp_path, markdown)
    chosen = with_lists([Quoted(the_passage(site, lead).id, 0.8, 1)], site)
    assert [site.passage(q.passage_id).text for q in chosen] == quoted
    assert {q.relevance for q in chosen} == {0.8}
    assert [q.item for q in chosen] == [False] + [True] * (len(quoted) - 1)
    assert_each_quote_has_its_own_chip(chosen, site)


def the_passage(site: Release, text: str):
    [passage] = [p for p in site.passages if p.text == text]
    return passage


def assert_each_quote_has_its_own_chip(chosen: list[Quoted], site: Release) -> None:
    for sentence, quote in zip(sentences(chosen, site), chosen):
        [chip] = sentence.citations
        assert site.passage(chip.id).text == sentence.text == chip.quote
        assert sentence.item == quote.item


def test_an_item_a_lead_in_brings_is_not_quoted_twice(write_content, tmp_path):
    site = built(write_content, tmp_path, "The steps:\n\n* Look the handle up in its table.\n"
                                          "* Check that the allowlist holds it.\n\nOther words here.")
    lead, look, check, other = sorted(site.passages, key=lambda p: p.order)[-4:]
    chosen = with_lists([Quoted(check.id, 0.9, 1), Quoted(lead.id, 0.8, 1), Quoted(other.id, 0.7, 2)], site)
    assert [q.passage_id for q in chosen] == [check.id, lead.id, look.id, other.id]


PRIORITY = ("On Windows, setting priority to PRIORITY_HIGHEST requires elevated user privileges. "
            "Otherwise the set priority will be silently reduced to PRIORITY_HIGH. It is the same on every build.")
CACHED = ("Modules are cached after the first time they are loaded. This means that every call to require('foo') "
          "will get exactly the same object returned. That object is shared.")


@pytest.mark.parametrize("markdown, quote, quoted", [
    (PRIORITY, "On Windows, setting priority to PRIORITY_HIGHEST requires elevated user privileges.",
     ["On Windows, setting priority to PRIORITY_HIGHEST requires elevated user privileges.",
      "Otherwise the set priority will be silently reduced to PRIORITY_HIGH."]),          # and no further
    (PRIORITY, "Otherwise the set priority will be silently reduced to PRIORITY_HIGH.",
     ["On Windows, setting priority to PRIORITY_HIGHEST requires elevated user privileges.",
      "Otherwise the set priority will be silently reduced to PRIORITY_HIGH."]),
    (CACHED, "This means that every call to require('foo') will get exactly the same object returned.",
     ["Modules are cached after the first time they are loaded.",
      "This means that every call to require('foo') will get exactly the same object returned."]),
    (CACHED, "Modules are cached after the first time they are loaded.",
     ["Modules are cached after the first time they are loaded.",
      "This means that every call to require('foo') will get exactly the same object returned."]),
    ("Streams are buffered.\n\nHowever, a paragraph apart is not this one's.", "Streams are buffered.",
     ["Streams are buffered."]),
    ("The file is read as YAML. Therefore, a config file might look like this:\n\n```\nkey: 1\n```",
     "The file is read as YAML.", ["The file is read as YAML."]),                     # it leads into code
    ("Поток буферизуется. Поэтому данные не теряются.", "Поток буферизуется.",
     ["Поток буферизуется.", "Поэтому данные не теряются."]),
    ("ストリームはバッファされます。そのため、データは失われません。", "ストリームはバッファされます。",
     ["ストリームはバッファされます。", "そのため、データは失われません。"]),
    ("스트림은 버퍼링됩니다. 따라서 데이터가 손실되지 않습니다.", "스트림은 버퍼링됩니다.",
     ["스트림은 버퍼링됩니다.", "따라서 데이터가 손실되지 않습니다."]),
])
def test_a_quote_comes_with_the_sentence_it_leans_on_and_the_one_that_finishes_it(write_content, tmp_path, markdown,
                                                                                 quote, quoted):
    site = built(write_content, tmp_path, markdown)
    shown = with_continuations([Quoted(the_passage(site, quote).id, 0.7, 2)], site)
    assert [site.passage(q.passage_id).text for q in shown] == quoted
    assert {(q.relevance, q.rank, q.item) for q in shown} == {(0.7, 2, False)}
    assert_each_quote_has_its_own_chip(shown, site)


def test_a_sentence_quoted_anyway_is_shown_once_where_it_first_comes(write_content, tmp_path):
    site = built(write_content, tmp_path, PRIORITY)
    first, otherwise = sorted((p for p in site.passages if p.kind != "h1"), key=lambda p: p.order)[:2]
    shown = with_continuations([Quoted(otherwise.id, 0.9, 1), Quoted(first.id, 0.8, 1)], site)
    assert [q.passage_id for q in shown] == [first.id, otherwise.id]


LOCKS = "The install is driven by a lock file, in this order:\n\n* `npm-shrinkwrap.json`\n* `package-lock.json`\n* `yarn.lock`\n"


@pytest.mark.parametrize("markdown, item, quoted", [
    (LOCKS, "yarn.lock", ["The install is driven by a lock file, in this order:", "npm-shrinkwrap.json",
                          "package-lock.json", "yarn.lock"]),
    (LOCKS.replace("in this order:", "in this order.") + "\nEnd.", "yarn.lock", ["yarn.lock"]),   # no lead-in
    ("### `global`\n\n* Default: false\n* Type: Boolean\n\nInstalls globally.", "Default: false", ["Default: false"]),
    ("Some facts:\n\n* A list item long enough to stand alone.\n* Short one.", "A list item long enough to stand alone.",
     ["A list item long enough to stand alone."]),
    ("Two kinds:\n\n* Local ones.\n  * Files.\n* Remote ones.", "Files.",                   # from a nested list
     ["Two kinds:", "Local ones.", "Files.", "Remote ones."]),
])
def test_an_item_too_short_to_stand_alone_comes_after_its_lead_in(write_content, tmp_path, markdown, item, quoted):
    site = built(write_content, tmp_path, markdown)
    [short] = [p for p in site.passages if p.text == item]
    assert [site.passage(q.passage_id).text for q in with_lists([Quoted(short.id, 0.8, 1)], site)] == quoted


ECHOING = ("| code | meaning |\n|---|---|\n| `EMFILE` | Too many open files. |\n\n"
           "Use nl2br as the name of the extension.\n\n" + LOCKS)


@pytest.mark.parametrize("question, text, echoed", [
    ("What does EMFILE mean?", "EMFILE", True),                        # a table cell that only names what was asked
    ("Что означает ошибка EMFILE?", "EMFILE", True),                   # in any language the name is written alike
    ("What does EMFILE mean?", "Too many open files.", False),         # the row's cell that answers
    ("What name do I give the nl2br extension?", "Use nl2br as the name of the extension.", False),  # a sentence
    ("Is yarn.lock read?", "yarn.lock", False),                        # an item shown after its lead-in
    ("What is ENOENT?", "EMFILE", False),
])
def test_a_passage_that_only_says_back_the_questions_words_is_not_quoted(write_content, tmp_path, question, text,
                                                                          echoed):
    site = built(write_content, tmp_path, ECHOING)
    [passage] = [p for p in site.passages if p.text == text]
    assert echoes(terms(question), passage, site) is echoed


@pytest.mark.parametrize("text, section", [
    ("Default: false", "global"),                       # the heading it sits under
    ("It installs packages.", ""),                      # under the page's title only
    ("global", ""),                                     # a heading itself
    ("Kept in the lockfile.", "nested"),                # the nearest heading
])
def test_a_chip_names_the_section_its_passage_sits_under(write_content, tmp_path, text, section):
    site = built(write_content, tmp_path, "# npm-install\n\nIt installs packages.\n\n## global\n\n"
                                          "* Default: false\n\n### nested\n\nKept in the lockfile.\n")
    passage = next(p for p in site.passages if p.text == text)
    [chip] = sentences([Quoted(passage.id, 0.8, 1)], site)[0].citations
    assert (chip.title, chip.section) == ("npm-install", section)
    assert chip.to_json()["section"] == section


@pytest.mark.parametrize("text, section", [
    ("Throttle keeps its defaults.", "7.8.1 › Bug Fixes"),   # "Bug Fixes" alone: which release?
    ("Delay waits.", "7.8.0 › Bug Fixes"),
    ("Buffer takes any input.", "Features"),                  # a heading the page has once
])
def test_a_chip_names_the_headings_that_tell_its_section_from_the_pages_others(write_content, tmp_path, text,
                                                                                section):
    site = built(write_content, tmp_path, "# Changelog\n\n## 7.8.1\n\n### Bug Fixes\n\n* Throttle keeps its "
                                          "defaults.\n\n## 7.8.0\n\n### Bug Fixes\n\n* Delay waits.\n\n"
                                          "### Features\n\n* Buffer takes any input.\n\n## 7.7.0\n\n"
                                          "### Bug Fixes\n\n* Share resets.\n")
    passage = next(p for p in site.passages if p.text == text)
    [chip] = sentences([Quoted(passage.id, 0.8, 1)], site)[0].citations
    assert (chip.title, chip.section) == ("Changelog", section)


CHANGELOG = ("# Changelog\n\n## 7.8.1 (2023-04-26)\n\n### Bug Fixes\n\n* Throttle keeps its defaults.\n\n"
             "## [7.8.0] - December 15, 2022\n\n* Delay waits.\n\n## 7.7.0\n\n* Share resets.\n")


@pytest.mark.parametrize("question, heading", [
    ("When was 7.8.1 released?", "7.8.1 (2023-04-26)"),
    ("What is the release date of v7.8.0?", "[7.8.0] - December 15, 2022"),
    ("7.8.1はいつリリースされましたか？", "7.8.1 (2023-04-26)"),
    ("Когда вышла версия 7.7.0?", None),          # its heading gives no date
    ("What changed in 7.8.1?", None),             # not asked when
    ("When was 9.0.0 released?", None),           # no heading names it
    ("When was the throttle fixed?", None),       # no version named
    ("When did 7.8.1 stop supporting Node 12?", None),   # asked when, not when it came out
])
def test_a_when_question_about_a_version_is_answered_by_the_heading_that_dates_it(write_content, tmp_path, question,
                                                                                   heading):
    from trigsight.retrieval.search import Hit

    site = built(write_content, tmp_path, CHANGELOG)
    page = site.passages[0].page
    found = dated_heading(question, [Hit("c1", (), page, 1.0, "")], site)
    assert (found.text if found else None) == heading
    if found:
        [chip] = sentences([Quoted(found.id, 1.0, 1)], site)[0].citations
        assert chip.quote == heading and chip.id in {p.id for p in site.passages}


@pytest.mark.parametrize("heading", ["See Also", "Related pages", "См. также", "関連項目", "같이 보기"])
def test_an_item_of_a_see_also_section_is_quoted_only_when_nothing_else_is(write_content, tmp_path, heading):
    site = built(write_content, tmp_path, f"# npm ci\n\nIt installs a project cleanly.\n\n## {heading}\n\n"
                                          "* [npm install](npm-install.md)\n")
    says, points = (next(p for p in site.passages if p.text == text) for text in
                    ("It installs a project cleanly.", "npm install"))
    both = [(Candidate(points.id, 1, {}), 0.9), (Candidate(says.id, 1, {}), 0.6)]
    assert [q.passage_id for q in select(both, site, threshold=0.3, second=0.1)] == [says.id]
    assert [q.passage_id for q in select(both[:1], site, threshold=0.3, second=0.1)] == [points.id]


@pytest.mark.parametrize("path, title, logged", [
    ("/news", "Release notes", True), ("/changes/1.7", "Changes in Sphinx 1.7", True),
    ("/change_log/release-2.5", "Release 2.5", True), ("/history/hatch", "Hatch history", True),
    ("/guide/upgrade-options", "Upgrade options", False), ("/topics/settings", "Settings", False),
    ("/about", "Changelog", True), ("/versionhistory", "Version history", True),
    ("/about/version-history", "Version history", True), ("/history-of-the-project", "Why it exists", False),
])
def test_a_change_log_is_known_by_its_address_or_its_title(path, title, logged):
    assert is_change_log(path, title) is logged


def test_a_change_log_is_quoted_after_the_page_that_tells_how_things_are(write_content, tmp_path):
    folder = write_content({"index.md": "# Politeness\n\nScrapy does not act on Crawl-delay directives.\n",
                            "changelog.md": "# Changelog\n\nAdded a crawl_delay() method to RobotParser.\n"})
    write_json(tmp_path / "release" / ALLOWLIST, allowlist(build(BuildConfig(folder))))
    site = Release.load(tmp_path / "release")
    logged, told = (next(p for p in site.passages if p.text == text) for text in
                    ("Added a crawl_delay() method to RobotParser.", "Scrapy does not act on Crawl-delay directives."))
    chosen = [Quoted(logged.id, 0.9, 1), Quoted(told.id, 0.6, 2)]
    assert [q.passage_id for q in present_first("Does it obey Crawl-delay?", chosen, site)] == [told.id, logged.id]
    assert present_first("Does 2.5 obey Crawl-delay?", chosen, site) == chosen      # a version: the log tells
    assert present_first("RxJS 7에서 깨졌어요", chosen, site) == chosen
    assert present_first("Will it wait 10 seconds?", chosen, site) != chosen
    # asked in which release it came: the log tells
    assert present_first("Which release first shipped crawl_delay()?", chosen, site) == chosen
    assert present_first("crawl_delay() は どのバージョンで 追加されましたか？", chosen, site) == chosen


SAID = "If no progress token is provided, progress calls have no effect."


@pytest.mark.parametrize("old, current", [
    ("v3/servers/progress.md", "/servers/progress"),          # Mintlify's version folders
    ("docs/2.0/progress.md", "/docs/progress"),
    ("version-2.x/progress.md", "/progress"),
    ("v3/gone.md", None),                                     # no current page: the old one stays
    ("servers/v3.md", None),                                  # a page named like a version is no folder
])
def test_a_quote_from_an_older_versions_copy_is_taken_from_the_current_page(write_content, tmp_path, old, current):
    pages = {old: f"# Progress\n\n{SAID}\n\nOnly the old version says this.\n",
             "servers/progress.md": f"# Progress\n\n{SAID}\n", "docs/progress.md": f"# Progress\n\n{SAID}\n",
             "progress.md": f"# Progress\n\n{SAID}\n"}
    write_json(tmp_path / "release" / ALLOWLIST, allowlist(build(BuildConfig(write_content(pages)))))
    site = Release.load(tmp_path / "release")
    old_page = "/" + old.removesuffix(".md")
    said, only_old = (next(p for p in site.passages_of(old_page) if p.text == text)
                      for text in (SAID, "Only the old version says this."))
    chosen = [Quoted(said.id, 0.9, 1), Quoted(only_old.id, 0.8, 1)]
    shown = on_current_pages("Do progress calls fail without a token?", chosen, site)
    assert [site.passage(q.passage_id).page for q in shown] == [current or old_page, old_page]
    assert [site.passage(q.passage_id).text for q in shown] == [SAID, "Only the old version says this."]
    assert on_current_pages("In v3, do progress calls fail without a token?", chosen, site) == chosen


@pytest.mark.parametrize("own, best", [
    ([(0.2, 0.0), (0.7, 0.5)], 1),     # the sentence that says it takes its chunk's best probability
    ([(0.6, 0.4), (0.5, 0.4)], 0),     # a small difference leaves the model's order as it was
])
def test_inside_a_chunk_the_sentence_nearest_the_question_takes_the_chunks_best_probability(own, best):
    scored = [(Candidate(f"p{n}", 1, {"cos_passage": cos, "overlap": overlap}), probability)
              for n, ((cos, overlap), probability) in enumerate(zip(own, (0.6, 0.4)))]
    scored.append((Candidate("other", 2, {"cos_passage": 0.9, "overlap": 0.9}), 0.3))
    ordered = in_chunk_order(scored)
    assert [c.passage_id for c, _ in ordered] == ["p0", "p1", "other"]
    assert max(ordered[:2], key=lambda pair: pair[1])[0].passage_id == f"p{best}"
    assert sorted(p for _, p in ordered) == sorted(p for _, p in scored)     # a chunk's probabilities, handed anew
    assert ordered[2] == scored[2]                                             # a chunk of one is left alone


def test_no_more_than_the_limit_is_quoted(release):
    scored = [(candidate(release, path, number, rank), 0.9 - rank / 100)
              for rank, (path, number) in enumerate([("/budget", 0), ("/budget", 1), ("/author", 0), ("/author", 1)], 1)]
    assert len(select(scored, release, threshold=0.1, second=0.1, limit=3)) == 3


def test_the_fitted_logistic_regression_separates_what_it_can_and_round_trips():
    rng = np.random.default_rng(7)
    rows = rng.normal(size=(400, 2))
    labels = (rows[:, 0] - 0.5 * rows[:, 1] > 0).astype(int)
    weights, bias, mean, scale = fit(rows, labels, l2=0.1)
    model = RelevanceModel("test", ("cos_passage", "overlap"), tuple(mean), tuple(scale), tuple(weights), bias, 0.5)
    predicted = [model.probability({"cos_passage": a, "overlap": b}) >= 0.5 for a, b in rows]
    assert np.mean(np.array(predicted) == labels.astype(bool)) > 0.95
    assert weights[0] > 0 > weights[1]
    assert RelevanceModel.from_json(json.loads(json.dumps(model.to_json()))) == model


def test_a_weight_of_the_wrong_sign_is_dropped_and_the_rest_refitted():
    rng = np.random.default_rng(3)
    rows = rng.normal(size=(400, 3))
    labels = (rows[:, 0] - rows[:, 1] > 0).astype(int)     # the second feature pushes down
    free, _, _, _ = fit(rows, labels, l2=0.1)
    assert free[1] < 0
    constrained, _, _, _ = fit(rows, labels, l2=0.1, signs=(1, 1, 0))
    assert constrained[1] == 0 and constrained[0] > 0


def test_a_row_weighted_two_counts_as_that_row_twice():
    rng = np.random.default_rng(5)
    rows = rng.normal(size=(300, 2))
    labels = (rows[:, 0] + rng.normal(scale=1.0, size=300) > 0).astype(int)   # noisy: the fit has a finite optimum
    counts = rng.integers(1, 4, size=300)

    def probabilities(weights, bias, mean, scale):
        return 1 / (1 + np.exp(-(((rows - mean) / scale) @ weights + bias)))

    weighted = probabilities(*fit(rows, labels, l2=1e-6, sample_weights=counts))
    repeated = probabilities(*fit(np.repeat(rows, counts, axis=0), np.repeat(labels, counts), l2=1e-6))
    unweighted = probabilities(*fit(rows, labels, l2=1e-6))
    assert np.allclose(weighted, repeated, atol=1e-4)
    assert not np.allclose(weighted, unweighted, atol=1e-3)


def test_every_stored_weight_has_the_sign_its_feature_allows():
    for model in (default_model(), default_gate()):
        for feature, weight in zip(model.features, model.weights):
            assert SIGNS.get(feature, 0) * weight >= 0, feature


def test_the_stored_model_names_its_version_and_only_known_features():
    model = default_model()
    stored = json.loads(MODEL_FILE.read_text("utf-8"))
    assert model.version == stored["version"] and model.fitted_on
    assert set(model.features) <= set(FEATURES) and len(model.weights) == len(model.features)
    assert 0 < model.threshold < 1


@pytest.mark.parametrize("question, names", [
    ("Does Bun implement worker threads the same way the author does?", ["Bun"]),
    ("Как настроить webpack для бюджета?", ["webpack"]),        # any Latin word in another script
    ("Which pm2 settings keep the budget?", ["pm2"]),              # a digit
    ("Can MongoDB store the payload budget?", ["MongoDB"]),
    ("Who is the author's dentist?", []),                          # an ordinary word, unused or not
    ("Is the JavaScript budget per page?", []),                    # a name the pages use
    ("Budget first: is it per page?", []),                         # capitalised at a sentence start
])
def test_the_names_a_question_asks_about_that_no_page_mentions(release, question, names):
    assert Overlap.of(release).unknown_names(question) == names


@pytest.mark.parametrize("question, names", [
    ("Can Express parse the payload of a page?", ["Express"]),      # the pages' "express" is another word
    ("Can a page written in Express be checked?", ["Express"]),
    ("Does Trigsight check every page?", []),                       # the pages' own subject, whatever its case
    ("Can require('./Express') load a page?", []),                  # code keeps its own case
    ("Is the Sea near the author?", []),                            # the pages capitalise it once
])
def test_a_capitalised_name_the_pages_only_write_as_an_ordinary_word_is_unknown(tmp_path, question, names):
    pages = {f"/page{n}": [f"Page {n} says trigsight checks sentence {n} of the site."] for n in range(60)}
    pages["/author"] = ["Authors express their thanks by the sea.", "Sea air helps."]
    assert Overlap.of(Release.load(write_allowlist(tmp_path, pages))).unknown_names(question) == names


@pytest.mark.parametrize("question, names", [
    ("Does it run on PyPy?", ["PyPy"]),                 # one stem with the pages' PyPI, another name
    ("PyPy에서도 동작하나요?", ["PyPy"]),
    ("Can I install it from PyPI?", []),
    ("Are other APIs supported?", []),                  # the pages' "API", with an ending
    ("Does PyPI list the APIs?", []),
    ("Is it OK to check every page?", []),              # the capitals of chat name nothing
    ("Can I skip the check ASAP, BTW?", []),
])
def test_a_name_that_only_shares_its_stem_with_a_word_of_the_pages_is_unknown(tmp_path, question, names):
    pages = {f"/page{n}": [f"Page {n} says trigsight checks sentence {n} of the site."] for n in range(60)}
    pages["/install"] = ["Install it from PyPI with pip.", "The API lists the libraries it needs."]
    assert Overlap.of(Release.load(write_allowlist(tmp_path, pages))).unknown_names(question) == names


@pytest.mark.parametrize("question, names", [
    ("My AuthorSchema and BookSchema import each other. How do I nest them?", []),   # the asker's own classes
    ("Как вложить EmployeeSchema саму в себя?", []),
    ("Can I load PyInstaller bundles?", ["PyInstaller"]),        # a product: no class of the pages' code
    ("Does WebSocket work with a Schema?", ["WebSocket"]),
    ("Does my UserModel need a Schema?", ["UserModel"]),          # "Model" is no class of their code
])
def test_a_name_made_on_a_class_of_the_pages_code_is_the_askers_own_not_unknown(tmp_path, question, names):
    pages = {f"/page{n}": [f"Page {n} says a schema checks field {n} of the data."] for n in range(60)}
    pages["/nesting"] = ["Call Schema.load to read data.", "Write class Book(Schema) for books.",
                         "A Model is what the data is.", "A socket is not used."]
    assert Overlap.of(Release.load(write_allowlist(tmp_path, pages))).unknown_names(question) == names


@pytest.mark.parametrize("question, rare", [
    ("I think I found a hole in the sieve. Where is it supposed to go?", {"found", "hole", "siev"}),
    ("Is it just me, or does the sieve really leak?", {"siev", "leak"}),      # "just", "really" frame the question
    ("Does the sieve pay rewards?", {"siev", "pay", "reward"}),
])
def test_the_words_that_frame_a_question_are_not_its_rare_wording(tmp_path, question, rare):
    pages = {f"/page{n}": [f"Page {n} says trigsight checks sentence {n} of the site."] for n in range(60)}
    assert set(Overlap.of(Release.load(write_allowlist(tmp_path, pages))).rare(question)) == rare


@pytest.mark.parametrize("question, low, high", [
    ("Who is the author's dentist?", 0.5, 1.0),                  # asks about nothing the pages use
    ("What does the author write about?", 0.0, 0.0),
    ("Does the author write about text fragments on a boat?", 0.05, 0.4),   # one unused word among used ones
    ("作者の歯医者は誰ですか？", 0.0, 0.0),                          # bigrams are too fine to count
])
def test_the_share_of_a_question_the_pages_never_mention(release, question, low, high):
    assert low <= Overlap.of(release).unknown_share(question) <= high


def scored_with(release, features: dict[str, float], probability: float):
    return [(Candidate(release.passages_of("/budget")[0].id, 1, {**dict.fromkeys(FEATURES, 0.0), **features}),
             probability)]


def test_the_gate_refuses_what_the_question_level_model_finds_unanswered(release):
    weights = [0.0] * len(QUESTION_FEATURES)
    weights[QUESTION_FEATURES.index("unknown_names")] = -4.0
    gate = RelevanceModel("test", QUESTION_FEATURES, (0.0,) * len(weights), (1.0,) * len(weights), tuple(weights),
                          2.0, 0.5)
    near = {"cos_chunk": 0.7}
    assert answered(scored_with(release, near, 0.9), gate)
    assert not answered(scored_with(release, {**near, "unknown_names": 1.0}, 0.9), gate)
    assert answered(scored_with(release, {**near, "unknown_names": 1.0}, 0.9), None)   # no gate: the passages decide


@pytest.mark.parametrize("cos_chunk, cross, refused", [
    (0.15, 0.0, True),      # its own language, and still far: the pages never discuss it
    (SAME_LANGUAGE_FLOOR, 0.0, False),
    (0.15, 1.0, False),     # across languages the gate alone decides
])
def test_a_question_far_from_every_page_in_its_own_language_is_refused(release, cos_chunk, cross, refused):
    gate = RelevanceModel("test", QUESTION_FEATURES, (0.0,) * len(QUESTION_FEATURES), (1.0,) * len(QUESTION_FEATURES),
                          (0.0,) * len(QUESTION_FEATURES), 2.0, 0.5)       # would answer anything
    assert answered(scored_with(release, {"cos_chunk": cos_chunk, "cross": cross}, 0.9), gate) is not refused


def test_question_features_summarise_the_candidates(release):
    found = question_features(scored_with(release, {"overlap": 0.4, "cos_chunk": 0.7, "unknown_names": 1.0}, 0.8))
    assert found == {**found, "top": 0.8, "second": 0.0, "overlap_max": 0.4, "overlap_top": 0.4, "cos_chunk_max": 0.7,
                     "unknown_names": 1.0}
    assert question_features([]) == dict.fromkeys(QUESTION_FEATURES, 0.0)


@pytest.mark.parametrize("question, text, lacks", [
    ("How many tools do agents get?", "Agents get four tools.", False),
    ("Сколько инструментов у агентов?", "У агентов четыре инструмента.", False),
    ("ツールはいくつありますか", "ツールは四つあります。", False),
    ("도구는 몇 개인가요?", "도구는 네 가지입니다.", False),
    ("How long after publishing can I still unpublish a package?", "Packages are published to the registry.", True),
    ("Node.js 18의 지원 종료일은 언제인가요?", "Node-API is planned to be additive.", True),
    ("What does the gate check?", "The gate checks every link.", False),     # no quantity asked
    # a limit, an amount or a duration asks for a number too
    ("What is the maximum size of a page's script?", "The budget is 4,096 bytes.", False),
    ("What is the maximum size of a page's script?", "Scripts are measured over the wire.", True),
    ("Какой максимальный размер скрипта?", "Скрипты измеряются после сжатия.", True),
    ("保存してから再起動までどれくらい待ちますか", "ファイルを保存すると再起動します。", True),
    ("料金はいくらですか", "料金は無料です。", True),
    ("버퍼 크기는 얼마로 설정해야 하나요?", "버퍼 크기는 옵션으로 정합니다.", True),
    ("최대 몇 개까지 가능한가요?", "최대 10개까지 가능합니다.", False),
    ("Does going past the maximum listener count stop new listeners?", "A warning is printed.", False),  # yes or no
    # an age, a port, a share, a year, how long or how often, in each language
    ("How old is the author?", "The author writes about browsers.", True),
    ("Which port does the server listen on?", "The server listens on port 8000.", False),
    ("What percentage of links resolved?", "Most links resolved.", True),
    ("Как долго действуют сертификаты?", "Сертификаты выдаются бесплатно.", True),
    ("Как часто обновляются сертификаты?", "Сертификаты обновляются каждые 60 дней.", False),
    ("В каком году вышла первая версия?", "Первая версия вышла давно.", True),
    ("作者は何歳ですか？", "作者はブラウザについて書いています。", True),
    ("Which page does the chip open?", "The chip opens the cited page.", False),       # "which" alone asks no number
    # a number the question states itself does not answer it
    ("How many requests can a server handle on a 4-core machine?", "The machine has 4 cores.", True),
    ("timeout을 -1로 두면 타임아웃은 몇 밀리초인가요?", "timeout을 -1로 두면 기본값을 씁니다.", True),
    ("Сколько памяти нужно четырём воркерам, если каждый занимает 1 ГБ?", "Четыре воркера по 1 ГБ займут 4 ГБ.", False),
])
def test_a_question_asking_for_a_number_is_not_answered_by_a_sentence_without_one(question, text, lacks):
    assert lacks_number(question, text) is lacks



@pytest.mark.parametrize("question, text, lacks", [
    # a change log's version heading says in which release its change came, also over "Bug Fixes"
    ("In which version were the throttle's defaults fixed?", "Throttle keeps its defaults.", False),
    ("Какой версии исправили задержку?", "Delay waits.", False),
    ("몇 버전부터 Share가 초기화되나요?", "Share resets.", False),
    # a heading with no version says nothing of it
    ("How many seconds does the delay wait?", "Delay waits.", True),
])
def test_a_change_in_a_change_log_states_the_version_its_heading_names(write_content, tmp_path, question, text, lacks):
    site = built(write_content, tmp_path, CHANGELOG)
    [passage] = [p for p in site.passages if p.text == text]
    assert lacks_number(question, stated_by(passage, question)) is lacks

def test_the_stored_gate_reads_only_question_features():
    gate = default_gate()
    assert gate is not None and set(gate.features) <= set(QUESTION_FEATURES)
    assert 0 < gate.threshold < 1 and gate.version.endswith("-gate")


@pytest.fixture
def japanese(tmp_path) -> Release:
    return Release.load(write_allowlist(tmp_path, {
        "/errors": ["HTTPException を発生させる際には、JSON に変換できる任意の値を detail として渡せます。",
                    "TestClient は Pydantic モデルではなく JSON に変換できるデータを受け取ります。"],
    }, language="ja"))


@pytest.mark.parametrize("question, names_only, kept", [
    # English asked of Japanese pages: ordinary English words say nothing, names and code names do
    ("When I raise an HTTPException, can detail be a plain dict?", True, {"HTTPException"}),
    ("Can I hand my Pydantic model to TestClient directly?", True, {"Pydantic", "TestClient"}),
    ("HTTPException の detail に dict を渡せますか？", False, None),        # asked in the pages' script
    ("Можно ли передать dict в detail у HTTPException?", False, None),       # another script: its own rules
])
def test_an_english_question_on_pages_in_another_script_is_read_by_its_names(japanese, question, names_only, kept):
    overlap = Overlap.of(japanese)
    assert overlap.language == "ja"
    assert overlap.reads_names_only(question) is names_only
    if kept is not None:
        assert kept <= set(overlap.names_of(question).split())
        assert overlap.unknown_share(overlap.names_of(question)) == 0.0     # "raise", "plain" no longer count
        assert overlap.unknown_share(question) > 0.3                         # as they did before


def test_an_english_question_on_english_pages_is_read_whole(release):
    assert Overlap.of(release).language == "en"
    assert not Overlap.of(release).reads_names_only("Who is the author's dentist?")


def test_a_page_in_the_questions_own_language_is_read_against_the_question_as_asked(bundled_release):
    # a Russian question on the mostly English bundled site is bridged into English for the English
    # pages; its own Russian page must still be weighed against the Russian words it was asked in
    from trigsight.answering import offline, relevance
    from trigsight.retrieval.search import Retriever
    release, retriever = Release.load(bundled_release), Retriever.load(bundled_release)
    question = "Как браузер выделяет предложение?"
    hits, scores = offline.retrieve(question, retriever, release)
    assert scores.bridged and "browser" in scores.bridged
    found = {release.passage(c.passage_id).text: c.features["overlap"]
             for c in relevance.candidates(question, hits, scores, retriever, release, "ru")}
    answer = next(text for text in found if text.startswith("По щелчку на плашке"))
    assert found[answer] >= 0.5


@pytest.mark.parametrize("question, asks_of_changes", [
    ("How does pool_pre_ping test connections?", False),
    ("What changed in how pool_pre_ping tests connections?", True),       # asked of a change: the log tells
    ("Does 1.4 fix how pool_pre_ping tests connections?", True),          # a version named
    ("Зачем поменяли то, как pool_pre_ping проверяет соединения?", True),
    ("pool_pre_ping の接続チェックは以前はどうでしたか？", True),
])
def test_a_change_log_gives_way_to_the_page_that_tells_how_things_are_among_the_retrieved_chunks(
        tmp_path, question, asks_of_changes):
    from trigsight.answering import offline

    from indexed_site import indexed_site
    log = "".join(f"## 1.{n}\n\nFixed how pool_pre_ping tests connections on backend {n}.\n\n" for n in range(6))
    release, retriever = indexed_site(tmp_path, {
        "index.md": "# Pooling\n\nThe pool_pre_ping flag emits a ping on each checkout.\n",
        "changelog.md": "# Changelog\n\n" + log})
    hits, _ = offline.retrieve(question, retriever, release, k=3)
    if asks_of_changes:      # the chunks as retrieved
        assert [hit.chunk_id for hit in hits] == [hit.chunk_id for hit in retriever.search_scored(question, k=3)[0]]
    else:                    # the change log's six chunks ranked first gave way to the page's one
        assert [hit.page for hit in retriever.search_scored(question, k=3)[0]] == ["/changelog"] * 3
        assert [hit.page for hit in hits] == ["/", "/changelog", "/changelog"]


def test_a_site_without_a_change_log_keeps_its_retrieved_chunks_as_they_are(tmp_path):
    from trigsight.answering import offline

    from indexed_site import indexed_site
    pages = "".join(f"## Backend {n}\n\nThe pool_pre_ping flag tests connections on backend {n}.\n\n" for n in range(6))
    release, retriever = indexed_site(tmp_path, {"index.md": "# Pooling\n\n" + pages})
    question = "How does pool_pre_ping test connections?"
    hits, _ = offline.retrieve(question, retriever, release, k=3)
    assert [hit.chunk_id for hit in hits] == [hit.chunk_id for hit in retriever.search_scored(question, k=3)[0]]
