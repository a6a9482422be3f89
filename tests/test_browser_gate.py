"""The browser gate: real Chromium proves every link, and refuses releases it cannot prove."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from trigsight.gates import browser_check
from trigsight_site import create_app

from conftest import run_trigsight, snapshot, write_files
from junit import read_junit

# ---- the probe and Chromium agree on real pages ----------------------------------------

JA = "<p id=t>吾輩は猫である。名前はまだ無い。</p>"
KO = "<p id=t>다람쥐가 헌 쳇바퀴에 타고파.</p>"
PROBE_CASES = [
    # (name, body, directive, matches our probe must count, Chromium's :target id or None)
    ("across em, a and code", '<p id=t>Read the <em>quick</em> <a href="#x">guide</a> to <code>make</code> now.</p>',
     "text=Read%20the%20quick%20guide%20to%20make%20now.", 1, "t"),
    ("across two blocks", "<p>First half</p><p>second half.</p>", "text=First%20half%20second%20half.", 0, None),
    ("across an inline-block", '<p>One <span style="display:inline-block">two</span> three.</p>',
     "text=One%20two%20three.", 0, None),
    ("span laid out as a block", '<p>One <span style="display:block">two</span> three.</p>', "text=One%20two", 0, None),
    ("div laid out inline", '<p id=t>One <span style="display:inline"><span>two</span></span> three.</p>',
     "text=One%20two%20three.", 1, "t"),
    ("case and whitespace", "<p id=t>MIXED   case\n   Words here.</p>", "text=mixed%20case%20words%20HERE.", 1, "t"),
    ("double space in the query", "<p id=t>two words</p>", "text=two%20%20words", 0, None),
    ("repeated sentence", "<p id=first>The repeated one.</p><p id=t>Then. The repeated one.</p>",
     "text=The%20repeated%20one.", 2, "first"),
    ("repeated sentence with prefix", "<p>The repeated one.</p><p id=t>Then. The repeated one.</p>",
     "text=Then.-,The%20repeated%20one.", 1, "t"),
    ("repeated sentence with suffix", "<p id=t>The repeated one. First.</p><p>The repeated one.</p>",
     "text=The%20repeated%20one.,-First.", 1, "t"),
    ("prefix from the previous block", "<p>Alpha.</p><p id=t>Beta gamma.</p><p>Beta gamma.</p>",
     "text=Alpha.-,Beta%20gamma.", 1, "t"),
    ("across an image", '<p id=t>Alpha <img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=" alt="pic"> beta.</p>',
     "text=Alpha%20beta.", 1, "t"),
    ("across a progress bar", "<p id=t>Alpha <progress></progress> beta.</p>", "text=Alpha%20beta.", 1, "t"),
    ("across an svg", "<p>Alpha <svg width=9 height=9></svg> beta.</p>", "text=Alpha%20beta.", 0, None),
    ("across an empty inline-block", '<p>Alpha <span style="display:inline-block"></span> beta.</p>',
     "text=Alpha%20beta.", 0, None),
    ("display none", '<p style="display:none">Hidden words here.</p>', "text=Hidden%20words%20here.", 0, None),
    ("visibility hidden", '<p style="visibility:hidden">Hidden words here.</p>', "text=Hidden%20words%20here.", 0, None),
    ("hidden attribute", "<p hidden>Hidden words here.</p>", "text=Hidden%20words%20here.", 0, None),
    ("opacity zero still matches", '<p id=t style="opacity:0">Faint words here.</p>', "text=Faint%20words%20here.", 1, "t"),
    ("closed details", "<details><summary>More</summary><p id=t>Inside closed details.</p></details>",
     "text=Inside%20closed%20details.", 1, "t"),
    ("br is a line break", "<p>one<br>line</p>", "text=one%20line", 0, None),
    ("br matched as a newline", "<p id=t>one<br>line</p>", "text=one%0Aline", 1, "t"),
    ("reserved characters encoded", "<p id=t>Costs 5% - more, &amp; less.</p>",
     "text=Costs%205%25%20%2D%20more%2C%20%26%20less.", 1, "t"),
    ("raw hyphen is not text", "<p>well-known words</p>", "text=well-known%20words", 0, None),
    ("part of a word", "<p>category</p>", "text=cat", 0, None),
    ("folded accents, sharp s, width, quotes", "<p id=t>café Straße ＦＵＬＬ It’s</p>",
     "text=cafe%20strasse%20full%20it's", 1, "t"),
    ("Russian in other case", "<p id=t>Мягкая кошка спит.</p>", "text=%D0%BC%D1%8F%D0%B3%D0%BA%D0%B0%D1%8F%20%D0%9A%D0%9E%D0%A8%D0%9A%D0%90", 1, "t"),
    ("Russian word stem", "<p>Мягкая кошка спит.</p>", "text=%D0%BC%D1%8F%D0%B3%D0%BA", 0, None),
    ("Japanese sentence", JA, "text=" + "%E5%90%BE%E8%BC%A9%E3%81%AF%E7%8C%AB%E3%81%A7%E3%81%82%E3%82%8B%E3%80%82", 1, "t"),
    ("Japanese dictionary word", JA, "text=%E7%8C%AB", 1, "t"),
    ("Japanese across a word edge", JA, "text=%E5%89%8D%E3%81%AF%E3%81%BE%E3%81%A0", 0, None),
    ("Korean words with particle", KO, "text=%ED%97%8C%20%EC%B3%87%EB%B0%94%ED%80%B4%EC%97%90", 1, "t"),
    ("Korean stem without particle", KO, "text=%EC%B3%87%EB%B0%94%ED%80%B4", 0, None),
]


def load(page, body: str) -> None:
    """Serve `body` at a loopback URL through Playwright's router (nothing leaves the browser)."""
    html = f"<!doctype html><html lang=en><meta charset=utf-8><body>{body}</body></html>"
    page.route("http://127.0.0.1:9/**", lambda route, request: route.fulfill(
        body=html, content_type="text/html; charset=utf-8"))
    page.goto("http://127.0.0.1:9/case")


