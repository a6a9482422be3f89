"""Support of a model sentence by a passage: words in one language, meaning across languages, facts agreeing."""
from __future__ import annotations

import pytest
from trigsight.answering.attribution import (
    CROSS_COSINE,
    CROSS_DIRECTIONAL,
    PARAPHRASE_COSINE,
    disagreement,
    judge,
    judge_together,
    language_of,
)

BUDGET = "Each page has to stay within a budget of 8 KB of brotli-compressed JavaScript."
EVENTS = "By default EventEmitters will print a warning if more than 10 listeners are added for a particular event."
HIGHLIGHT = "A browser without text-fragment support opens the cited page at the top, with no highlight."


@pytest.mark.parametrize("text, language", [
    ("The budget is 8 KB.", "en"), ("Бюджет — 8 КБ.", "ru"), ("予算は 8 KB です。", "ja"), ("예산은 8 KB입니다.", "ko"),
])
def test_the_language_of_a_sentence_is_told_by_its_script(text, language):
    assert language_of(text) == language


@pytest.mark.parametrize("sentence, passage, cosine", [
    ("Each page must stay within 8 KB of brotli-compressed JavaScript.", BUDGET, None),
    ("По умолчанию EventEmitter выводит предупреждение, если к событию добавлено больше 10 обработчиков.",
     EVENTS, CROSS_DIRECTIONAL + 0.01),
    ("Браузер без поддержки текстовых фрагментов открывает страницу сверху, без выделения.", HIGHLIGHT,
     CROSS_COSINE + 0.05),
])
def test_a_faithful_sentence_is_supported_in_its_language_or_another(sentence, passage, cosine):
    assert judge(sentence, passage, cosine=cosine).supported


@pytest.mark.parametrize("sentence, passage, cosine, why", [
    ("Each page may carry 16 KB of brotli-compressed JavaScript.", BUDGET, 0.95, "numbers"),
    ("По умолчанию EventEmitter выводит предупреждение, если добавлено больше 100 обработчиков.", EVENTS, 0.95,
     "numbers"),
    ("Firefox では、EventEmitter は 10 個を超えると警告を出します。", EVENTS, 0.95, "names"),
    ("デフォルトでは EventEmitter は警告を出しません。", EVENTS, 0.95, "negation"),
    ("By default EventEmitters will print a warning if less than 10 listeners are added for a particular event.",
     EVENTS, 0.99, "opposite"),
])
def test_a_sentence_whose_numbers_names_or_negation_disagree_is_not_supported_whatever_the_similarity(
        sentence, passage, cosine, why):
    found = judge(sentence, passage, cosine=cosine)
    assert not found.supported and found.how == why


def test_across_languages_a_passage_stating_a_direction_needs_near_identical_meaning():
    passage = "Options from the command line take precedence over options passed through NODE_OPTIONS."
    reversed_claim = "NODE_OPTIONS 환경 변수로 전달된 옵션이 명령줄의 옵션보다 우선합니다."
    assert not judge(reversed_claim, passage, cosine=CROSS_DIRECTIONAL - 0.01).supported
    undirected = "Options from the command line and options passed through NODE_OPTIONS are both read."
    assert judge(reversed_claim, undirected, cosine=CROSS_DIRECTIONAL - 0.01).supported


def test_across_languages_similarity_must_reach_the_threshold_and_words_cannot_stand_in():
    sentence = "По умолчанию EventEmitter выводит предупреждение, если добавлено больше 10 обработчиков."
    assert not judge(sentence, EVENTS, cosine=CROSS_COSINE - 0.01).supported
    assert not judge(sentence, EVENTS, cosine=None).supported


def test_a_close_paraphrase_needs_both_words_and_similarity():
    sentence = "Every page is limited to 8 KB of JavaScript compressed with brotli."   # 6 of its 8 words
    assert judge(sentence, BUDGET, cosine=PARAPHRASE_COSINE + 0.01).how == "paraphrase"
    assert not judge(sentence, BUDGET, cosine=PARAPHRASE_COSINE - 0.01).supported
    assert not judge(sentence, BUDGET, cosine=None).supported


