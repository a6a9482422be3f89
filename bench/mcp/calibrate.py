"""Calibrate find_evidence: run hand-written claims against a release and sweep the threshold.

    python bench/mcp/calibrate.py [--release DIR] [--no-write]

Without --release it releases content/ into a temporary folder through the real CLI.
The threshold is chosen on bench/mcp/claims.json; bench/mcp/claims-holdout.json (written
after the rules were fixed) is only scored, to show how the choice generalises.
A true claim is a true positive when find_evidence supports it with a passage from one of
its expected pages; a fabricated claim is a false positive when find_evidence supports it
at all. Prints everything and writes bench/mcp/results/<date>.md.
"""
from __future__ import annotations

import argparse
import datetime
import json
import os
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

from trigsight.answering.evidence import find_evidence
from trigsight.answering.support import DEFAULT_THRESHOLD
from trigsight.files import unused_name
from trigsight.publishing.published import Release
from trigsight.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

HERE = Path(__file__).resolve().parent
CALIBRATION, HOLDOUT = HERE / "claims.json", HERE / "claims-holdout.json"
GRID = [round(0.30 + 0.05 * i, 2) for i in range(14)]   # 0.30 … 0.95
FP_COST = 2  # a false confirmation spreads; a miss only makes an agent say "no evidence"
ORIGINAL = "the original reached 8/10 TP, 0/6 FP"


def load_retriever(release_dir: Path, settings: Settings):
    try:
        from trigsight.retrieval.search import Retriever
        return Retriever.load(release_dir, api_key=settings.openai_api_key, base_url=settings.openai_base_url)
    except Exception as error:  # a release without an index: the lexical scan still decides
        print(f"(no retriever: {type(error).__name__}: {error})", file=sys.stderr)
        return None


def outcomes(release: Release, claims: list[dict], retriever) -> tuple[list[dict], str]:
    """Per claim, the best support overall and on an expected page (threshold 0 keeps every score)."""
    slug_of = {p.path: p.slug for p in release.pages}
    rows, backend = [], "none"
    for claim in claims:
        result = find_evidence(release, claim["claim"], retriever, threshold=0.0, limit=len(release.passages))
        backend = result.backend
        best = result.evidence[0] if result.evidence else None
        expected = [e for e in result.evidence if slug_of[e.passage.page] in claim.get("pages", [])]
        shown = (expected[0] if expected else None) if claim["truth"] else best  # the passage the score is for
        rows.append({**claim, "best": best.score if best else 0.0,
                     "best_expected": expected[0].score if expected else 0.0,
                     "best_page": slug_of[shown.passage.page] if shown else "",
                     "best_text": shown.passage.text if shown else ""})
    return rows, backend


def hit(row: dict, threshold: float) -> bool:
    score = row["best_expected"] if row["truth"] else row["best"]
    return score > 0 and score >= threshold


def tally(rows: list[dict], threshold: float) -> dict:
    return {"threshold": threshold,
            "true": sum(r["truth"] for r in rows), "fake": sum(not r["truth"] for r in rows),
            "tp": sum(hit(r, threshold) for r in rows if r["truth"]),
            "fp": sum(hit(r, threshold) for r in rows if not r["truth"])}


def choose(table: list[dict]) -> dict:
    """The best TP - FP_COST * FP; on a tie, the higher (safer) threshold."""
    return max(table, key=lambda t: (t["tp"] - FP_COST * t["fp"], t["threshold"]))


def grouped(rows: list[dict], threshold: float, key) -> dict[str, dict]:
    groups = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return {name: tally(group, threshold) for name, group in sorted(groups.items())}


def disagreements(release: Release, rows: list[dict], retriever) -> int:
    """Re-run find_evidence as the MCP tool does: the sweep must agree with the real thing."""
    slug_of = {p.path: p.slug for p in release.pages}
    count = 0
    for row in rows:
        result = find_evidence(release, row["claim"], retriever)
        real = any(slug_of[e.passage.page] in row["pages"] for e in result.evidence) if row["truth"] \
            else result.supported
        count += real != hit(row, DEFAULT_THRESHOLD)
    return count


