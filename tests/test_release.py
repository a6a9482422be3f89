"""`trigsight release` end to end: gates, atomic publish, and clean failures."""
import json
import os
import re
import signal
import stat
import subprocess
import time
from pathlib import Path

import pytest
from trigsight.gates import chromium

from conftest import TRIGSIGHT, snapshot

WELL_FORMED = re.compile(r"^text=(?:[A-Za-z0-9._~%]+-,)?[A-Za-z0-9._~%]+(?:,[A-Za-z0-9._~%]+)?(?:,-[A-Za-z0-9._~%]+)?$")

SITE = {
    "index.md": "---\ntitle: Home page\n---\n# Welcome\n\nWe ship proofs. [[cite:results|The browser proved every link.]]\n",
    "results.md": "# Results\n\nThe browser proved every link. It took a short while.\n",
}


@pytest.fixture
def published(write_content, trigsight, tmp_path):
    """A successful release of SITE, and a snapshot of its bytes."""
    out = tmp_path / "release"
    result = trigsight("release", "--content", str(write_content(SITE)), "--out", str(out))
    assert result.returncode == 0, result.stderr
    return out, snapshot(out)


def test_release_publishes_allowlist_with_documented_schema(published):
    out, _ = published
    allowlist = json.loads((out / "allowlist.json").read_text())
    assert allowlist["schema"] == "trigsight.allowlist/1"
    assert {p["path"] for p in allowlist["pages"]} == {"/", "/results", "/contents"}   # + the generated contents
    for passage in allowlist["passages"]:
        assert {"id", "page", "text", "url", "directive"} <= passage.keys()
        assert passage["url"] == passage["page"] + "#:~:" + passage["directive"]
        assert WELL_FORMED.match(passage["directive"]), passage
    (citation,) = allowlist["citations"]
    assert citation["url"] == "/results#:~:text=The%20browser%20proved%20every%20link."
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["release_id"] == allowlist["release_id"] and "source" in manifest["gates"]


@pytest.mark.parametrize("edit", [
    {"index.md": SITE["index.md"].replace("proved every link.]]", "proved every claim.]]")},   # fabricated
    {"results.md": SITE["results.md"].replace("proved every link", "checked each link")},       # edited away
])
def test_release_fails_on_a_bad_citation_and_keeps_the_old_release(published, write_content, trigsight, edit):
    out, before = published
    result = trigsight("release", "--content", str(write_content({**SITE, **edit})), "--out", str(out))
    assert result.returncode == 1
    assert re.search(r"index\.md:6: cited passage \"The browser proved every (link|claim)\.\"", result.stderr)
    assert "nothing was published" in result.stderr
    assert snapshot(out) == before
    assert not [p for p in out.parent.iterdir() if p.name.startswith(".release.")]
    assert [p.name for p in (out.parent / "releases").iterdir()] == [out.resolve().name]   # no staging, no new one


def test_sentences_a_link_cannot_single_out_are_named_in_a_warning_not_dropped_silently(write_content, trigsight,
                                                                                       tmp_path):
    page = "# Repeats\n\nYes.\n\nSame words here.\n\nYes.\n\nSame words here.\n\nYes.\n"
    result = trigsight("release", "--content", str(write_content({**SITE, "repeats.md": page})),
                       "--out", str(tmp_path / "release"))
    assert result.returncode == 0, result.stderr
    assert "warning: 2 sentences are not citable" in result.stdout + result.stderr
    assert "(/repeats: 2); --report-json lists them" in result.stdout + result.stderr


