"""Retrieval at scale: index build time, per-query latency and peak memory at 1k-100k passages.

    .venv/bin/python bench/retrieval/scale.py [--sizes 1000,10000,100000] [--queries 200]

The corpus is synthetic (made here, seeded): paragraphs of three 40-token sentences drawn
from a Zipf distribution over a 30,000-word vocabulary whose frequent ranks are the real
English words of the bundled content/ and whose long tail is pronounceable pseudo-words,
so BM25 sees a realistic tail and the sentence encoder sees mostly real words (its cost
grows with subword pieces, and random strings would inflate it several times). Each size runs in
fresh subprocesses, so each peak RSS (ru_maxrss) belongs to one job:
  build      trigsight.retrieval.index.build() on the passages: chunking, BM25 for both levels, and
             embedding every chunk and passage with the offline model (cold vector cache).
             Above --embed-all passages only an even sample of --sample texts is embedded
             for real and the embedding time is extrapolated from its rate (the rate does
             not depend on corpus size; 100k passages would take hours on 2 shared cores);
             the other rows get seeded random unit vectors, which cost a query exactly as
             much as real ones (questions are always embedded by the real model);
  query      Retriever.load() then each leg alone and the fused search, per question (wall
             time and the thread's CPU time: on a shared machine the CPU time is the figure
             other work does not inflate); the vector backend (exact scan, or HNSW graphs
             from layout.ANN_MIN_PASSAGES on) and, with graphs, how many of the exact scan's
             results the graph path returns (search() top 5, search_passages() top 10);
  reference  rank-bm25 (the scoring reference), rank-bm25-rs and bm25s on the same tokens.
Prints a markdown table and writes it to bench/retrieval/results/<date>-scale.md.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py
import common  # noqa: E402

QUERY_LEGS = ("embed question", "bm25 leg", "vector leg", "hybrid search()", "search() CPU", "search_passages()")
SENTENCE_TOKENS = 40
SENTENCES_PER_BLOCK = 3
VOCABULARY = 30000


@dataclass(frozen=True)
class SyntheticPassage:
    id: str
    page: str
    text: str
    block: int
    kind: str
    headings: tuple


def vocabulary(n: int, rng: random.Random) -> list[str]:
    """Real words of the bundled English pages, most frequent first, then pseudo-words."""
    counts: dict[str, int] = {}
    for file in sorted((HERE.parent.parent / "content").glob("*.md")) + sorted((HERE.parent.parent / "content").glob("gates/*.md")):
        for word in re.findall(r"[a-z]+", file.read_text("utf-8").lower()):
            counts[word] = counts.get(word, 0) + 1
    words = sorted(counts, key=lambda w: (-counts[w], w))[:n]
    syllables = [c + v for c in "bcdfghklmnprstvz" for v in "aeiou"]
    seen = set(words)
    while len(words) < n:
        word = "".join(rng.choice(syllables) for _ in range(rng.randint(2, 4)))
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


def corpus(size: int, seed: int = 7) -> tuple[list[SyntheticPassage], list[str]]:
    rng = random.Random(seed)
    words = vocabulary(VOCABULARY, rng)
    weights = 1 / np.arange(1, len(words) + 1)     # Zipf, s = 1
    picks = np.random.default_rng(seed).choice(len(words), size=(size, SENTENCE_TOKENS), p=weights / weights.sum())
    passages = []
    for number, row in enumerate(picks):
        page, block = number // 30, number // SENTENCES_PER_BLOCK
        text = " ".join(words[i] for i in row).capitalize() + "."
        passages.append(SyntheticPassage(f"p{number}", f"/page-{page}", text, block, "p", (f"Section {block % 7}",)))
    return passages, words


def questions(passages: list[SyntheticPassage], count: int, seed: int = 11) -> list[str]:
    """Half: five words lifted from a passage; half: five words of the mid-frequency band."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        if i % 2 == 0:
            out.append(" ".join(rng.sample(rng.choice(passages).text.rstrip(".").split(), 5)))
        else:
            band = [w for p in rng.sample(passages, 5) for w in p.text.rstrip(".").split()[10:30]]
            out.append(" ".join(rng.sample(band, 5)))
    return out


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def percentiles(seconds: list[float]) -> dict:
    ms = np.array(seconds) * 1000
    return {"p50_ms": round(float(np.percentile(ms, 50)), 3), "p90_ms": round(float(np.percentile(ms, 90)), 3)}


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


