"""A default-value question ("What is the default value of maxHeaderSize?") is answered by what gives it."""
from __future__ import annotations

import pytest
from trigsight.answering import defaults, offline
from trigsight.answering.default_terms import default_of

from indexed_site import indexed_site, quoted_texts


@pytest.mark.parametrize("question, term, owners", [
    ("What is the default value of maxHeaderSize?", "maxHeaderSize", ()),
    ("What is the default highWaterMark for streams?", "highWaterMark", ("streams",)),
    ("What's the default line length in Black?", "line length", ("Black",)),
    ("What does the keepAlive option of http.Agent default to?", "keepAlive", ("http.Agent",)),
    ("What is MD013's default line_length?", "line_length", ("MD013",)),
    ("Is save-exact enabled by default?", "save-exact", ()),
    ("What value does keepAliveMsecs have by default?", "keepAliveMsecs", ()),
    ("What is html_theme by default?", "html_theme", ()),
    ("What's UV_THREADPOOL_SIZE set to out of the box?", "UV_THREADPOOL_SIZE", ()),
    ("Is round-robin (cluster.SCHED_RR) the default cluster.schedulingPolicy?", "cluster.schedulingPolicy", ()),
    ("If I don't pass the scheduling option to new http.Agent(), which strategy does it use?", "scheduling",
     ("http.Agent",)),
    ("If I leave out the main field in package.json, what does it default to?", "main", ("package.json",)),
    ("If fetch-retries is not set, how many retries does npm make?", "fetch-retries", ()),
    ("When I call run() without a timeout option, what timeout does a test get by default?", "timeout", ()),
    ("How many times does npm retry a fetch by default (fetch-retries)?", "fetch-retries", ()),
    ("How many spaces does MD007 (ul-indent) expect if I don't configure indent?", "indent", ("MD007", "ul-indent")),
    ("Какое значение по умолчанию у keepAliveMsecs?", "keepAliveMsecs", ()),
    ("Какое значение по умолчанию имеет параметр line_length в MD013?", "line_length", ("MD013",)),
    ("Включена ли опция save-exact по умолчанию?", "save-exact", ()),
    ("Если не указывать maxBuffer в child_process.exec(), какой лимит используется по умолчанию?", "maxBuffer",
     ("child_process.exec",)),
    ("Какая минимальная версия TLS (minVersion) используется по умолчанию?", "minVersion", ("TLS",)),
    ("server.timeout のデフォルト値は？", "server.timeout", ()),
    ("fs.createReadStream() の highWaterMark のデフォルト値は何ですか？", "highWaterMark", ("fs.createReadStream",)),
    ("util.inspect() で depth を指定しない場合、何階層まで展開されますか？", "depth", ("util.inspect",)),
    ("toc 拡張の separator（id の空白を置き換える文字）のデフォルトは何ですか？", "separator", ()),
    ("fs.mkdir의 recursive 옵션 기본값은 무엇인가요?", "recursive", ("fs.mkdir",)),
    ("net 서버의 server.listen()에서 backlog를 지정하지 않으면 기본값은 얼마인가요?", "backlog", ("server.listen",)),
    ("MD040의 allowed_languages 기본값은 무엇인가요?", "allowed_languages", ("MD040",)),
    # the name left unset is the setting, the one called a setting around it its owner (Django's docs)
    ("CACHES 설정에서 TIMEOUT을 따로 지정하지 않으면 캐시 키는 얼마 동안 유지되나요?", "TIMEOUT", ("CACHES",)),
    ("CACHES の設定で TIMEOUT を指定しない場合、キャッシュはどれくらい保持されますか？", "TIMEOUT", ("CACHES",)),
    ("If I don't set TIMEOUT in the CACHES setting, how long are keys kept?", "TIMEOUT", ("CACHES",)),
    # the name beside the default word owns the setting the question names as code around it
    ("Какой highWaterMark по умолчанию у Readable?", "highWaterMark", ("Readable",)),
    ("Readable のデフォルトの highWaterMark は何ですか？", "highWaterMark", ("Readable",)),
    ("Какой timeout по умолчанию у http.request?", "timeout", ("http.request",)),
    # beside a name written as code, a lower-case Latin word of a Russian question is the setting
    ("Какое значение по умолчанию имеет timeout у http.request?", "timeout", ("http.request",)),
    ("Какой shell по умолчанию использует child_process.exec в Windows?", "shell", ("child_process.exec",)),
    ("child_process.exec はデフォルトでどの shell を使いますか？", "shell", ("child_process.exec",)),
    ("child_process.exec가 기본으로 사용하는 shell은 무엇인가요?", "shell", ("child_process.exec",)),
    ("What shell does child_process.exec use by default?", "shell", ("child_process.exec",)),
    ("What prompt does repl.start() print when I don't set the prompt option?", "prompt", ("repl.start",)),
    # "where" asks for a value too (a folder), and "if I leave it out" leaves the setting unset
    ("Where does stubgen write the stubs if I don't pass -o?", "-o", ()),
    ("What value does --line-length take if I leave it out?", "--line-length", ()),
    # without a dotted owner, a plain Latin word is no setting
    ("wikilinks 拡張のデフォルトの html_class は何ですか？", "html_class", ()),
])
def test_the_setting_and_its_owners_are_read_from_a_default_question(question, term, owners):
    asked = default_of(question)
    assert asked is not None and (asked.term, asked.owners) == (term, owners)


