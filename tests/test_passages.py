"""Passage extraction: sentences per block, stable ids, directives unique on the page."""
import pytest
from trigsight.build.passages import build_page_text, split_sentences
from trigsight.matching.textmodel import find_matches, normalise


def sentences(text: str) -> list[str]:
    return [text[a:b] for a, b in split_sentences(text)]


@pytest.mark.parametrize("text, expected", [
    ("One fact. Another fact! A third? Yes.", ["One fact.", "Another fact!", "A third?", "Yes."]),
    ("Tools, e.g. pytest and ruff, help. Next one.", ["Tools, e.g. pytest and ruff, help.", "Next one."]),
    ("Version 1.5 shipped. It was fast.", ["Version 1.5 shipped.", "It was fast."]),
    ("He said “stop.” Then left.", ["He said “stop.”", "Then left."]),
    ("吾輩は猫である。名前はまだ無い。どこで生れたか", ["吾輩は猫である。", "名前はまだ無い。", "どこで生れたか"]),
    ("검증은 브라우저가 한다. 링크는 하나만 맞는다.", ["검증은 브라우저가 한다.", "링크는 하나만 맞는다."]),
    ("Проверка идёт в браузере. Ссылка ведёт к одному месту.",
     ["Проверка идёт в браузере.", "Ссылка ведёт к одному месту."]),
    ("no final stop", ["no final stop"]),
    ("They call it. trigsight answers.", ["They call it.", "trigsight answers."]),  # lowercase names start sentences
    ("Made in the U.S. by hand. Next.", ["Made in the U.S. by hand.", "Next."]),
    # an ellipsis before a lowercase word trails off and goes on; before a capital it may end one
    ("Generic text like [click here](...) or [link](...). Next.",
     ["Generic text like [click here](...) or [link](...).", "Next."]),
    ("It paused… then went on. Next.", ["It paused… then went on.", "Next."]),
    ("Wait... Then go.", ["Wait...", "Then go."]),
    # an abbreviation inside a bracket, a quoted token before a lowercase word
    ("Set it to 4 (vs. 2) there. Next.", ["Set it to 4 (vs. 2) there.", "Next."]),
    ("A list marker (e.g. -, *, or +) and text. Next.", ["A list marker (e.g. -, *, or +) and text.", "Next."]),
    ("The pattern of using '0.' as a first prefix is allowed. Next.",
     ["The pattern of using '0.' as a first prefix is allowed.", "Next."]),
    # a quoted punctuation mark is what the sentence is about, not its end
    ("If it is empty then '.' will be returned. Next.", ["If it is empty then '.' will be returned.", "Next."]),
    ('Split on "?" or "!" only. Next.', ['Split on "?" or "!" only.', "Next."]),
    ("He said 'stop.' Then left.", ["He said 'stop.'", "Then left."]),
    # a mark standing alone is code that lost its backticks; a Russian sentence starts with a capital
    ("Пары идут после знака ? в URL-адресе. Далее.", ["Пары идут после знака ? в URL-адресе.", "Далее."]),
    ("Это просто (благодаря Starlette), см. тестирование. Далее.",
     ["Это просто (благодаря Starlette), см. тестирование.", "Далее."]),
    ("Используйте образ (прим. пер: здесь и далее) для этого. Далее.",
     ["Используйте образ (прим. пер: здесь и далее) для этого.", "Далее."]),
    ("Сделано в 2020 г. в Москве. Далее.", ["Сделано в 2020 г. в Москве.", "Далее."]),
    ("Готово. А теперь тест.", ["Готово.", "А теперь тест."]),
    ("It stops. fs.readFile() reads.", ["It stops.", "fs.readFile() reads."]),
    ("As well as inline . The syntax is:", ["As well as inline .", "The syntax is:"]),
    ("The literal string ? is appended. Next.", ["The literal string ? is appended.", "Next."]),
    ("末尾の . に注目してほしいです。次へ。", ["末尾の . に注目してほしいです。", "次へ。"]),
    ("기다립니다 🕙 . 왜냐하면 8명입니다.", ["기다립니다 🕙 .", "왜냐하면 8명입니다."]),
    ('Some characters (< > : " / \\ | ? *) are reserved. Next.', ['Some characters (< > : " / \\ | ? *) are reserved.', "Next."]),
    # Starlette's and Click's docs: a sloppy abbreviation, code that trails off, a quoted message
    ("It uses Basic access authentication (aka. HTTP auth). Next.",
     ["It uses Basic access authentication (aka. HTTP auth).", "Next."]),
    ("Origins to permit. eg. ['https://a.org']. You can use it.",
     ["Origins to permit.", "eg. ['https://a.org'].", "You can use it."]),
    ("Add a warning to TestClient(timeout=...) #2840. Fix it.", ["Add a warning to TestClient(timeout=...) #2840.", "Fix it."]),
    ("This is how you replace the Aborted! message. Wow! It works.",
     ["This is how you replace the Aborted! message.", "Wow!", "It works."]),
    # a change log's issue numbers and a reference in brackets belong to the sentence before them
    ("Added support for Python 3.15. (7866, 8054) Dropped 3.9. (7511)",
     ["Added support for Python 3.15. (7866, 8054)", "Dropped 3.9. (7511)"]),
    ("Cookies are ignored. (RFC2109) Next. (A sentence of its own.)", ["Cookies are ignored. (RFC2109)", "Next.",
                                                                       "(A sentence of its own.)"]),
    # towncrier's issue links after an entry; an issue number that starts a sentence starts it
    ("It can be nested now. #1513", ["It can be nested now. #1513"]),
    ("Aliases come first. #1446, #1451 Types are fixed. #12 and #13.",
     ["Aliases come first. #1446, #1451", "Types are fixed. #12 and #13."]),
    ("See the list. #2 is the next item.", ["See the list.", "#2 is the next item."]),
])
def test_split_sentences_handles_latin_cyrillic_and_cjk(text, expected):
    assert sentences(text) == expected


