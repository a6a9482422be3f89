"""Lighthouse (mobile, lab) on the home page with its scene, with the scene blocked, and a text page.

    python bench/accessibility/lighthouse.py [--release DIR] [--runs 3] [--out bench/accessibility/results]

Installs Lighthouse from npm into this folder, serves the release with gunicorn on loopback
(or releases content/ first) and runs Lighthouse `--runs` times per case with the Chromium
the gates use. Prints the median of each category score and of FCP, LCP, TBT and CLS.
Lighthouse's default mobile settings simulate a slow phone (4x CPU slowdown); WebGL here is
software (SwiftShader), so the scene's cost is the worst case, and the figures are noisy on
a busy machine: compare the cases of one run, not runs of different days.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from trigsight.gates import chromium
from trigsight.gates.liveserver import serve_release
from trigsight.settings import Settings

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

CASES = [("home, with the scene", "/", []),
         ("home, scene script blocked", "/", ["--blocked-url-patterns=*/static/scene.*"]),
         ("a text page", "/gates/payload", [])]
METRICS = ["first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift"]


def lighthouse() -> Path:
    return common.npm_install(HERE) / ".bin" / "lighthouse"


def run_once(binary: Path, url: str, extra: list[str], out: Path, chromium_path: str = "") -> dict:
    flags = " ".join(["--headless=new", *chromium.FLAGS])
    env = {**os.environ, "CHROME_PATH": chromium.executable(chromium_path) or ""}
    subprocess.run([str(binary), url, "--quiet", "--output=json", f"--output-path={out}", f"--chrome-flags={flags}",
                    *extra], env=env, check=True, timeout=600)
    report = json.loads(out.read_text("utf-8"))
    return {"scores": {k: v["score"] for k, v in report["categories"].items()},
            "metrics": {k: report["audits"][k]["numericValue"] for k in METRICS},
            "lighthouse": report["lighthouseVersion"], "browser": report["environment"]["hostUserAgent"]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, help="an existing release (default: release content/ now)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    settings = Settings.from_environ(os.environ)
    binary = lighthouse()
    results = {}
    with tempfile.TemporaryDirectory(prefix="trigsight-lighthouse-") as tmp:
        release = args.release
        if release is None:
            release = Path(tmp) / "release"
            common.release(ROOT / "content", release)
        with serve_release(release) as base:
            for label, path, extra in CASES:
                results[label] = [run_once(binary, base + path, extra, Path(tmp) / "report.json", settings.chromium)
                                  for _ in range(args.runs)]

    first = next(iter(results.values()))[0]
    lines = [f"Lighthouse {first['lighthouse']}, mobile lab defaults, {args.runs} run(s) per case, medians; "
             f"{first['browser']}"]
    summary = {}
    for label, runs in results.items():
        scores = {k: statistics.median(r["scores"][k] for r in runs) for k in runs[0]["scores"]}
        metrics = {k: statistics.median(r["metrics"][k] for r in runs) for k in METRICS}
        summary[label] = {"scores": scores, "metrics": metrics, "runs": runs}
        shown = " ".join(f"{k} {round(v * 100)}" for k, v in scores.items())
        lines.append(f"  {label:<28} {shown} | FCP {metrics['first-contentful-paint'] / 1000:.1f} s, "
                     f"LCP {metrics['largest-contentful-paint'] / 1000:.1f} s, "
                     f"TBT {metrics['total-blocking-time']:.0f} ms, CLS {metrics['cumulative-layout-shift']:.3f} "
                     f"(TBT runs {[round(r['metrics']['total-blocking-time']) for r in runs]})")
    print("\n".join(lines))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "lighthouse.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (args.out / "lighthouse.json").write_text(json.dumps(summary, indent=1) + "\n", "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
