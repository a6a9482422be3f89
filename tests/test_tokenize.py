"""The BM25 tokenizer: folded, stemmed English and Russian; bigrammed Japanese and Korean."""
import pytest
from trigsight.retrieval.tokenize import bigrams, tokenize


@pytest.mark.parametrize("text, expected", [
    ("The Browser-gate opened pages!", ["browser", "gate", "open", "page"]),
    ("passages, Passage; PASSAGES.", ["passag", "passag", "passag"]),
    ("Café résumé", ["cafe", "resum"]),
    ("text-embedding-3-small", ["text", "embed", "3", "small"]),
    ("ＡＢＣ１２３", ["abc123"]),
])
def test_english_words_are_folded_stemmed_and_stripped_of_punctuation(text, expected):
    assert tokenize(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("What changed in 7.8.1?", ["chang", "7.8.1"]),
    ("## v7.8.1 (2023-04-26)", ["7.8.1", "2023", "04", "26"]),
    ("Served on 127.0.0.1:8000.", ["serv", "127.0.0.1", "8000"]),
    ("2.0.0-beta.1", ["2.0", "beta", "1"]),                          # 2.0.0 is the 2.0 release
    ("7.0.0, 7.0, 7.0.1, 10.0.0.0", ["7.0", "7.0", "7.0.1", "10.0"]),
    ("バージョン7.8.1の変更", ["バー", "ージ", "ジョ", "ョン", "7.8.1", "の変", "変更"]),
    ("a 1.5B model, ver7.8", ["1", "5b", "model", "ver7", "8"]),   # inside a word: not a version
])
def test_a_dotted_number_is_one_token_without_its_v(text, expected):
    assert tokenize(text) == expected


@pytest.mark.parametrize("forms", [
    ["браузер", "браузера", "Браузеры", "браузеров"],
    ["цитата", "цитаты", "цитату", "ЦИТАТОЙ"],
    ["ёлка", "елки"],
])
def test_russian_case_endings_reduce_to_one_stem(forms):
    stems = {token for form in forms for token in tokenize(form)}
    assert len(stems) == 1


def test_russian_and_english_function_words_are_dropped():
    assert tokenize("the page and the link") == ["page", "link"]
    assert tokenize("и в на страница") == tokenize("страница")


@pytest.mark.parametrize("text, expected", [
    ("日本語", ["日本", "本語"]),
    ("桜", ["桜"]),
    ("テキスト。", ["テキ", "キス", "スト"]),
    ("ｶﾀｶﾅ", ["カタ", "タカ", "カナ"]),
])
def test_japanese_runs_become_character_bigrams(text, expected):
    assert tokenize(text) == expected


def test_japanese_question_shares_bigrams_with_the_sentence_that_answers_it():
    sentence = set(tokenize("庭の桜は四月の初めに満開になります。"))
    question = set(tokenize("桜はいつ満開になりますか"))
    assert {"満開", "にな", "なり"} <= sentence & question


@pytest.mark.parametrize("text, expected", [
    ("한국어 텍스트", ["한국", "국어", "텍스", "스트"]),
    ("꽃", ["꽃"]),
])
def test_korean_words_become_syllable_bigrams_and_stay_composed(text, expected):
    assert tokenize(text) == expected


def test_korean_noun_matches_with_a_particle_attached():
    assert set(tokenize("배추")) <= set(tokenize("배추는 소금물에 절여 둡니다"))


def test_mixed_scripts_keep_their_order():
    assert tokenize("MCP の find_evidence ツール") == ["mcp", "の", "find", "evid", "ツー", "ール"]


@pytest.mark.parametrize("text", ["", "  ", "— … !?", "。、「」"])
def test_text_without_letters_has_no_tokens(text):
    assert tokenize(text) == []


def test_bigrams_of_one_character_are_the_character():
    assert bigrams("a") == ["a"] and bigrams("abc") == ["ab", "bc"]
