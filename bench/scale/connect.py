"""Time what the browser gate pays to take a remote browser into its pool, per kind of endpoint.

    .venv/bin/python bench/scale/connect.py [--times 5] [--label NAME]

Starts one endpoint of each kind on this machine (a Chromium DevTools endpoint and a
Playwright browser server, `trigsight.gates.chromium`), then opens and closes the gate's pool
over it TIMES times, as `TRIGSIGHT_BROWSERS` would: the connect, the check that the browser
behaves as one Playwright launched, and the gate's tabs. The check is timed alone too, as the
pool runs it. Run it with an older revision's pipeline on PYTHONPATH for a "before". Writes
bench/scale/results/connect-<date>[-NAME].md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from datetime import date
from pathlib import Path

from trigsight.gates import browser as browser_gate
from trigsight.gates import browser_pool, chromium

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

KINDS = {"devtools": chromium.devtools_endpoint, "server": chromium.browser_server}
CHECK = browser_pool.BrowserPool._check_alike


def timed_check(checks: list[float]):
    """The pool's environment check, wrapped to record how long each run of it took."""
    async def wrapper(pool):
        started = time.perf_counter()
        await CHECK(pool)
        checks.append(time.perf_counter() - started)
    return wrapper


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--times", type=int, default=5)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    start_line = common.machine()
    rows = []
    for kind, start in KINDS.items():
        pools, checks = [], []
        browser_pool.BrowserPool._check_alike = timed_check(checks)
        with start() as endpoint:
            for _ in range(args.times):
                started = time.perf_counter()
                with browser_gate._pool((endpoint.url,), "", browser_gate.REMOTE_TABS, None):
                    pools.append(time.perf_counter() - started)
        rows.append(f"| {kind} | {statistics.median(pools):.2f} | {statistics.median(checks):.2f} | "
                    f"{', '.join(f'{t:.2f}' for t in pools)} |")
    navigations = getattr(browser_pool, "NAVIGATIONS", 400)
    lines = [f"# Taking a remote browser into the pool, {date.today().isoformat()}", "",
             "Command: `.venv/bin/python bench/scale/connect.py --times " + str(args.times)
             + (f" --label {args.label}" if args.label else "") + "`",
             f"Code: {Path(browser_pool.__file__).parent} (the environment check makes {navigations} "
             "same-document navigations)",
             f"Machine at start: {start_line}", f"Machine at end: {common.machine()}", "",
             f"| endpoint | pool open s (median) | environment check s (median) | pool open s (each of {args.times}) |",
             "|---|---|---|---|", *rows, "",
             f"A pool open is the connect, the environment check and {browser_gate.REMOTE_TABS} tabs, one browser. "
             "The machine is shared: read the figures next to the load average."]
    name = f"connect-{date.today().isoformat()}" + (f"-{args.label}" if args.label else "")
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / f"{name}.md")


if __name__ == "__main__":
    main()
