"""`trigsight eval`: golden questions mapped to sentences, metrics per leg and level, floors."""
import json
import math
import re

import pytest
from trigsight.retrieval.evaluate import first_rank, ndcg

import small_site
from conftest import ROOT

GARDEN_GOLDEN = {
    "schema": "trigsight.golden/1",
    "thresholds": [{"leg": "hybrid", "level": "passage", "metric": "recall@5", "min": 0.5},
                   {"leg": "hybrid", "level": "document", "metric": "mrr@10", "min": 0.5}],
    "questions": [
        {"id": "water", "language": "en", "kinds": ["paraphrase"], "question": "How often do tomatoes need water?",
         "pages": ["/"], "sentences": ["deep watering twice a week"]},
        {"id": "apples-ru-en", "language": "en", "kinds": ["cross-language"], "question": "When are apple trees pruned?",
         "pages": ["/ru"], "sentences": ["Яблони обрезают в конце зимы"]},
        {"id": "sakura", "language": "ja", "kinds": [], "question": "桜はいつ満開になりますか",
         "pages": ["/ja"], "sentences": ["庭の桜は四月の初めに満開になります。"]},
        {"id": "kimchi", "language": "ko", "kinds": [], "question": "김장은 언제 하나요?",
         "pages": ["/ko"], "sentences": ["김장은 십일월 말에"]},
    ],
}


@pytest.fixture(scope="module")
def garden_release(tmp_path_factory):
    from conftest import run_trigsight

    return small_site.shared_release(tmp_path_factory, run_trigsight)[2]


def run_eval(trigsight, release, golden, tmp_path):
    file = tmp_path / "golden.json"
    file.write_text(json.dumps(golden, ensure_ascii=False), "utf-8")
    return trigsight("eval", "--release", str(release), "--golden", str(file), "--results", str(tmp_path / "results"))


def test_eval_prints_every_leg_and_level_naming_backend_and_writes_a_dated_report(garden_release, trigsight, tmp_path):
    result = run_eval(trigsight, garden_release, GARDEN_GOLDEN, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stdout.splitlines() if re.match(r"^(bm25|vector|hybrid) ", line)]
    assert len(lines) == 9
    for line in lines:
        assert re.search(r"recall@5 [01]\.\d{3}  mrr@10 [01]\.\d{3}  ndcg@10 [01]\.\d{3}", line)
        assert "use-multilingual-v3" in line or "bm25 (rank-bm25" in line
    reports = list((tmp_path / "results").glob("*.md"))
    assert [r.name[10:] for r in reports] == ["-offline-use-multilingual-v3.md"]
    text = reports[0].read_text("utf-8")
    assert "| leg | level | recall@5 | MRR@10 | nDCG@10 |" in text and "all floors met" in text


def test_eval_exits_1_when_a_figure_is_below_its_floor(garden_release, trigsight, tmp_path):
    golden = {**GARDEN_GOLDEN, "thresholds": [{"leg": "bm25", "level": "sentence", "metric": "recall@5", "min": 1.01}]}
    result = run_eval(trigsight, garden_release, golden, tmp_path)
    assert result.returncode == 1
    assert re.search(r"golden\.json: bm25 sentence recall@5 = \d\.\d{3} is below the floor 1\.010", result.stderr)
    assert "below a floor" in next((tmp_path / "results").glob("*.md")).read_text("utf-8")


@pytest.mark.parametrize("sentence, message", [("Apricots ripen in July.", "matches no passage on /"),
                                               ("bees", "matches 3 passages on / (needs 1)")])
def test_eval_refuses_an_expected_text_that_is_not_exactly_one_passage(garden_release, trigsight, tmp_path,
                                                                        sentence, message):
    question = {**GARDEN_GOLDEN["questions"][0], "sentences": [sentence]}
    result = run_eval(trigsight, garden_release, {**GARDEN_GOLDEN, "questions": [question]}, tmp_path)
    assert result.returncode == 1
    assert f"golden.json: water: expected text {sentence!r} {message}" in result.stderr


def test_eval_refuses_a_page_missing_from_the_release(garden_release, trigsight, tmp_path):
    question = {**GARDEN_GOLDEN["questions"][0], "pages": ["/orchard"]}
    result = run_eval(trigsight, garden_release, {**GARDEN_GOLDEN, "questions": [question]}, tmp_path)
    assert result.returncode == 1 and "water: page /orchard is not in release" in result.stderr


def test_eval_without_a_golden_file_is_a_usage_error(garden_release, trigsight, tmp_path):
    result = trigsight("eval", "--release", str(garden_release), "--golden", str(tmp_path / "none.json"))
    assert result.returncode == 2 and "no golden set at" in result.stderr


@pytest.mark.parametrize("gains, ideal, expected", [
    ([1, 0, 0], 1, 1.0),
    ([0, 1, 0], 1, 1 / math.log2(3)),
    ([0, 0, 0], 2, 0.0),
    ([1, 1], 2, 1.0),
    ([0, 1, 1], 2, (1 / math.log2(3) + 1 / math.log2(4)) / (1 + 1 / math.log2(3))),
    ([0] * 10 + [1], 1, 0.0),   # past the cut-off of 10
])
def test_ndcg_uses_binary_gains_and_the_ideal_ordering(gains, ideal, expected):
    assert ndcg(gains, ideal) == pytest.approx(expected)


def test_first_rank_is_one_based_or_none():
    assert first_rank([0, 0, 1], bool) == 3 and first_rank([0, 0], bool) is None


def test_bundled_golden_set_meets_its_floors_on_the_bundled_release(bundled_release, trigsight, tmp_path):
    result = trigsight("eval", "--release", str(bundled_release), "--golden",
                       str(ROOT / "bench" / "retrieval" / "golden.json"), "--results", str(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_pages_without_a_language_are_served_in_the_language_their_script_tells(garden_release):
    pages = {p["path"]: p["language"] for p in json.loads((garden_release / "allowlist.json").read_text("utf-8"))["pages"]}
    assert {path: pages[path] for path in ("/", "/ru", "/ja", "/ko")} == {"/": "en", "/ru": "ru", "/ja": "ja", "/ko": "ko"}
    assert '<html lang="ja">' in (garden_release / "pages" / "ja.html").read_text("utf-8")
