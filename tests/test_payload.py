"""The payload gate: JS bytes on the wire per page, measured in Chromium, against the budget."""
import json
import socket
import threading
from pathlib import Path

import pytest
from trigsight.gates.liveserver import free_port

from conftest import run_trigsight, snapshot, write_files
from junit import by_suite, read_junit

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
    result = run_trigsight("release", "--content", str(content), "--out", str(root / "release"),
                           "--report-junit", str(root / "junit.xml"), "--report-json", str(root / "report.json"),
                           env=env)
    assert result.returncode == 0, result.stderr
    return content, root / "release", env, result.stderr


def test_a_passing_release_reports_every_page_passed_at_every_gate_with_its_payload(small_release):
    content, release, _, _ = small_release
    root = release.parent
    pages = {f"/ ({content}/index.md)": "passed", f"/notes ({content}/notes.md)": "passed",
             "/contents": "passed"}   # the generated contents page is proven and measured too
    assert by_suite(read_junit(root / "junit.xml")) == {f"trigsight.{gate}": pages
                                                        for gate in ("source", "browser", "payload")}
    report = json.loads((root / "report.json").read_text("utf-8"))
    assert report["ok"] is True and report["stopped_by"] is None
    figures = by_page(payload_figures(release))
    for case in report["cases"]:
        if case["gate"] == "payload":
            assert case["details"]["total"] == figures[case["name"]]["total"]
            assert case["details"]["budget"] == 8192
    assert [g["figures"] for g in report["gates"]] == [json.loads((release / "manifest.json").read_text())["gates"][g]
                                                       for g in ("source", "browser", "payload")]


def test_release_prints_js_bytes_per_page_against_the_budget(small_release):
    _, release, _, stderr = small_release
    figures = by_page(payload_figures(release))
    for path in ("/", "/notes", "/contents"):
        line = next(line for line in stderr.splitlines()
                    if line.strip().startswith(path + " ") and " B / 8192 B" in line)
        assert f"JS {figures[path]['total']:>6} B / 8192 B" in line and line.endswith("]")
    assert "median over 3 page(s)" in stderr     # the two pages and the generated contents page


def test_an_unchanged_re_release_takes_every_page_figure_from_the_cache(small_release, tmp_path):
    content, release, env, _ = small_release
    again = run_trigsight("release", "--content", str(content), "--out", str(tmp_path / "again"), env=env)
    assert again.returncode == 0, again.stderr
    assert "payload: 3 of 3 pages' figures from the cache" in again.stderr
    assert by_page(payload_figures(tmp_path / "again")) == by_page(payload_figures(release))


@pytest.mark.parametrize("how", ["--budget", "TRIGSIGHT_JS_BUDGET"])
def test_gate_refuses_a_release_over_budget_and_keeps_the_previous_one(small_release, tmp_path, how):
    content, release, env, _ = small_release
    before = snapshot(release)
    home = by_page(payload_figures(release))["/"]["total"]
    budget = home - 1
    args = ["release", "--content", str(content), "--out", str(release)]
    junit = tmp_path / "junit.xml"
    args += ["--report-junit", str(junit)]
    if how == "--budget":
        result = run_trigsight(*args, "--budget", str(budget), env=env)
    else:
        result = run_trigsight(*args, env={**env, "TRIGSIGHT_JS_BUDGET": str(budget)})
    assert result.returncode == 1, result.stderr
    message = f"/: {home} bytes of JavaScript on the wire > budget {budget} bytes"
    assert message in result.stderr
    assert "release refused by the payload gate: nothing was published" in result.stderr
    assert snapshot(release) == before
    assert not [p for p in (release.parent / "releases").iterdir() if p.name.startswith(".")]   # no staging left
    assert len(list((release.parent / "releases").iterdir())) == 1                             # nor a new release
    [failed] = [case for case in read_junit(junit) if case["status"] == "failure"]
    assert failed["suite"] == "trigsight.payload" and failed["name"] == f"/ ({content}/index.md)"
    assert failed["message"] == message


def test_an_index_and_a_payload_failure_of_one_release_are_both_reported_and_nothing_is_published(
        small_release, tmp_path):
    """The index and the payload gate run at once: each runs to its end and says what it found."""
    content, release, env, _ = small_release
    before = snapshot(release)
    home = by_page(payload_figures(release))["/"]["total"]
    junit = tmp_path / "junit.xml"
    result = run_trigsight("release", "--content", str(content), "--out", str(release), "--budget", str(home - 1),
                           "--report-junit", str(junit), env={**env, "TRIGSIGHT_EMBEDDINGS": "openai"})
    assert result.returncode == 1, result.stderr
    lines = result.stderr.splitlines()
    refused = next(n for n, line in enumerate(lines) if "TRIGSIGHT_EMBEDDINGS=openai needs OPENAI_API_KEY" in line)
    over = next(n for n, line in enumerate(lines) if f"{home} B / {home - 1} B" in line and "OVER budget" in line)
    assert over < refused, result.stderr      # the payload gate's lines, then the failure raised first (the index's)
    assert snapshot(release) == before
    failed = {case["suite"] for case in read_junit(junit) if case["status"] in ("failure", "error")}
    assert failed == {"trigsight.index", "trigsight.payload"}


