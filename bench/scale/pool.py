"""Bench the browser gate's pool: directives/s with 1, 2 and 4 remote browsers, and one lost.

    .venv/bin/python bench/scale/pool.py [--corpus eslint-plugin-import|bundled] [--browsers 1,2,4]
                                          [--tabs 2] [--kind server|devtools] [--no-kill]

Releases the corpus once with the local Chromium (the reference), then times the browser
check alone over that release, on the same page jobs: with the local Chromium (today's
default: one tab per core, at least two), then through N remote browsers started on this machine
(Playwright browser servers, or Chromium DevTools endpoints), each unable to reach the
release's loopback, so every page is delivered through the pool; and once more with the
largest pool where one browser is killed a quarter of the way through. For each run it
prints directives/s, the CPU seconds of every process involved (this bench's process tree:
Chromium, Playwright, gunicorn, Python), how the pages spread over the browsers, and whether
every outcome is identical to the local run's. On one machine the browsers share its cores:
the figure that matters here is that work spreads and nothing is lost, not the speed-up.
Writes bench/scale/results/pool-<date>-<kind>.md.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import threading
import time
from datetime import date
from pathlib import Path

from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.gates import browser as browser_gate
from trigsight.gates import browser_check, chromium
from trigsight.gates.browser_pool import BrowserPool
from trigsight.gates.liveserver import serve_release
from trigsight.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py, bench/corpora
import common  # noqa: E402
from common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT / "bench" / "corpora"))
from fetch import fetch  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def tree_cpu(root: int, browser_roots: list[int]) -> tuple[float, float]:
    """CPU seconds of `root`'s live process tree (with reaped children), split in two: the browser
    side (the trees of `browser_roots`; without any, Chromium's processes) and the release side."""
    stats = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                head, tail = (entry / "stat").read_text().rsplit(")", 1)
                fields = tail.split()
                chromium_process = head.split("(", 1)[1].startswith(("chrom", "headless_shell"))
                stats[int(entry.name)] = (int(fields[1]), sum(int(v) for v in fields[11:15]), chromium_process)
    children: dict[int, list[int]] = {}
    for pid, (parent, _, _) in stats.items():
        children.setdefault(parent, []).append(pid)
    totals, todo = [0, 0], [(root, False)]
    while todo:
        pid, browser_side = todo.pop()
        browser_side = browser_side or pid in browser_roots
        if pid in stats:
            totals[0 if browser_side or (not browser_roots and stats[pid][2]) else 1] += stats[pid][1]
        todo += [(child, browser_side) for child in children.get(pid, [])]
    return totals[0] / TICKS, totals[1] / TICKS


def measure(label: str, pool: BrowserPool, jobs, reference: dict | None, endpoints=(), kill_after: int = 0) -> dict:
    """Check every job on `pool`; with `kill_after`, kill the last endpoint after that many pages."""
    done, lock = [0], threading.Lock()

    def finished(job, outcomes) -> None:
        with lock:
            done[0] += 1
            if kill_after and done[0] == kill_after:
                endpoints[-1].kill()

    roots = [e.pid for e in endpoints]
    before, started = tree_cpu(os.getpid(), roots), time.perf_counter()
    found, stats = browser_check.run(pool, jobs, on_page=finished)
    seconds, after = time.perf_counter() - started, tree_cpu(os.getpid(), roots)
    browsers, rest = after[0] - before[0], after[1] - before[1]
    directives = sum(len(v) for v in found.values())
    rows = {path: [o.to_json() for o in outcomes] for path, outcomes in found.items()}
    same = "reference" if reference is None else ("identical" if rows == reference else
                                                 f"{sum(rows[p] != reference[p] for p in reference)} pages differ")
    spread = " / ".join(f"{b.jobs}" + (" (lost)" if b.lost else "") for b in pool.browsers)
    return {"label": label, "pages": len(found), "directives": directives, "seconds": seconds,
            "rate": directives / seconds, "browsers_ms": 1000 * browsers / max(1, directives),
            "rest_ms": 1000 * rest / max(1, directives),
            "spread": spread, "proven": sum(o["ok"] for v in rows.values() for o in v), "same": same,
            "rows": rows, "requests": sum(b.requests for b in pool.browsers)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="eslint-plugin-import", help="a corpus of bench/corpora, or `bundled`")
    parser.add_argument("--browsers", default="1,2,4", help="pool sizes to time")
    parser.add_argument("--tabs", type=int, default=browser_gate.REMOTE_TABS, help="tabs per remote browser")
    parser.add_argument("--kind", choices=("server", "devtools"), default="server",
                        help="Playwright browser servers (ws://) or Chromium DevTools endpoints (http://)")
    parser.add_argument("--no-kill", action="store_true", help="skip the run that loses a browser")
    args = parser.parse_args()
    settings = Settings.from_environ(os.environ)
    sizes = [int(n) for n in args.browsers.split(",")]
    content = ROOT / "content" if args.corpus == "bundled" else fetch(args.corpus, dest_root=ROOT / ".cache" / "corpora")
    start_line = common.machine()
    start = {"server": chromium.browser_server, "devtools": chromium.devtools_endpoint}[args.kind]
    results = []
    with tempfile.TemporaryDirectory(prefix="trigsight-pool-") as scratch:
        out = Path(scratch) / "release"
        common.release(content, out, "--no-cache", env={"TRIGSIGHT_SITE_CSS": ""})
        built = build(BuildConfig(content))
        with serve_release(out, workers=1, env={"TRIGSIGHT_DEV": ""}) as base:
            jobs = [p.job for p in browser_gate.plan(built, built.passages, base)]
            # Longest pages first, as a pool should be fed; the same order for every run.
            jobs.sort(key=lambda j: -len(j.checks))
            with BrowserPool((), chromium=settings.chromium, tabs_per_browser=browser_gate.WORKERS, site=base,
                             **browser_check.TAB) as pool:
                local = measure(f"local Chromium, {browser_gate.WORKERS} tab(s)", pool, jobs, None)
            results.append(local)
            print(_row(local), flush=True)
            runs = [(n, 0) for n in sizes] + ([] if args.no_kill else [(max(sizes), max(1, len(jobs) // 4))])
            for n, kill_after in runs:
                with contextlib.ExitStack() as stack:
                    endpoints = [stack.enter_context(start(settings.chromium, args=chromium.NO_LOOPBACK))
                                 for _ in range(n)]
                    pool = stack.enter_context(BrowserPool([e.url for e in endpoints], tabs_per_browser=args.tabs,
                                                           site=base, **browser_check.TAB))
                    label = f"{n} remote browser(s) x {args.tabs} tabs" + (
                        f", the last killed after {kill_after} pages" if kill_after else "")
                    result = measure(label, pool, jobs, local["rows"], endpoints, kill_after)
                results.append(result)
                print(_row(result), flush=True)
    directives = local["directives"]
    lines = [
        f"# Browser pool bench, {date.today().isoformat()}",
        "",
        f"Command: `.venv/bin/python bench/scale/pool.py --corpus {args.corpus} --browsers {args.browsers} "
        f"--tabs {args.tabs} --kind {args.kind}{' --no-kill' if args.no_kill else ''}`",
        f"Machine at start: {start_line}",
        f"Machine at end: {common.machine()}",
        f"Corpus: {args.corpus} ({len(jobs)} pages, {directives} directives). Remote browsers: "
        + ("Playwright browser servers (`playwright launch-server`, ws://)" if args.kind == "server"
           else "Chromium DevTools endpoints (http://)")
        + " on this machine, started unable to reach its loopback: every page was delivered through the pool.",
        "",
        "| run | pages per browser | directives/s | wall s | CPU ms / directive: browser side | CPU ms / "
        "directive: release side | requests delivered | proven | outcomes vs local |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [_row(r) for r in results]
    lines += ["", "CPU is every process of this bench's tree during the check, split into the browser side (each "
              "endpoint's processes: the Playwright server and its Chromium; for the local run, Chromium's processes) "
              "and the release side (the Playwright driver, gunicorn, this Python process with the delivery): what a "
              "browser machine and the release machine would each spend. On one machine the browsers share "
              "its cores, so directives/s shows the pool's overhead here, not the speed-up of browsers on machines "
              "of their own: one browser proves about 1000 / (browser-side ms per directive) directives/s per core it "
              "gets. The run that loses a browser shows no CPU: the killed browser's processes are gone before the "
              "second reading."]
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / f"pool-{date.today().isoformat()}-{args.kind}.md")


def _row(r: dict) -> str:
    # A killed browser's processes are gone before the second reading: their CPU cannot be counted.
    cpu = ("–", "–") if "killed" in r["label"] else (f"{r['browsers_ms']:.1f}", f"{r['rest_ms']:.1f}")
    return (f"| {r['label']} | {r['spread']} | {r['rate']:.1f} | {r['seconds']:.1f} | {cpu[0]} | "
            f"{cpu[1]} | {r['requests']} | {r['proven']}/{r['directives']} | {r['same']} |")


if __name__ == "__main__":
    main()
