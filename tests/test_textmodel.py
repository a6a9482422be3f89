"""The matcher's model of a page: segments, normalisation and match counting."""
import pytest
from trigsight.matching.textmodel import (
    EDGE,
    INSIDE,
    count_matches,
    find_matches,
    normalise,
    page_haystack,
    segment_at,
    segments_from_html,
)


def haystack(body: str) -> str:
    return page_haystack(segments_from_html(f"<html><body><main>{body}</main></body></html>"))


@pytest.mark.parametrize("raw, folded", [
    ("The  Gate\nis   STRICT", "the gate is strict"),
    ("Café Straße", "cafe strasse"),
    ("ＦＵＬＬ width", "full width"),
    ("It’s “quoted”", "it's \"quoted\""),
    ("soft\u00adhyphen and\u00a0nbsp", "softhyphen and nbsp"),
    ("Прокси СЕРВЕР", "прокси сервер"),
])
def test_normalise_folds_what_the_browser_ignores(raw, folded):
    assert normalise(raw) == folded


@pytest.mark.parametrize("body, expected", [
    ("<p>One <em>two</em> <a href='#'>three</a> <code>four</code>.</p>", ["One two three four."]),
    ("<p>First.</p><p>Second.</p>", ["First.", "Second."]),
    ("<p>line one<br>line two</p>", ["line one", "line two"]),
    ("<ul><li><p>loose item</p></li></ul>", ["loose item"]),
    ("<table><tr><td>cell a</td><td>cell b</td></tr></table>", ["cell a", "cell b"]),
    ("<p>before <a class='cite' href='#'>Chip</a> after</p>", ["before", "Chip", "after"]),
    ("<p>shown</p><p hidden>gone</p><p style='display: none'>gone</p><script>x()</script>", ["shown"]),
    ("<p>kept<span hidden=until-found> found</span></p>", ["kept found"]),
])
def test_segments_follow_block_and_inline_boundaries(body, expected):
    segments = segments_from_html(f"<html><body><main>{body}</main></body></html>")
    assert [s.text for s in segments] == expected


def test_chip_text_is_never_citable():
    segments = segments_from_html("<main><p>Claim. <a class='cite' href='#'>Results</a></p></main>")
    assert [(s.text, s.in_main) for s in segments] == [("Claim.", True), ("Results", False)]


def test_text_outside_main_counts_for_uniqueness_but_is_not_in_main():
    segments = segments_from_html("<body><nav>Home</nav><main><p>Home</p></main></body>")
    assert [(s.text, s.in_main) for s in segments] == [("Home", False), ("Home", True)]


