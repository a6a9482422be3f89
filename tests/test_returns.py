"""A return-value question ("What does fs.readFileSync() return?") is answered by its function's "Returns:" line."""
from __future__ import annotations

import pytest
from trigsight.answering import offline, returns
from trigsight.answering.return_terms import returned_of

from indexed_site import indexed_site, quoted_texts


@pytest.mark.parametrize("question, term, owners", [
    ("What does fs.readFileSync() return?", "fs.readFileSync", ()),
    ("What is the return value of path.parse()?", "path.parse", ()),
    ("What is returned by crypto.randomUUID()?", "crypto.randomUUID", ()),
    ("What do I get back from os.cpus()?", "os.cpus", ()),
    ("What do I get from calling os.cpus()?", "os.cpus", ()),
    ("What type is the value returned by process.hrtime.bigint()?", "process.hrtime.bigint", ()),
    ("Does readable.read() return null at the end?", "readable.read", ()),
    ("With the legacy API, what does url.format(urlObject) return?", "url.format", ()),
    ("What's the return value of emitter.emit() on an EventEmitter?", "emitter.emit", ("EventEmitter",)),
    ("What does express.Router() return, and can I mount it with app.use()?", "express.Router", ("app.use",)),
    ("Что возвращает os.hostname()?", "os.hostname", ()),
    ("Какой тип возвращает функция events.getMaxListeners(emitterOrTarget)?", "events.getMaxListeners", ()),
    ("path.join() は何を返しますか？", "path.join", ()),
    ("net.Server の server.address() は何を返しますか？", "server.address", ("net.Server",)),
    ("util.inspect() の戻り値の型は何ですか？", "util.inspect", ()),
    ("os.uptime() の戻り値を教えてください。", "os.uptime", ()),
    ("structlog.get_logger() の戻り値にはどんな型ヒントが付いていますか？", "structlog.get_logger", ()),
    ("os.uptime()의 반환값을 알려 주세요.", "os.uptime", ()),
    ("url.format()의 반환값은 무엇인가요?", "url.format", ()),
    # the name a possessive owns; a name in snake case; initials are no name
    ("What is the return value of an InlineProcessor's handleMatch method?", "handleMatch", ("InlineProcessor",)),
    ("napi_get_value_double の戻り値は？", "napi_get_value_double", ()),
    ("What does parse_snippet_target() return, e.g. for file.md?", "parse_snippet_target", ("file.md",)),
    ("process.memoryUsage()를 호출하면 어떤 값이 반환되나요?", "process.memoryUsage", ()),
])
def test_the_function_and_its_owners_are_read_from_a_return_value_question(question, term, owners):
    asked = returned_of(question)
    assert asked is not None and (asked.term, asked.owners) == (term, owners)


@pytest.mark.parametrize("question", [
    "How do I return JSON from a Flask view?",
    "What should a view function return?",
    "What happens if my listener returns false?",
    "Which exit codes can `black --check` return?",
    "What does the allowExpressions option of explicit-function-return-type default to?",
    "Что получит клиент, если данные, которые возвращает мой path operation, не проходят валидацию?",
    "markdown.markdown() の戻り値に <html> が含まれていません。オプションはありますか？",
    "의존성이 값을 반환하면, 그 값을 경로 작동 함수에서 받아 쓸 수 있나요?",
    "What is a stream?",
])
def test_a_question_that_asks_no_function_for_its_return_is_no_return_value_question(question):
    assert returned_of(question) is None


