"""`trigsight eval --answers`: the offline answer scored per language on answerable and unanswerable questions."""
from __future__ import annotations

import json
import re

import pytest
from trigsight.answering.evaluate import AnswerSetError, Outcome, Question, load_questions, resolve
from trigsight.languages import language_of

import small_site
from conftest import ROOT
from indexed_site import indexed_site

QUESTIONS = {
    "schema": "trigsight.answers/1",
    "questions": [
        {"id": "water", "language": "en", "split": "dev", "answerable": True, "kinds": ["paraphrase"],
         "question": "How often should tomatoes be watered?", "pages": ["/"],
         "sentences": ["Tomatoes want deep watering twice a week in the early morning."]},
        {"id": "apples", "language": "ru", "split": "test", "answerable": True, "kinds": ["direct"],
         "question": "Когда обрезают яблони?", "pages": ["/ru"], "sentences": ["Яблони обрезают в конце зимы"]},
        {"id": "fig", "language": "en", "split": "test", "answerable": False,
         "question": "Which fertiliser brand suits fig trees in pots?", "why": "figs are never mentioned"},
    ],
}


@pytest.fixture(scope="module")
def garden_release(tmp_path_factory):
    from conftest import run_trigsight

    return small_site.shared_release(tmp_path_factory, run_trigsight)[2]


def run_eval(trigsight, release, questions, tmp_path, split="all"):
    file = tmp_path / "questions.json"
    file.write_text(json.dumps(questions, ensure_ascii=False), "utf-8")
    return trigsight("eval", "--release", str(release), "--answers", str(file), "--split", split,
                     "--results", str(tmp_path / "results"))


def test_eval_answers_prints_a_line_per_language_and_writes_a_dated_table(garden_release, trigsight, tmp_path):
    result = run_eval(trigsight, garden_release, QUESTIONS, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if re.match(r"^(en|ru|all) ", line)}
    assert set(lines) == {"en", "ru", "all"}
    assert re.search(r"answered correctly +\d/1 .* refused +\d/1 .* p50 +[\d.]+ ms", lines["en"])
    assert re.search(r"answered correctly +\d/2 .* refused +\d/1 ", lines["all"])
    [report] = (tmp_path / "results").glob("*.md")
    assert report.name.endswith("-all.md")
    text = report.read_text("utf-8")
    assert "| language | answered correctly |" in text and "relevance model" in text and "## Misses" in text


def test_a_second_eval_the_same_day_writes_a_second_table_and_keeps_the_first(garden_release, trigsight, tmp_path):
    for _ in range(2):
        assert run_eval(trigsight, garden_release, QUESTIONS, tmp_path).returncode == 0
    names = {report.name[len("YYYY-MM-DD"):] for report in (tmp_path / "results").glob("*.md")}
    assert names == {"-all.md", "-all-2.md"}


def test_eval_answers_keeps_to_the_split_asked_for(garden_release, trigsight, tmp_path):
    result = run_eval(trigsight, garden_release, QUESTIONS, tmp_path, split="dev")
    assert result.returncode == 0, result.stderr
    assert "1 dev questions" in result.stdout and not re.search(r"^ru ", result.stdout, re.M)


def test_eval_answers_refuses_an_answering_text_the_page_does_not_hold(garden_release, trigsight, tmp_path):
    broken = {**QUESTIONS, "questions": [{**QUESTIONS["questions"][0], "sentences": ["Tomatoes dislike water."]}]}
    result = run_eval(trigsight, garden_release, broken, tmp_path)
    assert result.returncode == 1
    assert "questions.json: water: 'Tomatoes dislike water.' matches no passage on /" in result.stderr


