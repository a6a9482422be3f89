"""A follow-up ("And on macOS?") is read with the reader's previous question; any other question alone."""
import pytest
from trigsight.answering import follow_up
from trigsight.answering.conversation import Turn


@pytest.mark.parametrize("question", [
    "And on macOS?", "What about the synchronous one?", "Why not?", "What's the default?", "Can I raise that for all?",
    "А на Linux?", "А чем это плохо?", "И как его отключить?", "А если выставить её через process.env прямо в коде?",
    "じゃあ process.chdir() は？", "inflate の場合は？", "それが失敗したら？", "最大は？",
    "그럼 기본값은요?", "최대는요?", "true로 하면요?",
])
def test_a_question_that_needs_the_one_before_it_reads_as_a_follow_up(question):
    assert follow_up.continues(question)


@pytest.mark.parametrize("question", [
    "How do I read a file line by line with the readline module?",
    "Where does the author live these days?",
    "Is it safe to change V8 flags from code after the program has already started running?",
    "Можно ли перезагрузить ES-модуль, удалив его запись из require.cache?",
    "ワーカーをいくつ起動するか決めるのに os.cpus().length を使ってもよいですか？",
    "Buffer.allocUnsafe()로 만든 버퍼에는 어떤 데이터가 들어 있을 수 있나요?",
    "Zed エディタで Black をフォーマッタとして使う設定方法は？",
    "Что означает ошибка EMFILE?",
    # Opened as a reader opens a new question in conversation, and saying all it asks about.
    "А как настроить webpack для сборки серверного кода на Node.js?",
    "And is path.isAbsolute() a good guard against users escaping my upload folder?",
    "じゃあ、fetch の実装に使われている undici のバージョンはどうやって確認できますか？",
    "그럼 단일 실행 파일용 블롭을 만드는 Node.js와 블롭을 주입할 바이너리의 버전이 같아야 하나요?",
])
def test_a_question_that_says_what_it_is_about_reads_alone(question):
    assert not follow_up.continues(question)


@pytest.mark.parametrize("history, question, read", [
    ((Turn("user", "Hi! How does fs.watch() work? Thanks"), Turn("assistant", "It uses inotify.")), "And on macOS?",
     "How does fs.watch() work? And on macOS?"),
    ((Turn("user", "How does fs.watch() work?"), Turn("assistant", "…"), Turn("user", "And on macOS?"),
      Turn("assistant", "…")), "Why?", "And on macOS? Why?"),
    ((Turn("user", "How does fs.watch() work?"), Turn("assistant", "…")),
     "How do I read a file line by line with the readline module?",
     "How do I read a file line by line with the readline module?"),
    ((), "And on macOS?", "And on macOS?"),
    ((Turn("assistant", "Welcome."),), "And on macOS?", "And on macOS?"),
])
def test_a_follow_up_is_read_after_the_readers_previous_question(history, question, read):
    assert follow_up.query(question, history) == read


@pytest.mark.parametrize("question, read", [
    ("And how do I read a file line by line with the readline module?",
     "how do I read a file line by line with the readline module?"),
    ("А можно ли перезагрузить ES-модуль, удалив запись из require.cache?",
     "можно ли перезагрузить ES-модуль, удалив запись из require.cache?"),
    ("じゃあ、ワーカーをいくつ起動するか決めるのに os.cpus().length を使ってもよいですか？",
     "ワーカーをいくつ起動するか決めるのに os.cpus().length を使ってもよいですか？"),
    ("그럼 Buffer.allocUnsafe()로 만든 버퍼에는 어떤 데이터가 들어 있을 수 있나요?",
     "Buffer.allocUnsafe()로 만든 버퍼에는 어떤 데이터가 들어 있을 수 있나요?"),
    # "What if" asks something; a word that only looks like an opener is kept.
    ("What if the file is larger than the buffer and the callback never fires at all?",
     "What if the file is larger than the buffer and the callback never fires at all?"),
    ("Andrew's docs say spawn() inherits stdio by default in every mode, is that true?",
     "Andrew's docs say spawn() inherits stdio by default in every mode, is that true?"),
])
def test_a_new_question_opened_as_in_conversation_is_read_without_its_opener(question, read):
    history = (Turn("user", "How does fs.watch() work?"), Turn("assistant", "…"))
    assert follow_up.query(question, history) == read