PAGES = {
    "fs.md": "# File system\n\n## fs.readFileSync(path[, options])\n\n"
             "- `path` {string|Buffer|URL|integer} filename or file descriptor\n"
             "- `options` {Object|string}\n"
             "  - `encoding` {string|null} **Default:** `null`.\n"
             "  - `callback` {Function} Any value is a valid return value.\n"
             "- Returns: {string|Buffer}\n\n"
             "Returns the contents of the `path`.\n\n"
             "For detailed information, see the documentation of `fs.readFile()`.\n\n"
             "If the `encoding` option is specified then this function returns a string. Otherwise it returns a buffer.\n\n"
             "## fs.writeFileSync(file, data[, options])\n\n"
             "- `file` {string|Buffer|URL|integer} filename or file descriptor\n\n"
             "Writes the data to the file synchronously.\n\n"
             "## fsPromises.readFile(path[, options])\n\n"
             "- `path` {string|Buffer|URL|FileHandle} filename or `FileHandle`\n"
             "- Returns: {Promise} Fulfills with the contents of the file.\n\n"
             "Asynchronously reads the entire contents of a file.\n",
    "stream.md": "# Stream\n\n## readable.read([size])\n\n- `size` {number}\n- Returns: {string|Buffer|null}\n\n"
                 "The readable.read() method reads data out of the internal buffer and returns it.\n\n"
                 "## readable.read(0)\n\nA refresh with no data consumed is sometimes needed. "
                 "In such cases, readable.read(0) will always return null.\n\n"
                 "## subtle.digest(algorithm, data)\n\n- `algorithm` {string}\n"
                 "- Returns: {Promise} Fulfills with an {ArrayBuffer}.\n\nGenerates a digest of the data.\n",
    "templates.rst": "Templates\n=========\n\n.. py:function:: render_page(name, context=None)\n\n"
                     "   Render a page from the template folder.\n\n   :param name: the template name\n"
                     "   :returns: the rendered page as a string\n   :rtype: str\n",
    "widgets.rst": "Widgets\n=======\n\n.. class:: spinner(frames)\n\n   Turn through frames one at a time.\n\n"
                   "   .. method:: next()\n\n      Return the current frame, then advance to the next one.\n\n"
                   "   .. method:: reset()\n\n      Resets the spinner to its first frame.\n\n"
                   ".. function:: banner(text, width=40)\n\n   Draw a banner. If width is 0, the text is returned unchanged.\n\n"
                   ".. function:: ruler(width)\n\n   Draws a line. Each call returns a new string.\n",
    "querysets.rst": "QuerySet API reference\n======================\n\nMethods that do not return QuerySets\n"
                     "------------------------------------\n\n``count()``\n~~~~~~~~~~~\n\n.. method:: count()\n"
                     "                acount()\n\n*Asynchronous version*: ``acount()``\n\n"
                     "Returns an integer representing the number of objects matching the query. For example:\n\n"
                     ".. code-block:: python\n\n    Entry.objects.count()\n\n"
                     "``in_bulk()``\n~~~~~~~~~~~~~\n\n.. method:: in_bulk(id_list=None)\n\n"
                     "Returns a dictionary mapping each id to its object.\n\n"
                     "Options\n=======\n\nThe legacy option selects the pre-1.6 Model.save() algorithm for every model. "
                     "It matters when a database trigger returns NULL on update.\n",
    "release-1.10.md": "# Release 1.10\n\n## Models\n\n"
                       "- QuerySet.in_bulk() may be called without any arguments to return all objects.\n\n"
                       "## QuerySet.count()\n\nCounting no longer loads the rows.\n",
    "urls.rst": "django.urls utility functions\n=============================\n\n``resolve()``\n-------------\n\n"
                ".. function:: resolve(path, urlconf=None)\n\n   The function returns a ResolverMatch object for the path.\n",
    "request.rst": "Request objects\n===============\n\n.. method:: HttpRequest.get_host()\n\n"
                   "   Returns the originating host of the request.\n",
    "dates.md": "# Dates\n\n## `parse_date(text)`\n\nParse a date written by a person.\n\n**Returns:**\n\n"
                "| Type | Description |\n|---|---|\n| `datetime` | The moment the text names, in UTC. |\n",
    "os.md": "# OS\n\n## os.homedir()\n\n- Returns: {string}\n\n"
             "Returns the string path of the current user's home directory.\n\n"
             "## os.loadavg()\n\n- Returns: {number[]}\n\n"
             "Returns an array containing the 1, 5, and 15 minute load averages.\n\n"
             "The load average is a measure of system activity calculated by the operating system.\n\n"
             "On Windows, the return value is always `[0, 0, 0]`.\n\n"
             "## osPromises.userInfo([options])\n\n- `options` {Object}\n\n"
             "Reads the current user's account. On success, the Promise is resolved with an object of its fields.\n\n"
             "## os.tmpdir()\n\n"
             "The `os.tmpdir()` method returns the operating system's default directory for temporary files.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return indexed_site(tmp_path_factory.mktemp("returns"), PAGES)


@pytest.mark.parametrize("question, quoted", [
    # the section's "Returns:" line and its sentences saying what it returns, not a parameter's "valid return value"
    ("os.homedir() は何を返しますか？", ["Returns: {string}", "Returns the string path of the current user's home directory."]),
    # of several sentences saying it, those nearest the question
    ("On Windows, what does os.loadavg() return?", [
        "Returns: {number[]}", "Returns an array containing the 1, 5, and 15 minute load averages.",
        "On Windows, the return value is always [0, 0, 0]."]),
    # a paragraph that names the function and says what it returns
    ("What does os.tmpdir() return?", [
        "The os.tmpdir() method returns the operating system's default directory for temporary files."]),
    # the pages' name for a namespace's promise API
    ("What does fs.promises.readFile() return?", [
        "Returns: {Promise} Fulfills with the contents of the file.",
        "Asynchronously reads the entire contents of a file."]),
    # a promise "resolved with" it; and "if I don't pass…", which would read as a default question otherwise
    ("What does the promise from osPromises.userInfo() resolve to?", [
        "Reads the current user's account.", "On success, the Promise is resolved with an object of its fields."]),
    ("What does fs.promises.readFile() return if I don't pass options?", [
        "Returns: {Promise} Fulfills with the contents of the file.",
        "Asynchronously reads the entire contents of a file."]),
    # of its sections, the one with a "Returns:" line; a name given without its module
    ("What does readable.read() return when there is no data in the internal buffer?", [
        "Returns: {string|Buffer|null}", "The readable.read() method reads data out of the internal buffer and returns it."]),
    ("What does crypto.subtle.digest() resolve to?", [
        "Returns: {Promise} Fulfills with an {ArrayBuffer}.", "Generates a digest of the data."]),
    # a Sphinx field list shown as Sphinx shows it ("Parameters:" is no name line); a table under "Returns:"
    ("What does render_page() return?", ["render_page(name, context=None)", "Returns: the rendered page as a string"]),
    ("parse_date() は何を返しますか？", [
        "Parse a date written by a person.", "datetime", "The moment the text names, in UTC."]),
    # a method named under its class alone; a function's run ends at the next one's line
    ("What does spinner.next() return?", ["next()", "Return the current frame, then advance to the next one."]),
    ("What does banner() return?", ["banner(text, width=40)", "If width is 0, the text is returned unchanged."]),
    ("What does spinner.reset() return?", []),
    ("What does ruler.next() return?", []),
    # a method under its class's page, its two signatures each a line as Sphinx shows them, the first its name
    # line; a lead-in without its code is no quote
    ("What does QuerySet.count() return?", [
        "count()", "Returns an integer representing the number of objects matching the query."]),
    # a function the pages never name, or whose own section never says what it returns
    ("What does fs.readJsonSync() return?", []),
    ("What does lodash's _.chunk() return?", []),
    ("What does fs.writeFileSync() return?", []),
])
def test_a_return_value_is_answered_by_the_lines_of_its_functions_section(site, question, quoted):
    release, retriever = site
    assert quoted_texts(question, release, retriever) == quoted


@pytest.mark.parametrize("question, answer", [
    # a module path the pages write as the page's subject; an instance the pages write as its class
    ("What does django.urls.resolve() return?", "The function returns a ResolverMatch object for the path."),
    ("What does request.get_host() return?", "Returns the originating host of the request."),
    # its own section before a release note's list item that names it, or a release note's heading that says no return
    ("What does QuerySet.in_bulk() return?", "Returns a dictionary mapping each id to its object."),
    ("What is the return value of QuerySet.count()?",
     "Returns an integer representing the number of objects matching the query."),
])
def test_a_function_written_otherwise_by_the_pages_is_answered_from_its_own_section(site, question, answer):
    release, retriever = site
    assert answer in quoted_texts(question, release, retriever)


def test_a_parameters_valid_return_value_is_not_its_functions(site):
    release, retriever = site
    texts = quoted_texts("What does fs.readFileSync() return?", release, retriever)
    assert texts[:2] == ["Returns: {string|Buffer}", "Returns the contents of the path."]
    assert texts[2] in ("If the encoding option is specified then this function returns a string.",
                        "Otherwise it returns a buffer.")


def test_a_paragraph_naming_a_function_and_then_another_thing_that_returns_is_no_answer(site):
    release, retriever = site
    question = "What does Model.save() return?"
    hits, scores = offline.retrieve(question, retriever, release)
    assert returns.returning(question, hits, retriever, release, scores) is None


def test_a_question_that_is_no_return_value_question_is_left_to_the_other_rules(site):
    release, retriever = site
    question = "How do I read a file synchronously?"
    hits, scores = offline.retrieve(question, retriever, release)
    assert returns.returning(question, hits, retriever, release, scores) is None


def test_a_model_is_issued_the_return_value_first(site):
    release, retriever = site
    hits, _ = offline.retrieve("What does os.homedir() return?", retriever, release)
    first = [release.passage(p).text for hit in hits[:2] for p in hit.passage_ids]
    assert {"Returns: {string}", "Returns the string path of the current user's home directory."} <= set(first)
