"""Bench the browser gate on the bundled content: cold and cached releases, agreement, WPT.

    .venv/bin/python bench/browser/run.py [--content content] [--no-wpt] [--workers 1,2,3]

Runs the real `trigsight release` twice into a scratch folder: first with an empty proof
cache (cold: every page checked in Chromium), then again with that cache (cached). Prints
what it measured and writes bench/browser/results/<date>.md. With --workers it also times
the browser check alone over the published release with each pool size.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

from trigsight.files import unused_name
from trigsight.gates.liveserver import serve_release
from trigsight.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402


def release(content: Path, out: Path, cache: Path, *extra: str) -> dict:
    run = common.release(content, out, *extra, cache=cache, env={"TRIGSIGHT_SITE_CSS": ""})
    return {"wall": run.seconds, "gate_seconds": run.manifest["timings"].get("browser"),
            "summary": run.manifest["gates"]["browser"], "headline": run.line("predictor/browser agreement"),
            "failures": json.loads((out / "reports" / "browser.json").read_text("utf-8"))["failures"]}


def wpt() -> str:
    done = subprocess.run([sys.executable, "-m", "pytest", "tests/test_conformance.py", "-q", "-s", "-p", "no:warnings"],
                          cwd=ROOT, capture_output=True, text=True)
    found = re.search(r"WPT conformance .*", done.stdout)
    tail = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()[-200:]
    return f"{found.group(0) if found else 'WPT conformance: not run'} (pytest: {tail})"


def compare_workers(release_dir: Path, content: Path, sizes: list[int],
                    chromium_path: str = "") -> list[tuple[int, float, int]]:
    from trigsight.build.builder import BuildConfig
    from trigsight.build.builder import run as build
    from trigsight.gates import browser as browser_gate
    from trigsight.gates import browser_check
    from trigsight.gates.browser_pool import BrowserPool

    built = build(BuildConfig(content))
    rows = []
    with serve_release(release_dir) as base:
        for size in sizes:
            with BrowserPool((), chromium=chromium_path, tabs_per_browser=size, site=base, **browser_check.TAB) as pool:
                plans = browser_gate.plan(built, built.passages, base)
                started = time.perf_counter()
                results, _ = browser_check.run(pool, [p.job for p in plans])
                rows.append((size, time.perf_counter() - started, sum(not o.ok for v in results.values() for o in v)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--content", type=Path, default=ROOT / "content")
    parser.add_argument("--no-wpt", action="store_true", help="skip the WPT conformance run")
    parser.add_argument("--workers", default="", help="also time the browser check alone with these pool sizes")
    args = parser.parse_args()
    load = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="trigsight-bench-") as scratch:
        scratch = Path(scratch)
        cold = release(args.content, scratch / "release", scratch / "cache")
        cached = release(args.content, scratch / "release", scratch / "cache")
        chromium_path = Settings.from_environ(os.environ).chromium
        workers = (compare_workers(scratch / "release", args.content, [int(w) for w in args.workers.split(",")],
                                   chromium_path)
                   if args.workers else [])
    conformance = "skipped (--no-wpt)" if args.no_wpt else wpt()
    s, a = cold["summary"], cold["summary"]["agreement"]
    lines = [
        f"# Browser gate bench, {date.today().isoformat()}",
        "",
        f"Command: `.venv/bin/python bench/browser/run.py{' --workers ' + args.workers if args.workers else ''}"
        f"{' --no-wpt' if args.no_wpt else ''}` on {os.cpu_count()} cores, load average {load:.1f} at start.",
        f"Browser: {s['chromium']}",
        f"Content: {args.content.relative_to(ROOT) if args.content.is_relative_to(ROOT) else args.content}",
        "",
        "| run | pages checked / cached | directives | fresh navigations | failures | browser gate s | release wall s |",
        "|---|---|---|---|---|---|---|",
    ]
    for name, run_ in (("cold", cold), ("cached", cached)):
        r = run_["summary"]
        lines.append(f"| {name} | {r['pages_checked']} / {r['pages_cached']} | {r['directives']} | {r['fresh_navigations']} "
                     f"| {len(run_['failures'])} | {run_['gate_seconds']:.2f} | {run_['wall']:.2f} |")
    lines += [
        "",
        f"Passages: {s['passages']['checked']} checked, {s['passages']['proven']} proven, {s['passages']['left_out']} left out. "
        f"Author citations: {s['citations']['checked']} checked, {s['citations']['proven']} proven.",
        f"Predictor/browser agreement: {a['agree']}/{a['checks']} directives "
        f"({a['predicted_unique']} predicted unique by the source model, {a['browser_proven']} proven in Chromium, "
        f"same match count for {a['same_count']}).",
        f"Failures in the bundled content: {len(cold['failures'])}"
        + "".join(f"\n- {f['page']} \"{f['text']}\": {f['reason']}" for f in cold["failures"]),
        f"Conformance: {conformance}",
    ]
    if workers:
        lines += ["", "| pool size | browser check alone s | failures |", "|---|---|---|"]
        lines += [f"| {size} | {seconds:.2f} | {failed} |" for size, seconds, failed in workers]
    text = "\n".join(lines) + "\n"
    print(text)
    results = ROOT / "bench" / "browser" / "results"
    results.mkdir(parents=True, exist_ok=True)
    unused_name(results / f"{date.today().isoformat()}.md").write_text(text, "utf-8")


if __name__ == "__main__":
    main()
