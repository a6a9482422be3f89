"""Real docs dialects, released through the real CLI and looked at in real Chromium.

tests/fixtures/dialects/ is a small folder in every dialect trigsight reads: MkDocs
admonitions, Docusaurus admonitions and MDX pages, MyST directives (backtick and colon fences) and roles,
GitHub alerts, Node-style HTML with comments, definition lists, footnotes, heading ids,
front matter from other generators (Hugo's TOML too), MkDocs Material content tabs, template
tags of Jekyll, Hugo, GitBook and mdBook, task lists, and a partial that is no page. It is released once per module; the browser gate
proves every sentence, and the screenshots below check that asides look like asides.
"""
import json
import re
import urllib.error
import urllib.request

import pytest
from trigsight.gates.liveserver import serve_release

import pixels
from conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "dialects"



@pytest.fixture(scope="module")
def released(tmp_path_factory):
    from conftest import run_trigsight
    root = tmp_path_factory.mktemp("dialects")
    result = run_trigsight("release", "--content", str(FIXTURE), "--out", str(root / "release"),
                           env={"TRIGSIGHT_CACHE_DIR": str(root / "cache"), "OPENAI_API_KEY": ""})
    assert result.returncode == 0, result.stderr
    return root / "release", result.stderr


@pytest.fixture(scope="module")
def site(released):
    with serve_release(released[0]) as base:
        yield base


@pytest.fixture(scope="module")
def allowlist(released):
    return json.loads((released[0] / "allowlist.json").read_text("utf-8"))


def test_other_generators_front_matter_releases_with_one_warning_line(released, allowlist):
    warnings = [line for line in released[1].splitlines() if "front matter keys ignored" in line]
    assert warnings == ["warning: front matter keys ignored: layout (index.md); tags (lamp.md)"]
    paths = {p["path"] for p in allowlist["pages"]}
    assert "/draft" not in paths and "/hidden" in paths


def test_template_tags_and_partials_are_named_in_warnings_and_never_published(released, allowlist):
    lines = released[1].splitlines()
    assert "warning: partials not published as pages (names or folders starting with _): guide/_flags.md" in lines
    assert ("warning: template tags only the site generator can fill in, not shown: --8<-- (snippets) "
            "(guide/signals.md); {% include %} (guide/signals.md); {{#include}} (guide/signals.md)") in lines
    assert not [p for p in allowlist["passages"] if "flag table" in p["text"] or "VHF]" in p["text"]]
    assert "/guide/signals" in {p["path"] for p in allowlist["pages"]}


@pytest.mark.parametrize("page, sentence", [
    ("/lamp", "Hot glass"),                                                        # MkDocs title
    ("/lamp", "The tide table on the wall lists high and low water for every day of the year, and the "
              "keeper reads it each evening before lighting the lamp for the night sea 🌊 and its storms."),
    ("/lamp", "Keepers wear leather gloves when they clean it."),                  # MkDocs body
    ("/lamp", "The narrow walkway around the lantern."),                           # definition list
    ("/lamp", "Each trim is entered in the Logbook that hangs by the door."),      # mkdocs-autorefs
    ("/guide", "Docusaurus tip"),                                                  # Docusaurus title
    ("/guide", "The old whale-oil lamp is no longer used."),                       # :::danger body
    ("/guide", "Never leave the lamp unattended during a storm."),                 # GitHub alert
    ("/guide/storms", "The barometer is read every hour when the wind rises."),    # ```{note}
    ("/guide/storms", "Shutters first"),                                           # :::{warning} title
    ("/guide/storms", "The foghorn sounds two blasts every minute in fog."),       # unknown directive
    ("/guide/storms", "The drill is practised in October with the horn key."),     # roles
    ("/guide/storms", "The drill was written after the great gale."),              # footnote
    ("/guide/logbook", "Press Ctrl+S to save the digital copy of the log."),       # <kbd>
    ("/guide/logbook", "The course the ship held when it passed the rocks."),      # HTML table
    ("/guide/logbook", "Old logbooks are kept in the chest for ten years."),       # unknown tag, text kept
    ("/guide/drills", "The fog drill is rehearsed with the horn on the first Monday of each month."),  # .mdx
    ("/guide/drills", "Winter drill"),                                             # <TabItem label="…">
    ("/guide/drills", "Summer drill"),                                             # label={"…"} over lines
    ("/guide/drills", "In summer the drill starts at dawn, before the fishing boats leave the harbour."),
    ("/guide/signals", "The signal flags are kept folded in the locker under the stairs."),  # {: .lead } line
    ("/guide/signals", "By day"),                                                  # === "By day"
    ("/guide/signals", "By day the keeper raises the red pennant when a gale is expected."),  # the tab's body
    ("/guide/signals", "By night the keeper shows two red lamps, one above the other."),
    ("/guide/signals", "A torn pennant is replaced before it is hoisted again."),  # {% hint %}
    ("/guide/signals", "The lamps are trimmed before the signal lamps are lit."),  # {{< notice >}}
    ("/guide/signals", "Morse by lamp"),                                           # > [!tip] Title
    ("/guide/signals", "The spare lamp still needs a new wick."),                  # - [ ] task
    ("/guide/signals", "The red pennant means a gale and the blue one means calm weather."),  # ==mark==, icon
    ("/guide/signals", "Storm signals are listed with the shutters on the storm page."),     # [[wikilink|words]]
])
def test_every_dialects_sentences_are_browser_proven_passages(allowlist, page, sentence):
    assert sentence in {p["text"] for p in allowlist["passages"] if p["page"] == page}


