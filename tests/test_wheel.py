"""The package as another team's CI gets it: the built wheel, pip-installed into a fresh virtualenv.

The wheel is built once per session (pip, with the project's own build backend) and installed
with pip into a new virtualenv, `--no-deps`: the dependencies are then made importable from
this test environment (a .pth line added after the install), so the test costs seconds, not
a 365 MB download. Everything of trigsight's own (code, templates, static files, the probe)
comes from the wheel: the tests check that the command and package imported live there.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from conftest import ROOT, write_files
from junit import read_junit


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> tuple[Path, str]:
    """The wheel pip builds from this checkout, and the build's whole output (verbose)."""
    root = tmp_path_factory.mktemp("wheel")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--verbose", "--wheel-dir",
                           str(root / "dist"), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    [wheel] = (root / "dist").glob("trigsight-*.whl")
    return wheel, done.stdout + done.stderr


@pytest.fixture(scope="session")
def installed(built, tmp_path_factory) -> Path:
    """A fresh virtualenv holding trigsight from the wheel; returns its bin/ folder."""
    wheel, _ = built
    venv = tmp_path_factory.mktemp("installed") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    python = venv / "bin" / "python"
    done = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--quiet",
                           str(wheel)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    site = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    ours = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (Path(site) / "test_dependencies.pth").write_text("\n".join(sorted(ours)) + "\n", "utf-8")
    return venv / "bin"


def run_installed(bin_dir: Path, *args: str, cwd: Path, env: dict | None = None):
    environment = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TRIGSIGHT_DEBUG", "GITHUB_ACTIONS")}
    environment.update(env or {})
    return subprocess.run([str(bin_dir / "trigsight"), *args], cwd=cwd, env=environment, capture_output=True,
                          text=True, timeout=600)


def test_the_wheel_builds_without_setuptools_warning_of_a_folder_left_out(built):
    _, log = built
    assert "absent from the `packages` configuration" not in log, [line for line in log.splitlines()
                                                                    if "Warning" in line]


def test_the_installed_package_is_the_wheel_not_this_checkout(installed, tmp_path):
    found = subprocess.run([str(installed / "python"), "-c",
                            "import trigsight, trigsight_site, pathlib; "
                            "print(trigsight.__file__); print(pathlib.Path(trigsight_site.__file__).parent)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout.split()
    venv = installed.parent
    assert all(Path(path).is_relative_to(venv) for path in found), found
    assert (Path(found[1]) / "templates" / "page.html").is_file()


def test_installed_payload_command_measures_a_live_site_and_exits_1_over_budget(installed, bundled_site,
                                                                                bundled_release, tmp_path):
    pages = json.loads((bundled_release / "manifest.json").read_text())["gates"]["payload"]["pages"]
    [home] = [page for page in pages if page["page"] == "/"]
    result = run_installed(installed, "payload", bundled_site + "/", "--budget", str(home["total"] - 1),
                           "--runs", "1", "--junit", "junit.xml", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert f"JS {home['total']:>6} B / {home['total'] - 1} B" in result.stdout
    message = f"{bundled_site}/: {home['total']} bytes of JavaScript on the wire > budget {home['total'] - 1} bytes"
    assert result.stderr.splitlines() == [message]
    assert [(c["status"], c["message"]) for c in read_junit(tmp_path / "junit.xml")] == [("failure", message)]


def test_installed_release_refused_writes_junit_naming_the_file_and_line(installed, tmp_path):
    write_files(tmp_path / "content", {
        "index.md": "# Home\n\nA short page.\n\nIt cites a sentence. [[cite:notes|A sentence nobody wrote.]]\n",
        "notes.md": "# Notes\n\nThe notes page holds one sentence.\n"})
    result = run_installed(installed, "release", "--content", "content", "--out", "release",
                           "--report-junit", "junit.xml", cwd=tmp_path,
                           env={"TRIGSIGHT_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 1, result.stderr
    [failed] = [c for c in read_junit(tmp_path / "junit.xml") if c["status"] == "failure"]
    assert failed["message"] == 'content/index.md:5: cited passage "A sentence nobody wrote." is not on /notes'
    assert not (tmp_path / "release").exists()


def _closure(requirements: list[str]) -> set[str]:
    """The distributions these requirements pull in, their own requirements' included (canonical names)."""
    from importlib import metadata

    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name

    found: set[str] = set()
    waiting = [Requirement(text) for text in requirements]
    while waiting:
        requirement = waiting.pop()
        name = canonicalize_name(requirement.name)
        if name in found or (requirement.marker and not requirement.marker.evaluate({"extra": ""})):
            continue
        found.add(name)
        waiting += [Requirement(text) for text in metadata.requires(name) or []]
    return found


def test_every_installed_module_imports_without_a_package_only_the_tests_need(installed, tmp_path):
    """A deployment installs `trigsight` without its `test` extra: a module importing, say, httpx
    (which only the tests and mcp ask for) would break the server there and nowhere in this suite."""
    import tomllib
    from importlib import metadata

    from packaging.utils import canonicalize_name

    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    test_only = _closure(project["optional-dependencies"]["test"]) - _closure(project["dependencies"])
    modules = sorted({module for module, names in metadata.packages_distributions().items()
                      if any(canonicalize_name(name) in test_only for name in names)})
    assert "httpx" in modules and "pytest" in modules and "flask" not in modules
    script = (
        "import importlib, importlib.abc, pkgutil, sys\n"
        f"REFUSED = set({modules!r})\n"
        "class Refuse(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in REFUSED:\n"
        "            raise ModuleNotFoundError(f'{name} is installed only with the test extra', name=name)\n"
        "sys.meta_path.insert(0, Refuse())\n"
        "import trigsight, trigsight_site\n"
        "for package in (trigsight, trigsight_site):\n"
        "    for module in pkgutil.walk_packages(package.__path__, package.__name__ + '.'):\n"
        "        importlib.import_module(module.name)\n"
        "from trigsight_site import create_app\n"
        "print('imported')\n")
    done = subprocess.run([str(installed / "python"), "-c", script], cwd=tmp_path, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0 and done.stdout.split() == ["imported"], done.stderr[-3000:]