@pytest.mark.parametrize("name, body, directive, count, target", PROBE_CASES, ids=[c[0] for c in PROBE_CASES])
def test_probe_counts_matches_and_chromium_lands_where_it_says(page, name, body, directive, count, target):
    load(page, body)
    [result] = browser_check.probe_page(page, [directive])
    assert result["count"] == count
    assert (result["target"] or {}).get("id") == target
    if count == 1:
        assert result["reason"] == "" and result["lands"] and result["inBlock"]
    else:
        assert result["reason"]


def test_a_page_the_site_does_not_serve_fails_the_gate_instead_of_matching_nothing(bundled_site, page):
    job = browser_check.PageJob("/no-such-page", f"{bundled_site}/no-such-page", [])
    with pytest.raises(browser_check.PageNotServed, match="answered HTTP 404") as caught:
        browser_check.served(page.goto(job.url), job)
    assert caught.value.problems[0].path == "/no-such-page"
    browser_check.served(page.goto(f"{bundled_site}/"), browser_check.PageJob("/", f"{bundled_site}/", []))


def test_probe_refuses_a_match_outside_the_intended_block(page):
    load(page, "<p>Alpha beta.</p><p>Gamma delta.</p>")
    [result] = browser_check.probe_page(page, ["text=Alpha%20beta."], [{"tag": "p", "ordinal": 1}])
    assert result["count"] == 1
    assert "not in the passage's own <p>[1]" in result["reason"]


# ---- the release: planted failures refuse it and leave the previous release intact ------

