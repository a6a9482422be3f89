"""Offline chat answers one at a time, served with 1 or more of numpy's math threads per worker.

    .venv/bin/python bench/load/math_threads.py --release DIR [--questions FILE] [--threads 1 2 1 2] [--out FILE]

`trigsight serve` gives each gunicorn worker one math thread (`trigsight.math_threads`);
bench/load/run.py measures what that does under 50 clients. This measures the other case, a quiet
server asked one question after another: for each `--threads` value in turn (alternated, so a drift of
the machine's load shows), the site's gunicorn (2 workers) on loopback, a warm-up of 5 questions, then
every answerable and unanswerable question of the file twice, POST /api/chat (JSON, offline). Prints
p50 and p90 per run and the load average.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.request
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from trigsight.gates.liveserver import serve_release  # noqa: E402
from trigsight.math_threads import ONE_MATH_THREAD  # noqa: E402

from common import ROOT, emit, machine, percentile  # noqa: E402


def answer_seconds(base: str, question: str) -> float:
    request = urllib.request.Request(base + "/api/chat", data=json.dumps({"question": question}).encode(),
                                     headers={"Content-Type": "application/json"})
    started = time.perf_counter()
    with urllib.request.urlopen(request, timeout=60) as response:
        response.read()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--questions", type=Path, default=ROOT / "bench" / "answers" / "questions.json")
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2, 1, 2])
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    questions = [q["question"] for q in json.loads(args.questions.read_text("utf-8"))["questions"]]
    lines = ["# Offline answers one at a time, by numpy's math threads per worker", "",
             f"Machine at start: {machine()}", "",
             f"Release {args.release.resolve().name}; {len(questions)} questions of "
             f"`{args.questions.relative_to(ROOT) if args.questions.is_relative_to(ROOT) else args.questions}`, "
             "each asked twice after 5 warm-up questions; gunicorn, the site's config, 2 workers, loopback.", "",
             "| run | math threads per worker | answers | p50 | p90 |", "|---|---|---|---|---|"]
    for number, threads in enumerate(args.threads, start=1):
        with serve_release(args.release, env={name: str(threads) for name in ONE_MATH_THREAD}) as base:
            for question in questions[:5]:
                answer_seconds(base, question)
            took = [answer_seconds(base, question) for question in questions * 2]
        lines.append(f"| {number} | {threads} | {len(took)} | {percentile(took, 0.5) * 1000:.1f} ms "
                     f"| {percentile(took, 0.9) * 1000:.1f} ms |")
        print(lines[-1], flush=True)
    lines += ["", f"Machine at end: {machine()}"]
    emit(lines, args.out)


if __name__ == "__main__":
    main()
