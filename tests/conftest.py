"""Shared fixtures: real CLI runs, real gunicorn on loopback, real headless Chromium."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings
from trigsight.answering.model_client import forget_listings
from trigsight.gates import chromium
from trigsight.gates.liveserver import serve_release
from trigsight.settings import Settings

# Generated-input tests (test_fuzz.py): few examples in `make test`; `--hypothesis-profile=deep` for more.
hypothesis_settings.register_profile("default", max_examples=30, print_blob=True)
hypothesis_settings.register_profile("deep", max_examples=1500, print_blob=True)
hypothesis_settings.load_profile("default")

ROOT = Path(__file__).resolve().parent.parent
BUNDLED_CONTENT = ROOT / "content"
SHARED = ROOT.parent / "shared"
TRIGSIGHT = [sys.executable, "-m", "trigsight.cli"]


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items):
    """Run each file's tests together again. pytest-playwright parametrizes its browser per session,
    and pytest gathers every test of that parameter at the end, so a file's module-scoped fixture
    (a real release, its server) was built once for the file's other tests and again for those.
    The sort is stable (each file keeps its order), and with the one browser the session's
    browser fixture is still launched once."""
    order = {path: n for n, path in enumerate(sorted({item.path for item in items}))}
    items.sort(key=lambda item: order[item.path])


@pytest.fixture(scope="session")
def browser_type_launch_args():
    """pytest-playwright launches Debian's Chromium (or Playwright's) with our flags."""
    path = chromium.executable(Settings.from_environ(os.environ).chromium)
    return {"executable_path": path, "args": chromium.FLAGS} if path else {"args": chromium.FLAGS}


def run_trigsight(*args: str, cwd: Path = ROOT, env: dict | None = None, timeout: float = 900):
    """Run the real `trigsight` command; return the CompletedProcess (text)."""
    environment = {**os.environ, **(env or {})}
    environment.pop("TRIGSIGHT_DEBUG", None)
    return subprocess.run([*TRIGSIGHT, *args], cwd=cwd, env=environment, capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture
def trigsight():
    return run_trigsight


def write_files(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write {relative path: text or bytes} under `root` (created if missing); return `root`."""
    root.mkdir(parents=True, exist_ok=True)
    for name, body in files.items():
        file = root / name
        file.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(body, bytes):
            file.write_bytes(body)
        else:
            file.write_text(body, "utf-8")
    return root


@pytest.fixture
def write_content(tmp_path):
    """Write {relative path: text or bytes} into a fresh content folder and return it."""
    def write(files: dict[str, str | bytes], folder: str = "content") -> Path:
        return write_files(tmp_path / folder, files)
    return write


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder` with its bytes, to prove a release was left untouched."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="session")
def bundled_release(tmp_path_factory) -> Path:
    """The bundled content released once per test session, through the real CLI, cold cache."""
    out = tmp_path_factory.mktemp("bundled") / "release"
    cache = tmp_path_factory.mktemp("cache")
    result = run_trigsight("release", "--content", str(BUNDLED_CONTENT), "--out", str(out),
                           env={"TRIGSIGHT_CACHE_DIR": str(cache)})
    assert result.returncode == 0, result.stderr
    return out


@pytest.fixture(scope="session")
def bundled_site(bundled_release):
    """Base URL of gunicorn serving the bundled release on loopback."""
    with serve_release(bundled_release) as base:
        yield base


@pytest.fixture(autouse=True)
def _fresh_model_listings():
    """Each test's fake model server is asked for its models anew: a new server may reuse a freed port."""
    forget_listings()
