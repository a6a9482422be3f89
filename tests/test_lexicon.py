"""The lexicon bridges a question in another script to the pages' own words (real offline model)."""
import json

import numpy as np
import pytest
from trigsight.answering import relevance
from trigsight.retrieval import embedders, index, korean_verbs, lexicon
from trigsight.retrieval.search import Retriever

from index_passage import IndexPassage


@pytest.mark.parametrize("text, expected", [
    ("How does compression work in zlib?", ["how", "does", "compression", "work", "zlib"]),
    ("Можно ли перезагрузить ES-модуль?", ["можно", "перезагрузить", "модуль"]),
    ("zlib の圧縮レベルを上げると", ["zlib", "圧縮", "レベル", "上げる"]),
    # a verb keeps its stem, not its politeness, auxiliaries or question particle; a noun's particle is no verb
    ("7.8.1で何が変わりましたか？", ["変わり"]),
    ("コードが置き換えられてしまうことはありませんか", ["コード", "置き換えられて"]),
    ("ファイルを読み込んでも同じ値が使われますか", ["ファイル", "読み込んで", "同じ", "使われ"]),
    ("워커 스레드에 소켓을 넘겨줄 수 있나요?", ["워커", "스레드", "소켓", "넘겨줄", "있나요"]),
    ("Windows에서 os.cpus()는", ["windows", "에서", "cpus"]),
])
def test_words_cut_each_script_into_word_like_units(text, expected):
    assert lexicon.words(text) == expected


def test_the_vocabulary_keeps_words_used_twice_most_frequent_first():
    texts = ["Compression saves bytes.", "Compression costs time.", "Bytes and time and compression."]
    assert lexicon.vocabulary(texts) == ["compression", "bytes", "time", "and"]
    assert lexicon.vocabulary(texts, min_count=3) == ["compression"]
    assert lexicon.vocabulary(texts, most=2) == ["compression", "bytes"]


@pytest.mark.parametrize("question, translations, present, absent", [
    ("Что такое сжатие?", {"сжатие": ["compression"]}, ["Что такое", "compression"], ["сжатие"]),
    ("zlib の圧縮レベル", {"圧縮": ["compression", "compressed"], "レベル": ["level"]},
     ["zlib", "compression compressed", "level"], ["圧縮", "レベル"]),
    ("Сжатие и СЖАТИЕ", {"сжатие": ["compression"]}, ["compression  и  compression"], ["жат"]),
    ("Nothing to bridge", {}, ["Nothing to bridge"], []),
])
def test_bridge_replaces_each_translated_word_and_keeps_the_rest(question, translations, present, absent):
    bridged = lexicon.bridge(question, translations)
    assert all(text in bridged for text in present) and not any(text in bridged for text in absent)


SENTENCES = [
    "Tomatoes want deep watering twice a week in summer.",
    "Water the tomatoes in the morning, never at noon.",
    "Compression of the compost pile keeps the heat inside the compost.",
    "Bees visit lavender and borage more than any other flowers.",
    "Prune the apple trees at the end of winter, before the buds open.",
    "Apple trees need pruning every winter.",
]


@pytest.fixture(scope="module")
def english_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("lexicon")
    passages = [IndexPassage(f"p{n}", "/", text, n) for n, text in enumerate(SENTENCES)]
    index.build(passages, root / "index", embedders.offline(), None, titles={"/": "Garden"})
    return root


def test_the_release_stores_the_pages_vocabulary_with_its_vectors(english_index):
    meta = json.loads((english_index / "index" / "index.json").read_text("utf-8"))
    vectors = np.load(english_index / "index" / meta["lexicon"]["file"])
    assert "tomatoes" in meta["lexicon"]["words"] and "lavender" not in meta["lexicon"]["words"]  # used once
    assert vectors.shape == (len(meta["lexicon"]["words"]), 512)
    np.testing.assert_allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-4)


@pytest.mark.parametrize("question, expected", [
    ("Когда поливать помидоры?", "tomatoes"),
    ("トマトの水やりは週に何回ですか", "tomatoes"),
    ("사과 나무는 언제 가지치기를 하나요?", "apple"),
])
def test_a_question_in_another_script_reaches_bm25_in_the_pages_words(english_index, question, expected):
    retriever = Retriever.load(english_index)
    scores = retriever.scores(question)
    assert expected in scores.bridged.casefold()
    assert scores.bm25_passages.max() > 0     # the keyword leg now has something to rank
    # What stays unbridged (particles, question words) is left out: counted as unseen terms, it
    # kept every passage below the share of the question the keyword leg needs to vote.
    assert scores.coverage_passages.max() >= retriever.min_coverage


@pytest.mark.parametrize("question", [
    "When should I water pm2 tomatoes?",      # the pages' own script: an unknown word stays unknown
    "Tomatoes watering",
])
def test_a_question_in_the_pages_script_is_never_rewritten(english_index, question):
    assert Retriever.load(english_index).scores(question).bridged == ""


