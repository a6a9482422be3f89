"""Model text → shown sentences: inert text, sentence cuts while streaming, strict resolution."""
from __future__ import annotations

import pytest
from trigsight.answering.answer import (
    LENIENT,
    STRICT,
    SUPPORTED,
    UNVERIFIED,
    SentenceAssembler,
    distinct_sentences,
    make_inert,
    tidy,
)
from trigsight.answering.handles import HandleTable
from trigsight.answering.refusals import is_refusal
from trigsight.answering.resolver import Resolver
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Hit

from allowlists import write_allowlist

STREAMED = ("Handles are short [S1]. The model copies them. [S2][s3] Then e.g. the server checks. 【S4】\n"
            "- A list item [S1, S3]\nClaim.[S2] Next one 文です。[S1]次の文 [S9]")
SENTENCES = ["Handles are short [S1].", "The model copies them. [S2][s3]", "Then e.g. the server checks. 【S4】",
             "- A list item [S1, S3]", "Claim.[S2]", "Next one 文です。 [S1]", "次の文 [S9]"]


def assemble(pieces: list[str]) -> list[tuple[int, str]]:
    """(number of pieces fed when the sentence came out, sentence)."""
    assembler, out = SentenceAssembler(), []
    for number, piece in enumerate(pieces, start=1):
        out.extend((number, s) for s in assembler.feed(piece))
    out.extend((len(pieces) + 1, s) for s in assembler.finish())
    return out


@pytest.mark.parametrize("size", [1, 2, 3, 5, 8, 13, len(STREAMED)])
def test_sentences_come_out_the_same_however_the_stream_is_cut(size):
    pieces = [STREAMED[i:i + size] for i in range(0, len(STREAMED), size)]
    assert [s for _, s in assemble(pieces)] == SENTENCES


def test_a_sentence_is_handed_out_before_the_stream_ends():
    out = assemble(["First claim [S1]. ", "Second", " claim [S2]. Third", " claim [S3]."])
    assert out == [(2, "First claim [S1]."), (3, "Second claim [S2]."), (5, "Third claim [S3].")]


def test_handles_after_the_full_stop_wait_for_the_next_words():
    assembler = SentenceAssembler()
    assert assembler.feed("Claim one. [S") == []
    assert assembler.feed("1]") == []
    assert assembler.feed(" [S2] Claim") == ["Claim one. [S1] [S2]"]
    assert assembler.finish() == ["Claim"]


@pytest.mark.parametrize("pieces, sentences, read", [
    (["Pages ship little script [S1]. Pages ship little script. ", "Links are proven [S2]. Chips open pages."],
     ["Pages ship little script [S1].", "Links are proven [S2].", "Chips open pages."], 2),
    # the third time is a loop: the stream is closed there and the rest never read
    (["Pages ship little script. ", "Pages ship little script [S1]. ", "Links are proven. ",
      "Pages ship little script. ", "Chips open pages. ", "The gate runs Chromium."],
     ["Pages ship little script.", "Links are proven."], 5),
    # a model that goes on and on: twice the five sentences asked for, then the stream is closed
    ([f"Fact {n} holds. " for n in range(1, 15)], [f"Fact {n} holds." for n in range(1, 11)], 12),
])
def test_each_sentence_comes_once_and_a_looping_or_rambling_model_is_not_read_further(pieces, sentences, read):
    taken = []

    def stream():
        for piece in pieces:
            taken.append(piece)
            yield piece
    source = stream()
    assert list(distinct_sentences(source)) == sentences
    assert len(taken) == read and source.gi_frame is None       # the stream was closed


@pytest.mark.parametrize("text, kept, links, markup", [
    ("See [our partner](http://evil.example/x) for more.", "See our partner for more.", 1, 0),
    ("Read https://evil.example/a.b. Then go.", "Read. Then go.", 1, 0),
    ("Visit www.evil.example/login now.", "Visit now.", 1, 0),
    ("Cited [S3](javascript:alert(1)).", "Cited [S3].", 1, 0),
    ("![pixel](https://evil.example/p.png)Text.", "Text.", 1, 0),
    ("<https://evil.example/auto> Text.", "Text.", 0, 1),
    ("<script>alert('x. Y')</script>Bad <img src=x onerror=alert(1)> text.", "Bad text.", 0, 2),
    ('<a href="https://evil.example">Trusted</a> source.', "Trusted source.", 0, 2),
    ("<svg onload=alert(2)>Shown", "", 0, 1),
    ("Unclosed <img src=x onerror=alert(1)", "Unclosed", 0, 1),
    ("Use data:text/html;base64,PHNjcmlwdD4= here.", "Use here.", 1, 0),
])
def test_links_and_markup_become_nothing(text, kept, links, markup):
    inert, cut_links, cut_markup = make_inert(text)
    assert tidy(inert) == kept
    assert (cut_links, cut_markup) == (links, markup)
    assert "<" not in inert and "http" not in inert and "javascript:" not in inert


