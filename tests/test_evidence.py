"""find_evidence scores only the passages that could reach its threshold, and finds all that scoring every one finds."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from trigsight.answering import evidence
from trigsight.answering.support import explain, fewest_shared
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.publishing.publish import allowlist, write_json
from trigsight.publishing.published import ALLOWLIST, Release

BENCH = Path(__file__).resolve().parents[1] / "bench" / "mcp"
CLAIMS = [claim["claim"] for name in ("claims.json", "claims-holdout.json")
          for claim in json.loads((BENCH / name).read_text("utf-8"))["claims"]]
CHANGELOG = """---
title: Changes
---

## 7.8.1

- Fixed the crash.
- The parser reads tables faster.
"""


def every_passage(release, claim, threshold, ignore):
    return list(release.passages)


def found(release: Release, claim: str, threshold: float) -> list[tuple[str, float]]:
    result = evidence.find_evidence(release, claim, threshold=threshold, limit=len(release.passages))
    return [(e.passage.id, e.score) for e in result.evidence]


def released(root: Path, pages: dict[str, str]) -> Release:
    for name, text in pages.items():
        (root / "content" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "content" / name).write_text(text, "utf-8")
    write_json(root / "release" / ALLOWLIST, allowlist(build(BuildConfig(root / "content"))))
    return Release.load(root / "release")


@pytest.fixture(scope="module")
def bundled(bundled_release) -> Release:
    return Release.load(bundled_release)


@pytest.mark.parametrize("threshold", [0.0, 0.65, 0.9])
def test_find_evidence_finds_what_scoring_every_passage_finds(bundled, monkeypatch, threshold):
    shortcut = {claim: found(bundled, claim, threshold) for claim in CLAIMS}
    monkeypatch.setattr(evidence, "candidates", every_passage)
    whole = {claim: found(bundled, claim, threshold) for claim in CLAIMS}
    assert shortcut == whole
    assert sum(bool(passages) for passages in whole.values()) >= len(CLAIMS) // 5   # not empty against empty


def test_find_evidence_scores_only_passages_that_share_enough_of_the_claims_words(bundled):
    result = evidence.find_evidence(bundled, CLAIMS[0])
    assert result.supported
    assert 0 < result.scored < len(bundled.passages) / 10


def test_a_passage_whose_version_is_in_its_heading_is_still_found(tmp_path):
    release = released(tmp_path, {"changes.md": CHANGELOG})
    claim = "Version 7.8.1 fixed the crash."
    crash = next(p for p in release.passages if p.text == "Fixed the crash.")
    context = evidence.block_contexts(release)[(crash.page, crash.block)]
    assert explain(claim, crash.text, context=context).score >= 0.65
    assert [e.passage.id for e in evidence.find_evidence(release, claim).evidence] == [crash.id]


@pytest.mark.parametrize("claim, threshold, fewest", [
    ("The parser reads tables.", 0.65, 2),               # three words, counted over at least three
    ("The parser reads tables faster today.", 0.65, 4),  # 4 of 5 words make 0.8; 3 make 0.6
    ("The parser reads tables faster today.", 0.0, 1),   # a score above 0 needs one word
    ("Version 7.8.1 fixed the crash.", 0.65, 2),         # the version may be in the passage's heading
    ("The parser reads tables.", 1.5, None),             # no passage can score that
    ("?!", 0.65, None),                                  # nothing to share
])
def test_the_fewest_shared_words_follow_the_support_score(claim, threshold, fewest):
    assert fewest_shared(claim, threshold) == fewest


@pytest.mark.parametrize("claim, supported", [
    ("For errors from a different realm, isNativeError() returns true while instanceof Error returns false.", True),
    ("For errors from a different realm, instanceof Error returns true while isNativeError() returns false.", False),
])
def test_a_claim_that_swaps_the_roles_of_its_names_finds_no_evidence(tmp_path, claim, supported):
    release = released(tmp_path, {"util.md": "# util\n\nisNativeError() returns true for errors which come from a "
                                             "different realm while instanceof Error returns false for these errors.\n"})
    assert evidence.find_evidence(release, claim).supported is supported
