"""HNSW graphs against the exact scan on a real published release: agreement and latency.

    .venv/bin/python bench/retrieval/graphs.py --release /tmp/node-release [--questions 200]

The release's index must have graphs (layout.ANN_MIN_PASSAGES passages or more). Questions
are made from the release itself: for every n-th passage, its first twelve words (a
question that finds its passage) and, for a second kind, six words taken from the middle
of two passages of different pages (a question the corpus answers only in part). Each
question is searched twice in one process: through the graphs, and by the exact scan over
every vector (the same Retriever with its graphs set aside). Reports how many of the exact
scan's results the graph path returns (search() top 5, search_passages() top 10, in any
order), how often the lists are identical, and wall and CPU time per search() for both.
Writes bench/retrieval/results/<date>-graphs.md (or --out).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py
import common  # noqa: E402


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def questions(release: Path, count: int) -> list[str]:
    passages = [p for p in json.loads((release / "allowlist.json").read_text("utf-8"))["passages"]
                if len(p["text"].split()) >= 8]
    rng = random.Random(5)
    picked = passages[::max(1, len(passages) // (count // 2))][:count // 2]
    out = [" ".join(p["text"].split()[:12]) for p in picked]
    while len(out) < count:
        a, b = rng.sample(passages, 2)
        out.append(" ".join(a["text"].split()[2:5] + b["text"].split()[2:5]))
    return out


def timed(function, *args) -> tuple[object, float, float]:
    wall, cpu = time.perf_counter(), time.thread_time()
    result = function(*args)
    return result, time.perf_counter() - wall, time.thread_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--questions", type=int, default=200)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    from trigsight.retrieval.search import Retriever

    retriever = Retriever.load(args.release)
    if retriever.graphs is None:
        raise SystemExit(f"{args.release} has no HNSW graphs (fewer passages than layout.ANN_MIN_PASSAGES)")
    graphs = retriever.graphs
    asked = questions(args.release, args.questions)
    retriever.search("warm up the encoder")
    load_start = load_average()
    runs: dict[str, dict] = {}
    for name, use in (("graphs", graphs), ("exact scan", None)):
        retriever.graphs = use
        chunks, passages, wall, cpu = [], [], [], []
        for question in asked:
            hits, seconds, cpu_seconds = timed(retriever.search, question, 5)
            chunks.append([h.chunk_id for h in hits])
            wall.append(seconds)
            cpu.append(cpu_seconds)
            passages.append([p for p, _ in retriever.search_passages(question, 10)])
        runs[name] = {"chunks": chunks, "passages": passages, "wall": wall, "cpu": cpu}
    graph, exact = runs["graphs"], runs["exact scan"]

    def overlap(level: str) -> float:
        return float(np.mean([len(set(g) & set(e)) / max(len(e), 1) for g, e in zip(graph[level], exact[level])]))

    def same(level: str) -> float:
        return float(np.mean([g == e for g, e in zip(graph[level], exact[level])]))

    def ms(values: list[float], share: int) -> str:
        return f"{1000 * float(np.percentile(values, share)):.1f}"

    meta = retriever.meta
    lines = [f"# HNSW graphs against the exact scan — {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC", "",
             f"Release {args.release.resolve().name}: {len(retriever.passage_ids):,} passages, {len(retriever.chunks):,} "
             f"chunks, {retriever.candidates} candidates per graph ({meta['ann']['library']}, {meta['ann']['dtype']}). "
             f"{len(asked)} questions made from the release. {os.cpu_count()} cores; load average at start "
             f"{load_start}, at end {load_average()}. Command: `python bench/retrieval/graphs.py "
             f"{' '.join(sys.argv[1:])}`.", "",
             "| | search() top 5 | search_passages() top 10 |", "|---|---|---|",
             f"| exact scan's results the graphs also return | {overlap('chunks'):.4f} | {overlap('passages'):.4f} |",
             f"| identical lists | {same('chunks'):.4f} | {same('passages'):.4f} |", "",
             "| search() | wall p50 / p90 (ms) | CPU p50 / p90 (ms) |", "|---|---|---|",
             *[f"| {name} | {ms(r['wall'], 50)} / {ms(r['wall'], 90)} | {ms(r['cpu'], 50)} / {ms(r['cpu'], 90)} |"
               for name, r in runs.items()], "",
             "CPU is the searching thread's own time (other processes on the machine do not inflate it)."]
    common.write_results(lines, args.out or HERE / "results" / f"{datetime.now(timezone.utc):%Y-%m-%d}-graphs.md")


if __name__ == "__main__":
    main()
