"""Directives: percent-encoding, parsing, and the shortest unique choice."""
import re

import pytest
from trigsight.matching.directives import (
    TextDirective,
    encode_part,
    parse_directive,
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
