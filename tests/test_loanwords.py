"""A Japanese, Korean or Russian loanword meets the English page word it was borrowed from (real offline model)."""
import numpy as np
import pytest
from trigsight.retrieval import embedders, lexicon, loanwords


@pytest.mark.parametrize("word, latin", [
    ("ワーカー", "waakaa"), ("ソケット", "soketo"), ("キャッシュ", "kyashyu"), ("ファイル", "fairu"),
    ("워커", "wokeo"), ("소켓", "soket"), ("핸들", "haendeul"), ("스트림", "seuteurim"),
    ("圧縮", ""), ("socket", ""), ("плагин", "plaghin"), ("воркер", "vorker"),
])
def test_katakana_and_hangul_are_written_in_latin_letters(word, latin):
    assert loanwords.romanize(word) == latin


@pytest.mark.parametrize("loanword, english", [
    ("ワーカー", "worker"), ("워커", "worker"), ("ソケット", "socket"), ("소켓", "socket"), ("ハンドル", "handle"),
    ("핸들", "handle"), ("ストリーム", "stream"), ("스트림", "stream"), ("バッファ", "buffer"), ("버퍼", "buffer"),
    ("スレッド", "thread"), ("스레드", "thread"), ("トレース", "trace"), ("터미널", "terminal"), ("コールバック", "callback"),
    ("이벤트", "event"), ("パーミッション", "permission"), ("バージョン", "version"), ("서버", "server"),
])
def test_a_loanword_and_its_english_word_share_a_key(loanword, english):
    assert loanwords.key(loanwords.romanize(loanword)) == loanwords.key(english)


@pytest.mark.parametrize("korean, english", [
    ("같아야", "ought"),      # "must be equal": native Korean, not a loanword
    ("주입할", "supply"),     # "to inject"
    ("건의", "gain"),
])
def test_a_native_korean_word_does_not_sound_like_an_english_word_with_other_vowels(korean, english):
    assert loanwords.Sounds([english, "worker"]).candidates(korean) == []


@pytest.mark.parametrize("russian, english", [
    ("плагина", "plugin"), ("репозитории", "repository"), ("конфиге", "config"), ("коммиты", "commit"),
    ("сокет", "socket"), ("линтер", "linter"), ("резолвер", "resolver"), ("фрагменты", "fragment"),
])
def test_a_declined_russian_loanword_is_heard_as_its_english_word(russian, english):
    assert loanwords.Sounds([english, "stable", "least"]).candidates(russian) == [0]


@pytest.mark.parametrize("russian, english", [
    ("лежат", "least"),       # "(they) lie": л is not r, ж is not s
    ("ставлю", "stable"),     # "I put": a verb
    ("каком", "com"),         # "in which": two consonants hear too much
    ("ночи", "ansi"),
    ("вроде", "would"),
])
def test_a_native_russian_word_is_not_heard_as_an_english_word(russian, english):
    assert loanwords.Sounds([english]).candidates(russian) == []


@pytest.mark.parametrize("korean, english", [("브랜치", "branch"), ("머지", "merge"), ("푸시", "push"), ("스태시", "stash"),
                                             ("페치", "fetch"), ("해시", "hash")])
def test_the_i_korean_closes_a_final_ch_j_or_sh_with_is_not_heard_as_a_vowel_of_the_word(korean, english):
    assert loanwords.Sounds(["worker", english]).candidates(korean) == [1]


@pytest.mark.parametrize("korean, english", [("레거시", "legacy"), ("프록시", "proxy"), ("택시", "taxi")])
def test_a_korean_final_i_is_still_heard_where_the_english_word_ends_in_it(korean, english):
    assert loanwords.Sounds(["worker", english]).candidates(korean) == [1]


@pytest.mark.parametrize("katakana, english", [("フック", "hook"), ("フォルダ", "folder"), ("フード", "hood")])
def test_katakana_fu_is_heard_as_english_h_as_well_as_f(katakana, english):
    assert loanwords.Sounds(["fork", english]).candidates(katakana)[-1:] == [1]


@pytest.mark.parametrize("katakana, english", [("ツリー", "tree"), ("ツール", "tool"), ("ビッツ", "bits")])
def test_katakana_tsu_is_heard_as_english_t_as_well_as_ts(katakana, english):
    assert loanwords.Sounds(["worker", english]).candidates(katakana) == [1]


