"""An occasion question ("When is the 'drain' event emitted?") is answered by what says when it happens."""
from __future__ import annotations

import pytest
from trigsight.answering import offline
from trigsight.answering.definitions import heading_names, says_something
from trigsight.answering.occasion_terms import occasion_of
from trigsight.answering.relevance import lacks_number

from indexed_site import indexed_site, quoted_texts


@pytest.mark.parametrize("question, term, owners", [
    ("When is the 'drain' event emitted?", "drain", ()),
    ("When does ERR_REQUIRE_ESM get thrown?", "ERR_REQUIRE_ESM", ()),
    ("What causes EADDRINUSE?", "EADDRINUSE", ()),
    ("Why do I keep getting ECONNRESET when I call the API?", "ECONNRESET", ()),
    ("In my app, when does the teardown_request callback run?", "teardown_request", ()),
    ("http server: in what situation is 'dropRequest' emitted?", "dropRequest", ()),
    ("When does rule MD009 (no-trailing-spaces) report a line?", "MD009", ()),
    ("When does MD013 actually report a line?", "MD013", ()),     # the subject, when it is the name
    ("When does a ChildProcess emit its 'close' event (as opposed to 'exit')?", "close", ("ChildProcess",)),
    ("When does Express fire the 'mount' event on a sub-app?", "mount", ("Express",)),
    ("When does husky's pre-commit hook run after I npm install it?", "pre-commit", ("husky",)),
    ("Когда возникает ошибка EMFILE?", "EMFILE", ()),
    ("В каких случаях process генерирует событие 'rejectionHandled'?", "rejectionHandled", ("process",)),
    ("Когда выполняется скрипт postpack?", "postpack", ()),
    # a dotted owner after "у"/"в" is no end of the sentence
    ("Когда срабатывает событие close у http.Server?", "close", ("http.Server",)),
    ("Когда возникает ошибка EACCES в fs.open()?", "EACCES", ("fs.open",)),
    # a Latin word its role word calls an event names it, in a question in another script
    ("Когда Worker испускает событие exit?", "exit", ("Worker",)),
    ("EADDRINUSE はどんなときに発生しますか？", "EADDRINUSE", ()),
    ("readline で 'SIGCONT' イベントが発生するのはどんなときですか？", "SIGCONT", ("readline",)),
    ("nodemon の 'restart' イベントはいつ発行されますか？", "restart", ("nodemon",)),
    ("'finish' 이벤트는 언제 발생하나요?", "finish", ()),
    ("ECONNRESET 오류는 보통 어떤 상황에서 발생하나요?", "ECONNRESET", ()),
    ("worker_threads의 Worker 객체에서 'exit' 이벤트는 언제 발생하나요?", "exit", ("worker_threads",)),
    ("MD045 규칙은 언제 위반을 보고하나요?", "MD045", ()),
    # named earlier in the question: "this event", "it", "이건", a question without a subject
    ("My socket emits 'listening' before I call bind(). When does this event fire?", "listening", ()),
    ("Does the prepublishOnly script also run on npm pack, or when exactly does it run?", "prepublishOnly", ()),
    ("I saw a \"dependencies\" entry under scripts. When does npm run that lifecycle script?", "dependencies", ("npm",)),
    ("ERR_SERVER_ALREADY_LISTEN というエラーが出ました。どういう場合に投げられるのでしょうか？", "ERR_SERVER_ALREADY_LISTEN", ()),
    ("ETIMEDOUT 에러가 자주 나는데, 이건 보통 어떤 상황에서 발생하나요?", "ETIMEDOUT", ()),
    # a name, not a quoted snippet of code; of two questions in one, the first; an owner after "of"
    ("ESLint flags `import foo from './foo'` with import/default. In what situation does that rule complain?",
     "import/default", ()),
    ("I'm writing a build hook. When does its initialize method run, and when does finalize run?", "initialize", ()),
    ("When is the close event of a ChildProcess emitted?", "close", ("ChildProcess",)),
    ("When does Hatch call the dependencies_in_sync method of an environment plugin?", "dependencies_in_sync", ("Hatch",)),
])
def test_an_occasion_question_is_read_for_its_thing_and_owners(question, term, owners):
    asked = occasion_of(question)
    assert (asked.term, asked.owners) == (term, owners)


@pytest.mark.parametrize("question", [
    "When should I use streams?", "When was Node.js 20 released?", "When was fs.rm() added?", "What is a stream?",
    "When do I need to call end()?", "When does npm ci exit with an error?",
    "For a custom rule, when does markdownlint call the rule's function?",    # names nothing to look up
    # "that error" after a quoted message is the message
    "I'm getting \"The setup method 'route' can no longer be called on the application\". What triggers that error?",
])
def test_a_question_about_no_occasion_of_a_named_thing_is_left_alone(question):
    assert occasion_of(question) is None


@pytest.mark.parametrize("question, text, lacks", [
    # "when" asks for a condition, not for a date
    ("When does ERR_REQUIRE_ESM get thrown?", "An attempt was made to require() an ES Module.", False),
    ("'finish' 이벤트는 언제 발생하나요?", "The 'finish' event is emitted after end() is called.", False),
    ("When does Node.js 18 reach its end of life?", "Node.js 18 is a long-term support release.", True),
])
def test_a_when_asks_for_a_date_only_when_it_asks_about_no_occasion(question, text, lacks):
    assert lacks_number(question, text) is lacks