@pytest.mark.parametrize("quoted, pages, correct", [
    (("a1",), ("/a",), True),           # a chip on an expected page
    (("b7", "b8"), ("/b", "/b"), True),  # the expected sentence word for word, published on another page too
    (("b8",), ("/b",), False),          # another page's other sentence
    ((), (), False),                    # refused
])
def test_an_answer_is_correct_on_an_expected_page_or_when_it_quotes_the_expected_sentence_itself(quoted, pages, correct):
    question = Question("q", "en", "test", True, "Which?", pages=("/a",), sentences=("S.",),
                        passages=frozenset({"a1"}), elsewhere=frozenset({"b7"}))
    assert Outcome(question, quoted, pages, (), 0.0).correct is correct


SHARED_DEFAULTS = ("# Config\n\n- `color` {boolean} Colours the output. **Default:** `false`.\n"
                   "- `quiet` {boolean} Prints nothing. **Default:** `false`.\n\n"
                   "## Again\n\n- `quiet` {boolean} Prints nothing. **Default:** `false`.\n")


@pytest.mark.parametrize("names, meant", [
    (("quiet {boolean} Prints nothing.",), [("quiet", "Again"), ("quiet", "Config")]),   # documented alike twice
    (("color {boolean} Colours the output.",), [("color", "Config")]),
])
def test_a_text_several_settings_share_is_told_apart_by_the_setting_the_question_names(tmp_path, names, meant):
    release, _ = indexed_site(tmp_path, {"config.md": SHARED_DEFAULTS})
    question = Question("q", "en", "dev", True, "Is it on by default?", pages=("/config",),
                        sentences=("Default: false.",), names=names)
    [resolved] = resolve([question], release)
    after = [release.passage_at(p.page, p.order - 1) for p in map(release.passage, resolved.passages)]
    assert sorted((p.text.split()[0], p.headings[-1]) for p in after) == meant


def test_a_shared_text_without_the_setting_it_is_about_is_an_error(tmp_path):
    release, _ = indexed_site(tmp_path, {"config.md": SHARED_DEFAULTS})
    question = Question("q", "en", "dev", True, "Is it on by default?", pages=("/config",), sentences=("Default: false.",))
    with pytest.raises(AnswerSetError):
        resolve([question], release)


ANSWER_SETS = sorted(p for p in (ROOT / "bench" / "answers").glob("*.json")
                     if json.loads(p.read_text("utf-8")).get("schema") == "trigsight.answers/1")
FOLLOW_UPS = ROOT / "bench" / "answers" / "followups.json"


@pytest.mark.parametrize("path", ANSWER_SETS, ids=[p.name for p in ANSWER_SETS])
def test_every_committed_answer_set_is_well_formed(path):
    """Ids unique; an answerable question names its pages and sentences, an unanswerable one says why
    nothing answers it; each question is written in the language it declares, as the chat tells it."""
    questions = json.loads(path.read_text("utf-8"))["questions"]
    assert load_questions(path, "all")
    assert len({q["id"] for q in questions}) == len(questions)
    for q in questions:
        assert q["language"] == language_of(q["question"]) and q["split"] in ("dev", "test"), q["id"]
        if q["answerable"]:
            assert q["pages"] and q["sentences"], q["id"]
        else:
            assert q.get("why") or path.name == "bundled.json", q["id"]   # bundled.json: off-topic, no why kept


def test_the_follow_up_set_is_well_formed():
    """Two turns before each follow-up, written in the language it declares; answerable ones name
    their pages and sentences, topic switches say why nothing answers them."""
    conversations = json.loads(FOLLOW_UPS.read_text("utf-8"))["conversations"]
    assert len({c["id"] for c in conversations}) == len(conversations) >= 40
    for c in conversations:
        assert [t["role"] for t in c["history"]] == ["user", "assistant"], c["id"]
        assert c["language"] == language_of(c["question"]) == language_of(c["history"][0]["content"]), c["id"]
        assert c["split"] in ("dev", "test") and c["kind"] in ("follow-up", "topic-switch"), c["id"]
        assert (c["pages"] and c["sentences"]) if c["answerable"] else c.get("why"), c["id"]