class SampledEmbedder:
    """The offline model on an even sample of the texts; seeded random unit vectors elsewhere."""

    def __init__(self, real, sample: int):
        self.real, self.sample = real, sample
        self.model_id, self.dims = real.model_id, real.dims
        self.embedded_for_real, self.real_seconds = 0, 0.0

    def embed(self, texts):
        rng = np.random.default_rng(3)
        vectors = rng.standard_normal((len(texts), self.dims)).astype(np.float32)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        picked = np.unique(np.linspace(0, len(texts) - 1, min(self.sample, len(texts))).astype(int))
        started = time.perf_counter()
        vectors[picked] = self.real.embed([texts[i] for i in picked])
        self.real_seconds += time.perf_counter() - started
        self.embedded_for_real += len(picked)
        return vectors


def job_build(size: int, folder: Path, embed_all: int, sample: int) -> dict:
    from trigsight.retrieval import embedders, index
    from trigsight.retrieval.bm25 import BM25Index
    from trigsight.retrieval.chunks import build_chunks
    from trigsight.retrieval.tokenize import tokenize

    passages, _ = corpus(size)
    baseline = peak_mb()
    started = time.perf_counter()
    chunks = build_chunks(passages)
    tokens = [tokenize(c.indexed_text) for c in chunks]
    BM25Index.build(tokens)
    BM25Index.build([tokenize(p.text) for p in passages])
    bm25_seconds = time.perf_counter() - started
    encoder = embedders.offline()
    encoder.embed(["warm up"])
    sampled = SampledEmbedder(encoder, sample) if size > embed_all else None
    cache = embedders.VectorCache(folder / "cache", encoder.model_id)
    result = index.build(passages, folder / "release" / "index", sampled or encoder, cache)
    if sampled:
        embed_s = sampled.real_seconds / sampled.embedded_for_real * result.embedded
        rest_s = result.seconds - sampled.real_seconds
    else:
        embed_s, rest_s = result.seconds - bm25_seconds, bm25_seconds
    return {"chunks": len(chunks), "bm25_build_s": round(bm25_seconds, 2), "embedded": result.embedded,
            "embedded_for_real": sampled.embedded_for_real if sampled else result.embedded,
            "embed_s": round(embed_s, 1), "index_build_s": round(rest_s + embed_s, 1),
            "ms_per_text": round(1000 * embed_s / max(result.embedded, 1), 1),
            "peak_rss_mb": round(peak_mb()), "rss_before_mb": round(baseline)}


