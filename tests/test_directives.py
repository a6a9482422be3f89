"""Directives: percent-encoding, parsing, and the shortest unique choice."""
import re

import pytest
from trigsight.matching.directives import (
    TextDirective,
    encode_part,
    parse_directive,
    search_scans,
    too_costly,
    unique_directive,
)
from trigsight.matching.textmodel import page_haystack, segments_from_html

WELL_FORMED = re.compile(r"^text=(?:[A-Za-z0-9._~%]+-,)?[A-Za-z0-9._~%]+(?:,[A-Za-z0-9._~%]+)?(?:,-[A-Za-z0-9._~%]+)?$")


@pytest.mark.parametrize("text, encoded", [
    ("a-b", "a%2Db"), ("a,b", "a%2Cb"), ("a&b", "a%26b"), ("12%", "12%25"),
    ("two words", "two%20words"), ("тест", "%D1%82%D0%B5%D1%81%D1%82"), ("a#b", "a%23b"),
])
def test_encode_part_escapes_every_reserved_character(text, encoded):
    assert encode_part(text) == encoded


@pytest.mark.parametrize("directive", [
    TextDirective("Second item & friends, 12% more - with a dash."),
    TextDirective("This is deliberate.", prefix="updated."),
    TextDirective("x", prefix="a-b", suffix="c,d"),
    TextDirective("吾輩は猫である。"),
])
def test_directives_round_trip_and_are_well_formed(directive):
    assert WELL_FORMED.match(str(directive))
    assert parse_directive(str(directive)) == directive


@pytest.mark.parametrize("bad", ["", "txt=abc", "text=", "text=a,b,c", "text=a-b", "text=a-b-,c", "text=a,-",
                                 "text=-,a", "text=a&b", "text=50%", "text=%FF"])
def test_parse_directive_rejects_malformed_input(bad):
    with pytest.raises(ValueError):
        parse_directive(bad)


def test_repeated_sentence_gets_context_that_is_unique_on_its_page():
    html = "<main><p>Alpha ends. Same words here.</p><p>Beta ends. Same words here.</p></main>"
    hay = page_haystack(segments_from_html(html))
    first = unique_directive(hay, "Same words here.", "Alpha ends. ", "")
    second = unique_directive(hay, "Same words here.", "Beta ends. ", "")
    assert first == TextDirective("Same words here.", prefix="Alpha ends.")
    assert second == TextDirective("Same words here.", prefix="Beta ends.")
    assert str(first) == "text=Alpha%20ends.-,Same%20words%20here."


def test_unique_text_needs_no_context():
    hay = page_haystack(segments_from_html("<main><p>Only once here.</p></main>"))
    assert unique_directive(hay, "Only once here.", "", "") == TextDirective("Only once here.")


def test_sentence_that_cannot_be_told_apart_gets_no_directive():
    hay = page_haystack(segments_from_html("<main><p>Same.</p><p>Same.</p></main>"))
    assert unique_directive(hay, "Same.", "", "") is None


@pytest.mark.parametrize("before, after, text, directive", [
    # "。" after "…です。。" would be a prefix starting at the run's second mark, which Chromium does not match
    ("以上は「情報」のためのものです。。", "", "直接使うことはほとんどありません。",
     TextDirective("直接使うことはほとんどありません。", prefix="のためのものです。。")),
    ("ものです。", "", "直接使うことはほとんどありません。",
     TextDirective("直接使うことはほとんどありません。", prefix="ものです。")),
])
def test_context_never_starts_inside_a_run_of_marks(before, after, text, directive):
    html = f"<main><p>{before}{text}{after}</p><p>これらを{text}</p></main>"
    assert unique_directive(page_haystack(segments_from_html(html)), text, before, after) == directive


def test_a_common_word_before_is_passed_over_for_a_rare_word_after():
    # "Alpha" opens 40 other paragraphs: a browser would try each place before reaching the passage
    html = ("<main>" + "<p>Alpha</p>" * 40 + "<p>Alpha Same words here.</p><p>Omega Same words here.</p></main>")
    hay = page_haystack(segments_from_html(html))
    chosen = unique_directive(hay, "Same words here.", "Alpha ", "Omega Same words here.")
    assert chosen == TextDirective("Same words here.", suffix="Omega")
    assert search_scans(hay, chosen) < search_scans(hay, TextDirective("Same words here.", prefix="Alpha"))


@pytest.mark.parametrize("directive, scans", [
    (TextDirective("only once"), 0.0),                               # found in the one pass every link costs
    (TextDirective("twice", suffix="rare"), 2 / 2),                   # each "twice" reads on to "rare"
    (TextDirective("rare", prefix="often"), 4 / 2),                  # each "often" reads on to "rare"
    (TextDirective("twice", prefix="often", suffix="rare"), 4 / 3 + 2 / 2),
])
def test_search_scans_counts_the_forward_reads_a_browser_makes(directive, scans):
    hay = page_haystack(segments_from_html(
        "<main><p>only once</p><p>often twice</p><p>often often twice rare</p><p>often</p></main>"))
    assert search_scans(hay, directive) == pytest.approx(scans)


@pytest.mark.parametrize("other_betas, prefix", [
    (10, "Kappa Beta"),   # "Beta" opens 10 other paragraphs: a second word cuts the search to a tenth
    (0, "Beta"),          # "Beta" is as rare as "Kappa Beta": the shorter prefix stays
])
def test_more_context_is_taken_only_when_it_halves_the_search(other_betas, prefix):
    html = "<main>" + "<p>Beta</p>" * other_betas + "<p>Kappa Beta Same.</p><p>Delta Same.</p></main>"
    hay = page_haystack(segments_from_html(html))
    assert unique_directive(hay, "Same.", "Kappa Beta ", "") == TextDirective("Same.", prefix=prefix)


@pytest.mark.parametrize("haystack, costly", [
    ("often " * 40 + "rare", False),                         # read 20 times over, but the page is short
    ("filler " * 100_000 + "often " * 3 + "rare", False),    # a long page, read 1.5 times over
    ("often " * 100_000 + "rare", True),                     # a long page read 50,000 times over
])
def test_a_link_is_too_costly_only_when_read_often_over_a_long_page(haystack, costly):
    assert too_costly(haystack, TextDirective("rare", prefix="often")) is costly
