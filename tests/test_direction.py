"""In one language, a sentence that turns its passage's direction round is not supported by it."""
from __future__ import annotations

import pytest
from trigsight.answering.attribution import judge
from trigsight.answering.direction import turned
from trigsight.answering.evidence import find_evidence
from trigsight.publishing.published import Release

from allowlists import write_allowlist

DECODE = "The decoder converts a base64 string to the equivalent sequence of raw bytes."
ORDER = "For shell scripts, the exec form should be preferred over the shell form."
COPY = "The sync command copies the lock file from the project root to the build directory."


@pytest.mark.parametrize("sentence, passage", [
    ("The decoder turns a sequence of raw bytes into the equivalent base64 string.", DECODE),
    ("For shell scripts, the shell form should be preferred over the exec form.", ORDER),
    ("The sync command copies the lock file from the build directory to the project root.", COPY),
    # a marker that opens its clause sets all that came before it against what follows
    ("Use the string form in production, as the guide explains, rather than the exec form.",
     "Use the exec form in production, as the guide explains, rather than the string form."),
])
def test_a_sentence_whose_words_trade_sides_of_a_direction_is_refused(sentence, passage):
    found = judge(sentence, passage, cosine=0.99)
    assert turned(sentence, passage)
    assert not found.supported and found.how == "direction"


@pytest.mark.parametrize("sentence, passage", [
    ("The decoder turns a base64 string into the equivalent sequence of raw bytes.", DECODE),
    ("For shell scripts, use the exec form rather than the shell form.", ORDER),
    ("For shell scripts, the exec form should be preferred over the shell form.", ORDER),
    ("The sync command copies the lock file from the project root to the build directory.", COPY),
    ("The lock file is copied to the build directory by the sync command.", COPY),
    ("It is used to copy the lock file over the network.", COPY),
])
def test_a_sentence_keeping_the_direction_or_stating_none_is_not_held_back(sentence, passage):
    assert not turned(sentence, passage)


def test_an_agents_claim_check_finds_no_evidence_in_a_passage_the_claim_turns_round(tmp_path):
    release = Release.load(write_allowlist(tmp_path, {"/codecs": [DECODE, COPY]}))
    assert find_evidence(release, "The decoder converts a base64 string to a sequence of raw bytes.").supported
    turned_round = "The decoder converts a sequence of raw bytes to the equivalent base64 string."
    assert not find_evidence(release, turned_round).supported