def section(title: str, rows: list[dict], sweep: bool) -> list[str]:
    at = tally(rows, DEFAULT_THRESHOLD)
    lines = [f"## {title}", "", f"{at['true']} true and {at['fake']} fabricated claims; at the default "
             f"threshold {DEFAULT_THRESHOLD}: **{at['tp']}/{at['true']} TP, {at['fp']}/{at['fake']} FP**.", ""]
    if sweep:
        lines += ["| threshold | TP | FP |", "|---|---|---|"]
        for t in (tally(rows, th) for th in GRID):
            mark = " (default)" if t["threshold"] == DEFAULT_THRESHOLD else ""
            lines.append(f"| {t['threshold']:.2f}{mark} | {t['tp']}/{t['true']} | {t['fp']}/{t['fake']} |")
        lines.append("")
    lines += ["| language | TP | FP |", "|---|---|---|"]
    for lang, t in grouped(rows, DEFAULT_THRESHOLD, lambda r: r["lang"]).items():
        lines.append(f"| {lang} | {t['tp']}/{t['true']} | {t['fp']}/{t['fake']} |")
    lines += ["", "| fabricated kind | FP |", "|---|---|"]
    for kind, t in grouped([r for r in rows if not r["truth"]], DEFAULT_THRESHOLD, lambda r: r["kind"]).items():
        lines.append(f"| {kind} | {t['fp']}/{t['fake']} |")
    lines += ["", "| claim | kind | outcome | best score | its passage (true claims: on an expected page) |", "|---|---|---|---|---|"]
    for row in rows:
        if row["truth"]:
            outcome, score = ("TP" if hit(row, DEFAULT_THRESHOLD) else "FN, missed"), row["best_expected"]
        else:
            outcome, score = ("FP, confirmed a fabrication" if hit(row, DEFAULT_THRESHOLD) else "TN"), row["best"]
        text = row["best_text"][:90].replace("|", "\\|")
        lines.append(f"| {row['id']} | {row.get('kind', 'true')} | {outcome} | {score:.3f} | "
                     f"{row['best_page']}: {text} |")
    return lines + [""]


def report(release: Release, backend: str, calibration: list[dict], holdout: list[dict], mismatches: int,
           command: str) -> str:
    chosen = choose([tally(calibration, th) for th in GRID])
    both = tally(calibration + holdout, DEFAULT_THRESHOLD)
    lines = [f"# find_evidence calibration, {datetime.date.today().isoformat()}", "",
             f"- command: `{command}`",
             f"- release: `{release.release_id}`, {len(release.pages)} pages, {len(release.passages)} passages",
             f"- retrieval backend: {backend} (it orders evidence; support is decided lexically over every passage)",
             f"- default threshold (pipeline/support.py): {DEFAULT_THRESHOLD}; the calibration sweep's choice "
             f"(best TP - {FP_COST}×FP, ties to the higher threshold): {chosen['threshold']}",
             f"- find_evidence re-run as the MCP tool calls it disagrees with the sweep on {mismatches} claims",
             f"- both sets at the default threshold: **{both['tp']}/{both['true']} TP, "
             f"{both['fp']}/{both['fake']} FP** ({ORIGINAL})", ""]
    lines += section("Calibration set (bench/mcp/claims.json)", calibration, sweep=True)
    if holdout:
        lines += section("Held-out set (bench/mcp/claims-holdout.json)", holdout, sweep=False)
    return "\n".join(lines)


def release_content(out: Path) -> Path:
    return common.release(ROOT / "content", out).out


def read_claims(file: Path) -> list[dict]:
    return json.loads(file.read_text("utf-8"))["claims"] if file.is_file() else []


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, help="a published release folder (default: release content/)")
    parser.add_argument("--no-write", action="store_true", help="print only; do not write bench/mcp/results/")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as scratch:
        release_dir = args.release or release_content(Path(scratch) / "release")
        release = Release.load(release_dir)
        retriever = load_retriever(release_dir, Settings.from_environ(os.environ))
        calibration, backend = outcomes(release, read_claims(CALIBRATION), retriever)
        holdout, _ = outcomes(release, read_claims(HOLDOUT), retriever)
        command = "python bench/mcp/calibrate.py" + (" --release <folder>" if args.release else "")
        text = report(release, backend, calibration, holdout,
                      disagreements(release, calibration + holdout, retriever), command)
    print(text)
    if not args.no_write:
        out = unused_name(HERE / "results" / f"{datetime.date.today().isoformat()}.md")
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(text, "utf-8")
        print(f"wrote {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