@pytest.mark.parametrize("question", [
    "What is the default?",
    "Which formatter is used by default?",
    "When is the 'drain' event emitted?",
    "What is a stream?",
    "How do I change the registry?",
    "Should I use run() or enterWith()?",
    # the name is what the question serializes with, not a setting: it asks which fields come out by default
    "as_json でオブジェクトをシリアライズすると、デフォルトではどのフィールドが出力されますか？",
    "as_json으로 직렬화하면 기본적으로 어떤 필드가 출력되나요?",
    "`as_json()` でシリアライズすると、デフォルトではどのフィールドが出力されますか？",
])
def test_a_question_that_names_no_setting_is_no_default_question(question):
    assert default_of(question) is None


@pytest.mark.parametrize("question", [
    "Какая длина строки по умолчанию у Black?",
    "Какая длина строки у Black по умолчанию?",
    "Какая кодировка по умолчанию у fs.readFile?",
    "fs.readFile のデフォルトのエンコーディングは何ですか？",
    "Black のデフォルトの行の長さは何ですか？",
    "Какая версия TLS по умолчанию у tls.connect?",
])
def test_a_setting_named_in_the_questions_own_words_is_not_read_as_the_name_that_owns_it(question):
    assert default_of(question) is None


PAGES = {
    "http.md": "# HTTP\n\n## new Agent([options])\n\n"
               "- `options` {Object} Set of configurable options to set on the agent.\n"
               "  - `keepAlive` {boolean} Keep sockets around even when there are no outstanding requests. "
               "**Default:** `false`.\n"
               "  - `keepAliveMsecs` {number} When using the `keepAlive` option, specifies the initial delay. "
               "Ignored when the `keepAlive` option is `false`. **Default:** `1000`.\n"
               "  - `timeout` {number} Socket timeout in milliseconds.\n\n"
               "## http.createServer([options])\n\n"
               "- `options` {Object}\n"
               "  - `keepAlive` {boolean} If set to `true`, it enables keep-alive on the socket. **Default:** `true`.\n\n"
               "## http.maxHeaderSize\n\n- {number}\n\n"
               "Read-only property specifying the maximum allowed size of HTTP headers in bytes. Defaults to 16 KiB.\n\n"
               "## server.listen()\n\n"
               "All listen() methods can take a backlog parameter to specify the queue length. "
               "The default value of this parameter is 511.\n",
    "config.md": "# Config\n\n## Settings\n\n#### `save-exact`\n\n* Default: false\n* Type: Boolean\n\n"
                 "Dependencies saved to package.json will be configured with an exact version.\n\n"
                 "#### `fetch-timeout`\n\n* Type: Number\n\nThe maximum amount of time to wait for HTTP requests.\n",
    "rules.md": "# Rules\n\n## MD013 - Line length\n\nParameters:\n\n"
                "- `line_length`: Number of characters (`integer`, default `80`)\n"
                "- `strict`: Strict length checking (`boolean`, default `false`)\n\n"
                "This rule is triggered when there are lines that are longer than the configured line length.\n",
    "settings.md": "# Settings\n\n## Testing\n\nWrite tests before you change a setting.\n\n"
                   "## Builtin values\n\n`TESTING`\n\n: Enable testing mode. Exceptions are propagated.\n\n"
                   ": Default: `False`\n\n`SECRET_KEY`\n\n: A secret key for signing cookies. "
                   "Each request defaults to this key.\n\n: Default: `None`\n\n`SERVER_NAME`\n\n: The host name.\n",
    "lint.md": "# Lint rules\n\n## no-unresolved\n\n- `ignore`: array of globs for modules to leave unresolved.\n\n"
               "## order\n\nValid values: `\"ignore\"` | `\"always\"`. Default: `\"ignore\"`\n\n"
               "## max-dependencies\n\n- `max`: the most dependencies a module may have. Default is 10.\n",
    "conf.md": "# Configuration\n\n## Options for HTML output\n\n`html_theme`\n\nType: `str`\n\n"
               "Default: `'alabaster'`\n\nThe theme for HTML output.\n\n`html_title`\n\nType: `str`\n\n"
               "The title of the HTML documentation.\n",
    "highlight.md": "# Highlight\n\n## Options\n\n"
                    "Option | Type | Default | Description\n------ | ---- | ------- | -----------\n"
                    "`css_class` | string | `'highlight'` | Class to apply to the wrapper element.\n"
                    "`guess_lang` | bool | `False` | Guess the language when none is given.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return indexed_site(tmp_path_factory.mktemp("defaults"), PAGES)


@pytest.mark.parametrize("question, quoted", [
    # a list item that opens with the setting's name, with its default; of two, the one under the owner named
    ("What does the keepAlive option of new Agent default to?", [
        "keepAlive {boolean} Keep sockets around even when there are no outstanding requests.", "Default: false."]),
    ("What is the default keepAlive of http.createServer?", [
        "keepAlive {boolean} If set to true, it enables keep-alive on the socket.", "Default: true."]),
    ("Какое значение по умолчанию у keepAliveMsecs?", [
        "keepAliveMsecs {number} When using the keepAlive option, specifies the initial delay.",
        "Ignored when the keepAlive option is false.", "Default: 1000."]),
    # a section the name heads: what it says, and the sentence that gives the default
    ("What is the default value of maxHeaderSize?", [
        "Read-only property specifying the maximum allowed size of HTTP headers in bytes.", "Defaults to 16 KiB."]),
    # its other fields ("Type: Boolean") are not its default
    ("Is save-exact enabled by default?", [
        "Default: false", "Dependencies saved to package.json will be configured with an exact version."]),
    ("What is html_theme by default?", ["html_theme", "Default: 'alabaster'"]),
    # the default inside the entry; a table row, by its "Default" cell
    ("MD013 の line_length のデフォルト値は何ですか？", ["line_length: Number of characters (integer, default 80)"]),
    ("guess_lang의 기본값은 무엇인가요?", ["guess_lang", "False"]),
    # a paragraph about the setting, and its sentence that says what it is by default
    ("What is the default backlog of server.listen()?", [
        "All listen() methods can take a backlog parameter to specify the queue length.",
        "The default value of this parameter is 511."]),
    # a name that is also an attribute word in a definition question
    ("What is the default max for max-dependencies?", ["max: the most dependencies a module may have.", "Default is 10."]),
    # a line of the name alone, up to the next name line, and its labelled default ("Default:" before "defaults to")
    ("Is TESTING enabled by default?", ["TESTING", "Enable testing mode.", "Default: False"]),
    ("SECRET_KEY のデフォルト値は？", ["SECRET_KEY", "A secret key for signing cookies.", "Default: None"]),
    # a setting the pages never give, or document in a section of its own that gives no default
    ("What is the default value of --max-frobnicate-size?", []),
    ("What is the default fetch-timeout?", []),
    ("What is the default SERVER_NAME?", []),
])
def test_a_default_is_answered_by_the_sentence_beside_the_setting(site, question, quoted):
    release, retriever = site
    assert quoted_texts(question, release, retriever) == quoted


@pytest.mark.parametrize("question", [
    "What is the default timeout of new Agent?",
    "What does queue length default to?",
    # its own entry, under the owner asked about, is silent; the default found is another rule's value
    "What is the default value of the ignore option of no-unresolved?",
])
def test_a_setting_given_no_default_beside_it_is_left_to_the_other_rules(site, question):
    release, retriever = site
    hits, scores = offline.retrieve(question, retriever, release)
    assert defaults.defaulting(question, hits, retriever, release, scores) is None


def test_a_model_is_issued_the_default_first(site):
    release, retriever = site
    hits, _ = offline.retrieve("What is the default value of maxHeaderSize?", retriever, release)
    assert release.passage(hits[0].best_passage).text == (
        "Read-only property specifying the maximum allowed size of HTTP headers in bytes.")


FORMATTER_PAGES = {
    "style.md": "# The code style\n\n## Line length\n\n"
                "You probably noticed the peculiar default line length. "
                "Black defaults to 88 characters per line, which happens to be 10% over 80.\n\n"
                "## Trailing commas\n\nBlack will add trailing commas to expressions that are split by comma.\n",
    "notebooks.md": "# Jupyter notebooks\n\n## Magics\n\n"
                    "Black understands IPython magics, but is conservative about which cells it will format. "
                    "By default, Black recognizes standard IPython magics.\n",
}


@pytest.mark.parametrize("question", [
    "Какая длина строки по умолчанию у Black?",
    "Black のデフォルトの行の長さは何ですか？",
])
def test_a_products_default_asked_in_other_words_is_answered_by_what_it_says_of_that_setting(tmp_path, question):
    release, retriever = indexed_site(tmp_path, FORMATTER_PAGES)
    texts = quoted_texts(question, release, retriever)
    assert "Black defaults to 88 characters per line, which happens to be 10% over 80." in texts
    assert "By default, Black recognizes standard IPython magics." not in texts


LOOSE_LIST_PAGES = {
    "wikilinks.md": "# WikiLinks\n\n## Usage\n\nThe following options are provided:\n\n"
                    "* **`base_url`**: String to append to beginning of URL.\n\n    Default: `'/'`\n\n"
                    "* **`html_class`**: CSS class. Leave blank for none.\n\n    Default: `'wikilink'`\n\n"
                    "* **`build_url`**: Callable which formats the URL from its parts.\n",
}


@pytest.mark.parametrize("question, quoted", [
    ("What is the default html_class of the WikiLinks extension?",
     ["html_class: CSS class.", "Leave blank for none.", "Default: 'wikilink'"]),
    ("WikiLinks 확장에서 base_url를 지정하지 않으면 기본값은 무엇인가요?",
     ["base_url: String to append to beginning of URL.", "Default: '/'"]),
])
def test_a_loose_list_items_default_in_its_own_paragraph_is_the_items(tmp_path, question, quoted):
    release, retriever = indexed_site(tmp_path, LOOSE_LIST_PAGES)
    assert quoted_texts(question, release, retriever) == quoted


OPTION_PAGES = {
    "stubgen.rst": "Stubgen\n=======\n\nStubgen writes stub files.\n\nOptions\n*******\n\n"
                   ".. option:: -o PATH, --output PATH\n\n"
                   "   Change the output directory. By default the stubs are written in the ``./out`` directory.\n\n"
                   ".. option:: --python-executable EXECUTABLE\n\n"
                   "   Collect type information for the Python executable EXECUTABLE.\n"
                   "   If not provided, stubgen uses the Python executable running it.\n\n"
                   ".. option:: -v, --verbose\n\n   Produce more verbose output.\n\n"
                   ".. option:: -r CHARS, --report-chars=CHARS\n\n   Show extra test summary info as specified by chars:\n\n"
                   + "".join(f"   * {c}: {what}\n" for c, what in zip("fEsxXpPaAN", (
                       "failed", "error", "skipped", "xfailed", "xpassed", "passed", "passed with output",
                       "all except passed", "all", "resets the list"))) +
                   "   * w: warnings (enabled by default)\n\n   Default: 'fE'\n",
}


@pytest.mark.parametrize("question, quoted", [
    # an option's name line ("-o PATH, --output PATH") opens its entry, which gives the default
    ("Where does stubgen write the stubs if I don't pass -o?", [
        "-o PATH, --output PATH", "Change the output directory.",
        "By default the stubs are written in the ./out directory."]),
    ("What value does --output take if I leave it out?", [
        "-o PATH, --output PATH", "Change the output directory.",
        "By default the stubs are written in the ./out directory."]),
    # in its own entry, what holds without it is its default
    ("What is the default value of --python-executable?", [
        "--python-executable EXECUTABLE", "Collect type information for the Python executable EXECUTABLE.",
        "If not provided, stubgen uses the Python executable running it."]),
    # the entry's own "Default:" line after a long list, not an item that mentions a default
    ("What does --report-chars default to?", [
        "-r CHARS, --report-chars=CHARS", "Show extra test summary info as specified by chars:", "Default: 'fE'"]),
])
def test_a_command_line_options_default_is_read_from_its_entry(tmp_path, question, quoted):
    release, retriever = indexed_site(tmp_path, OPTION_PAGES)
    assert quoted_texts(question, release, retriever) == quoted


BY_DEFAULT = "By default, the node and v8 categories of trace events are enabled."
TRACING_PAGES = {
    "tracing.md": "# Tracing\n\nThe tracing module collects trace events from the runtime.\n\n"
                  "Calling `tracing.enable()` adds the categories to the set of enabled trace event categories. "
                  "Calling `tracing.disable()` removes the categories from the set of enabled trace event categories.\n\n"
                  "The current set of enabled trace event categories is the union of every enabled tracing object.\n\n"
                  "By default, the node and v8 categories of trace events are enabled.\n",
    "timers.md": "# Timers\n\nA timer calls its callback after a delay. A timer that is unref'd does not keep the "
                 "event loop alive.\n",
}


@pytest.mark.parametrize("question, first", [
    # no setting named: the sentence that says what holds by default leads, in any language
    ("Which trace event categories are enabled by default?", BY_DEFAULT),
    ("기본으로 활성화되는 트레이스 이벤트 카테고리는 무엇인가요?", BY_DEFAULT),
    ("Какие категории трассировки включены по умолчанию?", BY_DEFAULT),
])
def test_a_sentence_saying_what_holds_by_default_leads_a_default_question(tmp_path, question, first):
    release, retriever = indexed_site(tmp_path, TRACING_PAGES)
    assert quoted_texts(question, release, retriever)[0] == first


def test_a_question_that_asks_no_default_is_not_led_by_one(tmp_path):
    release, retriever = indexed_site(tmp_path, TRACING_PAGES)
    quoted = quoted_texts("Which trace event categories are enabled?", release, retriever)
    assert quoted and not quoted[0].startswith("By default")
