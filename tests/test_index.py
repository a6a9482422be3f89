"""The index stage: BM25 scores equal rank-bm25's, chunks follow passages, the index ships
inside the release and its vectors come from the cache when the text is unchanged."""
import json
import socket
from dataclasses import dataclass

import numpy as np
import pytest
from rank_bm25 import BM25Okapi
from trigsight.retrieval.bm25 import BM25Index
from trigsight.retrieval.chunks import MAX_SENTENCES, MAX_WEIGHT, build_chunks, weight
from trigsight.retrieval.tokenize import tokenize

import small_site

CORPORA = {
    "tiny": [["a", "b"], ["b", "c", "c"], ["d"]],
    # "common" is in every document: negative idf, floored at epsilon × mean idf.
    "common terms": [["common", "x", "y"], ["common", "y"], ["common", "z", "z", "z"], ["common"], ["w", "common"]],
    "empty document": [["alpha", "beta"], [], ["beta", "beta", "gamma"]],
    "garden pages": [tokenize(body) for body in small_site.PAGES.values()],
}
QUERIES = [["b"], ["c", "c"], ["common", "z"], ["missing"], ["beta", "alpha", "beta"], [],
           tokenize("tomatoes watering bees"), tokenize("яблони обрезают"), tokenize("桜 満開"), tokenize("배추 절여")]


