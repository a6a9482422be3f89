"""Chromium 156 is the referee: every table in matching/rules.py, asserted against the browser.

Each case is a tiny page and a directive. Chromium's own verdict (does activating the
directive mark a `:target`?) must be what the rules say; the Python model and the in-page
probe, which both read those rules, must agree with it, except where we count more
matches on purpose (`over`). When a Chromium upgrade changes any of this, a case here fails
and names the rule to revisit.
"""
from __future__ import annotations

import pytest
from trigsight.matching import rules
from trigsight.matching.directives import TextDirective

from conftest import ROOT
from matching_pages import Tab, document, model_counts

MATCH_FRAMES = 30     # :target appears on the second frame; leave room for a busy machine
MISS_FRAMES = 8

JA = "がっこうへいく。"


def case(rule, body, text, matches, over="", raw=""):
    directive = raw or str(TextDirective(text))
    return pytest.param(body, directive, matches, over, id=f"{rule}: {directive}")


CASES = [
    # spaces: collapsible runs collapse; the other spaces match one space each
    case("collapsible", "<p>a \n\t  b</p>", "a b", True),
    *[case(f"space U+{ord(s):04X}", f"<p>a{s}b</p>", "a b", True) for s in rules.SPACES],
    case("two NBSPs are two spaces", "<p>a\u00a0\u00a0b</p>", "a b", False),
    case("two NBSPs are two spaces", "<p>a\u00a0\u00a0b</p>", "a  b", True),
    case("space then NBSP", "<p>a \u00a0b</p>", "a  b", True),
    # invisible characters: skipped; some are a word edge, some join
    *[case(f"ignored U+{ord(c):04X}", f"<p>a{c}b</p>", "ab", True) for c in rules.IGNORED],
    *[case(f"ignored U+{ord(c):04X} is a word edge", f"<p>a{c}b</p>", "a", c in rules.IGNORED_BREAKING)
      for c in rules.IGNORED],
    # quotes
    *[case(f"quote U+{ord(q):04X}", f"<p>x {q}q y</p>", f"x {a}q y", True) for q, a in rules.QUOTES.items()],
    *[case(f"not a quote U+{ord(q):04X}", f"<p>x {q}q y</p>", f"x {a}q y", False)
      for q, a in [("\u2032", "'"), ("\u00ab", '"'), ("\u2039", "'"), ("`", "'"), ("\u00b4", "'"), ("\u02bc", "'")]],
    # letters: case, accents, width, compatibility forms, and the extra folds
    case("case", "<p>Прокси СЕРВЕР</p>", "прокси сервер", True),
    case("accents", "<p>Café Zürich</p>", "cafe zurich", True),
    case("sharp s", "<p>Straße</p>", "strasse", True),
    case("width", "<p>ＦＵＬＬ</p>", "full", True),
    case("ligature", "<p>ﬁne</p>", "fine", True),
    case("decomposed accent", "<p>Zürich</p>", "Zu\u0308rich", True),
    case("Hebrew points", "<p>שָׁלוֹם</p>", "שלום", True),
    case("Devanagari vowel sign stays", "<p>किताब</p>", "कताब", False),
    *[case(f"letter fold {k}", f"<p>{k} here</p>", f"{v} here", True) for k, v in rules.LETTER_FOLDS.items()],
    *[case(f"letter fold {k.upper()}", f"<p>{k.upper()} here</p>", f"{v} here", True) for k, v in rules.LETTER_FOLDS.items()],
    *[case(f"distinct {k}", f"<p>{k} here</p>", f"{v} here", False)
      for k, v in [("ŧ", "t"), ("þ", "th"), ("ŋ", "n"), ("ə", "e"), ("ƒ", "f"), ("ı", "i")]],
    *[case(f"distinct {k}", f"<p>{k} here</p>", "и here", False) for k in rules.DISTINCT_LETTERS],
    case("ё folds", "<p>ёлка</p>", "елка", True),
    # kana: voicing marks count, small kana count, katakana = hiragana, half-width folds
    case("voicing kept", f"<p>{JA}</p>", "かっこうへいく。", False),
    case("handakuten kept", "<p>ぱんをたべる。</p>", "はんをたべる。", False),
    case("handakuten is not dakuten", "<p>ぱんをたべる。</p>", "ばんをたべる。", False),
    case("small kana kept", f"<p>{JA}</p>", "がつこうへいく。", False),
    case("decomposed voicing", f"<p>{JA}</p>", "か\u3099っこうへいく。", True),
    case("katakana is hiragana", f"<p>{JA}</p>", "ガッコウヘイク。", True),
    case("half-width katakana", "<p>ｶｯｺｳ</p>", "かっこう", True),
    case("half-width voicing mark", "<p>ｶﾞｯｺｳ</p>", "がっこう", False, over="model+probe"),
    # word edges
    case("part of a word", "<p>category</p>", "cat", False),
    case("superscript is not a letter", "<p>x² y</p>", "x", True),
    case("compatibility symbol", "<p>x™ y</p>", "xtm y", True),
    case("apostrophe joins a word", "<p>don't stop</p>", "don", False),
    case("decimal point joins a number", "<p>3.5 apples</p>", "5 apples", False),
    # punctuation inside a word: what joins letters, what joins digits (rules.LETTER_JOINERS, NUMBER_JOINERS)
    *[case(f"U+{ord(j):04X} joins letters", f"<p>abc{j}def zz</p>", "abc", False) for j in rules.LETTER_JOINERS],
    *[case(f"U+{ord(j):04X} joins digits", f"<p>123{j}456 zz</p>", "123", False) for j in rules.NUMBER_JOINERS],
    *[case(f"U+{ord(j):04X} does not join letters", f"<p>abc{j}def zz</p>", "abc", True)
      for j in sorted(set(rules.NUMBER_JOINERS + ":\ufe55\uff1a-/@") - set(rules.LETTER_JOINERS))],
    *[case(f"U+{ord(j):04X} does not join digits", f"<p>123{j}456 zz</p>", "123", True)
      for j in sorted(set(rules.LETTER_JOINERS + ":\ufe10\ufe14-/") - set(rules.NUMBER_JOINERS))],
    case("a letter and a digit are not joined", "<p>abc'456 zz</p>", "abc", True),
    case("a digit and a letter are not joined", "<p>v1.x zz</p>", "v1", True),
    case("Cyrillic letters are joined", "<p>абв'где zz</p>", "абв", False),
    case("Greek letters are joined", "<p>αβγ\u2019δεζ zz</p>", "αβγ", False),
    case("Hebrew letters are joined", "<p>אבג'דהו zz</p>", "אבג", False),
    case("Arabic-Indic digits are joined", "<p>١٢٣.٤٥٦ zz</p>", "١٢٣", False),
    case("Hangul is not joined", "<p>한국'어 zz</p>", "한국", True),
    # Hangul joins Hangul only: a Latin word, a digit run or Cyrillic next to it is a word of its own
    case("Latin before Hangul", "<p>float타입이다 zz</p>", "float", True),
    case("Hangul after Latin", "<p>float타입이다 zz</p>", "타입이다", True),
    case("Latin after Hangul", "<p>타입float zz</p>", "float", True),
    case("digits before Hangul", "<p>10위에 zz</p>", "10", True),
    case("Cyrillic before Hangul", "<p>Пакет한국 zz</p>", "Пакет", True),
    case("Hangul joins Hangul", "<p>쳇바퀴에 zz</p>", "쳇바퀴", False),
    case("kana is not joined", "<p>ab'ガ zz</p>", "ab", True),
    case("an underscore is not a letter to join", "<p>abc'_d zz</p>", "abc", True),
    case("two joiners are an edge", "<p>abc''def zz</p>", "abc", True),
    case("a soft hyphen cuts the join", "<p>abc\u00ad'def zz</p>", "abc", True),
    case("a ZWJ does not cut the join", "<p>abc\u200d'def zz</p>", "abc", False),
    case("accented letters are joined", "<p>abc\u0301'def zz</p>", "abc\u0301", False),
    case("a version number is one word", "<p>off TLS v1.1 now</p>", "off TLS v1", False),
    case("a thousands separator joins", "<p>1,000 items</p>", "000 items", False),
    case("a dotted name is two words", "<p>Use fs.readFile now</p>", "readFile now", True),
    # elements
    case("button label", "<p>Press <button>Go</button> now.</p>", "Go", True),
    case("button is a break", "<p>Press <button>Go</button> now.</p>", "Press Go now.", False),
    case("button is not skipped", "<p>Press <button>Go</button> now.</p>", "Press now.", False),
    case("br inside a button", "<p>Press <button>Go<br>fast</button> now.</p>", "Go fast", False),
    *[case(f"atomic {tag} has no text", f"<p>Put {html} here.</p>", "inner words", False)
      for tag, html in [("textarea", "<textarea>inner words</textarea>"),
                        ("input", "<input value='inner words'>"),
                        ("canvas", "<canvas width=9 height=9>inner words</canvas>")]],
    *[case(f"atomic {tag} is a break", f"<p>Put {html} here.</p>", "Put here.", False)
      for tag, html in [("textarea", "<textarea>x</textarea>"), ("input", "<input>"), ("canvas", "<canvas></canvas>")]],
    case("select skipped", "<p>Pick <select><option>first option</option></select> here.</p>", "first option", False),
    case("select skipped whole", "<p>Pick <select><option>first option</option></select> here.</p>", "Pick here.", True),
    *[case(f"{tag} skipped whole", f"<p>Wait {html} here.</p>", "Wait here.", True)
      for tag, html in [("progress", "<progress></progress>"), ("meter", "<meter value=1></meter>"),
                        ("img", "<img alt='pic' width=4 height=4 src='data:,'>"), ("video", "<video>caption</video>"),
                        ("iframe", "<iframe srcdoc='x'></iframe>")]],
    case("svg text", "<p>Draw <svg width=90 height=20><text y=15>one <tspan>two</tspan></text></svg> here.</p>",
         "one two", True),
    case("svg is a break", "<p>Draw <svg width=90 height=20><text y=15>word</text></svg> here.</p>",
         "Draw word here.", False),
    case("svg texts are blocks", "<p><svg width=90 height=20><text y=15>one</text><text x=40 y=15>two</text></svg></p>",
         "one two", False),
    case("svg title", "<p><svg width=90 height=20><title>titled words</title></svg></p>", "titled words", False),
    # directive syntax
    case("raw hyphen in a prefix", "<p>a-b y</p>", "", False, raw="text=a-b-,y"),
    case("empty suffix", "<p>a y</p>", "", False, raw="text=a,-"),
    case("empty prefix", "<p>a y</p>", "", False, raw="text=-,a"),
    case("not UTF-8", "<p>a y</p>", "", False, raw="text=%FF"),
    case("bare percent", "<p>xy 50% z</p>", "", False, raw="text=50%"),
    case("encoded percent", "<p>xy 50% z</p>", "", True, raw="text=50%25"),
    case("prefix", "<p>pre y</p>", "", True, raw="text=pre-,y"),
    case("mid-word with prefix", "<p>category</p>", "", True, raw="text=cat-,egory"),
    case("mid-word with suffix", "<p>category</p>", "", True, raw="text=cat,-egory"),
    # a prefix found at the second mark of a run ("。。", ".."): Chromium has no edge there, and the
    # Python model and the probe count it (the directive generator never starts a prefix there)
    case("prefix inside a run of marks", "<p>ものです。。直接使う。</p>", "", False, over="model+probe",
         raw="text=%E3%80%82-,%E7%9B%B4%E6%8E%A5%E4%BD%BF%E3%81%86%E3%80%82"),
    case("prefix inside a run of dots", "<p>ab.. cd ef</p>", "", False, over="model+probe", raw="text=.-,cd%20ef"),
    case("prefix after one mark", "<p>ものです。直接使う。</p>", "", True,
         raw="text=%E3%80%82-,%E7%9B%B4%E6%8E%A5%E4%BD%BF%E3%81%86%E3%80%82"),
    # what a closed <details> or hidden=until-found hides matches (Chromium reveals it), but no
    # context reaches into it from before: context from outside skips it whole
    *[case(f"{name}: {rule}", f"{opening}<p>inner z</p><p>two</p>{closing}<p>after w</p>", "", matches,
           raw=str(directive))
      for name, opening, closing in [("closed details", "<details><summary>sum y</summary>", "</details>"),
                                     ("hidden=until-found", "<p>sum y</p><div hidden=until-found>", "</div>")]
      for rule, directive, matches in [("content", TextDirective("inner z"), True),
                                       ("prefix into it", TextDirective("inner", prefix="y"), False),
                                       ("suffix into it", TextDirective("y", suffix="inner"), False),
                                       ("prefix inside it", TextDirective("two", prefix="z"), True),
                                       ("prefix out of it", TextDirective("after", prefix="two"), True),
                                       ("prefix across it", TextDirective("after", prefix="y"), True),
                                       ("suffix across it", TextDirective("y", suffix="after"), True)]],
    case("prefix across two closed details", "<details><summary>a</summary><p>in1</p></details>"
         "<details><summary>b</summary><p>in2</p></details>", "", True, raw=str(TextDirective("b", prefix="a"))),
    case("prefix across nested closed details", "<details><summary>a</summary><p>in1</p><details><summary>c</summary>"
         "<p>deep</p></details><p>in3</p></details><p>after</p>", "", True, raw=str(TextDirective("after", prefix="a"))),
    case("prefix into a closed details inside a closed details", "<details><summary>s</summary><details>"
         "<summary>t</summary><p>deep</p></details></details>", "", False, raw=str(TextDirective("deep", prefix="t"))),
    case("prefix into a closed details without summary", "<p>before x</p><details><p>inner z</p></details>",
         "", False, raw=str(TextDirective("inner", prefix="x"))),
    case("prefix from an open details' summary", "<details open><summary>sum y</summary><p>inner z</p></details>",
         "", True, raw=str(TextDirective("inner", prefix="y"))),
    case("prefix from a closed details' summary in a table", "<details><summary>поля contact</summary>"
         "<table><tr><th>Параметр</th><th>Тип</th></tr></table></details>", "", False,
         raw=str(TextDirective("Параметр", prefix="contact"))),
    case("content-visibility: hidden", "<p>before x</p><div style='content-visibility:hidden'><p>inner z</p></div>",
         "inner z", False),
    # the site's chrome names pages in aria-label, drawn by CSS generated content: never matched
    case("generated content", "<style>.label::before{content:attr(aria-label)}</style>"
         "<nav><a class=label href=/x aria-label='Buffer pools'></a></nav><p>y</p>", "Buffer pools", False),
    case("aria-label", "<nav><a href=/x aria-label='Buffer pools'>z</a></nav><p>y</p>", "Buffer pools", False),
]