BASE = {
    "index.md": "---\ntitle: Home\nslug: index\n---\n\n## Notes\n\nThe garden has a quiet bench under the old pear tree. "
                "[[cite:facts|The well water is cold even in August.]]\n\nTomatoes want **deep watering** twice a week.\n",
    "facts.md": "---\ntitle: Facts\nslug: facts\n---\n\n## Water\n\nThe well water is cold even in August. "
                "Plums ripen late in the season.\n\nThe **north** wall stays damp.\n\n"
                "> A quoted line about frost.\n\nBring a coat. The wind is strong.\n\nBring a coat. Rain comes at noon.\n\n"
                "## Orchard\n\nApples fall early in a dry year.\n\nOrchard apples fall early in a dry year.\n",
}
CITE = "---\ntitle: Home\nslug: index\n---\n\n## Notes\n\nThe garden has a quiet bench. [[cite:facts|{}]]\n"
HIDE_QUOTES = "article blockquote { display: none; }\n"
PLANTED = [
    # (name, cited text, author stylesheet, what the message must say)
    ("cross-block citation (source gate)", "Plums ripen late in the season. The north wall", "",
     ["runs across two blocks", "source gate"]),
    ("ambiguous citation (source gate)", "Bring a coat.", "", ["appears 2 times", "source gate"]),
    ("citation hidden by CSS", "A quoted line about frost.", HIDE_QUOTES,
     ["citation of /facts", "A quoted line about frost.", "no match", "browser gate"]),
    ("citation split by CSS", "The north wall stays damp.", "article strong { display: block; }\n",
     ["citation of /facts", "The north wall stays damp.", "no match", "browser gate"]),
    ("citation made ambiguous by CSS", "Orchard apples fall early in a dry year.",
     "article h2, article h2 + p { display: inline; }\n",
     ["citation of /facts", "Orchard apples fall early in a dry year.", "matches 2 places", "browser gate"]),
]


@pytest.fixture(scope="module")
def base_release(tmp_path_factory):
    """The base site released once (the 'previous release'), with its own proof cache."""
    root = tmp_path_factory.mktemp("base")
    content = write_files(root / "content", BASE)
    out, cache = root / "release", root / "cache"
    result = run_trigsight("release", "--content", str(content), "--out", str(out),
                           env={"TRIGSIGHT_CACHE_DIR": str(cache), "TRIGSIGHT_SITE_CSS": ""})
    assert result.returncode == 0, result.stderr
    return {"content": content, "out": out, "cache": cache, "stderr": result.stderr}


def previous_release(base_release, tmp_path) -> Path:
    out = tmp_path / "release"
    shutil.copytree(base_release["out"], out)
    return out