@pytest.mark.parametrize("name", CORPORA)
@pytest.mark.parametrize("query", QUERIES, ids=lambda q: " ".join(q) or "empty")
def test_bm25_scores_match_rank_bm25_okapi(name, query):
    corpus = CORPORA[name]
    reference = BM25Okapi(corpus).get_scores(query)
    np.testing.assert_allclose(BM25Index.build(corpus).scores(query), reference, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", CORPORA)
def test_bm25_index_survives_a_save_and_a_memory_mapped_load(tmp_path, name):
    built = BM25Index.build(CORPORA[name])
    built.save(tmp_path / "bm25")
    loaded = BM25Index.load(tmp_path / "bm25")
    query = tokenize("Bees fly on warm days; яблоки; 竹の子")
    assert loaded.vocabulary == built.vocabulary
    assert (loaded.n_docs, loaded.avgdl) == (built.n_docs, built.avgdl)
    assert all(isinstance(a, np.memmap) for a in (loaded.indptr, loaded.doc_ids, loaded.weights, loaded.idf))
    np.testing.assert_array_equal(loaded.scores(query), built.scores(query))
    np.testing.assert_array_equal(loaded.coverage(query), built.coverage(query))


def test_coverage_is_the_share_of_the_question_idf_a_document_holds():
    index = BM25Index.build([["rare", "x"], ["common", "x"], ["common", "y"], ["common", "z"]])
    idf = dict(zip(index.vocabulary, index.idf))
    coverage = index.coverage(["rare", "common", "rare"])
    assert coverage[0] == pytest.approx(idf["rare"] / (idf["rare"] + idf["common"]))
    assert coverage[1] == pytest.approx(idf["common"] / (idf["rare"] + idf["common"]))
    assert index.coverage(["rare"])[0] == 1.0 and index.coverage(["rare"])[1] == 0.0
    # A word the corpus has never seen still counts in the question's mass.
    assert index.coverage(["rare", "unheard"])[0] < 0.5


def test_a_long_questions_coverage_is_a_share_of_its_heaviest_terms_only():
    index = BM25Index.build([["rare", "x"], ["common", "x"], ["common", "y"], ["common", "z"], ["x"]])
    idf = dict(zip(index.vocabulary, index.idf))
    question = ["rare", "common", "x", "y"]
    heaviest = sorted((idf[t] for t in question), reverse=True)
    assert index.coverage(question, heaviest=2)[0] == pytest.approx((idf["rare"] + idf["x"]) / sum(heaviest[:2]))
    assert index.coverage(question, heaviest=1)[0] == 1.0          # never more than the whole
    # As many terms as the question has, or more: the plain share.
    np.testing.assert_allclose(index.coverage(question, heaviest=4), index.coverage(question))
    np.testing.assert_allclose(index.coverage(question, heaviest=9), index.coverage(question))
    # A word the corpus has never seen is among the heaviest: it still holds the share down.
    assert index.coverage(["rare", "unheard", "common", "y"], heaviest=2)[0] < 0.5


@dataclass(frozen=True)
class P:
    id: str
    page: str
    text: str
    block: int
    kind: str = "p"
    headings: tuple = ("Title", "Section")


def test_chunks_keep_whole_passages_in_page_order_and_skip_headings():
    passages = [P("h", "/a", "Section", 0, "h2", ("Title",)), P("p1", "/a", "One.", 1), P("p2", "/a", "Two.", 1),
                P("p3", "/a", "Three.", 2), P("p4", "/b", "Four.", 0)]
    chunks = build_chunks(passages)
    assert [c.passage_ids for c in chunks] == [("p1", "p2"), ("p3",), ("p4",)]
    assert chunks[0].text == "One. Two." and chunks[0].headings == ("Title", "Section")
    assert chunks[0].indexed_text == "Section: One. Two."
    titled = build_chunks(passages, {"/a": "Page A"})
    assert titled[0].indexed_text == "Page A / Section: One. Two." and titled[2].indexed_text == "Section: Four."


def test_a_heading_the_page_gives_three_sections_is_named_with_the_headings_that_tell_it_apart():
    trails = [("Changelog", "7.8.1", "Bug Fixes"), ("Changelog", "7.8.0", "Bug Fixes"),
              ("Changelog", "7.7.0", "Bug Fixes"), ("Changelog", "7.8.0", "Features"),
              ("Changelog", "7.7.0", "Features")]
    passages = [P(f"p{i}", "/changelog", f"Fix {i}.", i, "li", trail) for i, trail in enumerate(trails)]
    passages.append(P("other", "/other", "Fix.", 0, "li", ("Notes", "Bug Fixes")))
    contexts = [c.context for c in build_chunks(passages, {"/changelog": "Changelog", "/other": "Notes"})]
    assert contexts == ["Changelog / 7.8.1 / Bug Fixes", "Changelog / 7.8.0 / Bug Fixes",
                        "Changelog / 7.7.0 / Bug Fixes",
                        "Changelog / Features", "Changelog / Features",   # two sections: one topic, twice
                        "Notes / Bug Fixes"]


def test_a_long_paragraph_is_cut_into_even_runs_within_the_limits():
    sentence = "This sentence talks about one small topic at a time, nothing more. "
    passages = [P(f"p{i}", "/a", sentence.strip() + f" {i}", 1) for i in range(10)]
    chunks = build_chunks(passages)
    sizes = [len(c.passage_ids) for c in chunks]
    assert sum(sizes) == 10 and max(sizes) - min(sizes) <= 1
    assert all(len(c.passage_ids) <= MAX_SENTENCES and weight(c.text) <= MAX_WEIGHT for c in chunks)
    assert [pid for c in chunks for pid in c.passage_ids] == [p.id for p in passages]


def test_a_sentence_longer_than_the_limit_stays_one_chunk():
    passages = [P("long", "/a", "word " * 200, 1), P("short", "/a", "Short.", 1)]
    assert [c.passage_ids for c in build_chunks(passages)] == [("long",), ("short",)]


def test_cjk_characters_weigh_double():
    assert weight("日本語") == 6 and weight("abc") == 3 and weight("한국") == 4


@pytest.fixture(scope="module")
def shared(tmp_path_factory):
    from conftest import run_trigsight

    return small_site.shared_release(tmp_path_factory, run_trigsight)


@pytest.fixture(scope="module")
def garden(shared):
    return shared[0], shared[1]


@pytest.fixture(scope="module")
def garden_release(shared):
    return shared[2], shared[3]


def test_release_publishes_an_index_aligned_with_the_allowlist(garden_release):
    out, _ = garden_release
    meta = json.loads((out / "index" / "index.json").read_text("utf-8"))
    allowlist = json.loads((out / "allowlist.json").read_text("utf-8"))
    allowed = {p["id"]: p for p in allowlist["passages"]}
    assert meta["schema"] == "trigsight.index/2" and meta["model"] == {"id": "use-multilingual-v3", "dims": 512}
    indexed = [p["id"] for p in meta["passages"]]
    assert indexed == [pid for chunk in meta["chunks"] for pid in chunk["passage_ids"]]
    assert set(indexed) <= set(allowed)
    assert {pid for pid, p in allowed.items() if not p["kind"].startswith("h")} == set(indexed)
    for chunk in meta["chunks"]:
        assert all(allowed[pid]["page"] == chunk["page"] for pid in chunk["passage_ids"])
    vectors = np.load(out / "index" / "vectors-passages.npy")
    assert vectors.shape == (len(indexed), 512) and vectors.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1, rtol=1e-5)
    assert np.load(out / "index" / "vectors-chunks.npy").shape == (len(meta["chunks"]), 512)