@pytest.mark.parametrize("heading, name", [
    ("MD013 - Line length", frozenset({"md013"})),
    ("`MD036` - Emphasis used instead of a heading", frozenset({"md036"})),
    ("E501: line too long", frozenset({"e501"})),
])
def test_a_heading_that_gives_an_identifier_and_a_title_names_the_identifier(heading, name):
    assert name in heading_names(heading)


@pytest.mark.parametrize("text, says", [
    ("💼 This rule is enabled in the following configs: ❗ errors, ☑️ recommended.", False),
    ("❌ This rule is deprecated.", False),
    ("Forbids a module from importing itself.", True),
])
def test_a_badge_that_a_symbol_opens_does_not_open_a_section_s_account(text, says):
    assert says_something(text) is says


PAGES = {
    "stream.md": "# Stream\n\n## Class: Transform\n\nA transform stream changes what passes through it.\n\n"
                 "### Event: 'finish'\n\nThe 'finish' event is an event emitted by streams.\n\n"
                 "## Class: Writable\n\nA writable stream is a destination for data.\n\n"
                 "### Event: 'drain'\n\nThe 'drain' event is emitted when it is appropriate to resume writing.\n\n"
                 "### Event: 'close'\n\nThe 'close' event is emitted when the stream has been closed.\n\n"
                 "### stream.finished(stream)\n\nA function to get notified when a stream is no longer readable.\n\n"
                 "### Event: 'finish'\n\nThe 'finish' event is emitted after end() is called and all data is flushed.\n\n"
                 "## Class: Socket\n\nA socket is a stream over a network.\n\n"
                 "### Event: 'close'\n\nEmitted once the socket is fully closed. "
                 "Its argument says whether the socket was closed due to a transmission error.\n\n"
                 "If the reader goes away, a write may run into an EPIPE error.\n",
    "errors.md": "# Errors\n\n## ERR_REQUIRE_ESM\n\n> Stability: 0 - Deprecated\n\n"
                 "An attempt was made to require() an ES Module.\n\n"
                 "## Common system errors\n\n"
                 "- EADDRINUSE (Address already in use): An attempt to bind a server to a local address failed.\n"
                 "- EPIPE (Broken pipe): A write on a pipe for which there is no process to read the data.\n",
    "scripts.md": "# Scripts\n\n## Life cycle scripts\n\n**postpack**\n\n"
                  "- Runs AFTER the tarball has been generated but before it is moved (if at all)\n\n"
                  "We express our thanks to everyone who wrote a script.\n",
    "rules.md": "# Rules\n\n## MD013 - Line length\n\nParameters:\n\n- line_length: Number of characters (default 80).\n\n"
                "This rule is triggered when there are lines that are longer than the configured line length.\n\n"
                "## import/no-self-import\n\n💼 This rule is enabled in the recommended config.\n\n"
                "Forbids a module from importing itself.\n",
    "validation.md": "# Validation\n\nA RequestValidationError is a subclass of the ValidationError class.\n\n"
                     "When a request contains invalid data, the framework raises a RequestValidationError.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return indexed_site(tmp_path_factory.mktemp("occasions"), PAGES)


@pytest.mark.parametrize("question, quoted", [
    # the account in the section the name heads, one that says when first; "finish" is not stream.finished()
    ("When is the 'drain' event emitted?", ["The 'drain' event is emitted when it is appropriate to resume writing."]),
    ("'finish' 이벤트는 언제 발생하나요?", ["The 'finish' event is emitted after end() is called and all data is flushed."]),
    ("When is the 'finish' event emitted?", ["The 'finish' event is emitted after end() is called and all data is flushed."]),
    # of two sections, the one under the class the question names, with the rest of its paragraph
    ("When does a Socket emit its 'close' event?", [
        "Emitted once the socket is fully closed.",
        "Its argument says whether the socket was closed due to a transmission error."]),
    # past a banner; an error by its entry in a list of them, before a sentence that says when one comes up
    ("Why do I get ERR_REQUIRE_ESM?", ["An attempt was made to require() an ES Module."]),
    ("EPIPE はどんなときに発生しますか？", ["EPIPE (Broken pipe): A write on a pipe for which there is no process to read the data."]),
    # a name alone on its line, then what it does in a list item without a full stop
    ("Когда выполняется скрипт postpack?",
     ["Runs AFTER the tarball has been generated but before it is moved (if at all)"]),
    # a heading that gives the rule's identifier; past its parameters
    ("When does MD013 report a line?",
     ["This rule is triggered when there are lines that are longer than the configured line length."]),
    # past a badge
    ("When does import/no-self-import report an import?", ["Forbids a module from importing itself."]),
    # what says when it comes about before what it is
    ("What causes a RequestValidationError?",
     ["When a request contains invalid data, the framework raises a RequestValidationError."]),
    # a name the pages never give, as the thing or as its owner ("express" is only a word here)
    ("Why do I get ERR_NO_SUCH_THING?", []),
    ("When does Express fire the 'mount' event?", []),
])
def test_an_occasion_is_answered_by_the_account_of_the_thing(site, question, quoted):
    release, retriever = site
    assert quoted_texts(question, release, retriever) == quoted


def test_a_model_is_issued_the_account_first(site):
    release, retriever = site
    hits, _ = offline.retrieve("When is the 'drain' event emitted?", retriever, release)
    assert release.passage(hits[0].best_passage).text == "The 'drain' event is emitted when it is appropriate to resume writing."
