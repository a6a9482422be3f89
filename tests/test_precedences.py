"""A precedence question ("Which one wins when both are set?") is answered first by the sentence that settles it."""
from __future__ import annotations

import pytest
from trigsight.answering import offline, precedences
from trigsight.answering.precedences import asked_names, asks_precedence

from indexed_site import indexed_site


@pytest.mark.parametrize("question", [
    "If I set NODE_OPTIONS and also pass the flag on the command line, which one does Node use?",
    "Our project root has both package-lock.json and npm-shrinkwrap.json. Which lockfile does npm honor?",
    "Does an explicitly set Connection header win over the agent's keep-alive?",
    "I set process.exitCode = 2 early on and later call process.exit(5). Which exit code does the process end with?",
    "Что имеет приоритет: флаг --dns-result-order или вызов dns.setDefaultResultOrder()?",
    "Если задать и --icu-data-dir, и NODE_ICU_DATA, какой путь будет использован?",
    "Windows で TEMP と TMP の両方が設定されている場合、os.tmpdir() はどちらを返しますか？",
    "path.format() に dir と root を同時に渡した場合、どのプロパティが優先されますか？",
    "OPENSSL_CONF 환경 변수와 --openssl-config 옵션을 둘 다 지정하면 어느 설정 파일이 로드되나요?",
    "child_process.fork()에 silent와 stdio 옵션을 함께 넘기면 어느 쪽이 우선인가요?",
])
def test_a_question_asking_which_of_two_prevails_is_a_precedence_question(question):
    assert asks_precedence(question)


@pytest.mark.parametrize("question", [
    "What does fs.watch do on macOS?",
    "How do I read a file line by line?",
    "What is the default value of maxHeaderSize?",
    "Какое значение по умолчанию у keepAliveMsecs?",
    "fs.mkdir의 recursive 옵션 기본값은 무엇인가요?",
    # one thing used with another is not two things weighed against each other
    "rlwrap 같은 외부 줄 편집기와 함께 Node.js REPL을 쓰려면 어떻게 해야 하나요?",
])
def test_a_question_about_one_thing_is_no_precedence_question(question):
    assert not asks_precedence(question)


@pytest.mark.parametrize("question, names", [
    # a flag without the value the asker gave it
    ('I export NODE_OPTIONS="--max-old-space-size=2048" but start node --max-old-space-size=4096 server.js.',
     {"node_options", "--max-old-space-size", "server.js"}),
    ('My package.json has both a "main" and an "exports" field.', {"package.json", "main", "exports"}),
    ("My package has both a .gitignore and a .npmignore.", {".gitignore", ".npmignore"}),
    # a setting written in kebab case, not the part of a file name that looks like one
    ("engine-strict is true in my .npmrc. Can --force override that?", {"engine-strict", ".npmrc", "--force"}),
    ("If package-lock.json and npm-shrinkwrap.json both exist, which wins?", {"package-lock.json",
                                                                             "npm-shrinkwrap.json"}),
    ("On Linux, if TMPDIR, TMP and TEMP are all set, which one does os.tmpdir() pick?",
     {"tmpdir", "tmp", "temp", "os.tmpdir"}),
    # in another script, its words in Latin letters, without the particle written after them, and no bare values
    ("tls.connect(443, 'a.example', { port: 8443 })처럼 인자와 options에 포트를 다르게 주면?",
     {"tls.connect", "a.example", "port", "options"}),
    ("child_process.fork()에 silent: true와 stdio 옵션을 함께 넘기면 어느 쪽이 우선인가요?",
     {"child_process.fork", "silent", "stdio"}),
    # words in Latin letters side by side are one name
    ("Python Markdown 標準の admonition と pymdownx.blocks.admonition の両方を有効にしたらどうなりますか？",
     {"python markdown", "admonition", "pymdownx.blocks.admonition"}),
])
def test_the_names_a_precedence_question_gives_are_read_out_of_it(question, names):
    assert {name.casefold() for name in asked_names(question)} == names


