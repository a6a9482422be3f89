"""Measure the chat end to end through the real server: resolve rate, drops, strict filter, latency.

    .venv/bin/python bench/chat/run.py [--release DIR] [--injection-release DIR] [--runs N] [--live]

1. Replays bench/chat/transcripts.json (realistic and adversarial model outputs) through
   gunicorn serving a release, the model being tests/fake_llm.py (or, with --live, the
   real server named by OPENAI_API_KEY / OPENAI_BASE_URL / TRIGSIGHT_MODEL, asked the same
   questions). Reports the resolve rate (resolved / emitted handles), what was dropped
   and whether each transcript met its expectation; one streamed transcript shows when
   its first chip arrived against when the stream ended.
2. The strict filter's precision and recall on bench/chat/pairs.json, over a sweep of
   thresholds, marking the one the chat uses.
3. Offline answers (no model) to bench/chat/questions.json: right answers and refusals
   per language, and latency p50/p90 over --runs rounds (after one warm-up round).

Without --release it builds the bundled content/ with the real CLI (a few minutes: the
browser gate loads every page). Writes bench/chat/results/<date>.md and prints it.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from datetime import date
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py
import common  # noqa: E402
from common import ROOT, percentile  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))

from trigsight.answering import offline as offline_answers  # noqa: E402
from trigsight.answering.answer import SUPPORT_THRESHOLD, sentence_support  # noqa: E402
from trigsight.answering.conversation import CONTEXT_CHUNKS  # noqa: E402
from trigsight.answering.model_client import ModelSettings  # noqa: E402
from trigsight.gates.liveserver import serve_release  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402
from trigsight.settings import Settings  # noqa: E402

from fake_llm import Script, serve  # noqa: E402
from transcripts import misses  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def build_release(content: Path, out: Path) -> Path:
    print(f"building a release of {content} into {out} (the browser gate takes a while) …", file=sys.stderr)
    return common.release(content, out, cache=ROOT / ".cache" / "bench-chat" / "proofs").out


def ask(client: httpx.Client, base: str, question: str) -> tuple[dict, float]:
    started = time.perf_counter()
    response = client.post(f"{base}/api/chat", json={"question": question}, headers={"Accept": "application/json"})
    response.raise_for_status()
    return response.json(), time.perf_counter() - started


def stream_timing(client: httpx.Client, base: str, question: str) -> dict:
    """Seconds to the first `sentence` event carrying a chip, and to the end of the stream."""
    started, first, sentences = time.perf_counter(), None, 0
    with client.stream("POST", f"{base}/api/chat", json={"question": question},
                       headers={"Accept": "text/event-stream"}) as response:
        for line in response.iter_lines():
            if line.startswith("data:") and '"citations": [{' in line:
                sentences += 1
                first = first if first is not None else time.perf_counter() - started
    return {"first_chip": first, "end": time.perf_counter() - started, "sentences": sentences}


def replay(release: Path, transcripts: list[dict], live: bool) -> list[dict]:
    rows = []
    if live:
        env = {}
        with serve_release(release, env=env) as base, httpx.Client(timeout=120) as client:
            for t in transcripts:
                result, seconds = ask(client, base, t["question"])
                rows.append({"transcript": t, "result": result, "seconds": seconds, "misses": []})
        return rows
    with serve() as fake:
        fake.add(*(Script.from_json(t) for t in transcripts))
        env = {"OPENAI_BASE_URL": fake.base_url, "OPENAI_API_KEY": "", "TRIGSIGHT_CHAT_TIMEOUT": "3",
               "TRIGSIGHT_MODEL": "scripted"}
        with serve_release(release, env=env) as base, httpx.Client(timeout=60) as client:
            for t in transcripts:
                result, seconds = ask(client, base, t["question"])
                rows.append({"transcript": t, "result": result, "seconds": seconds,
                             "misses": misses(t.get("expect", {}), result)})
            slow = next((t for t in transcripts if t.get("delay")), None)
            if slow:
                rows.append({"timing": stream_timing(client, base, slow["question"]), "transcript": slow})
    return rows


def offline(release: Path, questions: dict, runs: int) -> dict:
    env = {"OPENAI_BASE_URL": "", "OPENAI_API_KEY": ""}
    asked = [(kind, q) for kind in ("answerable", "unanswerable") for q in questions[kind]]
    latencies, outcomes, cold = [], [], None
    with serve_release(release, env=env) as base, httpx.Client(timeout=120) as client:
        for number in range(runs + 1):
            for kind, q in asked:
                result, seconds = ask(client, base, q["question"])
                if cold is None:
                    cold = seconds
                if number == 0:       # the warm-up round: each worker loads the question embedder once
                    quoted = [c["page"] for s in result["answer"] for c in s["citations"]]
                    right = (bool(quoted) and any(p in q["pages"] for p in quoted)) if kind == "answerable" \
                        else not quoted
                    outcomes.append({"kind": kind, "language": q["language"], "question": q["question"],
                                     "right": right, "quoted": quoted, "mode": result["mode"]})
                else:
                    latencies.append(seconds)
    return {"latencies": latencies, "outcomes": outcomes, "cold": cold}


def breakdown(release: Path, questions: dict, runs: int, settings: Settings) -> dict:
    """In-process p50 of the two parts of an offline answer: retrieval, then choosing the quotes."""
    published = Release.load(release)
    retriever = Retriever.load(release, api_key=settings.openai_api_key, base_url=settings.openai_base_url)
    asked = [q["question"] for kind in ("answerable", "unanswerable") for q in questions[kind]]
    retriever.search(asked[0], k=CONTEXT_CHUNKS)      # load the question embedder first
    searching, quoting = [], []
    for question in asked * runs:
        started = time.perf_counter()
        hits = retriever.search(question, k=CONTEXT_CHUNKS)
        searched = time.perf_counter()
        offline_answers.answer(question, hits, published)
        searching.append(searched - started)
        quoting.append(time.perf_counter() - searched)
    return {"retrieval": statistics.median(searching), "quoting": statistics.median(quoting)}


def pairs_sweep(pairs: list[dict]) -> list[dict]:
    scores = [(sentence_support(p["sentence"], p["passage"], ("trigsight",)), p["supported"]) for p in pairs]
    positives = sum(1 for _, label in scores if label)
    rows = []
    for threshold in sorted(set(THRESHOLDS) | {SUPPORT_THRESHOLD}):
        tp = sum(1 for s, label in scores if s >= threshold and label)
        fp = sum(1 for s, label in scores if s >= threshold and not label)
        rows.append({"threshold": threshold, "tp": tp, "fp": fp, "fn": positives - tp,
                     "tn": len(scores) - positives - fp,
                     "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / positives if positives else 0.0})
    return rows


def report(args, release: Path, replayed: list[dict], sweep: list[dict], answers: dict, pairs: int,
           settings: Settings) -> str:
    retriever = Retriever.load(release, api_key=settings.openai_api_key, base_url=settings.openai_base_url)
    published = Release.load(release)
    model = ModelSettings(settings.openai_api_key, settings.openai_base_url, settings.model)
    backend = model.describe() if args.live else "scripted replay (tests/fake_llm.py), not a real model"
    lines = [f"# Chat bench, {date.today().isoformat()}", "",
             f"- model backend: **{backend}**",
             f"- retrieval backend: {retriever.backend}",
             f"- release: {published.release_id} of `{published.manifest.get('content_dir', '?')}` "
             f"({len(published.passages)} allowlisted passages, {len(retriever.passage_ids)} indexed)",
             f"- command: `.venv/bin/python bench/chat/run.py {' '.join(sys.argv[1:])}`".rstrip(), ""]
    lines += ["## Resolve rate and drops over the transcripts", "",
              "| transcript | kind | mode | emitted | resolved | shown | dropped citations | dropped sentences "
              "| links+tags cut | expectation |", "|---|---|---|---|---|---|---|---|---|---|"]
    totals: dict[str, dict[str, int]] = {}
    for row in replayed:
        if "timing" in row:
            continue
        t, r = row["transcript"], row["result"]
        shown = sum(1 for s in r["answer"] if s["status"] != "refusal")
        kind = totals.setdefault(t["kind"], {"emitted": 0, "resolved": 0, "citations": 0, "sentences": 0,
                                             "links": 0, "markup": 0, "met": 0, "count": 0})
        for key in ("emitted", "resolved"):
            kind[key] += r["resolution"][key]
        for key in ("citations", "sentences", "links", "markup"):
            kind[key] += r["dropped"][key]
        kind["count"] += 1
        kind["met"] += not row["misses"]
        lines.append(f"| {t['name']} | {t['kind']} | {r['mode']} | {r['resolution']['emitted']} | "
                     f"{r['resolution']['resolved']} | {shown} | {r['dropped']['citations']} | "
                     f"{r['dropped']['sentences']} | {r['dropped']['links'] + r['dropped']['markup']} | "
                     f"{'met' if not row['misses'] else 'missed: ' + ', '.join(row['misses'])} |")
    lines.append("")
    for name, kind in totals.items():
        rate = kind["resolved"] / kind["emitted"] if kind["emitted"] else float("nan")
        lines.append(f"- **{name}**: resolve rate {kind['resolved']}/{kind['emitted']} = {rate:.1%}; dropped "
                     f"{kind['citations']} citations and {kind['sentences']} sentences; cut {kind['links']} links "
                     f"and {kind['markup']} tags; expectations met {kind['met']}/{kind['count']}")
    timing = next((row["timing"] for row in replayed if "timing" in row), None)
    if timing:
        lines.append(f"- streamed `{next(r['transcript']['name'] for r in replayed if 'timing' in r)}`: first chip "
                     f"after {timing['first_chip']:.2f} s, stream ended after {timing['end']:.2f} s "
                     f"({timing['sentences']} sentences with chips)")
    lines += ["", f"## Strict filter on {pairs} hand-written pairs (bench/chat/pairs.json)", "",
              "| threshold | precision | recall | TP | FP | FN | TN |", "|---|---|---|---|---|---|---|"]
    for row in sweep:
        mark = " **(chat)**" if row["threshold"] == SUPPORT_THRESHOLD else ""
        lines.append(f"| {row['threshold']:.2f}{mark} | {row['precision']:.3f} | {row['recall']:.3f} | {row['tp']} | "
                     f"{row['fp']} | {row['fn']} | {row['tn']} |")
    outcomes = answers["outcomes"]
    lines += ["", "## Offline answers (extractive, no model)", "",
              "| language | answerable: quoted a right page | unanswerable: refused |", "|---|---|---|"]
    for language in sorted({o["language"] for o in outcomes}):
        got = {kind: [o for o in outcomes if o["language"] == language and o["kind"] == kind]
               for kind in ("answerable", "unanswerable")}
        lines.append(f"| {language} | {sum(o['right'] for o in got['answerable'])}/{len(got['answerable'])} | "
                     f"{sum(o['right'] for o in got['unanswerable'])}/{len(got['unanswerable'])} |")
    missed = [o for o in outcomes if not o["right"]]
    if missed:
        lines += ["", "Missed: " + "; ".join(f"{o['question']} ({o['kind']}, quoted {o['quoted'] or 'nothing'})"
                                               for o in missed)]
    latencies = answers["latencies"]
    lines += ["", f"Latency of an offline answer (POST /api/chat, JSON, gunicorn 2 workers on loopback, "
                  f"{len(latencies)} answers over {args.runs} rounds after a warm-up round): "
                  f"**p50 {percentile(latencies, .5) * 1000:.0f} ms**, p90 {percentile(latencies, .9) * 1000:.0f} ms, "
                  f"mean {statistics.mean(latencies) * 1000:.0f} ms; the very first answer of a fresh server "
                  f"(loading the question embedder) took {answers['cold']:.2f} s. In process, the same answers "
                  f"spend p50 {answers['parts']['retrieval'] * 1000:.0f} ms retrieving and "
                  f"{answers['parts']['quoting'] * 1000:.0f} ms choosing the quotes. Machine load average while "
                  f"measuring: {answers['load']}.", ""]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, help="a published release of content/ (default: build one)")
    parser.add_argument("--injection-release", type=Path, help="a release of bench/chat/injection (default: build)")
    parser.add_argument("--runs", type=int, default=3, help="timed rounds over the offline questions")
    parser.add_argument("--live", action="store_true", help="ask the real model named by OPENAI_* instead")
    args = parser.parse_args()
    settings = Settings.from_environ(os.environ)
    work = ROOT / ".cache" / "bench-chat"
    transcripts = json.loads((HERE / "transcripts.json").read_text("utf-8"))
    release = args.release or build_release(ROOT / "content", work / "release")
    injection = args.injection_release or build_release(ROOT / transcripts["injection"]["content"],
                                                        work / "injection-release")
    replayed = replay(release, transcripts["transcripts"], args.live)
    replayed += replay(injection, transcripts["injection"]["transcripts"], args.live)
    pairs = json.loads((HERE / "pairs.json").read_text("utf-8"))["pairs"]
    questions = json.loads((HERE / "questions.json").read_text("utf-8"))
    answers = offline(release, questions, args.runs)
    answers["parts"] = breakdown(release, questions, args.runs, settings)
    answers["load"] = " / ".join(f"{v:.1f}" for v in os.getloadavg()) + f" on {os.cpu_count()} cores"
    text = report(args, release, replayed, pairs_sweep(pairs), answers, len(pairs), settings)
    out = HERE / "results" / f"{date.today().isoformat()}{'-live' if args.live else ''}.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, "utf-8")
    print(text)
    print(f"written to {out.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
