"""bench/mcp/calibrate.py: the claim sets, the sweep, and the default threshold it chose."""
import importlib.util
import json

import pytest
from trigsight.answering.support import DEFAULT_THRESHOLD
from trigsight.publishing.published import Release

from conftest import ROOT

spec = importlib.util.spec_from_file_location("calibrate", ROOT / "bench/mcp/calibrate.py")
calibrate = importlib.util.module_from_spec(spec)
spec.loader.exec_module(calibrate)
MUST_NEVER = {"credential", "award", "employer", "number", "feature", "negation"}


@pytest.fixture(scope="module")
def rows(bundled_release):
    release = Release.load(bundled_release)
    return {name: calibrate.outcomes(release, calibrate.read_claims(file), None)[0]
            for name, file in (("calibration", calibrate.CALIBRATION), ("holdout", calibrate.HOLDOUT))}


@pytest.mark.parametrize("file", [calibrate.CALIBRATION, calibrate.HOLDOUT])
def test_claim_sets_are_well_formed_and_cover_four_languages(file):
    claims = json.loads(file.read_text("utf-8"))["claims"]
    assert len({c["id"] for c in claims}) == len(claims)
    assert {c["lang"] for c in claims} == {"en", "ru", "ja", "ko"}
    assert all(c["pages"] for c in claims if c["truth"]) and all(c["kind"] for c in claims if not c["truth"])


def test_the_calibration_set_is_larger_than_the_originals(rows):
    counts = calibrate.tally(rows["calibration"], DEFAULT_THRESHOLD)
    assert counts["true"] >= 20 and counts["fake"] >= 15


def test_the_default_threshold_is_the_one_the_sweep_chooses(rows):
    chosen = calibrate.choose([calibrate.tally(rows["calibration"], t) for t in calibrate.GRID])
    assert chosen["threshold"] == DEFAULT_THRESHOLD, \
        "the bundled content moved the calibration: run bench/mcp/calibrate.py and update support.py"


@pytest.mark.parametrize("name", ["calibration", "holdout"])
def test_no_fabricated_credential_award_employer_number_feature_or_negation_is_confirmed(rows, name):
    confirmed = [r["id"] for r in rows[name]
                 if not r["truth"] and r["kind"] in MUST_NEVER and calibrate.hit(r, DEFAULT_THRESHOLD)]
    assert confirmed == []