def test_a_restated_clause_is_supported_even_when_the_other_clause_says_not():
    passage = "When a check fails, the release exits with status 1, and nothing is published."
    assert judge("When a check fails, the release exits with status 1.", passage).supported


def test_two_passages_may_support_one_sentence_only_together_and_only_in_its_language():
    first = "The browser gate loads every page in headless Chromium."
    second = "Answers stream to the browser one sentence at a time."
    sentence = "Every page loads in headless Chromium, and answers stream one sentence at a time."
    assert not judge(sentence, first).supported and not judge(sentence, second).supported
    assert judge_together(sentence, [first, second])
    assert not judge_together("Все страницы загружаются в Chromium, а ответы идут по одному предложению.",
                              [first, second])


def test_the_site_name_and_the_passage_context_count_for_names():
    assert disagreement("The budget of Trigsight pages is 8 KB.", BUDGET, ignore=("trigsight",)) == ""
    assert disagreement("Payload budget: each page stays within 8 KB.", BUDGET, context="Payload") == ""


THROTTLE = "throttle: properly handle default ThrottleConfig values (#7176) (ceb821c)"


@pytest.mark.parametrize("context, why", [
    ("Changelog\n7.8.1 (2023-04-26)\nBug Fixes", ""),            # the item's version heading names it
    ("Changelog\n7.8.0 (2022-12-15)\nBug Fixes", "numbers"),     # another release's
    ("", "numbers"),
])
def test_a_version_may_be_named_by_the_heading_a_changelog_item_sits_under(context, why):
    assert disagreement("Version 7.8.1 fixed throttle to handle default ThrottleConfig values.", THROTTLE,
                        context=context) == why


HANDLE = "A handle is a few characters long, so a model can copy it far more reliably than a whole sentence."
HANDLE_BLOCK = ("For each request, the server gives every retrieved passage a short handle. The model cites a passage by "
                "repeating its handle. " + HANDLE)
RATE = "Models reproduced those passages imperfectly, and only 3 of 6 tokens resolved, a 50% rate."
RATE_BLOCK = "The original implementation asked the model to reproduce the passage inside a cite token. " + RATE


@pytest.mark.parametrize("question, sentence, passage, block", [
    ("Why is a model better at repeating a handle than a quotation?",
     "A model is better at repeating a handle than a quotation because it can copy the handle far more reliably "
     "than a whole sentence.", HANDLE, HANDLE_BLOCK),
    ("What share of cite tokens resolved in the original implementation?", "50%", RATE, RATE_BLOCK),
])
def test_a_sentence_restating_the_question_is_judged_on_what_it_adds(question, sentence, passage, block):
    assert not judge(sentence, passage).supported
    assert judge(sentence, passage, question=question, block=block).how == "framed"


@pytest.mark.parametrize("question, sentence, passage, block", [
    # what it adds is not in the passage
    ("Why is a model better at repeating a handle than a quotation?",
     "A model is better at repeating a handle than a quotation because handles are stored in a database.",
     HANDLE, HANDLE_BLOCK),
    # the number it adds is not the passage's
    ("What share of cite tokens resolved in the original implementation?", "75%", RATE, RATE_BLOCK),
    # the question it restates is about something the passage's block never mentions
    ("Why is the payload budget checked over the wire?", "The payload budget is checked over the wire because a "
     "model can copy it far more reliably than a whole sentence.", HANDLE, HANDLE),
    # the negation is its own, not the question's
    ("Why is a model better at repeating a handle than a quotation?",
     "A model is better at repeating a handle than a quotation because it cannot copy a whole sentence.",
     HANDLE, HANDLE_BLOCK),
])
def test_restating_the_question_does_not_carry_a_claim_the_passage_does_not_make(question, sentence, passage, block):
    assert not judge(sentence, passage, question=question, block=block).supported


