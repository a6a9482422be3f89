"""The browser gate's proof cache: a proof outlives a navigation change only when that change
cannot alter what the page's directives match (README, "Why a proof survives a navigation change")."""
from __future__ import annotations

import json
import re
import shutil

import pytest
from trigsight.build.assets import static_dir
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.gates import browser as browser_gate
from trigsight.gates import proof_cache
from trigsight.publishing import publish

from conftest import run_trigsight, write_files

# ---- the pure parts ----------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Beta · {brand}</title>
<link rel="stylesheet" href="/static/style.1234.css">
</head>
<body>
<header class="site-header"><a class="brand" href="/">{brand}</a>
<nav aria-label="Site"><a class="label" href="/contents" aria-label="{label}"></a></nav></header>
<main id="content" lang="en">
<article><h1>Beta</h1><p>Pears ripen in the shade.</p></article>
</main>
<footer class="site-footer"><p>{footer}</p></footer>
</body>
</html>
"""


def page(brand="Garden", label="Contents", footer="Every sentence here is proven.", body=None) -> str:
    html = PAGE.format(brand=brand, label=label, footer=footer)
    return html.replace("<p>Pears ripen in the shade.</p>", body) if body else html


@pytest.mark.parametrize("brand, label, footer, directive, clear", [
    ("Garden", "Contents", "Every sentence here is proven.", "text=Pears%20ripen%20in%20the%20shade.", True),
    ("Pears ripen in the shade.", "Contents", "Proven.", "text=Pears%20ripen%20in%20the%20shade.", False),
    ("PEARS   ripen in THE shade.", "Contents", "Proven.", "text=Pears%20ripen%20in%20the%20shade.", False),
    ("Pears ripén in the shade!", "Contents", "Proven.", "text=Pears%20ripen%20in%20the%20shade.", False),
    # a label drawn by CSS from aria-label is never text to the matcher
    ("Garden", "Pears ripen in the shade.", "Proven.", "text=Pears%20ripen%20in%20the%20shade.", True),
    ("Garden", "Contents", "Proven.", "text=Proven.-,Pears%20ripen", False),                 # the prefix
    ("Garden", "Contents", "Ripen in the shade.", "text=Pears,-ripen%20in%20the%20shade.", False),  # the suffix
    ("Garden", "Contents", "See the shade.", "text=Pears,the%20shade.", False),               # the end
    # <title> is in the never-rendered <head>: a heading that repeats the page's title stays clear
    ("Garden", "Contents", "Proven.", "text=Beta", True),
    ("Garden", "Contents", "Proven.", "text=Garden", False),
    ("Garden", "Contents", "Proven.", "text=Garden%20Proven.", False),   # across chrome blocks: conservative
    ("Garden", "Contents", "Proven.", "text=malformed-part", False),
])
def test_chrome_is_clear_only_when_no_directive_term_occurs_in_it(brand, label, footer, directive, clear):
    parts = proof_cache.split_page(page(brand, label, footer))
    assert proof_cache.chrome_is_clear(parts.chrome_text, [directive]) is clear


@pytest.mark.parametrize("change, same_key", [
    ({"brand": "Orchard"}, True),
    ({"label": "All pages"}, True),
    ({"footer": "Something else entirely."}, True),
    ({"body": "<p>Pears ripen in the sun.</p>"}, False),
])
def test_the_key_holds_main_and_head_but_not_the_chrome(change, same_key):
    before, after = proof_cache.split_page(page()), proof_cache.split_page(page(**change))
    assert (proof_cache.key(before, "a", [], "v", "p") == proof_cache.key(after, "a", [], "v", "p")) is same_key
    assert before.html_sha256 != after.html_sha256


@pytest.mark.parametrize("proven, now, loose, reused", [
    (page(), page(), False, True),                                        # the same page: always
    (page(), page(label="All pages"), True, True),                        # other chrome, no term in either
    (page(), page(label="All pages"), False, False),                      # author CSS: only the same page
    (page(), page(brand="Pears ripen in the shade."), True, False),       # a term in the new chrome
    (page(brand="Pears ripen in the shade."), page(), True, False),       # a term in the proven chrome
])
def test_a_proof_is_reused_for_the_same_page_or_chrome_without_its_terms(proven, now, loose, reused):
    directives = ["text=Pears%20ripen%20in%20the%20shade."]
    entry = proof_cache.entry_for(proof_cache.split_page(proven), directives, [])
    assert proof_cache.reusable(entry, proof_cache.split_page(now), directives, loose) is reused


def test_the_site_stylesheet_styles_main_by_nothing_outside_it():
    """Step 3 of the README's argument: no selector reaches across <main>'s edges, or shows <head>."""
    css = (static_dir() / "style.css").read_text("utf-8")
    selectors = [s.strip() for rule in re.findall(r"([^{}]+)\{", re.sub(r"/\*.*?\*/", "", css, flags=re.S))
                 for s in rule.split(",")]
    # Inside the breadcrumbs, or inside an admonition of <main>, such selectors stay on their side.
    reaching = [s for s in selectors if re.search(r"[+~]|:has\(|:last-|:only-|:nth-last-", s)
                and not s.startswith((".crumbs ", ".admonition "))]
    assert selectors and reaching == []
    assert not [s for s in selectors if re.search(r"(^|[\s>])(head|title)\b", s)]


# ---- real releases in real Chromium ---------------------------------------------------------

SITE = {
    "index.md": "---\ntitle: Home\nslug: index\n---\n\nThe garden has a quiet bench under the old pear tree.\n",
    "alpha.md": "---\ntitle: Alpha\n---\n\nApples fall early in a dry year.\n\nThe north wall stays damp.\n",
    "beta.md": "---\ntitle: Beta\n---\n\nPears ripen late in the shade.\n\nPlums want a warm wall.\n",
    "gamma.md": "---\ntitle: Gamma\n---\n\nQuinces keep until spring.\n\nMedlars are eaten rotten.\n",
}
ADDED = {"beta-two.md": "---\ntitle: Beta two\n---\n\nFigs need a sheltered corner.\n"}
EDITED = {"gamma.md": SITE["gamma.md"].replace("Medlars are eaten rotten.", "Medlars are eaten soft.")}
HIDE_NORTH = "article p:nth-of-type(2) { display: none; }\n"


def release(content, out, cache, title="Garden", css=None):
    env = {"TRIGSIGHT_CACHE_DIR": str(cache), "TRIGSIGHT_SITE_TITLE": title,
           "TRIGSIGHT_SITE_CSS": str(css) if css else ""}
    result = run_trigsight("release", "--content", str(content), "--out", str(out), env=env)
    report = json.loads((out / "reports" / "browser.json").read_text("utf-8")) if result.returncode == 0 else {}
    return result, report


def checked(report) -> set[str]:
    return {p["path"] for p in report["pages"] if not p["cached"]}


@pytest.fixture(scope="module")
def proven_site(tmp_path_factory):
    """The site released once, with the proof cache that later releases start from."""
    root = tmp_path_factory.mktemp("proven")
    content, cache = write_files(root / "content", SITE), root / "cache"
    result, report = release(content, root / "release", cache)
    assert result.returncode == 0, result.stderr
    assert checked(report) == {"/", "/alpha", "/beta", "/gamma", "/contents"}
    return root


@pytest.fixture
def cache(proven_site, tmp_path):
    """A copy of the proven cache, so each test starts from the same proofs."""
    shutil.copytree(proven_site / "cache", tmp_path / "cache")
    return tmp_path / "cache"


@pytest.mark.parametrize("files, rechecked", [
    ({}, set()),
    (EDITED, {"/gamma"}),                              # no title changed: the contents page is as it was
    (ADDED, {"/beta-two", "/contents"}),               # /beta and /gamma have new pager links: still reused
], ids=["unchanged", "one page edited", "one page added"])
def test_a_re_release_proves_only_the_pages_whose_content_changed(cache, tmp_path, files, rechecked):
    content = write_files(tmp_path / "content", {**SITE, **files})
    result, report = release(content, tmp_path / "release", cache)
    assert result.returncode == 0, result.stderr
    assert checked(report) == rechecked


SENTENCE = "Pears ripen late in the shade."


def test_a_site_title_that_repeats_a_sentence_re_proves_that_page_alone(cache, tmp_path):
    content = write_files(tmp_path / "content", SITE)
    result, report = release(content, tmp_path / "release", cache, title=SENTENCE)
    assert result.returncode == 0, result.stderr
    # Every page's header changed; only /beta holds a directive whose text is now in the header.
    assert checked(report) == {"/beta"}
    # The predictor saw the header too and told the sentence apart by its heading; Chromium agrees.
    [row] = [c for page in report["pages"] for c in page["checks"] if c["text"] == SENTENCE]
    assert row["directive"] == "text=Beta-,Pears%20ripen%20late%20in%20the%20shade." and row["ok"]


def test_a_proof_is_not_reused_when_the_new_header_matches_its_directive_a_second_time(proven_site, cache, tmp_path):
    """The cache's own defence, without the predictor's: the directives proven under the old
    title are checked again under a header that repeats one of them, in real Chromium."""
    content = write_files(tmp_path / "content", SITE)
    proven = build(BuildConfig(content, "Garden"))
    retitled = build(BuildConfig(content, SENTENCE))
    before = {p.job.path: p.job.checks for p in browser_gate.plan(proven, proven.passages, "")}
    plans = browser_gate.plan(retitled, retitled.passages, "")
    for plan in plans:
        plan.job.checks = before[plan.job.path]
    assert "text=Pears%20ripen%20late%20in%20the%20shade." in plans_directives(plans, "/beta")
    staging = publish.stage(retitled, tmp_path / "out")
    result = browser_gate.run(staging, plans, cache)
    assert set(result.outcomes) - result.cached == {"/beta"}
    [outcome] = [o for o in result.outcomes["/beta"] if o.directive == "text=Pears%20ripen%20late%20in%20the%20shade."]
    assert outcome.count == 2 and not outcome.ok and "matches 2 places" in outcome.reason


def plans_directives(plans, path: str) -> list[str]:
    return next(p.directives for p in plans if p.job.path == path)


def test_pages_with_a_passage_left_out_are_cached_with_their_verdict(tmp_path):
    content, cache = write_files(tmp_path / "content", SITE), tmp_path / "cache"
    theme = tmp_path / "theme.css"
    theme.write_text(HIDE_NORTH, "utf-8")
    first, first_report = release(content, tmp_path / "one", cache, css=theme)
    again, again_report = release(content, tmp_path / "two", cache, css=theme)
    assert first.returncode == 0 and again.returncode == 0, first.stderr + again.stderr
    assert checked(again_report) == set()
    assert first_report["failures"] and again_report["failures"] == first_report["failures"]
    assert 'left out passage on /alpha "The north wall stays damp."' in again.stderr
