"""Atomic deploys: `release` is a symlink to `releases/<id>`, switched with one rename, and a
running server serves every response from one release, named in `X-Trigsight-Release`."""
from __future__ import annotations

import json
import os
import re
import signal
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from trigsight.gates.liveserver import serve_release
from trigsight.publishing import publish

from conftest import snapshot, write_files

# --- publishing on the filesystem (the real publish code, hand-made release folders) -----------------


def staged(out: Path, release_id: str, body: str = "") -> Path:
    """A staging folder as `publish.stage` leaves it, with an allowlist naming `release_id`."""
    folder = publish.releases_dir(out)
    folder.mkdir(parents=True, exist_ok=True)
    staging = folder / f".staging-{release_id}-{time.monotonic_ns()}"
    write_files(staging, {"allowlist.json": json.dumps({"schema": "trigsight.allowlist/1", "release_id": release_id}),
                          "pages/index.html": body or f"<p>release {release_id}</p>"})
    return staging


def live_id(out: Path) -> str:
    return json.loads((out / "allowlist.json").read_text())["release_id"]


def test_publishing_points_the_link_at_the_new_folder_and_keeps_the_last_n(tmp_path):
    out = tmp_path / "release"
    for number in range(1, 6):
        target = publish.publish(staged(out, f"r{number}"), out, keep=3)
        assert out.is_symlink() and os.readlink(out) == f"releases/r{number}"
        assert target == tmp_path / "releases" / f"r{number}" and live_id(out) == f"r{number}"
    assert sorted(p.name for p in (tmp_path / "releases").iterdir()) == ["r3", "r4", "r5"]
    assert [p.name for p in publish.releases(out)] == ["r5", "r4", "r3"]
    assert [p.live for p in publish.releases(out)] == [True, False, False]


def test_the_release_link_is_never_missing_while_releases_are_published(tmp_path):
    out = tmp_path / "release"
    publish.publish(staged(out, "r0"), out)
    seen, stop = [], threading.Event()

    def watch():
        while not stop.is_set():
            try:
                seen.append(live_id(out))
            except (OSError, ValueError) as error:
                seen.append(repr(error))

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        for number in range(1, 41):
            publish.publish(staged(out, f"r{number}"), out, keep=2)
    finally:
        stop.set()
        watcher.join()
    assert seen and all(re.fullmatch(r"r\d+", item) for item in seen), [s for s in seen if not s.startswith("r")][:3]


def test_the_same_content_published_twice_gets_a_folder_of_its_own(tmp_path):
    out = tmp_path / "release"
    first = publish.publish(staged(out, "same"), out)
    second = publish.publish(staged(out, "same"), out)
    assert (first.name, second.name) == ("same", "same.2")
    assert os.readlink(out) == "releases/same.2" and first.is_dir()


def test_a_plain_release_folder_is_moved_into_releases_on_the_next_publish(tmp_path):
    out = write_files(tmp_path / "release", {
        "allowlist.json": json.dumps({"schema": "trigsight.allowlist/1", "release_id": "old"}),
        "pages/index.html": "<p>published before symlinks</p>", "static/site.0123456789.js": "1"})
    before = snapshot(out)
    publish.publish(staged(out, "new"), out)
    assert out.is_symlink() and live_id(out) == "new"
    assert snapshot(tmp_path / "releases" / "old") == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]   # no temporary link or copy left


def test_rollback_goes_back_one_release_or_to_a_named_one_and_says_which(tmp_path, trigsight):
    out = tmp_path / "release"
    for name in ("a1", "b2", "c3"):
        publish.publish(staged(out, name), out)
    result = trigsight("rollback", "--release", str(out))
    assert result.returncode == 0, result.stderr
    assert live_id(out) == "b2" and "b2" in result.stdout
    assert trigsight("rollback", "--release", str(out)).returncode == 0 and live_id(out) == "a1"
    assert trigsight("rollback", "c", "--release", str(out)).returncode == 0 and live_id(out) == "c3"
    listed = trigsight("releases", "--release", str(out))
    assert listed.stdout.split() == ["*", "c3", "b2", "a1"]


@pytest.mark.parametrize("args, message", [
    (["rollback", "zz"], "no release matches 'zz'"),
    (["rollback", "a"], "no earlier release"),
])
def test_rollback_that_cannot_happen_exits_2_and_changes_nothing(tmp_path, trigsight, args, message):
    out = tmp_path / "release"
    publish.publish(staged(out, "a1"), out)
    if args[1:] == ["a"]:
        args = ["rollback"]
    result = trigsight(*args, "--release", str(out))
    assert result.returncode == 2 and message in result.stderr and "Traceback" not in result.stderr
    assert live_id(out) == "a1"


# --- a running server switching releases while 20 clients read --------------------------------------

MARKERS = {"alpha": "This site is the alpha release of the garden notes.",
           "beta": "This site is the beta release of the garden notes."}