PAGES = {
    "cli.md": "# Command-line options\n\n"
              "Node.js reads options from the command line and from the environment.\n\n"
              "## NODE_OPTIONS=options...\n\n"
              "A space-separated list of command-line options, applied before the options on the command line.\n\n"
              "Options from the command line take precedence over options passed through the NODE_OPTIONS "
              "environment variable.\n\n"
              "## OPENSSL_CONF=file\n\n"
              "Load an OpenSSL configuration file on startup.\n\n"
              "If the --openssl-config command-line option is used, the environment variable is ignored.\n",
    "os.md": "# OS\n\n## os.tmpdir()\n\n"
             "Returns the operating system's default directory for temporary files as a string.\n\n"
             "On Windows, the result can be overridden by TEMP and TMP environment variables, and TEMP takes "
             "precedence over TMP.\n\n"
             "On other platforms, TMPDIR, TMP and TEMP are checked to override the result, in the described order.\n",
    "packages.md": "# Packages\n\n## Package entry points\n\n"
                   "The \"main\" field names the entry point of a package.\n\n"
                   "Packages may also list their entry points in the \"exports\" field.\n\n"
                   "Node uses both the \"main\" field and the \"exports\" field of a package.json when a package "
                   "is loaded by name.\n\n"
                   "If both \"exports\" and \"main\" are defined, the \"exports\" field takes precedence over "
                   "\"main\" in supported versions of Node.js.\n",
    "child.md": "# Child processes\n\n## child_process.fork(modulePath[, args][, options])\n\n"
                "- `options` {Object}\n"
                "  - `silent` {boolean} If true, the child's output is piped to the parent.\n"
                "  - `stdio` {Array|string} See the stdio of spawn. When this option is provided, it overrides "
                "silent.\n\n"
                "Unlike the fork system call, child_process.fork() does not clone the current process.\n",
    "config.md": "# Config\n\n## engine-strict\n\n"
                 "If set to true, npm refuses to install a package that claims to be incompatible with the current "
                 "Node.js version.\n\n"
                 "This can be overridden by setting the --force flag.\n",
}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return indexed_site(tmp_path_factory.mktemp("precedences"), PAGES)


@pytest.mark.parametrize("question, first", [
    # the story around the two names is the asker's; the sentence that names both and says which wins comes first
    ("NODE_OPTIONS sets --max-old-space-size, and I pass --max-old-space-size on the command line too. Which "
     "options take precedence?",
     "Options from the command line take precedence over options passed through the NODE_OPTIONS environment "
     "variable."),
    ('My package.json has both a "main" and an "exports" field. Which one does Node use?',
     'If both "exports" and "main" are defined, the "exports" field takes precedence over "main" in supported '
     "versions of Node.js."),
    # of two sentences naming the same pair, the one that says precedence outright, naming them itself
    ("Windows で TEMP と TMP の両方が設定されている場合、os.tmpdir() はどちらを返しますか？",
     "On Windows, the result can be overridden by TEMP and TMP environment variables, and TEMP takes precedence "
     "over TMP."),
    ("OPENSSL_CONF와 --openssl-config를 둘 다 지정하면 어느 쪽이 적용되나요?",
     "If the --openssl-config command-line option is used, the environment variable is ignored."),
    # a name given only at the opening of the list item the sentence ends
    ("child_process.fork()에 silent와 stdio 옵션을 함께 넘기면 어느 쪽이 우선인가요?",
     "When this option is provided, it overrides silent."),
    # a name given only by the heading of the section the sentence is in
    ("engine-strict is true in my .npmrc, but I really need the install. Can --force override that?",
     "This can be overridden by setting the --force flag."),
])
def test_the_sentence_that_settles_which_prevails_is_quoted_first(site, question, first):
    release, retriever = site
    quotes, _ = offline.respond(question, retriever, release)
    assert quotes and release.passage(quotes[0].passage_id).text == first


@pytest.mark.parametrize("question", [
    # one name only: nothing to weigh it against
    "Which one takes precedence, NODE_OPTIONS?",
    # two names no sentence settles
    "If I set both TZ and LANG, which one wins?",
    # no precedence asked
    "What does os.tmpdir() return?",
])
def test_a_question_no_passage_settles_is_left_to_the_other_rules(site, question):
    release, retriever = site
    hits, scores = offline.retrieve(question, retriever, release)
    assert precedences.preceding(question, hits, retriever, release, scores) is None


def test_a_model_is_issued_the_settling_sentence_first(site):
    release, retriever = site
    hits, _ = offline.retrieve('My package.json has both a "main" and an "exports" field. Which one does Node use?',
                               retriever, release)
    assert release.passage(hits[0].best_passage).text.startswith('If both "exports" and "main" are defined')