@pytest.fixture
def release(tmp_path) -> Release:
    return Release.load(write_allowlist(tmp_path, {
        "/gates": ["The browser gate loads every page in headless Chromium.",
                   "The payload budget is 8 KB of brotli-compressed JavaScript per page."],
        "/chat": ["The server drops every handle it did not issue for this request.",
                  "Answers stream to the browser one sentence at a time."],
    }))


@pytest.fixture
def table(release) -> HandleTable:
    gates = tuple(p.id for p in release.passages_of("/gates"))
    chat = tuple(p.id for p in release.passages_of("/chat"))
    return HandleTable.issue([Hit("c1", gates, "/gates", 0.2, gates[0]), Hit("c2", chat, "/chat", 0.1, chat[0])],
                             release)


def test_a_supported_sentence_gets_the_chip_of_its_best_passage(release, table):
    resolver = Resolver(table, release)
    shown = resolver.resolve("The budget is 8 KB of brotli-compressed JavaScript per page [S1].")
    assert shown.status == SUPPORTED
    [chip] = shown.citations
    assert chip.quote == "The payload budget is 8 KB of brotli-compressed JavaScript per page."
    assert chip.url == release.passage(chip.id).url
    assert chip.title == "Page gates"
    assert resolver.tally.resolution() == {"emitted": 1, "resolved": 1, "attributed": 0, "reattributed": 0}


@pytest.mark.parametrize("sentence, why", [
    ("The budget is 16 KB of brotli-compressed JavaScript per page [S1].", "a number the passage does not have"),
    ("The budget is 16 KB of brotli-compressed JavaScript per page.", "no handle, and no source has that number"),
    ("The browser gate runs in Firefox and Safari [S1].", "names the passage does not have"),
    ("The browser gate never loads a page in headless Chromium [S1].", "the passage says the opposite"),
    ("Answers are checked by a team of human editors before they are shown.", "no source says so"),
])
def test_strict_mode_drops_a_sentence_no_issued_source_supports(release, table, sentence, why):
    resolver = Resolver(table, release, STRICT)
    assert resolver.resolve(sentence) is None, why
    assert resolver.tally.sentences == 1


@pytest.mark.parametrize("sentence, cited, counted", [
    ("The browser gate loads every page in headless Chromium.", "no handle", "attributed"),
    ("The browser gate loads every page in headless Chromium [S9].", "a handle never issued", "attributed"),
    ("The budget is 8 KB of brotli-compressed JavaScript per page [S2].", "the wrong source", "reattributed"),
])
def test_a_sentence_gets_the_chip_of_the_issued_passage_that_supports_it(release, table, sentence, cited, counted):
    resolver = Resolver(table, release, STRICT)
    shown = resolver.resolve(sentence)
    assert shown is not None and shown.status == SUPPORTED, cited
    [chip] = shown.citations
    assert chip.page == "/gates" and chip.url == release.passage(chip.id).url
    assert resolver.tally.resolution()[counted] == 1 and resolver.tally.sentences == 0


def test_lenient_mode_keeps_it_marked_unverified_without_chips(release, table):
    shown = Resolver(table, release, LENIENT).resolve("The browser gate runs in Firefox [S1].")
    assert shown.status == UNVERIFIED and shown.citations == ()


def test_dropped_citations_are_counted_by_kind(release, table):
    resolver = Resolver(table, release)
    resolver.resolve("The server drops handles it did not issue [S2][S7] [3] pb0cf3632a0.")
    resolver.resolve("Answers stream one paragraph at a time [S1] https://evil.example <b>x</b>.")
    dropped = resolver.tally.dropped()
    assert dropped["unknown_handles"] == 3          # S7, [3], the raw passage id
    assert dropped["unsupported"] == 1              # S1 resolved, but says nothing about streaming
    assert dropped["citations"] == 4
    assert (dropped["links"], dropped["markup"], dropped["sentences"]) == (1, 2, 1)
    assert resolver.tally.resolution() == {"emitted": 5, "resolved": 2, "attributed": 0, "reattributed": 0}


def test_a_sentence_cited_to_two_sources_that_only_together_support_it_keeps_both(release, table):
    shown = Resolver(table, release).resolve(
        "Every page loads in headless Chromium, and answers stream one sentence at a time [S1][S2].")
    assert shown is not None and {c.page for c in shown.citations} == {"/gates", "/chat"}


