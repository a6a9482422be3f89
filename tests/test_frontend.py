"""The front end in real Chromium: the scene, its lazy loading, no-JS pages, the fragment fallback, a11y."""
import json
import re

import pytest
from trigsight.gates import chromium
from trigsight.matching.textmodel import normalise

import pixels

SCENE = re.compile(r"/static/scene\.[0-9a-f]{10}\.js$")
FALLBACK = re.compile(r"/static/textfragment\.[0-9a-f]{10}\.js$")


def scene_pixels(page) -> int:
    """Pixels the scene adds: the hero screenshotted with its canvas shown, then hidden.

    (Reading the WebGL canvas back would see a cleared buffer once the scene holds still,
    while the screen keeps showing the frame.)
    """
    hero = page.locator("[data-scene]")
    shown = hero.screenshot()
    page.evaluate("document.querySelector('[data-scene] canvas').style.visibility = 'hidden'")
    hidden = hero.screenshot()
    page.evaluate("document.querySelector('[data-scene] canvas').style.visibility = ''")
    return pixels.different(page, shown, hidden)


def requested(page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def settle(page) -> None:
    """Past the load event and the idle callback that starts the scene."""
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)


@pytest.fixture(scope="module")
def allowlist(bundled_release):
    return json.loads((bundled_release / "allowlist.json").read_text())


@pytest.fixture
def launch(browser_type, browser_type_launch_args):
    """Start an extra Chromium with more flags (same playwright instance, closed afterwards)."""
    started = []

    def start(*flags):
        options = {**browser_type_launch_args, "args": chromium.FLAGS + list(flags)}
        started.append(browser_type.launch(**options))
        return started[-1]
    yield start
    for browser in started:
        browser.close()


def test_scene_draws_pixels_where_webgl_is_available(page, bundled_site):
    page.goto(bundled_site + "/")
    page.wait_for_selector("[data-scene][data-state] canvas")
    page.wait_for_timeout(200)
    assert scene_pixels(page) > 1000
    hero = page.locator("[data-scene]")
    assert hero.get_attribute("aria-hidden") == "true" and hero.inner_text() == ""
    assert page.evaluate("document.querySelector('[data-scene]').closest('main')") is None


def test_scene_pauses_off_screen_and_resumes_in_view(page, bundled_site):
    page.goto(bundled_site + "/")
    page.locator("[data-scene][data-state=running]").wait_for(state="attached")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("[data-scene][data-state=paused]").wait_for(state="attached")
    page.evaluate("window.scrollTo(0, 0)")
    page.locator("[data-scene][data-state=running]").wait_for(state="attached")


def test_scene_script_is_requested_only_after_the_load_event(page, bundled_site):
    urls = requested(page)
    page.goto(bundled_site + "/")
    page.wait_for_selector("[data-scene] canvas")
    timing = page.evaluate("""() => {
        const nav = performance.getEntriesByType('navigation')[0];
        const scene = performance.getEntriesByType('resource').find(r => /\\/scene\\./.test(r.name));
        return [nav.loadEventStart, scene.startTime];
    }""")
    assert timing[1] >= timing[0]
    assert [u for u in urls if SCENE.search(u)] != []


# Each way a device says it cannot afford the scene; the script must not even be downloaded.
SAVE_DATA = "Object.defineProperty(Navigator.prototype, 'connection', {get: () => ({saveData: true})})"
WEAK_DEVICE = "Object.defineProperty(Navigator.prototype, 'deviceMemory', {get: () => 0.5})"


@pytest.mark.parametrize("how", ["reduced motion", "save data", "weak device", "no webgl"])
def test_scene_is_never_downloaded_when_the_device_cannot_afford_it(browser, launch, bundled_site, how):
    target = launch("--disable-3d-apis") if how == "no webgl" else browser
    context = target.new_context(reduced_motion="reduce" if how == "reduced motion" else "no-preference")
    if how in ("save data", "weak device"):
        context.add_init_script(SAVE_DATA if how == "save data" else WEAK_DEVICE)
    try:
        page = context.new_page()
        urls = requested(page)
        page.goto(bundled_site + "/")
        settle(page)
        assert any("/static/site." in u for u in urls)        # the loader did run
        assert [u for u in urls if SCENE.search(u)] == []
        assert page.locator("[data-scene] canvas").count() == 0
    finally:
        context.close()


