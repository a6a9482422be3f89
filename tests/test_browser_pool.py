"""A pool of remote browsers proves pages exactly as the local Chromium does, and survives losing one.

The remote browsers are real ones on this machine, started so that they cannot reach its
loopback (chromium.NO_LOOPBACK): every page they prove was delivered through the pool.
"""
from __future__ import annotations

import json
import re
import shutil
import tempfile
import threading
import time
import urllib.request
from importlib.metadata import version
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build_site
from trigsight.errors import UsageError
from trigsight.gates import browser as browser_gate
from trigsight.gates import browser_check, chromium
from trigsight.gates.browser_pool import BrowserPool, NoBrowserLeft
from trigsight.gates.liveserver import free_port, serve_release
from trigsight.settings import Settings

from conftest import ROOT, run_trigsight, snapshot, write_files
from test_browser_gate import BASE  # two pages, an author citation (a fresh navigation and a screenshot)

RUN_FIELDS = ("chromium", "seconds", "browser_seconds")   # who proved and how long: the rest must not differ
KINDS = {"devtools": chromium.devtools_endpoint, "server": chromium.browser_server}


def remote(kind: str):
    return KINDS[kind](args=chromium.NO_LOOPBACK)


def without_run_fields(report: dict) -> dict:
    return {**report, "summary": {k: v for k, v in report["summary"].items() if k not in RUN_FIELDS}}


