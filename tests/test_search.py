"""The query side: reciprocal rank fusion, loading the published index, both searches."""
import json
import shutil

import numpy as np
import pytest
from trigsight.publishing.published import Release
from trigsight.retrieval.embedders import OpenAIEmbedder, offline
from trigsight.retrieval.layout import FOCUS_TERMS
from trigsight.retrieval.search import Hit, IndexMismatch, Retriever, focus_terms, rrf, top
from trigsight.retrieval.tokenize import tokenize

import small_site


def test_rrf_sums_reciprocal_ranks():
    fused = dict(rrf([[1, 2, 3], [3, 1]], k=60))
    assert fused[1] == pytest.approx(1 / 61 + 1 / 62)
    assert fused[3] == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2] == pytest.approx(1 / 62)


@pytest.mark.parametrize("rankings, expected", [
    ([[5, 7], [7, 5]], [5, 7]),             # equal scores: equal best rank, lower number first
    ([[9, 4], [4, 9]], [4, 9]),
    ([[2], [8, 2, 3]], [2, 8, 3]),          # both lists beat a single first place
    ([[3, 1], []], [3, 1]),                 # an empty leg changes nothing
    ([[], []], []),
])
def test_rrf_breaks_ties_deterministically(rankings, expected):
    assert [item for item, _ in rrf(rankings)] == expected
    assert rrf(rankings) == rrf([list(r) for r in rankings])


def test_rrf_constant_controls_how_much_the_top_rank_dominates():
    # Item 0 is first in one leg only; item 1 is fourth in both.
    legs = [[0, 5, 6, 1], [2, 7, 8, 1]]
    assert rrf(legs, k=1)[0][0] == 0
    assert rrf(legs, k=60)[0][0] == 1


@pytest.mark.parametrize("scores, depth, positive_only, expected", [
    ([0.1, 0.5, 0.5, 0.0], 2, False, [1, 2]),
    ([0.1, 0.5, 0.5, 0.0], 10, True, [1, 2, 0]),
    ([0.0, 0.0], 5, True, []),
    ([0.3, 0.3, 0.3], 2, False, [0, 1]),
])
def test_top_orders_by_score_then_corpus_order(scores, depth, positive_only, expected):
    assert top(np.array(scores), depth, positive_only) == expected


@pytest.fixture(scope="module")
def release_dir(tmp_path_factory):
    from conftest import run_trigsight

    return small_site.shared_release(tmp_path_factory, run_trigsight)[2]


@pytest.fixture(scope="module")
def retriever(release_dir):
    return Retriever.load(release_dir)


@pytest.fixture(scope="module")
def published(release_dir):
    return Release.load(release_dir)


@pytest.mark.parametrize("question, bridged, focus", [
    ("After a long week of rain the beds are soaked; how often do tomatoes need water?", None, FOCUS_TERMS),
    ("Когда обрезают яблони, если зима была тёплой и почки уже набухли?", None, FOCUS_TERMS),
    # Bridged into the pages' words: two of them for many of its own.
    ("Когда поливать помидоры?", "Когда water watering помидоры?", None),
    # Character pairs: several tokens to a word.
    ("桜はいつ満開になりますか", None, None),
    ("배추는 어떻게 절이나요?", None, None),
])
def test_only_a_question_read_as_written_in_words_is_held_to_its_heaviest_terms(question, bridged, focus):
    read = bridged or question
    assert focus_terms(question, read, tokenize(read), FOCUS_TERMS) == focus


def test_a_long_questions_chunks_are_covered_as_a_share_of_its_heaviest_terms(retriever):
    question = "After a long week of rain the beds are soaked and the paths are mud; how often do tomatoes need water?"
    scores, tokens = retriever.scores(question), tokenize(question)
    assert len(set(tokens)) > FOCUS_TERMS and not scores.bridged
    np.testing.assert_allclose(scores.coverage_chunks, retriever.bm25_chunks.coverage(tokens, FOCUS_TERMS))
    assert scores.coverage_chunks.max() > retriever.bm25_chunks.coverage(tokens).max()


def test_retriever_names_its_backend(retriever):
    assert retriever.backend == "hybrid: bm25 + use-multilingual-v3 (offline), rrf k=60"