def test_pages_work_with_javascript_disabled_and_chips_deep_link(browser, bundled_site, allowlist):
    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(bundled_site + "/")
        assert page.locator("[data-scene] canvas").count() == 0
        chips = page.locator("main a.cite")
        assert chips.count() >= 1
        hrefs = [chips.nth(i).get_attribute("href") for i in range(chips.count())]
        assert all("#:~:text=" in href for href in hrefs)
        form = page.locator("main form")
        assert form.count() == 1 and form.locator("button[type=submit]").count() == 1
        quote = chips.first.get_attribute("title")
        chips.first.click()
        page.wait_for_function("() => document.querySelector(':target') !== null")
        target = page.evaluate("document.querySelector(':target').textContent")
        assert normalise(quote) in normalise(target)
    finally:
        context.close()


@pytest.mark.parametrize("arrival", ["load", "same-page link"])
def test_fallback_marks_and_scrolls_to_the_cited_sentence_where_fragments_are_unsupported(
        launch, bundled_site, allowlist, arrival):
    unsupported = launch("--disable-blink-features=TextFragmentIdentifiers")
    citation = next(c for c in allowlist["citations"] if c["page"] != c["target"])
    passage = next(p for p in allowlist["passages"] if p["id"] == citation["passage"])
    page = unsupported.new_page(viewport={"width": 800, "height": 500})
    urls = requested(page)
    if arrival == "load":
        page.goto(bundled_site + citation["url"])
    else:
        page.goto(bundled_site + citation["target"])
        page.evaluate("hash => { location.hash = hash }", citation["url"].split("#", 1)[1])
    assert page.evaluate("'fragmentDirective' in document") is False
    page.wait_for_selector("mark.fragment-mark")
    marked = page.evaluate("[...document.querySelectorAll('mark.fragment-mark')].map(m => m.textContent).join('')")
    assert normalise(marked) == normalise(passage["text"])
    box = page.locator("mark.fragment-mark").first.bounding_box()
    assert 0 <= box["y"] <= 500
    assert [u for u in urls if FALLBACK.search(u)] != []


def test_fallback_is_not_downloaded_where_fragments_are_supported(page, bundled_site, allowlist):
    urls = requested(page)
    page.goto(bundled_site + allowlist["citations"][0]["url"])
    settle(page)
    assert page.evaluate("'fragmentDirective' in document") is True
    assert [u for u in urls if FALLBACK.search(u)] == []
    assert page.locator("mark.fragment-mark").count() == 0


@pytest.mark.parametrize("path", ["/", "/gates/payload", "/ja"])
def test_pages_have_one_of_each_landmark_and_a_dom_ordered_focus_path(page, bundled_site, path):
    page.goto(bundled_site + path)
    for role in ("banner", "main", "contentinfo"):
        assert page.get_by_role(role).count() == 1, role
    # site links, breadcrumb, previous/next, in-page contents: each navigation named apart
    names = page.evaluate("[...document.querySelectorAll('nav')].map(n => n.getAttribute('aria-label'))")
    assert "Site" in names and all(names) and len(set(names)) == len(names)
    assert page.evaluate("document.documentElement.lang") != ""
    assert page.locator("[tabindex]:not([tabindex='-1']):not([tabindex='0'])").count() == 0
    focusable = page.evaluate("""() => [...document.querySelectorAll('a[href], button, input, textarea, select')]
        .filter(e => e.getClientRects().length).map(e => e.outerHTML)""")
    visited = []
    for _ in focusable:
        page.keyboard.press("Tab")
        visited.append(page.evaluate("document.activeElement.outerHTML"))
        assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") != "none"
    assert visited == focusable


CONTRAST = """() => {
    const rgb = c => (c.match(/[\\d.]+/g) || []).map(Number);
    const lum = ([r, g, b]) => [r, g, b].map(v => v / 255)
        .map(v => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)
        .reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
    const background = e => {
        for (; e; e = e.parentElement) {
            const c = rgb(getComputedStyle(e).backgroundColor);
            if (c.length === 3 || c[3] > 0) return c.slice(0, 3);
        }
        return [255, 255, 255];
    };
    const worst = [];
    for (const e of document.querySelectorAll('body *')) {
        const own = [...e.childNodes].some(n => n.nodeType === 3 && n.data.trim());
        if (!own || !e.getClientRects().length) continue;
        const [a, b] = [lum(rgb(getComputedStyle(e).color)), lum(background(e))];
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) worst.push([e.tagName, e.className, ratio.toFixed(2)]);
    }
    return worst;
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_text_contrast_is_at_least_aa_in_both_colour_schemes(browser, bundled_site, scheme):
    context = browser.new_context(color_scheme=scheme)
    try:
        page = context.new_page()
        for path in ("/", "/gates/payload", "/results"):
            page.goto(bundled_site + path)
            assert page.evaluate(CONTRAST) == [], path
    finally:
        context.close()