def job_query(size: int, folder: Path, count: int) -> dict:
    from trigsight.retrieval import embedders
    from trigsight.retrieval.search import Retriever

    passages, _ = corpus(size)
    asked = questions(passages, count)
    del passages
    started = time.perf_counter()
    retriever = Retriever.load(folder / "release")
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    retriever.search("warm the model")
    first_s = time.perf_counter() - started
    timings: dict[str, list[float]] = {"embed question": [], "bm25 leg": [], "vector leg": [], "hybrid search()": [],
                                       "search() CPU": [], "search_passages()": []}
    from trigsight.retrieval.tokenize import tokenize

    load_before = load_average()

    for question in asked:
        tick = time.perf_counter()
        tokens = tokenize(question)
        scores = retriever.bm25_chunks.scores(tokens)
        retriever.bm25_chunks.coverage(tokens)
        np.argpartition(-scores, min(20, len(scores) - 1))
        timings["bm25 leg"].append(time.perf_counter() - tick)
        tick = time.perf_counter()
        vector = retriever.embedder.embed([question])[0]
        timings["embed question"].append(time.perf_counter() - tick)
        tick = time.perf_counter()
        if getattr(retriever, "graphs", None) is None:   # (getattr: the harness also times older trees)
            np.argpartition(-(retriever.vectors_chunks @ vector), 20)
            np.argpartition(-(retriever.vectors_passages @ vector), 20)
        else:
            retriever._cosines_of_candidates(vector, scores, retriever.bm25_passages.scores(tokens))
        timings["vector leg"].append(time.perf_counter() - tick)
        tick, cpu = time.perf_counter(), time.thread_time()
        retriever.search(question, k=5)
        timings["hybrid search()"].append(time.perf_counter() - tick)
        timings["search() CPU"].append(time.thread_time() - cpu)
        tick = time.perf_counter()
        retriever.search_passages(question, k=10)
        timings["search_passages()"].append(time.perf_counter() - tick)
    load_after = load_average()
    backend = ("exact scan" if getattr(retriever, "graphs", None) is None
               else f"HNSW graphs ({retriever.candidates} candidates each)")
    agreement = {}
    if backend != "exact scan":
        graph = [([h.chunk_id for h in retriever.search(q, k=5)], [p for p, _ in retriever.search_passages(q, k=10)])
                 for q in asked]
        retriever.graphs = None
        exact = [([h.chunk_id for h in retriever.search(q, k=5)], [p for p, _ in retriever.search_passages(q, k=10)])
                 for q in asked]
        agreement = {name: round(float(np.mean([len(set(g[i]) & set(e[i])) / max(len(e[i]), 1)
                                               for g, e in zip(graph, exact)])), 4)
                     for i, name in enumerate(("search@5", "search_passages@10"))}
    return {"backend": backend, "agreement": agreement, "load": f"{load_before} → {load_after}",
            "load_s": round(load_s, 3), "first_query_s": round(first_s, 2),
            "model_load_s": round(embedders.offline().load_seconds or 0, 2),
            **{name: percentiles(values) for name, values in timings.items()}, "peak_rss_mb": round(peak_mb())}


def job_reference(size: int, count: int) -> dict:
    from trigsight.retrieval.tokenize import tokenize

    passages, _ = corpus(size)
    tokens = [tokenize(p.text) for p in passages]
    asked = [tokens for tokens in (tokenize(q) for q in questions(passages, count)) if tokens]  # bm25s needs one
    out = {}
    import bm25s
    import rank_bm25
    import rank_bm25_rs
    from trigsight.retrieval.bm25 import BM25Index

    for name, build, query, limit in [
        ("trigsight BM25Index", lambda: BM25Index.build(tokens), lambda m, q: m.scores(q), count),
        ("rank-bm25", lambda: rank_bm25.BM25Okapi(tokens), lambda m, q: m.get_scores(q), 20),
        ("rank-bm25-rs", lambda: rank_bm25_rs.BM25Okapi(tokens), lambda m, q: m.get_scores(q), count),
        ("bm25s", lambda: _bm25s(bm25s, tokens), lambda m, q: m.get_scores(q), count),
    ]:
        started = time.perf_counter()
        model = build()
        built = time.perf_counter() - started
        seconds = []
        for q in asked[:limit]:
            tick = time.perf_counter()
            query(model, q)
            seconds.append(time.perf_counter() - tick)
        out[name] = {"build_s": round(built, 2), **percentiles(seconds), "queries": len(seconds)}
        del model
    return out


def _bm25s(bm25s, tokens):
    model = bm25s.BM25(method="robertson", k1=1.5, b=0.75)   # Okapi idf, like rank-bm25 without its floor
    model.index(tokens, show_progress=False)
    return model


