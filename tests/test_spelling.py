"""A misspelt code name ("find_evidnce()") is read as the pages' one; a name spelt right, or one no page
word is near, is left as written."""
import pytest
from trigsight.answering import offline, spelling
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever


@pytest.mark.parametrize("a, b, apart", [
    ("readfle", "readfile", True), ("readfiile", "readfile", True), ("raedfile", "readfile", True),
    ("readfixe", "readfile", True), ("readfile", "readfile", False), ("redfle", "readfile", False),
    ("readfilesync", "readfile", False), ("eradfile", "readfile", True),
])
def test_one_edit_is_a_letter_left_out_added_changed_or_two_swapped(a, b, apart):
    assert spelling.one_edit(a, b) is apart
    assert spelling.one_edit(b, a) is apart


@pytest.mark.parametrize("written, right, read", [
    ("setTimout", "settimeout", "setTimeout"), ("alocUnsafe", "allocunsafe", "allocUnsafe"),
    ("readFiile", "readfile", "readFile"), ("experimantal", "experimental", "experimental"),
    ("MAXBUFER", "maxbuffer", "MAXBUFFER"), ("SIGTREM", "sigterm", "SIGTERM"),
])
def test_the_pages_word_takes_the_capitals_the_reader_wrote(written, right, read):
    assert spelling.recased(written, right) == read


@pytest.fixture(scope="module")
def bundled(bundled_release):
    return Release.load(bundled_release), Retriever.load(bundled_release)


@pytest.mark.parametrize("question, read", [
    ("What does find_evidnce() require before it confirms a claim?",
     "What does find_evidence() require before it confirms a claim?"),
    ("What does the TRIGSIGT_JS_BUDGET setting hold?", "What does the TRIGSIGHT_JS_BUDGET setting hold?"),
    # Spelt right, or nothing on the pages one edit away, or a plain word: as written.
    ("What does find_evidence() require before it confirms a claim?",
     "What does find_evidence() require before it confirms a claim?"),
    ("Does MongoDB.connect() work with this site?", "Does MongoDB.connect() work with this site?"),
    ("Which evidnce does the tool require?", "Which evidnce does the tool require?"),
    # a capital where the name differs starts a part of its own: another name, not a typo
    ("What does allowAlist() hold?", "What does allowAlist() hold?"),
    ("What does allowlst() hold?", "What does allowlist() hold?"),
])
def test_a_misspelt_code_name_is_read_as_the_pages_one(bundled, question, read):
    _, retriever = bundled
    assert spelling.corrected(question, retriever) == read


def test_a_question_with_a_typo_in_a_code_name_is_answered_as_when_spelt_right(bundled):
    release, retriever = bundled
    right, _ = offline.respond("What does find_evidence() require before it confirms a claim?", retriever, release)
    typo, _ = offline.respond("What does find_evidnce() require before it confirms a claim?", retriever, release)
    assert right and [q.passage_id for q in typo] == [q.passage_id for q in right]
