"""What every bench harness needs: release a folder, serve a release, install from npm, describe the machine.

Harnesses run as scripts (`python bench/<area>/<script>.py`) and import this module after
putting `bench/` on the path:

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from common import ROOT, release, npm_install

`release()` runs the installed `trigsight release` command in a subprocess, exactly as an
author would, so a bench measures the product and not a shortcut around it.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TRIGSIGHT = [sys.executable, "-m", "trigsight.cli"]


@dataclass
class ReleaseRun:
    out: Path
    seconds: float          # wall time of the whole command
    manifest: dict
    stderr: str             # the command's progress and summary lines

    def line(self, containing: str) -> str:
        return next((line for line in self.stderr.splitlines() if containing in line), "")


def release(content: Path, out: Path, *extra: str, cache: Path | None = None, env: dict | None = None,
            check: bool = True) -> ReleaseRun:
    """`trigsight release --content CONTENT --out OUT [extra]`; exits with its stderr when it fails."""
    environment = {**os.environ, **(env or {})}
    if cache is not None:
        environment["TRIGSIGHT_CACHE_DIR"] = str(cache)
    started = time.perf_counter()
    done = subprocess.run([*TRIGSIGHT, "release", "--content", str(content), "--out", str(out), *extra],
                          cwd=ROOT, env=environment, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0 and check:
        sys.exit(f"trigsight release of {content} failed ({done.returncode}):\n{done.stderr[-4000:]}")
    manifest_file = Path(out) / "manifest.json"
    manifest = json.loads(manifest_file.read_text("utf-8")) if manifest_file.is_file() else {}
    return ReleaseRun(Path(out), seconds, manifest, done.stderr)


def npm_install(folder: Path) -> Path:
    """`npm ci` (or `npm install` without a lock file) in `folder`; return its node_modules."""
    npm = shutil.which("npm")
    if npm is None:
        sys.exit(f"npm is needed for {folder.relative_to(ROOT)} (Node.js 18 or newer)")
    command = "ci" if (folder / "package-lock.json").is_file() else "install"
    subprocess.run([npm, command, "--no-audit", "--no-fund", "--loglevel=error"], cwd=folder, check=True)
    return folder / "node_modules"


def percentile(values: list[float], share: float) -> float:
    """The value at `share` (0..1) of the sorted, non-empty list (nearest index)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(share * (len(ordered) - 1))))]


def machine() -> str:
    """One line naming the machine a figure was measured on: cores, load, Python, Chromium."""
    from trigsight.gates import chromium

    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    browser = chromium.executable()
    version = subprocess.run([browser, "--version"], capture_output=True, text=True).stdout.strip() \
        if browser else "Playwright's own Chromium"
    return f"{os.cpu_count()} cores, load average {load}, Python {platform.python_version()}, {version}"


def emit(lines: list[str], out: Path | None) -> None:
    """A report: written to `out` (a results file, and printed) when given, else printed."""
    if out:
        write_results(lines, out)
    else:
        print("\n".join(lines))


def write_results(lines: list[str], out: Path) -> Path:
    """Print a harness's report and write it to `out` (a results file), folders made as needed."""
    text = "\n".join(lines).rstrip("\n") + "\n"
    print(text)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")
    print(f"wrote {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}", file=sys.stderr)
    return out


def sets_arguments(doc: str, out: bool = False) -> argparse.Namespace:
    """The command line of a harness over answer sets: RELEASE_DIR:QUESTIONS_FILE[:SPLIT] ..., then
    `--label NAME` (a dated results file of its own) or, with `out`, `--out FILE`."""
    parser = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    parser.add_argument("sets", nargs="+", help="RELEASE_DIR:QUESTIONS_FILE[:SPLIT]")
    if out:
        parser.add_argument("--out", type=Path, help="write the report here (markdown) as well as printing it")
    else:
        parser.add_argument("--label", default="", help="added to the results file's name")
    return parser.parse_args()