@pytest.fixture
def counted_chromium(tmp_path):
    """A TRIGSIGHT_CHROMIUM that is the real Chromium and writes a line to a log at each launch."""
    real = chromium.executable("")
    if real is None:
        from playwright.sync_api import sync_playwright
        with sync_playwright() as playwright:
            real = playwright.chromium.executable_path
    log, wrapper = tmp_path / "launches.log", tmp_path / "chromium"
    wrapper.write_text(f'#!/bin/sh\n[ "$1" = --version ] || echo launched >> "{log}"\nexec "{real}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    return wrapper, lambda: len(log.read_text().splitlines()) if log.exists() else 0


def test_a_release_launches_one_chromium_for_its_gates_and_one_from_the_caches_none(
        write_content, trigsight, tmp_path, counted_chromium):
    wrapper, launches = counted_chromium
    env = {"TRIGSIGHT_CHROMIUM": str(wrapper), "TRIGSIGHT_CACHE_DIR": str(tmp_path / "cache")}
    command = ("release", "--content", str(write_content(SITE)), "--out", str(tmp_path / "release"))
    first = trigsight(*command, env=env)
    assert first.returncode == 0, first.stderr
    gates = json.loads((tmp_path / "release" / "manifest.json").read_text())["gates"]
    assert gates["browser"]["pages_checked"] == 3 and len(gates["payload"]["pages"]) == 3
    assert launches() == 1, "the browser gate and the payload gate each launched a Chromium"
    second = trigsight(*command, env=env)
    assert second.returncode == 0, second.stderr
    assert "3 of 3 pages' figures from the cache" in second.stderr and launches() == 1


@pytest.mark.parametrize("files, expected", [
    ({"a.md": "---\ntitle: [x\n---\n"}, r"a\.md:3: malformed front matter"),
    ({"a.md": b"ok \xc3\x28 bad"}, r"a\.md:1: not valid UTF-8"),
    ({"a.md": "---\nslug: x\n---\n", "b.md": "---\nslug: x\n---\n"}, r"b\.md:1: duplicate slug 'x'"),
    ({"a.md": "Text. [[cite:ghost|Boo.]]"}, r"a\.md:1: citation to unknown page 'ghost'"),
    ({"notes.txt": "not markdown"}, r"content: no markdown files"),
])
def test_bad_input_exits_1_with_path_and_line_and_publishes_nothing(write_content, trigsight, tmp_path, files, expected):
    out = tmp_path / "release"
    result = trigsight("release", "--content", str(write_content(files)), "--out", str(out))
    assert result.returncode == 1
    assert re.search(expected, result.stderr), result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not out.exists()


@pytest.mark.parametrize("args", [["release", "--content", "/no/such/folder"], ["release", "--budget", "abc"],
                                  ["serve", "--release", "/no/such/release"]])
def test_usage_errors_exit_2_without_a_traceback(trigsight, args):
    result = trigsight(*args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr


def test_bundled_release_has_every_language_and_citations(bundled_release):
    allowlist = json.loads((bundled_release / "allowlist.json").read_text())
    languages = {page["language"] for page in allowlist["pages"]}
    assert len(allowlist["pages"]) >= 8 and {"en", "ru", "ja", "ko"} <= languages
    assert len(allowlist["citations"]) >= 6
    ids = [p["id"] for p in allowlist["passages"]]
    assert len(ids) == len(set(ids))
    assert all(WELL_FORMED.match(p["directive"]) for p in allowlist["passages"])
    encoded = [p["directive"] for p in allowlist["passages"]]
    assert any("%2D" in d for d in encoded) and any("%2C" in d for d in encoded) and any("%26" in d for d in encoded)


def _servers_of(folder) -> list[int]:
    """PIDs of the gunicorn processes serving a release under `folder` (their environment names it)."""
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if b"gunicorn" in (proc / "cmdline").read_bytes() and str(folder).encode() in (proc / "environ").read_bytes():
                found.append(int(proc.name))
        except (OSError, ValueError):
            continue
    return found


FORTY_PAGES = {f"page{n}.md": f"# Page {n}\n\nThe sentence number {n} stands alone here.\n" for n in range(40)}


def _release_until_its_server_starts(content, out, folder, stderr) -> subprocess.Popen:
    """A `trigsight release` of `content` to `out`, returned once its gate server (under `folder`) runs."""
    process = subprocess.Popen([*TRIGSIGHT, "release", "--content", str(content), "--out", str(out), "--no-cache"],
                               stderr=stderr, text=True)
    deadline = time.monotonic() + 120
    while not _servers_of(folder) and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if not _servers_of(folder):
        process.kill()
        pytest.fail("the release never started its gate server")
    return process


def _servers_left(folder, seconds: float) -> list[int]:
    """The gate servers still running under `folder` after `seconds`; killed, so a failure leaves none."""
    deadline = time.monotonic() + seconds
    while _servers_of(folder) and time.monotonic() < deadline:
        time.sleep(0.05)
    left = _servers_of(folder)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    return left


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc to find the gate's server")
def test_a_release_stopped_by_sigterm_stops_its_gate_server_and_keeps_the_old_release(published, write_content,
                                                                                      tmp_path):
    out, before = published
    process = _release_until_its_server_starts(write_content({**SITE, **FORTY_PAGES}, "more"), out, tmp_path,
                                               subprocess.PIPE)
    try:
        process.send_signal(signal.SIGTERM)
        try:
            _, stderr = process.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGUSR1)      # its threads' stacks, to say where it waited
            time.sleep(1)
            process.kill()
            pytest.fail("the release did not stop within 30 s of SIGTERM:\n" + process.communicate()[1][-8000:])
    finally:
        process.kill()
    assert process.returncode == 128 + signal.SIGTERM and "trigsight: stopped (SIGTERM)" in stderr
    assert _servers_left(tmp_path, 5) == []
    assert snapshot(out) == before and not [p for p in out.parent.iterdir() if p.name.startswith(".release.")]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="reads /proc to find the gate's server")
def test_a_release_killed_outright_leaves_no_gate_server_running(write_content, tmp_path):
    process = _release_until_its_server_starts(write_content({**SITE, **FORTY_PAGES}), tmp_path / "release",
                                               tmp_path, subprocess.DEVNULL)
    process.kill()
    process.wait()
    assert _servers_left(tmp_path, 10) == []
