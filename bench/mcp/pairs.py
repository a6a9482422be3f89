"""find_evidence on real docs: does it confirm a claim with the passage it was written about, and only then?

    .venv/bin/python bench/mcp/pairs.py --release DIR [--site node,nodejs-api] [--no-write]

The pairs of `bench/chat/pairs*.json` written about `--site` (a sentence, the passage it was
written from, and whether that passage supports it: paraphrases, translations, near misses with a
number, a role or a scope changed) are replayed as MCP claims against the release those docs were
released into. A supported pair is found when find_evidence returns its passage; an unsupported one
is a false confirmation when find_evidence returns its passage, the one that does not support it
(any other passage it returns may support the claim, so it is counted apart, not as wrong).
Same-language and cross-language pairs are reported apart: find_evidence matches words, so a claim in
another language than the pages' is never confirmed. Writes bench/mcp/results/<date>-pairs-<release id>.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py

from trigsight.answering.evidence import find_evidence  # noqa: E402
from trigsight.languages import language_of  # noqa: E402
from trigsight.matching.textmodel import normalise  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402

from common import ROOT, machine, write_results  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, required=True)
    parser.add_argument("--site", default="node,nodejs-api", help="the `site`s of bench/chat pairs to replay")
    parser.add_argument("--no-write", action="store_true")
    args = parser.parse_args()
    release, sites = Release.load(args.release), set(args.site.split(","))
    by_text: dict[str, set[str]] = {}
    for passage in release.passages:
        by_text.setdefault(normalise(passage.text), set()).add(passage.id)
    counts: dict[tuple[str, bool], list[int]] = {}
    wrong, unplaced = [], 0
    for file in sorted((ROOT / "bench" / "chat").glob("pairs*.json")):
        for pair in json.loads(file.read_text("utf-8"))["pairs"]:
            if pair.get("site") not in sites:
                continue
            own = by_text.get(normalise(pair["passage"]))
            if not own:
                unplaced += 1
                continue
            returned = {e.passage.id for e in find_evidence(release, pair["sentence"], limit=20).evidence}
            kind = "same language" if language_of(pair["sentence"]) == language_of(pair["passage"]) else "cross-language"
            row = counts.setdefault((kind, pair["supported"]), [0, 0, 0])
            row[0] += 1
            row[1] += bool(returned & own)
            row[2] += bool(returned - own)
            if returned & own and not pair["supported"]:
                wrong.append(f"- {file.name}: “{pair['sentence']}” confirmed by “{pair['passage']}”")
    lines = [f"# find_evidence on claim/passage pairs, {date.today().isoformat()}", "",
             f"- release `{release.release_id}`: {len(release.pages)} pages, {len(release.passages):,} passages; "
             f"pairs of `bench/chat/pairs*.json` about {', '.join(sorted(sites))} "
             f"({unplaced} left out: their passage is not in this release)",
             f"- machine: {machine()}", "",
             "| pairs | supported pairs | their passage returned | unsupported pairs | their passage returned (false) "
             "| precision | recall |", "|---|---|---|---|---|---|---|"]
    for kind in ("same language", "cross-language"):
        good, bad = counts.get((kind, True), [0, 0, 0]), counts.get((kind, False), [0, 0, 0])
        returned = good[1] + bad[1]
        precision = f"{good[1] / returned:.3f}" if returned else "—"
        recall = f"{good[1] / good[0]:.3f}" if good[0] else "—"
        lines.append(f"| {kind} | {good[0]} | {good[1]} | {bad[0]} | {bad[1]} | {precision} | {recall} |")
    lines += ["", "Other passages returned (may support the claim; not judged): "
              + ", ".join(f"{kind} {'supported' if ok else 'unsupported'} {row[2]}" for (kind, ok), row in sorted(counts.items())),
              "", "False confirmations:", *wrong]
    out = HERE / "results" / f"{date.today().isoformat()}-pairs-{release.release_id}.md"
    if args.no_write:
        print("\n".join(lines))
    else:
        write_results(lines, out)


if __name__ == "__main__":
    main()