@pytest.mark.parametrize("sentence, passage", [
    ("CommonJS の require() は、モジュールを非同期に読み込みます。", "CommonJS modules are loaded synchronously by require()."),
    ("readline モジュールは、書き込み可能なストリームへデータを一行ずつ書くためのインターフェースを提供します。",
     "The node:readline module provides an interface for reading data from a Readable stream one line at a time."),
    ("Метод crypto.randomBytes() генерирует предсказуемые данные, непригодные для криптографии.",
     "The crypto.randomBytes() method generates cryptographically strong pseudorandom data."),
    ("비활성화된 옵션은 무시됩니다.", "Enabled options are read at start-up."),
    ("Использование существующих файловых дескрипторов через node:fs проверяется моделью разрешений.",
     "Using existing file descriptors via the node:fs module bypasses the Permission Model."),
    ("既存のファイル記述子を node:fs で使う場合もパーミッションモデルが適用されます。",
     "Using existing file descriptors via the node:fs module bypasses the Permission Model."),
    ("심볼릭 링크를 따라가면 권한 검사를 우회할 수 있습니다.", "Symbolic links are subject to the permission checks."),
    # the same quantity in another unit
    ("コールバックを呼ぶまでの待ち時間は秒単位で指定します。",
     "delay {number} The number of milliseconds to wait before calling the callback."),
    ("Метод возвращает размер буфера в килобайтах.", "Returns the size of the buffer in bytes."),
    # the same order reversed
    ("리스너는 등록된 순서의 역순으로 호출됩니다.", "Listeners are called in the order in which they were registered."),
    ("Обработчики вызываются в порядке, обратном порядку регистрации.",
     "Handlers are called in the order in which they were registered."),
    ("핸들러는 등록된 순서의 반대로 호출됩니다.", "Handlers are called in the order in which they were registered."),
    ("Вызов pause() заставляет поток начать отдавать данные.", "Calling pause() makes the stream stop emitting data."),
    ("pause() を呼ぶとストリームはデータの送出を開始します。", "Calling pause() makes the stream stop emitting data."),
    ("설정은 다른 모든 처리가 끝난 뒤에 읽힙니다.", "The settings are read prior to any other processing."),
    ("Этот параметр влияет не только на сборки Hatch.", "The option only affects builds run by Hatch."),
    ("Для закрытия потока нужно вызвать оба метода, end() и destroy().",
     "Call either end() or destroy() to close the stream."),
    ("이 옵션은 Hatch의 빌드뿐 아니라 다른 빌드에도 영향을 줍니다.", "The option only affects builds run by Hatch."),
    ("Обработчик добавляется в конец массива слушателей.", "The listener is added to the beginning of the listeners array."),
    ("パスは左から右へ順に処理されます。", "The given sequence of paths is processed from right to left."),
    ("이 메서드는 값을 리틀 엔디언으로 읽습니다.", "Reads the value as big-endian."),
    # input for output, incoming for outgoing, success for failure, encoding for decoding, lower for upper case
    ("このメソッドは入力ストリームを閉じます。", "This method closes the output stream."),
    ("Таймаут применяется к исходящим соединениям.", "The timeout applies to incoming connections."),
    ("인증서가 없으면 핸드셰이크는 성공합니다.", "Without a certificate, the handshake will fail."),
    ("この関数は文字列をデコードします。", "This function encodes the string."),
    ("Имена заголовков приводятся к верхнему регистру.", "Header names are converted to lowercase."),
    ("このオプションを true にすると、ルールはエラーを報告します。", "If this option is set to false, the rule reports an error."),
    ("자식 프로세스는 종료될 때 이 이벤트를 내보냅니다.", "The parent process emits this event when it exits."),
    # a space markup left between two Japanese characters ("*後*" rendered "後 に") is no word break
    ("The cache is cleared before the file is saved.", "ファイルが保存された 後 にキャッシュが消去されます。"),
    # another name marked as the default
    ("Поддерживаются форматы json (используется по умолчанию) и yaml.", "The supported formats are yaml (the default) and json."),
    # another one-letter flag
    ("コマンドラインでは -e オプションで拡張を指定します。", "From the command line, specify an extension with the -x option."),
    # a dotted name whose parts are all there, but not as one name
    ("writable.unpipe() は、以前に接続された Readable ストリームを切り離します。",
     "The readable.unpipe() method detaches a Writable stream previously attached."),
])
def test_across_languages_a_reversed_claim_is_refused_however_similar(sentence, passage):
    found = judge(sentence, passage, cosine=0.99)
    assert not found.supported and found.how in ("opposite", "negation", "units", "names")