PAGE = """<html><body><nav><a href="/">Home</a></nav><main><article>
<h1>Title here</h1><p>First claim is here. Second claim follows.</p>
<h2>Part two</h2><ul><li>An item with <em>emphasis</em> inside.</li></ul>
<table><tr><td>Cell text one.</td></tr></table><pre><code>code is skipped</code></pre>
<p>Repeat me. Alpha.</p><p>Repeat me. Beta.</p></article></main>
<footer>Footer words.</footer></body></html>"""


def test_passages_come_from_main_content_only():
    texts = [p.text for p in build_page_text("/x", PAGE).passages]
    assert "Home" not in texts and "Footer words." not in texts and "code is skipped" not in texts
    assert texts[:5] == ["Title here", "First claim is here.", "Second claim follows.", "Part two",
                         "An item with emphasis inside."]


def test_every_directive_matches_exactly_its_own_passage():
    page = build_page_text("/x", PAGE)
    for passage in page.passages:
        from trigsight.matching.directives import parse_directive
        d = parse_directive(passage.directive)
        hits = find_matches(page.haystack, normalise(d.text), normalise(d.prefix), normalise(d.suffix))
        assert len(hits) == 1, passage
        assert page.segments[page.haystack.count("\n", 0, hits[0])].block == passage.block


def test_repeated_sentences_get_distinct_ids_and_context():
    repeats = [p for p in build_page_text("/x", PAGE).passages if p.text == "Repeat me."]
    assert len(repeats) == 2
    assert repeats[0].id != repeats[1].id
    assert all("-," in p.directive or ",-" in p.directive for p in repeats)


def test_passages_carry_heading_trail_and_offsets_into_main_text():
    page = build_page_text("/x", PAGE)
    item = next(p for p in page.passages if p.kind == "li")
    assert item.headings == ("Title here", "Part two")
    for passage in page.passages:
        assert page.main_text[passage.start:passage.end] == passage.text


def test_passage_ids_are_stable_across_rebuilds():
    assert [p.id for p in build_page_text("/x", PAGE).passages] == \
           [p.id for p in build_page_text("/x", PAGE).passages]


TOO_FAR = "a browser would read the page about"


@pytest.mark.parametrize("rows, too_far", [
    (600, 599),   # each "N/A" is told apart by the next row's name alone: 600 places, each read on to it
    (5, 0),       # on a short table the same links cost next to nothing
])
def test_a_cell_only_its_neighbours_tell_apart_is_left_out_only_when_the_page_is_long(rows, too_far):
    cells = "".join(f"<tr><td>plugin-{i}</td><td>Beta</td><td>N/A</td></tr>" for i in range(rows))
    page = build_page_text("/list", f"<main><table>{cells}</table></main>")
    assert sum(TOO_FAR in s.reason for s in page.skipped if s.text == "N/A") == too_far
    # the last row's "N/A" has nothing after it to tell it apart, on any table
    assert sum(p.text == "N/A" for p in page.passages) == rows - 1 - too_far
    assert {f"plugin-{i}" for i in range(rows)} | {"Beta"} <= {p.text for p in page.passages}


@pytest.mark.parametrize("html, cited, left_out", [
    # towncrier's issue links: with the entry when they follow it, nothing to cite alone
    ("<main><ul><li><p>It nests now. #1513</p></li><li><p>Faster. #842 #843</p></li></ul></main>",
     {"It nests now. #1513", "Faster. #842 #843"}, set()),
    ("<main><p>Equality tests are faster.</p><p>#178, #356</p><p>#95</p><p>#2 is next.</p></main>",
     {"Equality tests are faster.", "#2 is next."}, {"#178, #356", "#95"}),
])
def test_a_change_logs_issue_numbers_are_never_a_passage_of_their_own(html, cited, left_out):
    texts = {p.text for p in build_page_text("/changelog", html).passages}
    assert cited <= texts and not left_out & texts


@pytest.mark.parametrize("html, cited", [
    # a sentence's end inside inline code is the code's, not the sentence's
    ("<main><p>Use <code>&lt;!-- #md --&gt;</code> and its <code>&lt;!-- #end... --&gt;</code> counterpart. Next one.</p></main>",
     ["Use <!-- #md --> and its <!-- #end... --> counterpart.", "Next one."]),
    ("<main><p>Call <code>a.b(). Then c()</code> to run it. Done now.</p></main>",
     ["Call a.b(). Then c() to run it.", "Done now."]),
    ("<main><p>Press <kbd>Ctrl</kbd> and <samp>Saved. Exit?</samp> shows. Then quit.</p></main>",
     ["Press Ctrl and Saved. Exit? shows.", "Then quit."]),
    # code that ends where its sentence ends, and white space around code collapsed as the browser does
    ("<main><p>Run <code>make test.</code> Then read it.</p></main>", ["Run make test.", "Then read it."]),
    ("<main><p>  <code> x. Y </code>  is one.   Two.</p></main>", ["x. Y is one.", "Two."]),
])
def test_inline_code_is_never_cut_into_two_passages(html, cited):
    assert [p.text for p in build_page_text("/code", html).passages] == cited