def test_no_published_passage_carries_markup_and_none_was_left_out(released, allowlist):
    markup = re.compile(r"<|>|\{|\}|:::|!!!|\[!|YAML|introduced_in|\(drill-start\)=|%|\]\[|import|@theme|Editors"
                        r"|===|==|\[[ x]\]|TOC|:material|--8<--")
    assert [p["text"] for p in allowlist["passages"] if markup.search(p["text"])] == []
    report = json.loads((released[0] / "reports" / "browser.json").read_text("utf-8"))
    assert report["summary"]["passages"]["left_out"] == 0 and report["failures"] == []


def fetch(url: str):
    request = urllib.request.Request(url, headers={"Accept": "text/html", "Accept-Encoding": "identity"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_raw_html_reaches_readers_only_through_the_allowlist(site):
    status, html = fetch(site + "/guide/logbook")
    main = html.split("<main")[1].split("</main>")[0]
    assert status == 200 and "<kbd>Ctrl</kbd>" in main and '<a id="legacy-entries"></a>' in main
    for banned in ("<!--", "<script", "<style", "onclick", "YAML", 'class="deprecated-inline"'):
        assert banned not in main
    assert 'href="/guide/storms"' in main       # storms.html, written for another generator
    status, html = fetch(site + "/guide/drills")
    main = html.split("<main")[1].split("</main>")[0]
    assert status == 200 and 'href="/guide/storms"' in main and 'href="/guide/logbook"' in main
    for banned in ("import", "@site", "Editors", "Horn", "TabItem", "groupId"):
        assert banned not in main


def test_generator_syntax_is_shown_as_the_generators_site_shows_it(site):
    status, html = fetch(site + "/guide/signals")
    main = html.split("<main")[1].split("</main>")[0]
    assert status == 200 and '<p class="tab-label">By night</p>' in main and "<mark>red pennant</mark>" in main
    assert '<li class="task task-done">The pennant' in main and '<li class="task">The spare lamp' in main
    assert '<a href="/guide/storms">storm page</a>' in main
    assert '{% include "flags.md" %}' in main.split("<pre>")[1]        # inside a tab's code block: untouched
    for banned in ("{{", "hint style", "[TOC]", "*[VHF]", "--8<--", "lead }", "=== ", "[x]", "[!tip]"):
        assert banned not in main.replace(main.split("<pre>")[1].split("</pre>")[0], "")


def test_missing_pages_are_answered_in_the_sites_chrome(site):
    status, html = fetch(site + "/no/such/page")
    assert status == 404
    assert 'class="site-header"' in html and 'href="/contents"' in html and 'id="chat-question"' in html
    assert '<link rel="stylesheet" href="/static/style.' in html


@pytest.mark.parametrize("path, kind", [("/lamp", "warning"), ("/guide", "danger"), ("/guide/storms", "note")])
def test_admonitions_render_as_asides_a_reader_recognises(page, site, path, kind):
    page.set_viewport_size({"width": 900, "height": 900})
    page.goto(site + path)
    aside = page.locator(f"aside.kind-{kind}").first
    style = aside.evaluate("""a => { const s = getComputedStyle(a), t = getComputedStyle(a.firstElementChild);
        return [s.borderLeftWidth, s.backgroundColor, getComputedStyle(document.body).backgroundColor,
                t.fontWeight, a.firstElementChild.className]; }""")
    assert style[0] == "4px" and style[1] != style[2] and int(style[3]) >= 700 and style[4] == "admonition-title"
    paper = [int(v) for v in re.findall(r"\d+", style[2])[:3]]
    differing, total = pixels.unlike(page, aside.screenshot(), paper)
    assert differing > 0.8 * total          # a tinted box, not text on the page's paper


def test_navigation_labels_are_drawn_without_javascript(browser, site):
    context = browser.new_context(java_script_enabled=False, viewport={"width": 900, "height": 900})
    try:
        tab = context.new_page()
        tab.goto(site + "/guide/storms")
        crumbs = tab.locator(".crumbs a")
        assert crumbs.count() == 2
        assert all(crumbs.nth(i).bounding_box()["width"] > 20 for i in range(2))
        assert tab.locator("a[rel=prev]").bounding_box()["width"] > 20
        tab.locator(".site-header a[aria-label=Contents]").click()
        tab.wait_for_url("**/contents")          # loaded, not only committed: the count below does not wait
        assert tab.locator("main .contents a").count() == 7     # every listed page; draft, unlisted, partial not
    finally:
        context.close()