@pytest.mark.parametrize("sentence, passage", [
    ("CommonJS の require() は、モジュールを同期的に読み込みます。", "CommonJS modules are loaded synchronously by require()."),
    ("Некоторые модули загружаются синхронно.", "Some modules are loaded synchronously."),
    ("node:fs で既存のファイル記述子を使うと、パーミッションモデルを回避してしまいます。",
     "Using existing file descriptors via the node:fs module bypasses the Permission Model."),
    ("조회 제한 시간은 밀리초 단위로 지정합니다.", "timeout {integer} Query timeout in milliseconds."),
    ("Слушатели вызываются в том порядке, в котором были зарегистрированы.",
     "Listeners are called in the order in which they were registered."),
    ("Метод prependListener() добавляет обработчик в начало массива слушателей.",
     "The prependListener() method adds the listener to the beginning of the listeners array."),
    ("コマンドラインでは -x オプションで拡張を指定します。", "From the command line, specify an extension with the -x option."),
    ("Поддерживаются форматы yaml (используется по умолчанию) и json.", "The supported formats are yaml (the default) and json."),
    ("親プロセスは子プロセスの終了を待ちます。", "The parent process waits for the child process to exit."),
])
def test_across_languages_the_same_side_of_a_pair_agrees(sentence, passage):
    assert judge(sentence, passage, cosine=CROSS_COSINE + 0.05).supported


def test_a_word_whose_opposite_another_clause_of_the_passage_says_is_refused():
    passage = "It is still possible to use fs.watchFile(), which uses stat polling, but this method is slower."
    assert judge("You can still use fs.watchFile(), which uses stat polling.", passage, cosine=0.9).supported
    found = judge("You can still use fs.watchFile(), which uses stat polling, and it is faster.", passage, cosine=0.9)
    assert not found.supported and found.how == "opposite"


READ_FILE = "fs.readFile() reads the entire file into memory, while fs.createReadStream() reads it in chunks."


@pytest.mark.parametrize("faithful, swapped", [
    ("fs.readFile() reads the entire file into memory, while fs.createReadStream() reads it in chunks.",
     "fs.createReadStream() reads the entire file into memory, while fs.readFile() reads it in chunks."),
    ("fs.readFile() читает весь файл в память, а fs.createReadStream() читает его по частям.",
     "fs.createReadStream() читает весь файл в память, а fs.readFile() читает его по частям."),
    ("fs.readFile() はファイル全体をメモリに読み込み、fs.createReadStream() はチャンクごとに読み込みます。",
     "fs.createReadStream() はファイル全体をメモリに読み込み、fs.readFile() はチャンクごとに読み込みます。"),
    ("fs.readFile()는 파일 전체를 메모리에 읽어 들이지만, fs.createReadStream()은 청크 단위로 읽습니다.",
     "fs.createReadStream()은 파일 전체를 메모리에 읽어 들이지만, fs.readFile()은 청크 단위로 읽습니다."),
])
def test_a_sentence_that_swaps_the_roles_of_two_names_is_refused_in_any_language(faithful, swapped):
    from trigsight.retrieval import embedders

    embed = embedders.offline().embed
    assert judge(faithful, READ_FILE, cosine=0.95, embed=embed).supported
    found = judge(swapped, READ_FILE, cosine=0.95, embed=embed)
    assert not found.supported and found.how == "roles"


