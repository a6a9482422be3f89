"""Negation read alike in four languages: marks of either kind, and words that carry a negation."""
import pytest
from trigsight.answering.negation import agree, polarity


@pytest.mark.parametrize("text, marks", [
    ("The gate never reports a count.", (True, False)),
    ("It shows the page with no highlight.", (False, True)),
    ("Страница открывается без выделения.", (False, True)),
    ("Chromium は一致数を報告しません。", (True, False)),
    ("CPU の使用量ではなくイベントループを測ります。", (True, False)),
    ("시그널 기반 리포트는 지원되지 않습니다.", (True, False)),
    ("인수 없이 호출하는 것과 같습니다.", (False, True)),          # 인수 (argument) ends in 수: not 할 수 없다
    ("설정을 바꿀 수 없습니다.", (True, False)),
    ("Метод падает на неподключённом сокете.", (True, False)),     # every case of a не- adjective
    ("Метод работает с неизменяемыми данными.", (True, False)),
    ("The gate counts every match, whether or not it is visible.", (False, False)),
    ("The gate counts every match.", (False, False)),
])
def test_negation_is_read_as_a_negated_verb_and_an_absence(text, marks):
    assert polarity(text) == marks


@pytest.mark.parametrize("sentence, passage", [
    ("Для этого API не нужно вызывать require('node:timers').",
     "There is no need to call require('node:timers') to use the API."),
    ("process.exitCode を設定すると、強制終了せずに終了コードを指定できます。",
     "Setting process.exitCode lets the process exit with that code without forcing it to exit."),
    ("Если сомневаетесь, используйте queueMicrotask(), если только вам не нужны возможности process.nextTick().",
     "When in doubt, unless the capabilities of process.nextTick() are needed, use queueMicrotask()."),
    ("Ключевые слова не чувствительны к регистру.", "The keywords are case-insensitive."),
    ("Calling it with no argument turns off Nagle's algorithm.", "Not passing an argument disables Nagle's algorithm."),
    ("설정 파일이 없으면 이 옵션은 무시됩니다.", "Without a config file, this option is ignored."),
    ("設定ファイルがない場合、このオプションは無視されます。", "If there is no config file, this option is ignored."),
    # "unless configured otherwise" and its kin say "by default": no negation on either side
    ("Если не указано иное, отчёт пишется в stderr.", "By default, the report is written to stderr."),
    ("特に指定しなければ、レポートは stderr に書き込まれます。", "By default, the report is written to stderr."),
    ("따로 지정하지 않으면 보고서는 stderr에 기록됩니다.", "By default, the report is written to stderr."),
    ("Unless configured otherwise, the report is written to stderr.", "The report is written to stderr by default."),
    ("일반적으로 immediate.ref()를 호출할 필요는 없습니다.", "It is normally unnecessary to call immediate.ref()."),
    ("목차는 마커를 찾았는지 여부와 상관없이 사용할 수 있습니다.", "Regardless of whether a marker is found, the TOC is available."),
    # "пока … не" is "until": its "не" negates nothing
    ("Метод не возвращает управление, пока дочерний процесс полностью не закроется.",
     "The method will not return until the child process has fully closed."),
])
def test_a_negation_worded_another_way_still_agrees(sentence, passage):
    assert agree(sentence, passage) and agree(passage, sentence)


@pytest.mark.parametrize("sentence, passage", [
    ("The cache is not used.", "The cache is used."),
    ("같은 파일에 대해 기다리지 않고 writev()를 여러 번 호출해도 안전합니다.",
     "It is unsafe to call writev() multiple times on the same file without waiting."),
    ("JavaScript を無効にすると、チャットのフォームは動作しません。", "JavaScript を無効にしても、サイト全体が動作します。"),
    ("The server cannot start without a key.", "The server can start without a key."),
    ("Этот параметр не обязателен.", "This option is required."),
    # the same kind of mark, but twice against once: the second clause says the opposite
    ("지정한 경로가 존재하지 않더라도 require()는 MODULE_NOT_FOUND 오류를 던지지 않습니다.",
     "If the given path does not exist, require() will throw a MODULE_NOT_FOUND error."),
    ("exclusive가 true이면 핸들이 공유되지 않고, 포트 공유를 시도해도 오류가 발생하지 않습니다.",
     "When exclusive is true, the handle is not shared, and attempted port sharing results in an error."),
    # "ignored" negates nothing, in any language
    ("설정 파일이 있으면 이 옵션은 무시됩니다.", "If the config file is not present, this option is ignored."),
    ("設定ファイルがあれば、このオプションは無視されます。", "If the config file is not present, this option is ignored."),
])
def test_a_negation_added_or_dropped_disagrees(sentence, passage):
    assert not agree(sentence, passage) and not agree(passage, sentence)