@pytest.mark.parametrize("name, cited, css, messages", PLANTED, ids=[p[0] for p in PLANTED])
def test_release_fails_on_planted_citation_and_keeps_previous_release(
        trigsight, write_content, base_release, tmp_path, name, cited, css, messages):
    out = previous_release(base_release, tmp_path)
    before = snapshot(out)
    content = write_content({**BASE, "index.md": CITE.format(cited)})
    theme = tmp_path / "theme.css"
    theme.write_text(css, "utf-8")
    junit = tmp_path / "reports" / "junit.xml"
    result = trigsight("release", "--content", str(content), "--out", str(out), "--report-junit", str(junit),
                       env={"TRIGSIGHT_CACHE_DIR": str(base_release["cache"]), "TRIGSIGHT_SITE_CSS": str(theme),
                            "GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(tmp_path)})
    assert result.returncode == 1, result.stderr
    assert f"{content}/index.md:8: " in result.stderr
    for message in messages:
        assert message in result.stderr
    assert "nothing was published" in result.stderr
    assert snapshot(out) == before
    # CI sees the same failure: a JUnit case at the gate that refused, and an annotation on the line.
    gate = "browser" if "browser gate" in messages else "source"
    [failed] = [case for case in read_junit(junit) if case["status"] == "failure"]
    assert failed["suite"] == f"trigsight.{gate}" and failed["message"].startswith(f"{content}/index.md:8: ")
    [annotation] = result.stdout.splitlines()
    assert annotation.startswith(f"::error file=content/index.md,line=8,title=trigsight {gate} gate::")


def test_ordinary_passage_the_browser_cannot_prove_is_left_out_and_reported(
        trigsight, write_content, base_release, tmp_path):
    content = write_content(BASE)
    theme = tmp_path / "theme.css"
    theme.write_text(HIDE_QUOTES, "utf-8")
    out = tmp_path / "release"
    result = trigsight("release", "--content", str(content), "--out", str(out),
                       env={"TRIGSIGHT_CACHE_DIR": str(tmp_path / "cache"), "TRIGSIGHT_SITE_CSS": str(theme)})
    assert result.returncode == 0, result.stderr
    assert 'left out passage on /facts "A quoted line about frost."' in result.stderr
    allowlist = json.loads((out / "allowlist.json").read_text("utf-8"))
    texts = {p["text"] for p in allowlist["passages"]}
    assert "A quoted line about frost." not in texts and "Plums ripen late in the season." in texts
    report = json.loads((out / "reports" / "browser.json").read_text("utf-8"))
    # The first "Bring a coat." was told apart by the quote before it (its prefix): hidden too.
    failures = {(f["page"], f["kind"], f["text"], f["count"]) for f in report["failures"]}
    assert failures == {("/facts", "passage", "A quoted line about frost.", 0),
                        ("/facts", "passage", "Bring a coat.", 0)}
    assert "A quoted line about frost." in (out / "reports" / "browser.html").read_text("utf-8")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    assert manifest["gates"]["browser"]["passages"]["left_out"] == 2


def test_every_published_url_was_proven_in_chromium(base_release):
    out = base_release["out"]
    allowlist = json.loads((out / "allowlist.json").read_text("utf-8"))
    report = json.loads((out / "reports" / "browser.json").read_text("utf-8"))
    proven = {c["url"] for page in report["pages"] for c in page["checks"] if c["ok"]}
    assert allowlist["passages"] and {p["url"] for p in allowlist["passages"]} <= proven
    assert {c["url"] for c in allowlist["citations"]} <= proven
    citations = [c for page in report["pages"] for c in page["checks"] if c["kind"] == "citation"]
    assert citations and all(c["fresh"]["ok"] for c in citations)
    assert "predictor/browser agreement" in base_release["stderr"]


def test_unchanged_pages_come_from_the_cache_unless_no_cache(trigsight, base_release, tmp_path):
    args = ("release", "--content", str(base_release["content"]), "--out", str(tmp_path / "release"))
    env = {"TRIGSIGHT_CACHE_DIR": str(base_release["cache"]), "TRIGSIGHT_SITE_CSS": ""}
    cached = trigsight(*args, env=env)
    assert cached.returncode == 0, cached.stderr
    assert "3 pages (0 checked, 3 cached)" in cached.stderr, cached.stderr   # 2 pages and the contents page
    fresh = trigsight(*args, "--no-cache", env=env)
    assert fresh.returncode == 0, fresh.stderr
    assert "3 pages (3 checked, 0 cached)" in fresh.stderr, fresh.stderr


@pytest.mark.parametrize("dev", [True, False])
def test_reports_are_served_and_linked_only_in_development(base_release, dev):
    client = create_app({"RELEASE_DIR": str(base_release["out"]), "DEV": dev}).test_client()
    report = client.get("/reports/browser")
    home = client.get("/")
    assert home.status_code == 200
    if dev:
        assert report.status_code == 200 and b"Browser gate report" in report.data
        assert client.get("/reports/browser.json").json["summary"]["pages"] == 3
        assert b'href="/reports/browser"' in home.data
    else:
        assert report.status_code == 404
        assert b"/reports/browser" not in home.data
        assert home.data == (base_release["out"] / "pages" / "index.html").read_bytes()