RULES = "no-floating-promises checks statements, while no-misused-promises checks conditions."


def test_rule_names_in_kebab_case_are_names_whose_roles_cannot_swap():
    from trigsight.retrieval import embedders

    embed = embedders.offline().embed
    faithful = "no-floating-promises проверяет инструкции, а no-misused-promises — условия."
    swapped = "no-misused-promises проверяет инструкции, а no-floating-promises — условия."
    assert judge(faithful, RULES, cosine=0.95, embed=embed).supported
    found = judge(swapped, RULES, cosine=0.95, embed=embed)
    assert not found.supported and found.how == "roles"


@pytest.mark.parametrize("sentence, passage, supported", [
    ("Use writable.unpipe() to detach a Readable stream.",
     "The readable.unpipe() method detaches a Writable stream previously attached using the stream.pipe() method.",
     False),
    ("Use readable.unpipe() to detach a Writable stream that was attached with stream.pipe().",
     "The readable.unpipe() method detaches a Writable stream previously attached using the stream.pipe() method.",
     True),
    # an abbreviation is not a dotted name
    ("The readable.unpipe() method detaches a Writable stream, e.g. one attached with stream.pipe().",
     "The readable.unpipe() method detaches a Writable stream previously attached using the stream.pipe() method.",
     True),
])
def test_a_dotted_name_must_be_in_the_passage_as_one_name(sentence, passage, supported):
    assert judge(sentence, passage, cosine=0.9).supported is supported


START = "If start() is called more than once, an exception is thrown."
CELLS = "As table cells can only ever be on a single line, the attribute list must remain on the same line."


@pytest.mark.parametrize("sentence, passage, why", [
    ("start()를 두 번 이상 호출하면 예외가 발생합니다.", START, ""),                 # two or more: more than once
    ("start()を 3 回以上呼ぶと例外が発生します。", START, "numbers"),
    ("표 셀은 항상 한 줄로만 이루어집니다.", CELLS, ""),                            # 한 줄: a single line
    ("Ячейка таблицы всегда занимает две строки.", CELLS, "numbers"),
    ("Вызывать write() для одного и того же файла небезопасно.",                 # одного и того же: the same
     "It is unsafe to call write() on the same file.", ""),
    ("ダイジェストは MD5 で、反復は 1 回です。", "The digest is MD5, with one iteration.", ""),
    # an ordinal is claimed as its number in every language; "a second" is the unit
    ("The callback gets the error as its second argument.", "The callback gets the error as its third argument.",
     "numbers"),
    ("Колбэк получает ошибку вторым аргументом.", "The callback gets the error as its third argument.", "numbers"),
    ("コールバックはエラーを二番目の引数として受け取ります。", "The callback gets the error as its third argument.", "numbers"),
    ("Колбэк получает ошибку третьим аргументом.", "The callback gets the error as its third argument.", ""),
    ("The timer fires after a second.", "The timer fires after one second.", ""),
])
def test_a_number_the_passage_gives_in_words_agrees_and_the_same_is_no_number(sentence, passage, why):
    assert disagreement(sentence, passage, same_language=False) == why


SUN_PATH = "Typical values are 107 bytes on Linux and 103 bytes on macOS."
UDP_ADDRESS = ("If address is not provided, '127.0.0.1' (for udp4 sockets) or '::1' (for udp6 sockets) will be "
               "used by default.")