@pytest.mark.parametrize("question, page, sentence", [
    ("How often do tomatoes need water?", "/", "Tomatoes want deep watering twice a week"),
    ("Когда обрезают яблони?", "/ru", "Яблони обрезают в конце зимы"),
    ("桜はいつ満開になりますか", "/ja", "庭の桜は四月の初めに満開になります。"),
    ("배추는 어떻게 절이나요?", "/ko", "배추는 소금물에 하룻밤 절여 둡니다."),
    # Across languages: nothing but the vectors connects the question to the answer.
    ("Когда поливать помидоры?", "/", "Tomatoes want deep watering twice a week"),
    ("When is the honey taken from the hive?", "/", "The honey harvest happens once, in late August."),
])
def test_search_puts_the_answering_chunk_first_and_names_its_sentence(retriever, published, question, page, sentence):
    hits = retriever.search(question, k=3)
    assert all(isinstance(hit, Hit) for hit in hits) and len(hits) == 3
    first = hits[0]
    assert first.page == page
    assert published.passage(first.best_passage).text.startswith(sentence)
    assert first.best_passage in first.passage_ids
    assert [published.passage(pid).page for pid in first.passage_ids] == [page] * len(first.passage_ids)
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_search_passages_returns_single_sentences_best_first(retriever, published):
    results = retriever.search_passages("Which flowers bring the most bees?", k=4)
    assert len(results) == 4 and [s for _, s in results] == sorted((s for _, s in results), reverse=True)
    assert published.passage(results[0][0]).text == "Lavender and borage bring the most bees."


def test_search_is_deterministic(retriever):
    assert retriever.search("garden in spring", k=5) == retriever.search("garden in spring", k=5)
    assert retriever.search_passages("сад весной", k=5) == retriever.search_passages("сад весной", k=5)


@pytest.mark.parametrize("k", [1, 5, 100])
def test_k_caps_the_number_of_hits(retriever, k):
    assert len(retriever.search("bees", k=k)) == min(k, len(retriever.chunks))


def test_offline_model_loads_once_per_process(retriever):
    retriever.search("first question")
    model = offline()._model
    retriever.search("second question")
    assert model is not None and offline()._model is model


def test_an_index_of_another_model_is_refused(release_dir):
    other = OpenAIEmbedder("sk-test-not-a-key")  # built only to name its model; never called
    with pytest.raises(IndexMismatch, match="vectors of two models never mix"):
        Retriever.load(release_dir, embedder=other)


def test_an_index_built_by_another_tokenizer_is_refused(release_dir, tmp_path):
    copy = shutil.copytree(release_dir, tmp_path / "release")
    meta_file = copy / "index" / "index.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta_file.write_text(json.dumps({**meta, "tokenizer": "older"}), "utf-8")
    with pytest.raises(IndexMismatch, match="rebuild the release"):
        Retriever.load(copy)


def test_a_release_without_an_index_is_refused_with_a_hint(tmp_path):
    with pytest.raises(IndexMismatch, match="run `trigsight release` first"):
        Retriever.load(tmp_path)


def test_an_openai_index_without_a_key_answers_with_bm25_alone(release_dir, tmp_path):
    copy = shutil.copytree(release_dir, tmp_path / "release")
    meta_file = copy / "index" / "index.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta_file.write_text(json.dumps({**meta, "model": {"id": "openai:text-embedding-3-small", "dims": 512}}), "utf-8")
    lexical = Retriever.load(copy, api_key="")
    assert lexical.backend.startswith("bm25 only") and "OPENAI_API_KEY" in lexical.backend
    assert lexical.search("tomatoes watering")[0].page == "/"


def test_the_app_loads_the_retriever_with_the_release(release_dir):
    from trigsight_site import create_app, current_retriever

    app = create_app({"RELEASE_DIR": str(release_dir)})
    assert current_retriever(app).backend.startswith("hybrid: bm25 + use-multilingual-v3")
    assert current_retriever(create_app({"RELEASE_DIR": ""})) is None


def test_every_index_array_is_memory_mapped_so_workers_share_one_copy(retriever):
    arrays = [retriever.vectors_chunks, retriever.vectors_passages, retriever.vectors_headings]
    for bm25 in (retriever.bm25_chunks, retriever.bm25_passages):
        arrays += [bm25.indptr, bm25.doc_ids, bm25.weights, bm25.idf]
    assert all(isinstance(array, np.memmap) for array in arrays)