def run_job(*args: str) -> dict:
    result = subprocess.run([sys.executable, __file__, "--job", *args], capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"job {args} failed:\n{result.stderr}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--embed-all", type=int, default=1000,
                        help="Largest size whose every text is embedded for real (default 1000).")
    parser.add_argument("--sample", type=int, default=600, help="Texts embedded for real above --embed-all.")
    parser.add_argument("--skip-reference", action="store_true", help="Leave out the BM25 libraries' comparison.")
    parser.add_argument("--job", nargs="+", help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    if args.job:
        kind, size, *rest = args.job
        size = int(size)
        if kind == "build":
            print(json.dumps(job_build(size, Path(rest[0]), int(rest[1]), int(rest[2]))))
        elif kind == "query":
            print(json.dumps(job_query(size, Path(rest[0]), int(rest[1]))))
        else:
            print(json.dumps(job_reference(size, int(rest[0]))))
        return

    from trigsight.retrieval.embedders import USE_MODEL_ID

    lines = [f"# Retrieval scale — {datetime.now(timezone.utc):%Y-%m-%d}", "",
             f"Machine: {os.cpu_count()} cores, {platform.machine()}, Python {platform.python_version()}, "
             f"numpy {np.__version__}. Offline vector model `{USE_MODEL_ID}` (512-d). Synthetic corpus: "
             f"{SENTENCE_TOKENS}-token sentences, {SENTENCES_PER_BLOCK} per paragraph, Zipf vocabulary of "
             f"{VOCABULARY}; {args.queries} questions of 5 words. Command: `python bench/retrieval/scale.py "
             f"{' '.join(sys.argv[1:])}`; trigsight from `{Path(__import__('trigsight').__file__).parent}`. Load average at start: "
             f"{load_average()} (other work on this machine slows every figure).", ""]
    build_rows, query_rows, reference_rows = [], [], []
    for size in [int(s) for s in args.sizes.split(",")]:
        with tempfile.TemporaryDirectory() as folder:
            print(f"[{size}] build ...", file=sys.stderr, flush=True)
            built = run_job("build", str(size), folder, str(args.embed_all), str(args.sample))
            print(f"[{size}] {built}", file=sys.stderr, flush=True)
            queried = run_job("query", str(size), folder, str(args.queries))
            print(f"[{size}] {queried}", file=sys.stderr, flush=True)
        reference = {} if args.skip_reference else run_job("reference", str(size), str(args.queries))
        print(f"[{size}] {reference}", file=sys.stderr, flush=True)
        extrapolated = built["embedded_for_real"] < built["embedded"]
        embed = (f"≈{built['embed_s']} (from {built['embedded_for_real']} real)" if extrapolated
                 else f"{built['embed_s']}")
        build_rows.append(f"| {size:,} | {built['chunks']:,} | {built['bm25_build_s']} | {built['embedded']:,} | "
                          f"{embed} | {built['ms_per_text']} | {'≈' if extrapolated else ''}{built['index_build_s']} | "
                          f"{built['peak_rss_mb']} |")
        agreement = ", ".join(f"{k} {v}" for k, v in queried["agreement"].items()) or "exact"
        query_rows.append(f"| {size:,} | {queried['backend']} | {queried['load']} | {queried['load_s']} | "
                          f"{queried['first_query_s']} | " + " | ".join(
            f"{queried[leg]['p50_ms']} / {queried[leg]['p90_ms']}" for leg in QUERY_LEGS) +
            f" | {agreement} | {queried['peak_rss_mb']} |")
        reference_rows += [] if not reference else [f"| {size:,} | " + " | ".join(
            f"{r['build_s']} s, {r['p50_ms']} / {r['p90_ms']} ms ({r['queries']} q)" for r in reference.values()) + " |"]
    lines += ["## Build (trigsight release's index stage)", "",
              "| passages | chunks | BM25 build, both levels (s) | texts to embed | embedding (s) | ms per text "
              "| index.build total (s) | peak RSS (MB) |",
              "|---|---|---|---|---|---|---|---|", *build_rows, "",
              f"Peak RSS above {args.embed_all:,} passages holds random vectors in place of most real ones: same "
              "size, so the same memory.", "",
              "## Query (a server worker: Retriever.load, then questions)", "",
              "| passages | vector backend | load average during | load (s) | first question incl. model load (s) | "
              + " | ".join(f"{leg} p50 / p90 (ms)" for leg in QUERY_LEGS) +
              " | graph results also in the exact scan's | peak RSS (MB) |",
              "|---" * (7 + len(QUERY_LEGS)) + "|", *query_rows, "",
              "The vector leg column is the cosine work alone (the question already embedded); "
              "`search() CPU` is the searching thread's CPU time, which other processes on the machine "
              "do not inflate the way they inflate wall time.", "",
              "## BM25 libraries on the same tokens (one level, passages; build, then query p50 / p90)", "",
              "| passages | trigsight BM25Index | rank-bm25 (reference) | rank-bm25-rs | bm25s |", "|---|---|---|---|---|",
              *reference_rows, ""]
    lines.append(f"Load average at end: {load_average()}.")
    common.write_results(lines, args.out or HERE / "results" / f"{datetime.now(timezone.utc):%Y-%m-%d}-scale.md")


if __name__ == "__main__":
    main()