@pytest.mark.parametrize("sentence, passage, why", [
    ("Typical values are 103 bytes on Linux and 107 bytes on macOS.", SUN_PATH, "pairing"),
    ("ค่าที่พบโดยทั่วไปคือ 103 ไบต์บน Linux และ 107 ไบต์บน macOS", SUN_PATH, "pairing"),
    ("Linux에서는 보통 103바이트, macOS에서는 107바이트입니다.", SUN_PATH, "pairing"),
    ("Si no se proporciona address, se usará por defecto '::1' para udp4 o '127.0.0.1' para udp6.", UDP_ADDRESS,
     "pairing"),
    # Faithful: a translation may put the name before its number, or name the other first, and keep the pairs.
    ("Обычно это 107 байт в Linux и 103 байта в macOS.", SUN_PATH, ""),
    ("macOS では通常 103 バイト、Linux では 107 バイトです。", SUN_PATH, ""),
    ("Linux에서는 보통 107바이트, macOS에서는 103바이트입니다.", SUN_PATH, ""),
    ("Без address по умолчанию используется '127.0.0.1' для сокетов udp4 или '::1' для udp6.", UDP_ADDRESS, ""),
])
def test_a_sentence_that_pairs_the_passage_s_values_with_the_wrong_names_is_not_supported(sentence, passage, why):
    assert disagreement(sentence, passage, same_language=language_of(sentence) == language_of(passage)) == why


BAT_FILES = ("When running on Windows, .bat and .cmd files can be invoked using child_process.spawn() with the "
             "shell option set, with child_process.exec(), or by spawning cmd.exe and passing the .bat or .cmd "
             "file as an argument (which is what the shell option and child_process.exec() do).")
LOADAVG = "On Windows, the return value is always [0, 0, 0]."
SHELL = "To spawn a child process with a shell, you can use the shell option in the child_process.spawn method."


@pytest.mark.parametrize("sentence, passage, question, supported", [
    (SHELL, BAT_FILES, "How to spawn a child process with a shell?", False),     # Windows dropped
    (SHELL, BAT_FILES, "How to spawn a child process with a shell on Windows?", True),
    ("On Windows, .bat and .cmd files can be run with child_process.spawn() and the shell option set.",
     BAT_FILES, "", True),
    ("The return value is always [0, 0, 0].", LOADAVG, "", False),
    ("The return value is always [0, 0, 0].", LOADAVG, "What does os.loadavg() return on Windows?", True),
    ("В Windows возвращаемое значение всегда равно [0, 0, 0].", LOADAVG, "", True),
    ("Windows では戻り値は常に [0, 0, 0] です。", LOADAVG, "", True),
    ("戻り値は常に [0, 0, 0] です。", LOADAVG, "", False),
    ("The return value is always [0, 0, 0].", "Windows の場合、戻り値は常に [0, 0, 0] です。", "", False),
    ("The return value is always [0, 0, 0].", "Windows이면, 반환 값은 항상 [0, 0, 0]입니다.", "", False),
    # "X では" is where docs say everything they hold, not a condition
    ("パス操作関数で型を宣言できます。", "FastAPI では、パス操作関数で型を宣言できます。", "", True),
    # a condition without a name is no scope: "If true" is the option's own value
    ("The shell option runs the command inside of a shell.", "If true, runs command inside of a shell.", "", True),
])
def test_a_sentence_that_drops_the_passage_s_named_condition_is_not_supported(sentence, passage, question, supported):
    assert judge(sentence, passage, cosine=0.9, question=question).supported is supported