def test_an_index_of_the_previous_schema_is_refused_with_the_rebuild_instruction(release_dir, tmp_path):
    copy = shutil.copytree(release_dir, tmp_path / "release")
    meta_file = copy / "index" / "index.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    meta_file.write_text(json.dumps({**meta, "schema": "trigsight.index/1"}), "utf-8")
    with pytest.raises(IndexMismatch, match=r"'trigsight.index/1'.*rebuild the release \(`trigsight release`\)"):
        Retriever.load(copy)


@pytest.fixture(scope="module")
def graph_retriever(release_dir, tmp_path_factory):
    """The same release with HNSW graphs written, as an index above layout.ANN_MIN_PASSAGES has."""
    from trigsight.retrieval.index import write_graphs

    copy = shutil.copytree(release_dir, tmp_path_factory.mktemp("graphs") / "release")
    folder = copy / "index"
    meta = json.loads((folder / "index.json").read_text("utf-8"))
    assert "ann" not in meta      # a small release scans every vector
    graphs = write_graphs(folder, np.load(folder / "vectors-chunks.npy"), np.load(folder / "vectors-passages.npy"),
                          min_passages=0)
    (folder / "index.json").write_text(json.dumps({**meta, "ann": graphs}), "utf-8")
    return Retriever.load(copy)


QUESTIONS = ["tomatoes watering", "How often should tomatoes be watered?", "яблони обрезают", "桜 満開",
             "배추 절여", "bees on warm days", "a question about nothing in the garden"]


@pytest.mark.parametrize("question", QUESTIONS)
def test_searching_through_the_graphs_returns_what_the_exact_scan_returns(retriever, graph_retriever, question):
    assert graph_retriever.graphs is not None and retriever.graphs is None
    assert graph_retriever.search(question, k=5) == retriever.search(question, k=5)
    assert graph_retriever.search_passages(question, k=10) == retriever.search_passages(question, k=10)


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_graph_path_gives_each_hit_its_exact_cosines(retriever, graph_retriever, question):
    hits, scores = graph_retriever.search_scored(question, k=5)
    exact = retriever.scores(question)
    for hit in hits:
        chunk = graph_retriever.chunk_row[hit.chunk_id]
        rows = [graph_retriever.passage_row[pid] for pid in hit.passage_ids]
        for name, index in (("cos_whole", chunk), ("cos_headings", chunk), ("cos_chunks", chunk)):
            assert getattr(scores, name)[index] == pytest.approx(getattr(exact, name)[index], abs=1e-12)
        np.testing.assert_allclose(scores.cos_sentences[rows], exact.cos_sentences[rows], atol=1e-12)
    assert np.max(scores.cos_sentences) == pytest.approx(np.max(exact.cos_sentences), abs=1e-12)


def test_a_chunk_repeating_a_better_ones_text_is_left_out_of_the_hits(tmp_path):
    from trigsight.retrieval import index

    from index_passage import IndexPassage

    repeated = "Save installed packages to a package.json file as dependencies."
    texts = {"/install": [repeated, "Install a package and any packages that it depends on."],
             "/update": [repeated, "Update all the packages listed to the latest version."],
             "/link": [repeated, "Symlink a package folder for development."],
             "/config": ["The save setting is true by default, so packages are saved to package.json."]}
    passages = [IndexPassage(f"p{page[1:]}{n}", page, text, n, headings=())
                for page, page_texts in texts.items() for n, text in enumerate(page_texts)]
    index.build(passages, tmp_path / "index", offline(), None, titles={page: page[1:] for page in texts})
    found = Retriever.load(tmp_path)
    hits, _ = found.search_scored("How do I save packages to package.json as dependencies?", k=4)
    chunk_texts = [found.chunks[found.chunk_row[hit.chunk_id]].text for hit in hits]
    assert chunk_texts.count(repeated) == 1 and len(set(chunk_texts)) == len(chunk_texts) == 4
    ranked = [found.chunks[n].text for n, _ in found.ranking(found.scores("How do I save packages?"), "chunk", "hybrid", 7)]
    assert ranked.count(repeated) == 3        # the ranking itself keeps every copy (retrieval eval reads it)
