"""Time what a release pays for each gate's own gunicorn: its start, its stop, and one worker's app.

    .venv/bin/python bench/scale/servers.py --release release [--cycles 5] [--label NAME]

Starts and stops `trigsight.gates.liveserver.serve_release` over RELEASE (a published release
with its index, e.g. `make release`'s) CYCLES times with the site's own settings and CYCLES
times as a gate starts it (`gate=True`: the same settings without the question encoder),
alternating; start is until the home page answers, stop until the process group is gone. It
also times, in a fresh interpreter each, what a worker does before it serves (gevent's
patching, `trigsight_site` imported, `create_app()` over RELEASE) and `import openai` alone.
Run it with an older revision's pipeline and site first on PYTHONPATH for a "before" (one
without `gate` runs the site's settings twice, as every gate did). Writes
bench/scale/results/servers-<date>[-NAME].md.
"""
from __future__ import annotations

import argparse
import inspect
import os
import statistics
import subprocess
import sys
import time
from datetime import date
from pathlib import Path

from trigsight.gates.liveserver import serve_release

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

WORKER_APP = ("import time; t = time.perf_counter(); import gevent.monkey; gevent.monkey.patch_all(); "
              "import trigsight_site; trigsight_site.create_app(); print(time.perf_counter() - t)")
OPENAI_IMPORT = "import time, httpx; t = time.perf_counter(); import openai; print(time.perf_counter() - t)"


HAS_GATE = "gate" in inspect.signature(serve_release).parameters    # False for a revision before it


def cycle(release: Path, gate: bool) -> tuple[float, float]:
    started = time.perf_counter()
    with serve_release(release, **({"gate": True} if gate and HAS_GATE else {})):
        up = time.perf_counter()
    return up - started, time.perf_counter() - up


def imported(code: str, release: Path) -> float:
    env = {**os.environ, "TRIGSIGHT_RELEASE_DIR": str(release)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    return float(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, default=ROOT / "release")
    parser.add_argument("--cycles", type=int, default=5)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    start_line = common.machine()
    times: dict[str, list[tuple[float, float]]] = {"site": [], "gate": []}
    workers, openai = [], []
    for _ in range(args.cycles):
        for kind in times:
            times[kind].append(cycle(args.release, kind == "gate"))
        workers.append(imported(WORKER_APP, args.release))
        openai.append(imported(OPENAI_IMPORT, args.release))
    import trigsight
    lines = [f"# Gate servers, {date.today().isoformat()}", "",
             f"Command: `.venv/bin/python bench/scale/servers.py --release {args.release} --cycles {args.cycles}"
             + (f" --label {args.label}" if args.label else "") + "`",
             f"Code: {Path(trigsight.__file__).parent} ({'has' if HAS_GATE else 'has no'} a gate server)",
             f"Machine at start: {start_line}", f"Machine at end: {common.machine()}", "",
             "| server | start s (median) | stop s (median) | start+stop s (each cycle) |", "|---|---|---|---|"]
    for kind, pairs in times.items():
        label = kind if HAS_GATE or kind == "site" else "gate (site's settings: no gate server)"
        lines.append(f"| {label} | {statistics.median(p[0] for p in pairs):.2f} | "
                     f"{statistics.median(p[1] for p in pairs):.2f} | {', '.join(f'{sum(p):.2f}' for p in pairs)} |")
    lines += ["", "A worker's app (gevent patched, the site imported, `create_app()` over the release), "
              f"median of {args.cycles}: {statistics.median(workers):.2f} s; `import openai` alone: "
              f"{statistics.median(openai):.2f} s.", "",
              "Start is until the home page answers; the release's workers start in parallel on the machine's "
              "cores. The machine is shared: read the figures next to the load average."]
    name = f"servers-{date.today().isoformat()}" + (f"-{args.label}" if args.label else "")
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / f"{name}.md")


if __name__ == "__main__":
    main()