def test_release_records_index_figures_in_the_manifest(garden_release):
    out, result = garden_release
    figures = json.loads((out / "manifest.json").read_text("utf-8"))["gates"]["index"]
    assert figures["model"] == "use-multilingual-v3" and figures["chunks"] > 0
    assert figures["embedded"] + figures["reused_from_cache"] > figures["passages"]
    assert "index:" in result.stderr


def test_second_release_embeds_no_text_and_one_edit_embeds_only_the_changed_texts(garden, garden_release):
    from conftest import run_trigsight

    root, content = garden
    again = small_site.release(run_trigsight, content, root / "again", root / "cache")
    assert again.returncode == 0, again.stderr
    figures = json.loads((root / "again" / "manifest.json").read_text("utf-8"))["gates"]["index"]
    assert figures["embedded"] == 0 and figures["reused_index"] is True
    assert "the last release's index, unchanged" in again.stderr
    for name in ("vectors-chunks.npy", "vectors-passages.npy"):
        np.testing.assert_array_equal(np.load(root / "again" / "index" / name),
                                      np.load(garden_release[0] / "index" / name))
    # Nothing was built: the files are the kept index's, linked (index_reuse.py).
    kept = root / "cache" / "index-reuse" / "last"
    assert sorted(f.name for f in (root / "again" / "index").iterdir()) == \
        sorted(f.name for f in kept.iterdir() if f.name != "fingerprint.txt")
    assert all((root / "again" / "index" / f.name).samefile(f) for f in kept.iterdir() if f.name != "fingerprint.txt")

    edited = small_site.write(root / "edited", {**small_site.PAGES, "ko.md": small_site.PAGES["ko.md"].replace(
        "고추는 여름 햇볕에 말려서 가루로 만듭니다.", "고추는 가을 햇볕에 말립니다.")})
    changed = small_site.release(run_trigsight, edited, root / "edited-release", root / "cache")
    assert changed.returncode == 0, changed.stderr
    # The changed sentence is its own passage and its own chunk: two new texts.
    figures = json.loads((root / "edited-release" / "manifest.json").read_text("utf-8"))["gates"]["index"]
    assert figures["embedded"] == 2 and figures["reused_index"] is False


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_openai_falls_back_to_the_offline_model_with_a_message(garden, tmp_path):
    from conftest import run_trigsight

    _, content = garden
    result = small_site.release(run_trigsight, content, tmp_path / "release", tmp_path / "cache",
                                env={"OPENAI_API_KEY": "sk-test-not-a-key",
                                     "OPENAI_BASE_URL": f"http://127.0.0.1:{_closed_port()}/v1"})
    assert result.returncode == 0, result.stderr
    assert "OpenAI embeddings (text-embedding-3-small) unavailable" in result.stderr
    assert "falling back to the offline model use-multilingual-v3" in result.stderr
    meta = json.loads((tmp_path / "release" / "index" / "index.json").read_text("utf-8"))
    assert meta["model"]["id"] == "use-multilingual-v3"


def test_forced_openai_without_a_key_refuses_the_release(garden, tmp_path):
    from conftest import run_trigsight

    _, content = garden
    result = small_site.release(run_trigsight, content, tmp_path / "release", tmp_path / "cache",
                                env={"TRIGSIGHT_EMBEDDINGS": "openai"})
    assert result.returncode == 1
    assert "TRIGSIGHT_EMBEDDINGS=openai needs OPENAI_API_KEY" in result.stderr
    assert not (tmp_path / "release").exists()


def test_the_cells_of_one_table_row_form_one_chunk():
    # Row elements are blocks too, so the second row's cells start after a gap.
    cells = [P("a1", "/a", "hyphen -", 11, "td"), P("a2", "/a", "%2D", 12, "td"), P("a3", "/a", "nothing matches", 13, "td"),
             P("b1", "/a", "comma ,", 15, "td"), P("b2", "/a", "%2C", 16, "td")]
    chunks = build_chunks(cells)
    assert [c.passage_ids for c in chunks] == [("a1", "a2", "a3"), ("b1", "b2")]
    assert chunks[0].text == "hyphen - | %2D | nothing matches"
