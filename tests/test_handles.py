"""Handles: issued per request in retrieval order, read back tolerantly, and nothing else resolves."""
from __future__ import annotations

import pytest
from trigsight.answering.handles import (
    HandleTable,
    parse_citations,
    split_leading_handles,
    strip_handles,
)
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Hit

from allowlists import write_allowlist


@pytest.mark.parametrize("text, labels", [
    ("Claim [S1].", ("S1",)),
    ("Claim [s1].", ("S1",)),
    ("Claim 【S1】.", ("S1",)),
    ("Claim ［Ｓ１］.", ("S1",)),
    ("Claim (S2).", ("S2",)),
    ("Claim [S1, S3].", ("S1", "S3")),
    ("Claim [S1,S3;S4].", ("S1", "S3", "S4")),
    ("Claim [S1, 3].", ("S1", "S3")),
    ("Claim [S1][S2].", ("S1", "S2")),
    ("Claim [ S 2 ].", ("S2",)),
    ("Claim [S01].", ("S1",)),
    ("Claim. [S2] [S5]", ("S2", "S5")),
])
def test_handle_variants_models_write_are_read_back(text, labels):
    cited = parse_citations(text)
    assert cited.labels == labels
    assert "S" not in cited.text.replace("Claim", "")
    assert cited.stray == 0


@pytest.mark.parametrize("text, stray", [
    ("Claim [3].", 1),
    ("Claim [source 3].", 0),          # not a citation shape we know: stays text, cites nothing
    ("Claim [S1-S3].", 1),
    ("Claim [[cite:chat|The model never writes a link.]]", 1),
    ("Claim pb0cf3632a0 and p0123456789-2.", 2),
    ("Claim cut off at the end [S", 1),
])
def test_citation_look_alikes_are_cut_out_and_counted(text, stray):
    cited = parse_citations(text)
    assert cited.labels == ()
    assert cited.stray == stray


def test_leading_handles_are_split_from_the_text_after_them():
    assert split_leading_handles(" [S1][S2] Next sentence.") == (" [S1][S2]", " Next sentence.")
    assert split_leading_handles("No handle [S1].") == ("", "No handle [S1].")


def test_earlier_turns_lose_their_handles_before_the_model_sees_them():
    assert strip_handles("Handles are short [S1]. They resolve [S2, S3].") == "Handles are short . They resolve ."


@pytest.fixture
def release(tmp_path) -> Release:
    return Release.load(write_allowlist(tmp_path, {
        "/a": ["Alpha one.", "Alpha two."],
        "/b": ["Beta one."],
        "/c": ["Gamma one."],
    }))


def hit(release: Release, *texts: str, page: str = "/a") -> Hit:
    ids = tuple(p.id for p in release.passages if p.text in texts)
    return Hit("c" + "".join(ids), ids + ("pgone",) if "gone" in texts else ids, page, 0.1, ids[0] if ids else "")


def test_handles_are_issued_in_retrieval_order_from_s1(release):
    table = HandleTable.issue([hit(release, "Beta one.", page="/b"), hit(release, "Alpha one.", "Alpha two.")], release)
    assert [s.label for s in table] == ["S1", "S2"]
    assert table.get("S1").text == "Beta one."
    assert table.get("S2").text == "Alpha one. Alpha two."
    assert table.get("S2").title == "Page a"
    assert table.get("S3") is None


def test_passages_missing_from_the_allowlist_get_no_handle(release):
    gone = Hit("cgone", ("pmissing",), "/a", 0.2, "pmissing")
    table = HandleTable.issue([gone, hit(release, "Gamma one.", page="/c")], release)
    assert [s.label for s in table] == ["S1"]
    assert table.get("S1").passage_ids == tuple(p.id for p in release.passages if p.text == "Gamma one.")


def test_no_more_than_the_limit_of_handles_is_issued(release):
    hits = [hit(release, text) for text in ("Alpha one.", "Alpha two.", "Beta one.", "Gamma one.")]
    assert len(HandleTable.issue(hits, release, limit=3)) == 3
