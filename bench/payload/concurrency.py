"""How the payload gate's time on a big release depends on how many pages it loads at once.

    .venv/bin/python bench/payload/concurrency.py RELEASE_DIR [--pages 60] [--tabs 2 4 6] [--out FILE]

Serves a published release with gunicorn on loopback (as the gate does), takes its first `--pages`
pages (in the allowlist's order) and measures them once each with the gate's own harness
(`trigsight.gates.payload.measure`, one cold load a page, the gate's timeout) at each number of tabs
in turn, in one Chromium. Prints the wall time of each, whether every page's figures (the script
bytes of each load) came out the same as with the first, and the load average.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from trigsight.gates.liveserver import serve_release  # noqa: E402
from trigsight.gates.payload import RELEASE_RUNS, measure  # noqa: E402

from common import emit, machine  # noqa: E402


def figures(measurement) -> list:
    return [[(s.url, s.bytes, s.lazy) for load in page.loads for s in load.scripts] for page in measurement.pages]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("release", type=Path)
    parser.add_argument("--pages", type=int, default=60)
    parser.add_argument("--tabs", type=int, nargs="+", default=[2, 4, 6])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    paths = [page["path"] for page in json.loads((args.release / "allowlist.json").read_text("utf-8"))["pages"]]
    paths = paths[:args.pages]
    lines = ["# Payload gate time by tabs at once", "", f"Machine: {machine()}", "",
             f"Release {args.release.resolve().name}, its first {len(paths)} pages, one cold load each "
             f"(the gate's {RELEASE_RUNS} run).", "", "| tabs at once | seconds | per page | figures as with the first |",
             "|---|---|---|---|"]
    with serve_release(args.release, gate=True) as base:
        urls = [base + path for path in paths]
        first = None
        for tabs in args.tabs:
            started = time.perf_counter()
            measured = measure(urls, runs=RELEASE_RUNS, concurrency=tabs)
            seconds = time.perf_counter() - started
            same = "—" if first is None else ("yes" if figures(measured) == first else "NO")
            first = figures(measured) if first is None else first
            errors = sum(1 for page in measured.pages if page.error)
            lines.append(f"| {tabs} | {seconds:.1f} | {seconds / len(urls):.2f} | {same}"
                         f"{f' ({errors} pages not loaded)' if errors else ''} |")
            print(lines[-1], flush=True)
    emit(lines, args.out)


if __name__ == "__main__":
    main()