@pytest.fixture(scope="module")
def tab(browser):
    tab = Tab(browser)
    yield tab
    tab.close()


@pytest.mark.parametrize("body, directive, matches, over", CASES)
def test_rules_are_what_chromium_does(tab, body, directive, matches, over):
    html = document(f"<p id=x>.</p>{body}")
    tab.load(html)
    assert tab.chromium_matches(directive, MATCH_FRAMES if matches else MISS_FRAMES) == matches
    [model] = model_counts(html, [directive])
    [probe] = tab.probe_counts([directive])
    assert bool(model) == (matches or "model" in over)
    assert bool(probe) == (matches or "probe" in over)


INLINE_TAGS = "a abbr b bdi bdo cite code data dfn em i kbd mark q s samp small span strong sub sup time u var wbr".split()


def test_tag_sets_are_chromiums_default_layout(tab):
    """Python has no computed style: its tag sets must be what Chromium's UA stylesheet does."""
    tab.load(document(""))
    tags = sorted(rules.BLOCK_TAGS - {"html", "body"}) + sorted(rules.INLINE_BLOCK_TAGS) + INLINE_TAGS
    display = tab.page.evaluate("""(tags) => Object.fromEntries(tags.map((t) => {
        const el = document.body.appendChild(document.createElement(t));
        if (t === "dialog") el.setAttribute("open", "");
        return [t, getComputedStyle(el).display]; }))""", tags)
    assert {t for t in rules.BLOCK_TAGS if t in display and display[t] in ("inline", "contents")} == set()
    assert {t: display[t] for t in rules.INLINE_BLOCK_TAGS} == {t: "inline-block" for t in rules.INLINE_BLOCK_TAGS}
    assert {t: display[t] for t in INLINE_TAGS} == {t: "inline" for t in INLINE_TAGS}


def test_chip_classes_are_inline_blocks_in_the_sites_stylesheet(tab):
    css = (ROOT / "site" / "static" / "style.css").read_text("utf-8")
    tab.load(f"<!doctype html><html><head><style>{css}</style></head><body></body></html>")
    display = tab.page.evaluate("""(classes) => Object.fromEntries(classes.map((c) => {
        const el = document.body.appendChild(document.createElement("a"));
        el.className = c;
        return [c, getComputedStyle(el).display]; }))""", sorted(rules.INLINE_BLOCK_CLASSES))
    assert display == {c: "inline-block" for c in rules.INLINE_BLOCK_CLASSES}