@pytest.mark.parametrize("sentence, pages", [
    ("To read a file line by line, use the ReadStream API with a for await loop or the line event.",
     {"/readline"}),
    ("The fs.watch method is only implemented on macOS.", set()),   # its two halves are in two sections
])
def test_an_uncited_sentence_is_given_the_two_passages_of_one_section_that_together_support_it(tmp_path, sentence, pages):
    sections = {
        "/readline": ["A common use of readline is to read a file one line at a time.",
                      "The easiest way is the ReadStream API with a for await loop.",
                      "Reading a file line by line is also possible with a stream.",
                      "Alternatively, one could use the line event."],
        "/lchmod": ["This method is only implemented on macOS."],
        "/watch": ["The fs.watch method is more efficient than polling."],
    }
    release = Release.load(write_allowlist(tmp_path, sections))
    hits = [Hit(f"c{n}", tuple(p.id for p in release.passages_of(page)), page, 0.1, "") for n, page in enumerate(sections)]
    resolver = Resolver(HandleTable.issue(hits, release), release, STRICT,
                        question="How do I read a file line by line?" if pages else "What does fs.watch do on macOS?")
    shown = resolver.resolve(sentence)
    assert (set() if shown is None else {c.page for c in shown.citations}) == pages
    if shown is not None:
        assert [c.quote for c in shown.citations] == ["The easiest way is the ReadStream API with a for await loop.",
                                                      "Alternatively, one could use the line event."]


def test_a_second_source_that_adds_part_of_the_sentence_keeps_its_chip(release, table):
    shown = Resolver(table, release).resolve(
        "The browser gate loads every page in headless Chromium and streams answers [S1][S2].")
    assert shown is not None and {c.page for c in shown.citations} == {"/gates", "/chat"}


def test_a_second_source_that_adds_nothing_loses_its_chip(release, table):
    resolver = Resolver(table, release)
    shown = resolver.resolve("The browser gate loads every page in headless Chromium [S1][S2].")
    assert [c.page for c in shown.citations] == ["/gates"]
    assert resolver.tally.unsupported == 1


def test_markup_only_output_is_no_sentence_at_all(release, table):
    resolver = Resolver(table, release)
    assert resolver.resolve("<script>alert(1)</script>") is None
    assert resolver.tally.sentences == 0 and resolver.tally.markup == 1


def test_a_table_cell_is_judged_with_its_row_and_the_chip_goes_to_the_cell_that_says_it(tmp_path):
    cells = ("hyphen -", "%2D", "it is read as a prefix or suffix marker, and nothing matches")
    release = Release.load(write_allowlist(tmp_path, {"/source": ["Four characters must be percent-encoded.", *cells]},
                                           cells=frozenset(cells)))
    ids = tuple(p.id for p in release.passages_of("/source"))
    table = HandleTable.issue([Hit("c1", ids, "/source", 0.2, ids[0])], release)
    resolver = Resolver(table, release, question="What goes wrong if a hyphen inside a passage is left unencoded?")
    shown = resolver.resolve("The hyphen - %2D is read as a prefix or suffix marker, and nothing matches.")
    assert shown is not None and [c.quote for c in shown.citations] == [cells[2]]
    assert resolver.resolve("The hyphen - %2C is read as a prefix or suffix marker, and nothing matches.") is None


def test_a_sentence_restating_the_question_is_shown_with_the_chip_of_what_it_adds(release, table):
    resolver = Resolver(table, release, question="Which browser does the browser gate load pages in?")
    shown = resolver.resolve("The browser gate loads pages in headless Chromium.")
    assert shown is not None and shown.citations[0].quote == "The browser gate loads every page in headless Chromium."
    assert Resolver(table, release, question="Which browser does the browser gate load pages in?").resolve(
        "The browser gate loads pages in Firefox.") is None


@pytest.mark.parametrize("sentence, refusal", [
    ("I cannot find that in these pages.", True),
    ("Sorry, I couldn't find this information.", True),
    ("The provided sources do not mention the author's age.", True),
    ("There is no information about pricing in the sources.", True),
    ("В предоставленных источниках нет информации о возрасте автора.", True),
    ("この情報はページに記載されていません。", True),
    ("제공된 자료에서 그 답을 찾을 수 없습니다.", True),
    ("Ich kann das in den bereitgestellten Quellen nicht finden.", True),
    ("Les sources fournies ne mentionnent pas cela.", True),
    ("No encuentro esa información en estas páginas.", True),
    ("As fontes não mencionam isso.", True),
    ("提供的资料中没有提到这一点。", True),
    # claims of the docs that happen to say "cannot find" or "not found" name no source
    ("require() cannot find the module and throws MODULE_NOT_FOUND.", False),
    ("The pages do not contain any JavaScript beyond the chat.", False),
    ("モジュールが見つかりません。", False),
    ("Модуль не найден, если путь неверен.", False),
    ("이 기능은 Windows에서 지원되지 않습니다.", False),
    ("Node kann das Modul nicht finden, wenn der Pfad falsch ist.", False),
    ("Le fichier n'est pas trouvé si le chemin est faux.", False),
])
def test_a_sentence_that_only_says_the_sources_do_not_answer_is_told_apart_from_a_claim(sentence, refusal):
    assert is_refusal(sentence) is refusal