# ---- `trigsight payload`: any site, from the installed command ---------------------------


def payload_cli(*args: str, tmp_path: Path, env: dict | None = None):
    """Run `trigsight payload` with one load per page; return the result, its JSON report and JUnit cases."""
    out, junit = tmp_path / "report.json", tmp_path / "junit.xml"
    for stale in (out, junit):
        stale.unlink(missing_ok=True)
    result = run_trigsight("payload", *args, "--runs", "1", "--json", str(out), "--junit", str(junit), env=env,
                           timeout=300)
    return result, json.loads(out.read_text("utf-8")), read_junit(junit)


@pytest.mark.parametrize("reduced_motion", [False, True])
def test_payload_cli_reports_lazy_scripts_separately_and_exits_1_over_budget(bundled_site, tmp_path, reduced_motion):
    flags = ["--reduced-motion"] if reduced_motion else []
    passing, report, cases = payload_cli(bundled_site + "/", "--budget", "8192", *flags, tmp_path=tmp_path)
    assert passing.returncode == 0, passing.stderr
    assert [(c["name"], c["status"]) for c in cases] == [(bundled_site + "/", "passed")]
    figures = report["gates"][0]["figures"]
    assert report["ok"] and figures["reduced_motion"] is reduced_motion and figures["runs"] == 1
    [home] = figures["pages"]
    if reduced_motion:
        assert home["lazy"] == 0
    elif figures["webgl"] != "unavailable":
        assert home["lazy"] > 0 and [s["lazy"] for s in home["scripts"]].count(True) == 1
    assert f"JS {home['total']:>6} B / 8192 B (initial {home['initial']} B, lazy {home['lazy']} B) ok" \
        in passing.stdout
    failing, report, cases = payload_cli(bundled_site + "/", "--budget", str(home["total"] - 1), *flags,
                                         tmp_path=tmp_path)
    assert failing.returncode == 1
    message = f"{bundled_site}/: {home['total']} bytes of JavaScript on the wire > budget {home['total'] - 1} bytes"
    assert failing.stderr.splitlines() == [message]
    assert [(c["status"], c["message"]) for c in cases] == [("failure", message)]
    assert report["summary"] == {"tests": 1, "passed": 0, "failures": 1, "errors": 0, "skipped": 0}


def test_no_lazy_budgets_the_initial_load_and_still_shows_the_lazy_scripts(bundled_site, tmp_path):
    home = bundled_site + "/"
    result, report, _ = payload_cli(home, "--budget", "8192", tmp_path=tmp_path)
    [figures] = report["gates"][0]["figures"]["pages"]
    if figures["lazy"] == 0:
        pytest.skip("this Chromium has no WebGL, so the home page loads nothing lazily")
    budget = str(figures["initial"])              # the initial load fits exactly; the lazy scene does not
    counted, _, _ = payload_cli(home, "--budget", budget, tmp_path=tmp_path)
    assert counted.returncode == 1
    initial_only, report, cases = payload_cli(home, "--budget", budget, "--no-lazy", tmp_path=tmp_path)
    assert initial_only.returncode == 0, initial_only.stderr
    assert f"JS {figures['initial']:>6} B / {budget} B (initial load only; lazy " in initial_only.stdout
    assert report["gates"][0]["figures"]["budgeted"] == "initial" and cases[0]["status"] == "passed"


