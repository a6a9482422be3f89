"""How long the MCP tools find_evidence and verify_quote take on a real release, and proof that
find_evidence's shortcut changes nothing.

    .venv/bin/python bench/mcp/latency.py --release DIR [--site node,nodejs-api] [--reference 40] [--label L] [--no-write]

find_evidence scores with `support.explain` only the passages that share enough of the claim's words
to reach the threshold (`evidence.candidates`). This harness times it in process, claim after claim,
on the claims an agent would send about that release:
- the sentences of `bench/chat/pairs*.json` written about the `--site`s (paraphrases, translations and
  near misses in English, Russian, Japanese, Korean and more), and their passages, verbatim;
- the sentences a real local model wrote about those docs (`../shared/transcripts/real-model-1.5b.json`,
  corpus `--transcripts-corpus`), cut as the chat cuts them.
For `--reference` claims spread over the list it also runs find_evidence with every passage scored, as it was
before the shortcut, and counts the claims whose evidence (passages, order, scores) differs. The
first call pays for the word index (once per release and process); it is reported apart.
verify_quote is timed on the three largest pages: the first quote of a page (its HTML parsed) and
20 more of its passages, quoted whole and in part; list_sources and read_page, 10 calls each; and the
memory verify_quote's page cache holds when it is full of the largest pages.
Writes bench/mcp/results/<date>-latency-<release id>.md.
"""
from __future__ import annotations

import argparse
import gc
import json
import sys
import time
import tracemalloc
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py

from trigsight.answering import evidence  # noqa: E402
from trigsight.answering.answer import SentenceAssembler  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402
from trigsight_site import mcp_tools  # noqa: E402

from common import ROOT, machine, percentile, write_results  # noqa: E402

TRANSCRIPTS = ROOT.parent / "shared" / "transcripts" / "real-model-1.5b.json"


def claims_about(sites: set[str], corpus: str) -> list[tuple[str, str]]:
    """(source, claim) pairs: chat pairs written about `sites`, then the real model's sentences."""
    claims: list[tuple[str, str]] = []
    for file in sorted((ROOT / "bench" / "chat").glob("pairs*.json")):
        for pair in json.loads(file.read_text("utf-8"))["pairs"]:
            if pair.get("site") in sites:
                claims += [(file.name, pair["sentence"]), (f"{file.name} passage", pair["passage"])]
    if TRANSCRIPTS.is_file():
        for transcript in json.loads(TRANSCRIPTS.read_text("utf-8")):
            if transcript["corpus"] == corpus:
                assembler = SentenceAssembler()
                sentences = assembler.feed(transcript["raw_output"]) + assembler.finish()
                claims += [("real model", s.strip()) for s in sentences if s.strip()]
    return list(dict.fromkeys(claims))


def shape(result: evidence.EvidenceResult) -> list[tuple[str, float]]:
    return [(e.passage.id, e.score) for e in result.evidence]


def every_passage(release, claim, threshold, ignore):
    return list(release.passages)