def release(root, out, env: dict):
    return run_trigsight("release", "--content", str(root / "content"), "--out", str(out),
                         env={"TRIGSIGHT_CACHE_DIR": str(out.parent / "cache"), "TRIGSIGHT_SITE_CSS": "", **env})


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The site released with the local Chromium: what every pool must reproduce."""
    root = tmp_path_factory.mktemp("pool")
    write_files(root / "content", BASE)
    result = release(root, root / "local" / "release", {})
    assert result.returncode == 0, result.stderr
    out = root / "local" / "release"
    return {"root": root, "out": out, "allowlist": (out / "allowlist.json").read_bytes(),
            "report": json.loads((out / "reports" / "browser.json").read_text("utf-8"))}


@pytest.fixture(scope="module")
def site(local):
    """The local release served on loopback, and its page jobs, for running the pool directly."""
    built = build_site(BuildConfig(local["root"] / "content"))
    with serve_release(local["out"], workers=1) as base:
        yield base, [p.job for p in browser_gate.plan(built, built.passages, base)]


def expected(local) -> dict[str, list[dict]]:
    keys = list(browser_check.Outcome.__dataclass_fields__)
    return {page["path"]: [{k: row[k] for k in keys} for row in page["checks"]] for page in local["report"]["pages"]}


def as_rows(found: dict) -> dict[str, list[dict]]:
    return {path: [o.to_json() for o in outcomes] for path, outcomes in found.items()}


# ---- each kind of endpoint, through the pool ----------------------------------------------------

@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_remote_browser_that_cannot_reach_loopback_proves_every_page_as_the_local_chromium(local, site, kind):
    base, jobs = site
    with remote(kind) as endpoint, BrowserPool([endpoint.url], tabs_per_browser=2, site=base,
                                               **browser_check.TAB) as pool:
        found, stats = browser_check.run(pool, jobs)
        [used] = pool.browsers
        assert used.jobs == len(jobs) and used.requests >= len(jobs)   # every page came through the pool
        # The same browser without delivery: the loopback site is out of its reach.
        pool.site = ""
        with pytest.raises(Exception, match="ERR_PROXY_CONNECTION_FAILED"):
            pool.map(jobs[:1], browser_check.check_page)
    assert as_rows(found) == expected(local)
    assert stats.fresh == 1


def test_a_chromium_started_without_playwrights_switches_is_refused_naming_them():
    with chromium.devtools_endpoint(flags=["--headless", "--no-sandbox"]) as bare:
        with pytest.raises(UsageError) as raised:
            BrowserPool([bare.url]).__enter__()
    [problem] = raised.value.problems
    assert problem.path == "TRIGSIGHT_BROWSERS"
    assert "does not behave as a browser Playwright launches" in problem.message
    assert "--disable-ipc-flooding-protection" in problem.message and "--hide-scrollbars" in problem.message


@pytest.mark.parametrize("killed", [False, True], ids=["stopped", "killed"])
@pytest.mark.parametrize("kind", sorted(KINDS))
def test_an_endpoint_stopped_or_killed_leaves_nothing_in_the_temporary_folder(monkeypatch, kind, killed):
    # A short path of its own: Chromium's singleton socket must fit a socket address (108 bytes).
    temporary = Path(tempfile.mkdtemp(prefix="tmp-"))
    monkeypatch.setenv("TMPDIR", str(temporary))          # for the browser's processes
    monkeypatch.setattr(tempfile, "tempdir", str(temporary))   # for this one's mkdtemp
    with KINDS[kind]() as endpoint:       # up: its browser has started and made its folders
        if killed:
            endpoint.kill()
    # Every process of the endpoint is gone when it is: none is left to write a last file later.
    running = chromium.processes_using(temporary)
    left = sorted(p.name for p in temporary.iterdir())
    shutil.rmtree(temporary)
    assert running == [] and left == []


# ---- a big page over several tabs ----------------------------------------------------------------

def sized_jobs(*sizes: int) -> list[browser_check.PageJob]:
    return [browser_check.PageJob(f"/p{n}", "", [browser_check.Check(f"p{n}-{i}", "text=x", None) for i in range(size)])
            for n, size in enumerate(sizes)]


@pytest.mark.parametrize("sizes, tabs, smallest, expected_parts", [
    ((1990, 4, 4), 2, 200, [995, 995, 4, 4]),          # a changelog beside two short pages: halved
    ((1000,), 4, 200, [250, 250, 250, 250]),            # one page alone: a part per tab
    ((450,), 4, 200, [225, 225]),                       # no part under the smallest
    ((300,) * 10, 2, 200, [300] * 10),                  # pages of a kind (Node's docs): left whole
    ((150, 5), 2, 200, [150, 5]),                       # too small to be worth a second load
    ((1000, 10), 1, 200, [1000, 10]),                   # one tab: nothing to share out
], ids=["changelog", "alone", "smallest", "even", "small", "one tab"])
def test_only_a_page_bigger_than_the_tabs_even_share_is_cut_into_runs_of_its_checks(sizes, tabs, smallest,
                                                                                     expected_parts):
    jobs = sized_jobs(*sizes)
    parts = browser_check.parts_of(jobs, tabs, smallest)
    assert [len(part.checks) for part in parts] == expected_parts
    for job in jobs:                                    # each page's parts are its checks, in order, once
        mine = [part for part in parts if part.path == job.path]
        assert [c for part in mine for c in part.checks] == job.checks
        assert [part.part for part in mine] == [(n + 1, len(mine)) for n in range(len(mine))]


def test_a_page_proven_in_parts_on_two_tabs_gives_the_outcomes_of_one_whole_load(local, site, monkeypatch):
    base, jobs = site
    monkeypatch.setattr(browser_check, "SMALLEST_PART", 1)
    handed_on = []
    with BrowserPool([], tabs_per_browser=2, site=base, **browser_check.TAB) as pool:
        found, stats = browser_check.run(pool, jobs, on_page=lambda job, outcomes: handed_on.append(
            (job.path, [o.key for o in outcomes])))
    assert stats.parts > len(jobs) and stats.pages == len(jobs)
    assert sorted(handed_on) == sorted((job.path, [c.key for c in job.checks]) for job in jobs)  # once, whole
    assert as_rows(found) == expected(local)
    assert stats.fresh == 1


# ---- losing browsers ----------------------------------------------------------------------------

def killing(pool, endpoints: list, victims: set[int], killed: list):
    """A work that kills the browser under it (if a victim) after loading the page, then checks it."""
    async def work(page, job):
        index = next(i for i, b in enumerate(pool.browsers) if b.browser is page.context.browser)
        if index in victims and index not in killed:
            killed.append(index)
            await page.goto(job.url)
            endpoints[index].kill()
        return await browser_check.check_page(page, job)
    return work


def test_a_page_in_flight_on_a_killed_browser_is_proven_on_the_other_once(local, site):
    base, jobs = site
    said, finished = [], []
    with remote("devtools") as victim, remote("server") as survivor:
        with BrowserPool([victim.url, survivor.url], tabs_per_browser=1, site=base, say=said.append,
                         **browser_check.TAB) as pool:
            killed = []
            found = pool.map(jobs, killing(pool, [victim, survivor], {0}, killed),
                             on_result=lambda job, outcomes: finished.append(job.path))
            lost, kept = pool.browsers
    assert killed == [0] and lost.lost and lost.jobs == 0 and kept.jobs == len(jobs)
    assert sorted(finished) == sorted(j.path for j in jobs)          # each page handed on once, complete
    assert {j.path: [o.to_json() for o in f] for j, f in zip(jobs, found)} == expected(local)
    assert any(line.startswith(f"lost {victim.url}: ") and "go to the 1 other browser" in line for line in said)


def test_when_every_browser_dies_the_pool_fails_naming_them_and_hands_on_nothing_half_done(site):
    base, jobs = site
    finished = []
    with remote("devtools") as first, remote("server") as second:
        with BrowserPool([first.url, second.url], tabs_per_browser=1, site=base, **browser_check.TAB) as pool:
            with pytest.raises(NoBrowserLeft) as raised:
                pool.map(jobs, killing(pool, [first, second], {0, 1}, []),
                         on_result=lambda job, outcomes: finished.append(job.path))
    [problem] = raised.value.problems
    assert problem.path == "TRIGSIGHT_BROWSERS"
    assert f"every browser is lost and {len(jobs)} of {len(jobs)} pages are not proven" in problem.message
    assert first.url in problem.message and second.url in problem.message
    assert finished == []


# ---- the release --------------------------------------------------------------------------------

def kill_when_busy(watched, victims: list, stop: threading.Event) -> None:
    """Kill `victims` once the DevTools endpoint `watched` has a tab on a page of the site."""
    while not stop.is_set():
        try:
            with urllib.request.urlopen(f"{watched.url}/json/list", timeout=10) as answer:
                tabs = json.load(answer)
        except OSError as error:
            if isinstance(error, TimeoutError) or isinstance(getattr(error, "reason", None), TimeoutError):
                continue    # a browser busy proving a page answers late; it is not gone
            return
        if any(t["url"].startswith("http://127.0.0.1:") for t in tabs):
            for victim in victims:
                victim.kill()
            return
        time.sleep(0.02)


def test_a_release_through_two_remote_browsers_survives_losing_one_mid_gate_byte_for_byte(local, tmp_path):
    with remote("devtools") as victim, remote("server") as survivor:
        stop = threading.Event()
        watcher = threading.Thread(target=kill_when_busy, args=(victim, [victim], stop))
        watcher.start()
        try:
            result = release(local["root"], tmp_path / "release", {"TRIGSIGHT_BROWSERS": f"{victim.url},{survivor.url}",
                                                                   "TRIGSIGHT_BROWSER_TABS": "1"})
        finally:
            stop.set()
            watcher.join()
    assert result.returncode == 0, result.stderr
    assert f"browser gate: lost {victim.url}: " in result.stderr
    assert f"browser gate: {survivor.url} proved 3 pages" in result.stderr
    out = tmp_path / "release"
    assert (out / "allowlist.json").read_bytes() == local["allowlist"]
    report = json.loads((out / "reports" / "browser.json").read_text("utf-8"))
    assert without_run_fields(report) == without_run_fields(local["report"])
    # Only whole pages are kept as proofs: one file per page, each with every check of its page.
    proofs = sorted(len(json.loads(f.read_text("utf-8"))["outcomes"]) for f in (tmp_path / "cache" / "browser").glob("*.json"))
    assert proofs == sorted(len(page["checks"]) for page in local["report"]["pages"])


@pytest.mark.parametrize("how", ["no browser answers", "every browser dies mid-gate"])
def test_a_release_without_a_browser_left_fails_clearly_and_keeps_the_previous_release(local, tmp_path, how):
    out = tmp_path / "release"
    shutil.copytree(local["out"], out)
    before = snapshot(out)
    if how == "no browser answers":
        env = {"TRIGSIGHT_BROWSERS": f"http://127.0.0.1:{free_port()},ws://127.0.0.1:{free_port()}/"}
        result = release(local["root"], out, env)
        message = "TRIGSIGHT_BROWSERS: no browser in TRIGSIGHT_BROWSERS answered"
    else:
        with remote("devtools") as first, remote("server") as second:
            stop = threading.Event()
            watcher = threading.Thread(target=kill_when_busy, args=(first, [first, second], stop))
            watcher.start()
            try:
                result = release(local["root"], out, {"TRIGSIGHT_BROWSERS": f"{first.url},{second.url}",
                                                      "TRIGSIGHT_BROWSER_TABS": "1"})
            finally:
                stop.set()
                watcher.join()
        message = "TRIGSIGHT_BROWSERS: every browser is lost and "
    assert result.returncode == 1, result.stderr
    assert message in result.stderr
    assert "release refused by the browser gate: nothing was published" in result.stderr
    assert "Traceback" not in result.stderr
    assert snapshot(out) == before
    checks = {len(page["checks"]) for page in local["report"]["pages"]}
    assert all(len(json.loads(f.read_text("utf-8"))) in checks for f in (tmp_path / "cache" / "browser").glob("*.json"))


# ---- the documented pool ------------------------------------------------------------------------

def test_the_compose_file_and_the_kubernetes_snippet_run_the_playwright_server_this_client_speaks():
    text = (ROOT / "docs" / "browser-pool.compose.yaml").read_text("utf-8")
    services = yaml.safe_load(text)["services"]
    [kubernetes] = re.findall(r"```yaml\n(.*?)```", (ROOT / "docs" / "browser-pool.md").read_text("utf-8"), re.S)
    containers = [c for doc in yaml.safe_load_all(kubernetes) if doc["kind"] == "StatefulSet"
                  for c in doc["spec"]["template"]["spec"]["containers"]]
    assert len(services) == 4 and len(containers) == 1
    client = version("playwright").split(".")[:2]   # a server refuses a client of another major.minor
    for spec in [*services.values(), *containers]:
        image = spec["image"].rsplit(":v", 1)[1].removesuffix("-noble")
        [npx] = [word.removeprefix("playwright@") for word in spec["command"] if word.startswith("playwright@")]
        assert image == npx and npx.split(".")[:2] == client and "run-server" in spec["command"]
    # The TRIGSIGHT_BROWSERS its comment gives is a valid setting naming exactly the published ports.
    listed = re.search(r"TRIGSIGHT_BROWSERS=(\S+)", text).group(1)
    endpoints = Settings.from_environ({"TRIGSIGHT_BROWSERS": listed}).browsers
    published = sorted(port.rsplit(":", 2)[1] for spec in services.values() for port in spec["ports"])
    assert sorted(str(urlsplit(e).port) for e in endpoints) == published
