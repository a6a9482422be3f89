"""The payload gate: JS bytes on the wire per page, measured in Chromium, against the budget."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT, run_trigsight, snapshot, write_files

MEASURE = ROOT / "bench" / "payload" / "measure.py"
SMALL_SITE = {
    "index.md": "---\ntitle: Small site\nslug: index\nlanguage: en\n---\n\n## Hello\n\n"
                "This small site has two pages for the payload tests. "
                "[[cite:notes|The notes page holds a single cited sentence.]]\n",
    "notes.md": "---\ntitle: Notes\nslug: notes\nlanguage: en\n---\n\n## Notes\n\n"
                "The notes page holds a single cited sentence. Nothing else is written here.\n",
}


def payload_figures(release: Path) -> dict:
    return json.loads((release / "manifest.json").read_text())["gates"]["payload"]


def by_page(figures: dict) -> dict:
    return {page["page"]: page for page in figures["pages"]}


def test_release_records_every_page_within_the_default_budget(bundled_release):
    figures = payload_figures(bundled_release)
    allowlist = json.loads((bundled_release / "allowlist.json").read_text())
    assert figures["budget"] == 8192 and figures["runs"] == 1
    assert "headers excluded" in figures["measured"] and figures["browser"].startswith("chromium")
    assert set(by_page(figures)) == {page["path"] for page in allowlist["pages"]}
    for page in figures["pages"]:
        assert 0 < page["total"] <= 8192, page["page"]
        assert page["total"] == page["initial"] + page["lazy"]


HOME_BUDGET, PAGE_BUDGET = 4096, 2048   # issue 11: our own front end, on the wire, brotli


def test_our_front_end_stays_within_its_budget_per_page_kind(bundled_release):
    """Home page: scene, chat and site script ≤ 4,096 B; every other page ≤ 2,048 B.

    The gate's budget (TRIGSIGHT_JS_BUDGET) is the author's, for whatever their site adds;
    these are the targets for trigsight's own scripts, checked on the bundled release.
    """
    figures = payload_figures(bundled_release)
    if figures.get("webgl") == "unavailable":
        pytest.skip("this Chromium has no WebGL, so the scene was not requested")
    pages = by_page(figures)
    assert any(s["url"].split("/")[-1].startswith("scene.") for s in pages["/"]["scripts"])
    assert pages["/"]["total"] <= HOME_BUDGET
    assert {p: f["total"] for p, f in pages.items() if p != "/" and f["total"] > PAGE_BUDGET} == {}


def test_recorded_bytes_are_the_stored_brotli_files_the_server_sent(bundled_release):
    for page in payload_figures(bundled_release)["pages"]:
        assert page["scripts"], page["page"]
        for script in page["scripts"]:
            assert script["encoding"] == "br", script
            stored = bundled_release / (script["url"].lstrip("/") + ".br")
            assert script["bytes"] == stored.stat().st_size, script


def test_only_the_home_page_loads_the_scene_and_only_after_the_load_event(bundled_release):
    figures = payload_figures(bundled_release)
    if figures["webgl"] == "unavailable":
        pytest.skip("this Chromium has no WebGL, so the scene rightly never loads")
    for path, page in by_page(figures).items():
        lazy = [s["url"] for s in page["scripts"] if s["lazy"]]
        if path == "/":
            assert len(lazy) == 1 and "/static/scene." in lazy[0]
            assert all("/static/scene." not in s["url"] for s in page["scripts"] if not s["lazy"])
        else:
            assert lazy == [] and page["lazy"] == 0, path


@pytest.fixture(scope="module")
def small_release(tmp_path_factory):
    """A two-page site released once; the gate tests then try to replace it."""
    root = tmp_path_factory.mktemp("payload")
    content = write_files(root / "content", SMALL_SITE)
    env = {"TRIGSIGHT_CACHE_DIR": str(root / "cache")}
    result = run_trigsight("release", "--content", str(content), "--out", str(root / "release"), env=env)
    assert result.returncode == 0, result.stderr
    return content, root / "release", env, result.stderr


def test_release_prints_js_bytes_per_page_against_the_budget(small_release):
    _, release, _, stderr = small_release
    figures = by_page(payload_figures(release))
    for path in ("/", "/notes", "/contents"):
        line = next(line for line in stderr.splitlines()
                    if line.strip().startswith(path + " ") and " B / 8192 B" in line)
        assert f"JS {figures[path]['total']:>6} B / 8192 B" in line and line.endswith("]")
    assert "median over 3 page(s)" in stderr     # the two pages and the generated contents page


@pytest.mark.parametrize("how", ["--budget", "TRIGSIGHT_JS_BUDGET"])
def test_gate_refuses_a_release_over_budget_and_keeps_the_previous_one(small_release, how):
    content, release, env, _ = small_release
    before = snapshot(release)
    home = by_page(payload_figures(release))["/"]["total"]
    budget = home - 1
    args = ["release", "--content", str(content), "--out", str(release)]
    if how == "--budget":
        result = run_trigsight(*args, "--budget", str(budget), env=env)
    else:
        result = run_trigsight(*args, env={**env, "TRIGSIGHT_JS_BUDGET": str(budget)})
    assert result.returncode == 1, result.stderr
    assert f"/: {home} bytes of JavaScript on the wire > budget {budget} bytes" in result.stderr
    assert "release refused by the payload gate: nothing was published" in result.stderr
    assert snapshot(release) == before
    assert not [p for p in release.parent.iterdir() if ".staging-" in p.name]


def measure_cli(*args: str, tmp_path: Path):
    out = tmp_path / "figures.json"
    result = subprocess.run([sys.executable, str(MEASURE), *args, "--runs", "1", "--json", str(out)],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    return result, json.loads(out.read_text())


@pytest.mark.parametrize("reduced_motion", [False, True])
def test_measure_cli_reports_lazy_scripts_separately_and_exits_1_over_budget(bundled_site, tmp_path, reduced_motion):
    flags = ["--reduced-motion"] if reduced_motion else []
    passing, figures = measure_cli(bundled_site + "/", "--budget", "8192", *flags, tmp_path=tmp_path)
    assert passing.returncode == 0, passing.stderr
    [home] = figures["pages"]
    if reduced_motion:
        assert home["lazy"] == 0
    elif figures["webgl"] != "unavailable":
        assert home["lazy"] > 0 and [s["lazy"] for s in home["scripts"]].count(True) == 1
    assert f"JS {home['total']:>6} B / 8192 B (initial {home['initial']} B, lazy {home['lazy']} B) ok" \
        in passing.stdout
    failing, _ = measure_cli(bundled_site + "/", "--budget", str(home["total"] - 1), *flags, tmp_path=tmp_path)
    assert failing.returncode == 1
    assert f"{home['total']} bytes of JavaScript > budget {home['total'] - 1} bytes" in failing.stderr
