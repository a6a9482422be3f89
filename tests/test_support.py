"""pipeline/support.py: a passage supports a claim only with the claim's own words."""
import pytest
from trigsight.answering.support import (
    DEFAULT_THRESHOLD,
    MIN_WORDS,
    explain,
    numbers_in,
    support_score,
    supports,
    units_in,
)

CHROMIUM = "Every page of the site is loaded in headless Chromium before the allowlist is published."
BUDGET = "The budget is 8 KB of brotli-compressed JavaScript per page."
CALIBRATION = "On hand-written claim sets, find_evidence reached 8 of 10 true positives and 0 of 6 false positives."
NEVER = "The central promise is that the chat model never writes a link."
JA_TOOLS = "そこには四つのツールがあり、どれもサイトの内容を変更しません。"
KO_TOOLS = "여기에는 네 가지 도구가 있으며, 어느 것도 사이트 내용을 바꾸지 않습니다."
RU_STEMS = "Для русского текста ключевые слова приводятся к основам, поэтому разные падежные окончания одного слова считаются совпадением."


@pytest.mark.parametrize("claim, passage", [
    (CHROMIUM, CHROMIUM),
    ("Before the allowlist is published, every page gets loaded in headless Chromium.", CHROMIUM),
    ("Each page may carry 8 KB of brotli-compressed JavaScript.", BUDGET),
    ("find_evidence reached 8 of 10 true positives and 0 of 6 false positives.", CALIBRATION),
    ("The chat model never writes a link itself.", NEVER),
    ("Ключевые слова русского текста приводятся к основам.", RU_STEMS),
    ("ツールは四つあり、どれもサイトの内容を変更しません。", JA_TOOLS),
    ("네 가지 도구가 있고 어느 것도 사이트 내용을 바꾸지 않습니다.", KO_TOOLS),
])
def test_a_passage_carrying_the_claims_words_supports_it(claim, passage):
    assert supports(claim, passage)


@pytest.mark.parametrize("claim, passage, why", [
    ("The budget is 16 KB of brotli-compressed JavaScript per page.", BUDGET, "missing_numbers"),
    ("find_evidence reached 10 of 10 true positives and 0 of 6 false positives.", CALIBRATION, "missing_numbers"),
    ("The budget is eight kilobytes of brotli-compressed JavaScript per page, over five pages.", BUDGET,
     "missing_numbers"),
    ("そこには五つのツールがあり、どれもサイトの内容を変更しません。", JA_TOOLS, "missing_numbers"),
    ("여기에는 다섯 가지 도구가 있으며, 어느 것도 사이트 내용을 바꾸지 않습니다.", KO_TOOLS, "missing_numbers"),
    ("Every page of the site is loaded in headless Firefox before the allowlist is published.", CHROMIUM,
     "missing_names"),
    ("The author loaded every page of the site with a PhD from MIT.", CHROMIUM, "missing_names"),
    ("The central promise is that the chat model writes a link.", NEVER, "polarity_differs"),
])
def test_a_passage_never_supports_a_claim_with_a_number_name_or_negation_it_lacks(claim, passage, why):
    support = explain(claim, passage)
    assert support.score == 0 and not supports(claim, passage, threshold=0.01)
    assert getattr(support, why)


@pytest.mark.parametrize("claim, passage, expected", [
    ("51,5 % of sentences", "51.5% of sentences", True),          # decimal comma
    ("roughly 700 to 1400 characters", "roughly 700 to 1,400 characters", True),  # thousands separator
    ("four tools", "The endpoint offers 4 tools.", True),           # number word and digits
    ("четыре инструмента", "Там доступны 4 инструмента.", True),
    ("three gates", "The release has 4 gates.", False),
    ("each one of the tools is read-only", "Every tool is read-only.", True),  # "one" is a pronoun
    ("It was fixed in v7.8.0.", "Fixed in 7.8.0.", True),            # a version, with or without its v
    ("It was fixed in 7.8.0.", "Fixed in 7.8.1.", False),
    ("It was released as 7.0.", "Released as 7.0.0.", True),
    ("It needs Python 3.1.", "It needs Python 3.10.", False),      # a trailing zero is part of a version
    ("It needs Python 3.10.", "Requires Python 3.10.0.", True),
])
def test_numbers_match_whatever_way_they_are_written(claim, passage, expected):
    assert (not (explain(claim, passage).missing_numbers)) is expected