@pytest.mark.parametrize("sentence, passage, supported", [
    ("The cache directory is always ~/.cache/app.", "The cache directory defaults to ~/.cache/app.", False),
    ("Кэш всегда хранится в ~/.cache/app.", "By default, the cache is stored in ~/.cache/app.", False),
    ("キャッシュは必ず ~/.cache/app に保存されます。", "By default, the cache is stored in ~/.cache/app.", False),
    ("캐시는 항상 ~/.cache/app에 저장됩니다.", "The cache is usually stored in ~/.cache/app.", False),
    ("Every platform emits the event when the file changes.", "Most platforms emit the event when the file changes.",
     False),
    ("The server always retries the request once.", "The server attempts to retry the request once.", False),
    # the hedge kept, or said another way, agrees
    ("По умолчанию кэш всегда хранится в ~/.cache/app.", "By default, the cache is stored in ~/.cache/app.", True),
    ("特に指定しなければ、キャッシュはすべて ~/.cache/app に保存されます。",
     "By default, all of the cache is stored in ~/.cache/app.", True),
    ("Если не настроено иначе, каждый запрос записывается в stderr.",
     "By default, all requests are logged to stderr.", True),
    # a hedge inside an aside qualifies the aside, not the claim
    ("모든 링크의 MTU는 최소 68옥텟이어야 합니다.",
     "Every link must have an MTU of at least 68 octets (576 is typically recommended).", True),
    # a hedged passage and a sentence that claims nothing absolute
    ("Кэш хранится в ~/.cache/app.", "By default, the cache is stored in ~/.cache/app.", True),
    # an absolute the hedged passage makes itself is no overclaim
    ("Ожидается, что CLI всегда будет передавать вывод в шаблонизатор.",
     "It is generally expected that the CLI will always pipe its output to a templating engine.", True),
    ("Ожидается, что CLI всегда и обязательно передаёт вывод в шаблонизатор.",
     "It is generally expected that the CLI will always pipe its output to a templating engine.", False),
    # "the most recent" and "at most" are no hedge
    ("Всегда устанавливается самый свежий выпуск.", "The most recent release is always installed.", True),
    ("Каждое событие допускает самое большее 10 слушателей.", "Each event allows at most 10 listeners.", True),
    # "some" and "many" hedge how far a claim reaches; "all" is said in every language
    ("Все плагины требуют пакет lxml.", "Some plugins require the lxml package.", False),
    ("内部ヘルパーは全部 app/_internal に移動しました。", "Many internal helpers moved to app/_internal.", False),
    ("내부 헬퍼는 전부 app/_internal로 옮겨졌습니다.", "Several internal helpers moved to app/_internal.", False),
    ("Некоторые плагины требуют пакет lxml.", "Some plugins require the lxml package.", True),
    # "how many" and "many-to-one" hedge nothing
    ("Каждая область видимости указывает на один реестр.",
     "Scopes have a many-to-one relationship with registries.", True),
    ("Все слушатели учитываются в счётчике.", "The counter tells how many listeners are registered.", True),
])
def test_a_sentence_that_makes_absolute_what_the_passage_hedges_is_not_supported(sentence, passage, supported):
    found = judge(sentence, passage, cosine=0.95)
    assert found.supported is supported
    assert supported or found.how == "scope"


@pytest.mark.parametrize("sentence, passage, supported", [
    ("入力に何を使ったかにかかわらず、EOF を受け取るまでプログラムは終了しません。",
     "When stdin is the input, the program will not terminate until it receives an EOF.", False),
    ("Опцию strict нужно включать независимо от того, используется ли плагин.",
     "If you use the plugin, turn on the strict option.", False),
    ("플러그인 사용 여부와 상관없이 strict 옵션을 켜야 합니다.", "If you use the plugin, turn on the strict option.", False),
    ("The option must be set even if the plugin is not used.", "If you use the plugin, turn on the strict option.",
     False),
    # a passage that says it holds either way, or always, supports "regardless"
    ("Опцию strict нужно включать независимо от того, используется ли плагин.",
     "Turn on the strict option whether or not you use the plugin.", True),
    ("入力に何を使ったかにかかわらず、EOF を受け取るまでプログラムは終了しません。",
     "Whatever the input is, the program will not terminate until it receives an EOF.", True),
])
def test_a_sentence_that_holds_regardless_where_the_passage_names_a_case_is_not_supported(sentence, passage,
                                                                                          supported):
    found = judge(sentence, passage, cosine=0.95)
    assert found.supported is supported
    assert supported or found.how == "scope"