def test_a_word_nothing_in_the_pages_resembles_stays_as_it_was(english_index):
    retriever = Retriever.load(english_index)
    foreign = retriever.lexicon.foreign("Как зарегистрировать плагин в Fastify?")
    translations = retriever.lexicon.translations(foreign, retriever.embedder.embed(foreign))
    assert "плагин" in foreign and "плагин" not in translations


@pytest.mark.parametrize("question, nothing", [
    ("料金プランはいくらですか？", True),          # "How much is the price plan?" of a garden's pages
    ("구독 요금은 얼마입니까?", True),
    ("Сколько стоит подписка?", True),
    ("トマトの水やりは週に何回ですか", False),      # "tomatoes" is read into the pages' words
    ("사과 나무는 언제 가지치기를 하나요?", False),
    ("pm2 の料金プランはいくらですか？", False),    # a word in the pages' own script is a word asked about
    ("What does the subscription cost?", False),  # the pages' own script: their unknown-word share says it
])
def test_a_question_in_another_script_whose_words_no_page_uses_reads_nothing(english_index, question, nothing):
    retriever = Retriever.load(english_index)
    assert relevance.reads_nothing(question, retriever.scores(question), retriever) is nothing


def test_an_index_without_a_lexicon_still_answers(english_index, tmp_path):
    import shutil

    copy = shutil.copytree(english_index, tmp_path / "release")
    meta_file = copy / "index" / "index.json"
    meta = json.loads(meta_file.read_text("utf-8"))
    del meta["lexicon"]
    meta_file.write_text(json.dumps(meta), "utf-8")
    retriever = Retriever.load(copy)
    assert retriever.lexicon is None
    assert retriever.scores("Когда поливать помидоры?").bridged == ""
    assert retriever.search("Когда поливать помидоры?", k=1)


def test_a_question_in_a_script_only_some_pages_use_is_searched_as_written_and_in_the_main_script(tmp_path):
    russian = ["Помидоры поливают дважды в неделю.", "Помидоры поливают утром."]
    passages = [IndexPassage(f"p{n}", "/ru" if n >= len(SENTENCES) else "/", text, n)
                for n, text in enumerate(SENTENCES + russian)]
    index.build(passages, tmp_path / "index", embedders.offline(), None)
    retriever = Retriever.load(tmp_path)
    assert retriever.lexicon.main == "latin" and "cyrillic" in retriever.lexicon.scripts
    scores = retriever.scores("Когда поливать помидоры?")
    assert "tomatoes" in scores.bridged.casefold()               # the English pages are reached…
    russian = retriever.passage_ids.index(f"p{len(SENTENCES)}")
    assert scores.bm25_passages[russian] > 0                      # …and the Russian ones still are
    assert retriever.scores("When should tomatoes be watered?").bridged == ""   # the main script: never


def test_a_verb_is_bridged_only_when_a_page_word_is_very_near():
    words = ["dot", "replaces", "changes"]
    embedder = embedders.offline()
    found = lexicon.Lexicon(words, embedder.embed(words))
    units = ["済み", "置き換え", "変わり"]     # 済み ("done") is nearest to "dot" at 0.78
    translations = found.translations(units, embedder.embed(units))
    assert "済み" not in translations
    assert translations["置き換え"] == ["replaces"] and translations["変わり"] == ["changes"]


@pytest.mark.parametrize("unit, form", [
    ("실행하면", "실행하다"), ("실행하려면", "실행하다"), ("사용할", "사용하다"), ("설치됐는지", "설치되다"),
    ("확인하", "확인하다"), ("출시될", "출시되다"), ("변경한", "변경하다"),
    ("지우고", None), ("바꾸려면", None),      # native verbs: their forms sit near "get", "put"
    ("파일", None), ("설정", None), ("하다", None), ("install", None), ("面", None),
])
def test_a_conjugated_korean_verb_is_given_its_dictionary_form(unit, form):
    assert korean_verbs.dictionary_form(unit) == form


def test_a_korean_verb_the_bridge_cannot_read_as_written_is_read_by_its_dictionary_form():
    words = ["run", "file", "get", "permission"]
    embedder = embedders.offline()
    found = lexicon.Lexicon(words, embedder.embed(words))
    question = "파일을 실행하면 권한을 지우고 싶어요"
    foreign, minority = found.words_to_embed(question)
    assert "실행하면" not in found.translations(foreign, embedder.embed(foreign))     # 0.68 to "run"
    bridged, _ = found.read(question, foreign, minority, embedder.embed(found.texts_to_embed(foreign, minority)))
    assert "run" in bridged and "permission" in bridged     # 권한 is read as written, not as 권하다
    assert "get" not in bridged      # 지우고 ("remove") stays as written: 지우다 is nearest to "get"
