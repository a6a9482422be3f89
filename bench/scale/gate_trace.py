"""Where a directive's time goes inside Chromium: trace the activations on one page, by thread and event.

    .venv/bin/python bench/scale/gate_trace.py --release /work/node/release --content /work/node/content \
        --page /buffer [--before REV] [--chromium PATH] [--directives 150]

For each variant (as in gate.py: `--before REV` that revision's pipeline, then this tree, then
this tree with `--chromium`), a child process loads the page once in a local Chromium (a tab
as the gate's), counts the release's directives for it, then activates the first N under a
Chromium trace (Playwright's `browser.start_tracing`) and sums each event's thread time
(`tdur`) by thread and name: the renderer's main thread (Blink's lifecycle, Chromium's own
text search, the probe), the browser process's main thread (navigation commits, the browser
window's UI), the compositor threads. Nested events overlap: read a row against its thread's
total (its RunTask events). Writes bench/scale/results/gate-trace-<date>.md.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))   # gate.py
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import gate  # noqa: E402

import common  # noqa: E402
from common import ROOT  # noqa: E402

THREADS = ("CrRendererMain", "CrBrowserMain", "VizCompositorThread", "Compositor")
CATEGORIES = ["toplevel", "blink", "cc", "viz", "ui", "views", "navigation", "browser", "content", "loading",
              "devtools.timeline", "disabled-by-default-devtools.timeline"]
TOP = 10


def child(spec: dict) -> dict:
    from playwright.sync_api import sync_playwright
    from trigsight.gates import browser_check, chromium
    from trigsight.gates.liveserver import serve_release

    checks = spec["checks"][:spec["directives"]]
    directives = [c["directive"] for c in checks]
    with serve_release(Path(spec["release"]), workers=1, env={"TRIGSIGHT_DEV": ""}) as base, \
            sync_playwright() as playwright:
        browser = chromium.launch(playwright, spec["chromium"])
        context = browser.new_context(**browser_check.TAB["context_options"])
        context.add_init_script(browser_check.TAB["init_script"])
        page = context.new_page()
        page.goto(base + spec["page"], wait_until="load")
        page.evaluate("(ds) => window.__trigsight.count(ds).length", directives)
        browser.start_tracing(page=page, categories=CATEGORIES)
        page.evaluate("([ds, i, f]) => window.__trigsight.activate(ds, i, f)",
                      [directives, [c["intended"] for c in checks], browser_check.SAME_DOCUMENT_FRAMES])
        trace = json.loads(browser.stop_tracing())
        version = chromium.version(browser)
        browser.close()
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name"}
    spent: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for e in events:
        if e.get("ph") == "X" and "tdur" in e:
            spent[threads.get((e["pid"], e["tid"]), "?")][e["name"]] += e["tdur"] / 1000 / len(checks)
    return {"directives": len(checks), "chromium": version, "load": os.getloadavg()[0],
            "threads": {t: dict(spent[t]) for t in THREADS if t in spent}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path)
    parser.add_argument("--content", type=Path)
    parser.add_argument("--page", default="/buffer")
    parser.add_argument("--before", default="")
    parser.add_argument("--chromium", default="")
    parser.add_argument("--directives", type=int, default=150)
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        args.child[1].write_text(json.dumps(child(json.loads(args.child[0].read_text("utf-8")))), "utf-8")
        return
    start_line = common.machine()
    results = []
    with tempfile.TemporaryDirectory(prefix="trigsight-trace-") as scratch_name:
        scratch = Path(scratch_name)
        jobs, _ = gate.jobs_of(args.release, args.content)
        checks = next(j["checks"] for j in jobs if j["path"] == args.page)
        variants = ([("before", args.before, "")] if args.before else []) + [("after", ".", "")] + (
            [(f"after, {args.chromium}", ".", args.chromium)] if args.chromium else [])
        for number, (label, revision, executable) in enumerate(variants):
            name, pythonpath = gate.code_of(revision, scratch)
            spec_file, out_file = scratch / f"spec-{number}.json", scratch / f"out-{number}.json"
            spec_file.write_text(json.dumps({"release": str(args.release.resolve()), "page": args.page,
                                             "checks": checks, "directives": args.directives,
                                             "chromium": executable}), "utf-8")
            env = {**os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {})}
            subprocess.run([sys.executable, __file__, "--child", str(spec_file), str(out_file)], env=env, check=True)
            results.append((label, name, json.loads(out_file.read_text("utf-8"))))
    lines = [f"# Browser gate trace, {date.today().isoformat()}", "",
             f"Command: `.venv/bin/python bench/scale/gate_trace.py --release {args.release} --content {args.content} "
             f"--page {args.page}" + (f" --before {args.before}" if args.before else "")
             + (f" --chromium {args.chromium}" if args.chromium else "") + f" --directives {args.directives}`",
             f"Machine at start: {start_line}", f"Machine at end: {common.machine()}", "",
             f"Thread time (ms) per directive while the probe activated the first {args.directives} directives of "
             f"{args.page}, by thread: its total (RunTask), then its {TOP} costliest events. Nested events overlap.", ""]
    for label, name, r in results:
        lines += [f"## {label} ({name}): {r['chromium']}, load {r['load']:.1f}", "",
                  "| thread | total | costliest events |", "|---|---|---|"]
        for thread, spent in r["threads"].items():
            total = max((v for k, v in spent.items() if k == "RunTask"), default=0.0)
            top = sorted(((v, k) for k, v in spent.items() if "RunTask" not in k), reverse=True)[:TOP]
            lines.append(f"| {thread} | {total:.2f} | " + "; ".join(f"{k} {v:.2f}" for v, k in top) + " |")
        lines.append("")
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / f"gate-trace-{date.today().isoformat()}.md")


if __name__ == "__main__":
    main()