@pytest.fixture
def silent_server():
    """A loopback socket that accepts connections and never answers: a page that never loads."""
    listener = socket.create_server(("127.0.0.1", 0))
    accepted, stop = [], threading.Event()

    def accept():
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                accepted.append(listener.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{listener.getsockname()[1]}/"
    stop.set()
    thread.join()
    for connection in accepted:
        connection.close()
    listener.close()


def test_each_url_that_cannot_be_loaded_gets_one_clear_line_and_a_failed_case(bundled_site, silent_server, tmp_path):
    urls = {
        "missing": (bundled_site + "/no-such-page", "cannot be loaded: answered HTTP 404 NOT FOUND"),
        "refused": (f"http://127.0.0.1:{free_port()}/", "cannot be loaded: connection refused: nothing listens "
                                                        "there (net::ERR_CONNECTION_REFUSED)"),
        "no such host": ("http://no-such-host.test/", "cannot be loaded: no such host: DNS found no address for it "
                                                      "(net::ERR_NAME_NOT_RESOLVED)"),
        "never answers": (silent_server, "cannot be loaded: no load event within 2 s (timed out)"),
    }
    good = bundled_site + "/"
    # Chromium answers the .test name itself: no lookup ever leaves the machine.
    result, report, cases = payload_cli(
        good, *(url for url, _ in urls.values()), "--budget", "8192", "--timeout", "2",
        "--chromium-arg=--host-resolver-rules=MAP no-such-host.test ~NOTFOUND", tmp_path=tmp_path,
        env={"GITHUB_ACTIONS": "true"})
    assert result.returncode == 1
    expected = [f"{url}: {message}" for url, message in urls.values()]
    assert result.stderr.splitlines() == expected
    assert [(c["name"], c["status"], c["message"]) for c in cases] == \
        [(good, "passed", "")] + [(url, "failure", line) for (url, _), line in zip(urls.values(), expected)]
    assert report["summary"] == {"tests": 5, "passed": 1, "failures": 4, "errors": 0, "skipped": 0}
    annotations = [line for line in result.stdout.splitlines() if line.startswith("::")]
    assert annotations == [f"::error title=trigsight payload gate::{line}" for line in expected]


@pytest.mark.parametrize("args, says", [
    ([], "Missing argument"),
    (["ftp://example.test/"], "is not an http:// or https:// URL with a host"),
    (["http:///just-a-path"], "is not an http:// or https:// URL with a host"),
    (["http://127.0.0.1:9/", "--runs", "0"], "Invalid value for '--runs'"),
    (["http://127.0.0.1:9/", "--budget", "-1"], "Invalid value for '--budget'"),
    (["http://127.0.0.1:9/", "--lazy", "--timeout", "0"], "Invalid value for '--timeout'"),
])
def test_payload_cli_usage_errors_exit_2_before_any_browser_starts(trigsight, tmp_path, args, says):
    result = trigsight("payload", *args, "--junit", str(tmp_path / "junit.xml"))
    assert result.returncode == 2 and says in result.stderr, result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "junit.xml").exists()


# A page (HEIGHT px of filler) whose script is requested once its end is in view, DELAY ms later.
SCROLLED_PAGE = """<!doctype html><html lang="en"><head><title>Scrolled</title></head><body>
<div style="height: HEIGHTpx">A page.</div><p id="end">The end.</p>
<script src="/eager.js"></script>
<script>
new IntersectionObserver((entries, observer) => {
  if (!entries[0].isIntersecting) return;
  observer.disconnect();
  setTimeout(() => {
    const script = document.createElement("script");
    script.src = "/seen-late.js";
    document.body.append(script);
  }, DELAY);
}).observe(document.getElementById("end"));
</script></body></html>"""


SCROLLED_CASES = {"tall page, at once": "/5000/0", "tall page, 250 ms later": "/5000/250",
                  "short page, 300 ms after it shows": "/0/300"}


@pytest.fixture(scope="module")
def scrolled(tmp_path_factory):
    """SCROLLED_PAGE at /<height in px>/<delay in ms> on a loopback HTTP server, with two scripts of known
    sizes; every case measured by one `trigsight payload` run. Yields {path: page figures}, the sizes."""
    import http.server

    bodies = {"/eager.js": b"var eager = 1;" + b" " * 1986, "/seen-late.js": b"var late = 1;" + b" " * 2987}

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path in bodies:
                body, kind = bodies[self.path], "text/javascript"
            elif self.path in SCROLLED_CASES.values():
                height, delay = self.path.strip("/").split("/")
                body, kind = SCROLLED_PAGE.replace("HEIGHT", height).replace("DELAY", delay).encode(), "text/html"
            else:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        result, report, _ = payload_cli(*(base + path for path in SCROLLED_CASES.values()), "--budget", "8192",
                                        tmp_path=tmp_path_factory.mktemp("scrolled"))
        assert result.returncode == 0, result.stderr
        pages = {page["page"].removeprefix(base): page for page in report["gates"][0]["figures"]["pages"]}
        for page in pages.values():
            page["scripts"] = {script["url"].removeprefix(base): script for script in page["scripts"]}
        yield pages, {name: len(body) for name, body in bodies.items()}
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.mark.parametrize("case", SCROLLED_CASES)
def test_a_script_requested_when_the_bottom_shows_is_counted_as_lazy(scrolled, case):
    pages, sizes = scrolled
    page = pages[SCROLLED_CASES[case]]
    assert {name: (script["bytes"], script["lazy"]) for name, script in page["scripts"].items()} == \
        {"/eager.js": (sizes["/eager.js"], False), "/seen-late.js": (sizes["/seen-late.js"], True)}
    assert (page["initial"], page["lazy"]) == (sizes["/eager.js"], sizes["/seen-late.js"])