def content(marker: str) -> dict[str, str]:
    return {"index.md": f"# Garden {marker}\n\n{MARKERS[marker]} Tomatoes want deep watering twice a week.\n\n"
                        "Bees fly on warm days and rest when it rains.\n",
            "tools.md": f"# Tools\n\nThe {marker} spade has an ash handle. Secateurs are sharpened every month.\n"}


def marker_of(text: str) -> set[str]:
    return {name for name in MARKERS if f"{name} release" in text or f"The {name} spade" in text}


class Reader(threading.Thread):
    """One client: reads a page, an MCP page and a chat answer in turn, checking each is one release."""

    def __init__(self, base: str, number: int, stop: threading.Event):
        super().__init__(daemon=True)
        self.base, self.number, self.stop = base, number, stop
        self.seen: dict[str, set[str]] = {}     # release id → markers its responses carried
        self.problems: list[str] = []
        self.count = 0

    def run(self):
        while not self.stop.is_set():
            kind = ("page", "mcp", "chat")[(self.count + self.number) % 3]
            try:
                release_id, markers = getattr(self, kind)()
            except (OSError, urllib.error.URLError, ValueError) as error:
                self.problems.append(f"{kind}: {error!r}")
                continue
            finally:
                self.count += 1
            if len(markers) > 1:
                self.problems.append(f"{kind}: one response holds {sorted(markers)} (release {release_id})")
            self.seen.setdefault(release_id, set()).update(markers)
            time.sleep(0.02)

    def fetch(self, path: str, body: dict | None = None, headers: dict | None = None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, headers={
            "Content-Type": "application/json", "Accept-Encoding": "identity", **(headers or {})})
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.headers["X-Trigsight-Release"], response.read().decode()

    def page(self):
        release_id, text = self.fetch("/tools" if self.count % 2 else "/")
        return release_id, marker_of(text)

    def mcp(self):
        meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}}
        release_id, text = self.fetch("/api/mcp", {
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "read_page", "arguments": {"page": "index"}, "_meta": meta}},
            {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "read_page"})
        page = json.loads(text)["result"]["structuredContent"]
        if page["release_id"] != release_id:
            self.problems.append(f"mcp: header {release_id}, body {page['release_id']}")
        return release_id, marker_of(page["text"]) | marker_of(" ".join(p["text"] for p in page["passages"]))

    def chat(self):
        release_id, text = self.fetch("/api/chat", {"question": "Which release of the garden notes is this site?"})
        answer = json.loads(text)["answer"]
        quotes = " ".join(c["quote"] for sentence in answer for c in sentence["citations"])
        return release_id, marker_of(" ".join(s["text"] for s in answer) + " " + quotes)


def gunicorn_master(base: str) -> int:
    """The pid of the gunicorn arbiter listening on `base` (its workers share its command line)."""
    bind = f"127.0.0.1:{base.rsplit(':', 1)[1]}".encode()
    parents = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if bind in cmdline and any(b"gunicorn" in part for part in cmdline):
            parents[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
    [master] = [pid for pid, parent in parents.items() if parent not in parents]
    return master


def test_a_server_never_mixes_two_releases_while_20_clients_read_through_publishes(tmp_path, trigsight):
    out, cache = tmp_path / "release", tmp_path / "cache"
    env = {"TRIGSIGHT_CACHE_DIR": str(cache)}
    ids = {}

    def release(marker: str) -> str:
        folder = write_files(tmp_path / marker, content(marker))
        result = trigsight("release", "--content", str(folder), "--out", str(out), env=env)
        assert result.returncode == 0, result.stderr
        ids[live_id(out)] = marker
        return live_id(out)

    alpha = release("alpha")
    with serve_release(out, workers=2) as base:
        stop = threading.Event()
        readers = [Reader(base, n, stop) for n in range(20)]
        for reader in readers:
            reader.start()
        try:
            beta = release("beta")          # a real publish while they read
            # then back and forth with one rename each time, as `trigsight rollback` does,
            for turn in range(10):
                publish.activate(out, publish.releases_dir(out) / (alpha if turn % 2 == 0 else beta))
                time.sleep(0.3)
                if turn == 5:               # with gunicorn's SIGHUP (graceful reload) in the middle of it
                    os.kill(gunicorn_master(base), signal.SIGHUP)
            time.sleep(1.0)
        finally:
            stop.set()
            for reader in readers:
                reader.join(timeout=60)

    problems = [p for reader in readers for p in reader.problems]
    assert not problems, problems[:5]
    seen: dict[str, set[str]] = {}
    for reader in readers:
        assert reader.count >= 3            # each client read a page, an MCP page and an answer
        for release_id, markers in reader.seen.items():
            seen.setdefault(release_id, set()).update(markers)
    assert set(seen) == set(ids), (seen, ids)               # both releases were served, and only those
    for release_id, markers in seen.items():
        assert markers == {ids[release_id]}, (release_id, markers)