@pytest.mark.parametrize("body, text, prefix, suffix, count", [
    ("<p>The cat sat.</p>", "the CAT   sat.", "", "", 1),
    ("<p>The category sat.</p>", "cat", "", "", 0),          # must start and end on a word edge
    ("<p>Say it. Say it.</p>", "say it.", "", "", 2),
    ("<p>One. Say it. Two. Say it.</p>", "say it.", "two.", "", 1),
    ("<p>Say it. one</p><p>Say it. two</p>", "say it.", "", "two", 1),
    ("<p>ends here.</p><p>Say it.</p><p>Say it.</p>", "say it.", "here.", "", 1),  # prefix from the previous block
    ("<p>first half</p><p>second half</p>", "half second", "", "", 0),  # never across blocks
    ("<p>吾輩は猫である。名前はまだ無い。</p>", "名前はまだ無い。", "", "", 1),
    ("<p>Recall &amp; precision, 12% - done.</p>", "recall & precision, 12% - done.", "", "", 1),
    # what a closed <details> or hidden=until-found hides takes no context from before it, and
    # context from outside it skips it whole
    ("<details><summary>fields</summary><p>Name here.</p></details>", "name here.", "", "", 1),
    ("<details><summary>fields</summary><p>Name here.</p></details>", "name here.", "fields", "", 0),
    ("<details><summary>fields</summary><p>Name here.</p></details>", "fields", "", "name", 0),
    ("<details open><summary>fields</summary><p>Name here.</p></details>", "name here.", "fields", "", 1),
    ("<details><summary>fields</summary><p>Name here.</p></details><p>After.</p>", "after.", "here.", "", 1),
    ("<p>Before.</p><div hidden=until-found><p>Name here.</p></div>", "name here.", "before.", "", 0),
    ("<details><summary>fields</summary><p>Name here.</p></details><p>After.</p>", "after.", "fields", "", 1),
    ("<details><summary>fields</summary><p>Name here.</p></details><p>After.</p>", "fields", "", "after.", 1),
    ("<p>Before.</p><div hidden=until-found><p>One.</p></div><div hidden=until-found><p>Two.</p></div>"
     "<p>After.</p>", "after.", "before.", "", 1),
    ("<details><summary>fields</summary><p>One.</p><details><summary>inner</summary><p>Deep.</p></details>"
     "<p>Three.</p></details><p>After.</p>", "after.", "fields", "", 1),
    ("<details><summary>fields</summary><details><summary>inner</summary><p>Deep.</p></details></details>",
     "deep.", "inner", "", 0),
])
def test_count_matches_uses_browser_semantics(body, text, prefix, suffix, count):
    assert count_matches(haystack(body), text, prefix, suffix) == count


def test_the_haystack_knows_where_each_run_of_hidden_content_starts_and_ends():
    segments = segments_from_html("<main><p>One.</p><details><summary>Two.</summary><p>Three.</p>"
                                  "<p>Four.</p></details><p>Five.</p></main>")
    text = page_haystack(segments)
    assert [s.hidden_in for s in segments] == [(), (), (1,), (1,), ()]
    assert text.hidden == {text.index("three."): text.index("four.") + len("four.")}
    assert [segments[segment_at(text, find_matches(text, w)[0])].text for w in ("two.", "three.", "five.")] == \
        ["Two.", "Three.", "Five."]


def _matches_by_the_letter(text: str, part: str, prefix: str) -> list[int]:
    """Every place of `part` that `prefix` reaches over white space and whole hidden runs, tried one by one."""
    glue = text.glue

    def at(piece: str, j: int) -> bool:
        return text.startswith(piece, j) and glue[j] != INSIDE and glue[j + len(piece)] != INSIDE

    def reach(j: int) -> int:
        while True:
            while j < len(text) and text[j] in " \t\n":
                j += 1
            if j not in text.hidden:
                return j
            j = text.hidden[j]

    places = [q for q in range(len(text)) if at(part, q) and glue[q + len(part)] == EDGE]
    return [q for q in places if any(at(prefix, p) and glue[p] == EDGE and reach(p + len(prefix)) == q
                                     for p in range(len(text)))]


_WORDS = ["the", "the cat", "cat", "sat", "the end", "end."]


def _random_page(seed: int) -> str:
    import random
    pick = random.Random(seed)
    blocks = []
    for _ in range(pick.randint(3, 12)):
        words = " ".join(pick.choice(_WORDS) for _ in range(pick.randint(1, 5)))
        kind = pick.choice(["p", "p", "p", "details", "open"])
        if kind == "p":
            blocks.append(f"<p>{words}</p>")
        else:
            blocks.append(f"<details{' open' if kind == 'open' else ''}><summary>{pick.choice(_WORDS)}</summary>"
                          f"<p>{words}</p></details>")
    return "".join(blocks)


@pytest.mark.parametrize("seed", range(40))
def test_a_prefix_reaches_its_text_over_white_space_and_whole_hidden_runs_as_the_rule_says_letter_by_letter(seed):
    text = haystack(_random_page(seed))
    for prefix in _WORDS:
        for part in _WORDS:
            assert find_matches(text, part, prefix) == _matches_by_the_letter(text, part, prefix), (prefix, part)