@pytest.mark.parametrize("loanword, english, neighbour", [
    ("коммита", "commit", "committee"), ("коммит", "commit", "committer"), ("コミット", "commit", "committer"),
    ("커밋", "commit", "committee"), ("команды", "command", "commands"), ("объект", "object", "vector"),
    ("プッシュ", "push", "pushes"), ("해시", "hash", "house"), ("페치", "fetch", "peers"),
])
def test_a_loanword_is_spelled_like_the_word_it_borrows_more_than_like_its_neighbours(loanword, english, neighbour):
    assert loanwords.sounds_alike(loanword, english) >= loanwords.BORROWED
    assert loanwords.sounds_alike(loanword, english) > loanwords.sounds_alike(loanword, neighbour)


def test_a_katakana_compound_is_cut_into_the_words_it_borrows():
    sounds = loanwords.Sounds(["log", "file", "profile", "worker", "thread", "fence", "code", "block"])
    assert [[0], [1]] in sounds.splits("ログファイル")
    assert sounds.splits("ワーカースレッド") == [[[3], [4]]]
    assert [[5], [6], [7]] in sounds.splits("フェンスコードブロック")
    assert sounds.splits("フェンスコードブロック", parts=2) == []


VOCABULARY = ["worker", "work", "weak", "week", "socket", "sockets", "handle", "log", "file", "trace", "track",
              "leap", "ought", "equal", "event", "events", "loop", "fence", "code", "block", "disable", "enable",
              "compression"]


@pytest.fixture(scope="module")
def words():
    embedder = embedders.offline()
    return lexicon.Lexicon(VOCABULARY, embedder.embed(VOCABULARY)), embedder


@pytest.mark.parametrize("word, expected", [
    ("워커", ["worker"]),
    ("핸들", ["handle"]),
    ("ログファイル", ["log", "file"]),
    ("イベントループ", ["event", "loop"]),
    ("フェンスコードブロック", ["fence", "code", "block"]),
    ("ラップ", []),                            # "wrap" sounds like "leap", but means nothing like it
    ("같아야", []),
    ("сокеты", ["socket"]),
])
def test_a_loanword_is_bridged_to_the_page_word_it_sounds_like_when_it_also_means_it(words, word, expected):
    lexicon_, embedder = words
    vector = embedder.embed([word])[0]
    similarity = np.asarray(lexicon_.vectors @ vector)
    assert lexicon_.loanword(word, vector, similarity) == expected


@pytest.fixture(scope="module")
def git_words():
    embedder = embedders.offline()
    vocabulary = ["commit", "committee", "committer", "hunk", "caveat", "team", "command", "files", "file", "flow",
                  "based", "given", "default", "object", "vector", "branch", "merge"]
    return lexicon.Lexicon(vocabulary, embedder.embed(vocabulary)), embedder


@pytest.mark.parametrize("word, expected", [
    ("коммита", ["commit"]),       # nearest in meaning: committee; spelled like commit
    ("コミット", ["commit"]),
    ("команды", ["command"]),      # команда is a team too
    ("файлов", ["files", "file"]),  # spelled a little like flow, which is far from it in meaning
    ("기반", ["based"]),            # sounds like given, a native word nowhere near it in meaning
])
def test_a_word_spelled_like_a_page_word_and_nearly_as_near_in_meaning_is_read_as_that_word(git_words, word, expected):
    lexicon_, embedder = git_words
    assert lexicon_.translations([word], embedder.embed([word])).get(word) == expected


@pytest.mark.parametrize("word, expected", [("сделал", ["did"]), ("должны", ["should"])])
def test_a_word_is_never_read_as_what_a_contraction_leaves_of_an_english_word(word, expected):
    embedder = embedders.offline()
    vocabulary = ["did", "didn", "should", "shouldn", "doesn", "module"]
    lexicon_ = lexicon.Lexicon(vocabulary, embedder.embed(vocabulary))
    assert lexicon_.translations([word], embedder.embed([word])).get(word) == expected


@pytest.mark.parametrize("word", ["включить", "有効"])
def test_a_word_is_never_bridged_to_its_opposite(words, word):
    lexicon_, embedder = words
    found = lexicon_.translations([word], embedder.embed([word])).get(word, [])
    assert "disable" not in found