def test_numbers_are_counted_with_their_repeats():
    assert numbers_in("8 of 10 and 10 more") == ("10", "10", "8")


@pytest.mark.parametrize("context, supported", [
    ("Changelog 7.8.1 (2023-04-26) Bug Fixes", True),       # a version may be named by the item's heading
    ("Changelog 7.8.0 (2022-12-15) Bug Fixes", False),
    ("Changelog Bug Fixes", False),
])
def test_a_version_may_be_found_in_the_passages_context(context, supported):
    claim = "Version 7.8.1 fixed throttle to handle default ThrottleConfig values."
    found = explain(claim, "throttle: properly handle default ThrottleConfig values (#7176)", context=context)
    assert (found.score > 0 and not found.missing_numbers) is supported


def test_a_name_may_be_found_in_the_passages_context_but_a_number_may_not():
    claim = "The MCP endpoint offers four tools."
    passage = "The endpoint offers four tools, and each one answers a narrow question."
    assert explain(claim, passage).missing_names == ("mcp",)
    assert not explain(claim, passage, context="MCP: claim checking for agents").missing_names
    assert explain("The endpoint offers five tools.", passage, context="five").missing_numbers == ("5",)


def test_stopwords_and_grammar_carry_no_evidence():
    assert support_score("it is the one that was", CHROMIUM) == 0
    assert support_score("ですます", "ですます") == 0  # hiragana-only bigrams are grammar


def test_a_short_claim_cannot_be_fully_supported_by_a_couple_of_shared_words():
    assert support_score("headless Chromium", CHROMIUM) == pytest.approx(2 / MIN_WORDS, abs=1e-3)


def test_ignored_subject_words_count_neither_for_nor_against():
    claim = "trigsight loads every page in headless Chromium before publishing the allowlist"
    assert support_score(claim, CHROMIUM) < support_score(claim, CHROMIUM, ignore={"trigsight"}) == 1.0


@pytest.mark.parametrize("threshold, expected", [(0.5, True), (0.9, False)])
def test_supports_uses_the_threshold_it_is_given(threshold, expected):
    claim = "Every page is loaded in Chromium, then the allowlist goes out"  # partial overlap
    score = support_score(claim, CHROMIUM)
    assert 0.5 <= score < 0.9
    assert supports(claim, CHROMIUM, threshold) is expected


def test_the_default_threshold_is_a_share_of_words():
    assert 0 < DEFAULT_THRESHOLD < 1
    assert supports(CHROMIUM, CHROMIUM) and not supports("Nothing in common here at all.", CHROMIUM)


@pytest.mark.parametrize("text, units", [
    ("returns the number of seconds the process has been running", {"seconds"}),
    ("возвращает время работы в миллисекундах", {"milliseconds"}),
    ("タイムアウトはミリ秒単位で指定します", {"milliseconds"}),
    ("100ms로 설정하면 초 단위가 아닙니다", {"milliseconds", "seconds"}),
    ("a highWaterMark of 64 KiB, counted in bytes", {"kilobytes", "bytes"}),
    ("Размер указывается в килобайтах.", {"kilobytes"}),
    # ordinals and words that only contain a unit's letters
    ("the second argument is called a second time", set()),
    ("초기 설정을 초과하면 최초 값으로 돌아갑니다", set()),
    ("十分に大きい部分", set()),
    ("сейчас", set()),
])
def test_units_of_time_and_size_are_read_in_every_language(text, units):
    assert units_in(text) == units