def quote_timings(release: Release) -> list[str]:
    """Table rows: verify_quote's first and further calls on the largest pages."""
    context, rows = mcp_tools.ToolContext(release, ""), []
    for page in sorted(release.pages, key=lambda p: -len(p.text))[:3]:
        passages = release.passages_of(page.path)
        quotes = [p.text for p in passages[::max(1, len(passages) // 10)][:10]]
        quotes += [q[:len(q) // 2] for q in quotes]
        timings, present = [], 0
        for quote in quotes:
            started = time.perf_counter()
            present += mcp_tools.verify_quote({"page": page.slug, "quote": quote}, context)["present"]
            timings.append((time.perf_counter() - started) * 1000)
        rows.append(f"| {page.path} ({len(page.text):,} characters, {len(passages):,} passages) | {timings[0]:.0f} ms | "
                    f"{percentile(timings[1:], 0.5):.1f} ms | {max(timings[1:]):.1f} ms | {present}/{len(quotes)} |")
    return rows


def page_cache_mb(release: Release) -> str:
    """What verify_quote's page cache holds when it is full of the release's largest pages."""
    mcp_tools._PAGES.clear()
    gc.collect()
    tracemalloc.start()
    for page in sorted(release.pages, key=lambda p: -len(p.text))[:mcp_tools.PAGES_KEPT]:
        mcp_tools._page_text(release, page)
    held = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return f"verify_quote's page cache, full of the {mcp_tools.PAGES_KEPT} largest pages: {held / 1e6:.1f} MB"


def page_timings(release: Release) -> list[str]:
    """Table rows: list_sources, and read_page of the largest page."""
    context, rows = mcp_tools.ToolContext(release, ""), []
    largest = max(release.pages, key=lambda p: len(p.text))
    for name, call in (("list_sources", lambda: mcp_tools.list_sources({}, context)),
                       (f"read_page {largest.path}", lambda: mcp_tools.read_page({"page": largest.slug}, context))):
        timings = []
        for _ in range(10):
            started = time.perf_counter()
            call()
            timings.append((time.perf_counter() - started) * 1000)
        rows.append(f"| {name} | {percentile(timings, 0.5):.1f} ms | {max(timings):.1f} ms |")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--site", default="node,nodejs-api", help="the `site`s of bench/chat pairs to take claims from")
    parser.add_argument("--transcripts-corpus", default="node-api-docs")
    parser.add_argument("--reference", type=int, default=40, help="claims also run with every passage scored")
    parser.add_argument("--label", default="", help="added to the results file's name")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    release, retriever = Release.load(args.release), Retriever.load(args.release)
    claims = claims_about(set(args.site.split(",")), args.transcripts_corpus)
    if not claims:
        sys.exit(f"no claims about site {args.site!r}")
    retriever.search_passages("warm up the question encoder", 5)

    started = time.perf_counter()
    first = evidence.find_evidence(release, claims[0][1], retriever)
    first_ms = (time.perf_counter() - started) * 1000
    timings, scored, supported, results = [], [], 0, {}
    for _source, claim in claims:
        started = time.perf_counter()
        result = evidence.find_evidence(release, claim, retriever)
        timings.append((time.perf_counter() - started) * 1000)
        scored.append(result.scored)
        supported += result.supported
        results[claim] = shape(result)
    assert shape(first) == results[claims[0][1]]

    shortcut, differ, reference_ms, with_evidence = evidence.candidates, [], [], 0
    evidence.candidates = every_passage
    try:
        step = max(1, len(claims) // max(args.reference, 1))
        for _source, claim in claims[::step][:args.reference]:
            started = time.perf_counter()
            whole = evidence.find_evidence(release, claim, retriever)
            reference_ms.append((time.perf_counter() - started) * 1000)
            if shape(whole) != results[claim]:
                differ.append(claim)
            with_evidence += whole.supported
    finally:
        evidence.candidates = shortcut

    sources = sorted({source for source, _ in claims})
    lines = [f"# find_evidence latency, {date.today().isoformat()}", "",
             f"- release `{release.release_id}`: {len(release.pages)} pages, {len(release.passages):,} passages",
             f"- claims: {len(claims)} ({', '.join(sources)}); supported at the default threshold: {supported}",
             f"- retrieval (orders evidence only): {retriever.backend}",
             f"- machine: {machine()}", "",
             "| run | claims | p50 | p90 | max | passages scored (median) |", "|---|---|---|---|---|---|",
             f"| first call (builds the word index) | 1 | {first_ms:.0f} ms | | | {first.scored} |",
             f"| shortcut (shipped) | {len(timings)} | {percentile(timings, 0.5):.0f} ms | "
             f"{percentile(timings, 0.9):.0f} ms | {max(timings):.0f} ms | {percentile(scored, 0.5):.0f} |"]
    if reference_ms:
        lines.append(f"| every passage scored | {len(reference_ms)} | {percentile(reference_ms, 0.5):.0f} ms | "
                     f"{percentile(reference_ms, 0.9):.0f} ms | {max(reference_ms):.0f} ms | {len(release.passages):,} |")
        lines += ["", f"Evidence (passages, order, scores) differs between the two on {len(differ)} of "
                      f"{len(reference_ms)} claims ({with_evidence} of them supported)."]
        lines += [f"- differs: {claim}" for claim in differ]
    lines += ["", "| verify_quote on | first quote | further quotes p50 | max | present once |", "|---|---|---|---|---|",
              *quote_timings(release), "", "| tool, 10 calls | p50 | max |", "|---|---|---|", *page_timings(release),
              "", page_cache_mb(release)]
    label = f"-{args.label}" if args.label else ""
    out = HERE / "results" / f"{date.today().isoformat()}-latency-{release.release_id}{label}.md"
    if args.no_write:
        print("\n".join(lines))
    else:
        write_results(lines, out)
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
