"""Bench re-releases: cold, unchanged, one page edited, one page added, with one cache.

    .venv/bin/python bench/scale/run.py [--corpus nodejs-api | --content DIR] [--pages N] [--label NAME]

Copies the corpus (Node's API docs by default, fetched by bench/corpora/fetch.py; `--pages N`
takes the first N+1 files by name) into a scratch folder and holds back one page from the
middle of the order. Then runs `trigsight release` four times into one release folder with
one cache folder, as an author would:

1. cold: the corpus without the held-back page, empty cache;
2. unchanged: the same again;
3. one page edited: a paragraph appended to another page in the middle of the order;
4. one page added: the held-back page put back, so the contents page and the previous and
   next links of its neighbours change.

For each it prints the wall time of the command, the stage times the manifest recorded,
the ratio to cold, how many pages the browser gate proved (not from the cache), how many
index texts were embedded, the peak RSS of the largest process of the release (the
release's own Python, Chromium's, gunicorn's: getrusage of the waited-for children), and
the load average before and after. Writes bench/scale/results/<date>.md (or
<date>-<N>-pages.md for a subset, with -<NAME> added for `--label`).
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py, bench/corpora
import common  # noqa: E402
from common import ROOT, TRIGSIGHT  # noqa: E402

sys.path.insert(0, str(ROOT / "bench" / "corpora"))
from fetch import fetch  # noqa: E402

STAGES = ("build", "browser", "index", "payload")
EDIT = "\n\nThis paragraph was appended by the scale bench to edit the page.\n"
# Runs the release and reports the largest RSS among it and its waited-for descendants.
PEAK_RSS = ("import resource, subprocess, sys; code = subprocess.call(sys.argv[1:]); "
            "print('peak-rss-kb', resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); "
            "sys.exit(code)")


def release(content: Path, out: Path, cache: Path) -> dict:
    env = {**os.environ, "TRIGSIGHT_CACHE_DIR": str(cache), "TRIGSIGHT_SITE_CSS": ""}
    load_before = os.getloadavg()
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", PEAK_RSS, *TRIGSIGHT, "release", "--content", str(content),
                           "--out", str(out)], cwd=ROOT, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        sys.exit(f"trigsight release of {content} failed ({done.returncode}):\n{done.stderr[-4000:]}")
    manifest = json.loads((out / "manifest.json").read_text("utf-8"))
    report = json.loads((out / "reports" / "browser.json").read_text("utf-8"))
    peak = next(int(line.split()[1]) for line in done.stderr.splitlines() if line.startswith("peak-rss-kb"))
    index = manifest["gates"].get("index", {})
    return {"seconds": seconds, "timings": manifest["timings"], "peak_mb": peak / 1024,
            "pages": len(report["pages"]), "proved": sorted(p["path"] for p in report["pages"] if not p["cached"]),
            "directives": sum(len(p["checks"]) for p in report["pages"]),
            "left_out": len(report["failures"]), "embedded": index.get("embedded", 0),
            "index_reused": index.get("reused_index", False),
            "load": (load_before, os.getloadavg())}


def corpus_files(source: Path, pages: int) -> list[Path]:
    files = sorted(p for p in source.rglob("*.md") if p.is_file())
    return files[:pages + 1] if pages else files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="nodejs-api", help="a corpus of bench/corpora")
    parser.add_argument("--content", type=Path, help="a folder of markdown instead of a fetched corpus")
    parser.add_argument("--pages", type=int, default=0, help="the first N+1 files only (0: all)")
    parser.add_argument("--label", default="", help="added to the results file's name (e.g. before, after)")
    args = parser.parse_args()
    source = args.content or fetch(args.corpus, dest_root=ROOT / ".cache" / "corpora")
    files = corpus_files(source, args.pages)
    if len(files) < 3:
        sys.exit(f"{source} has {len(files)} markdown files; the bench needs 3 or more")
    held, edited = files[len(files) // 2], files[len(files) // 2 - 1]
    start_line = common.machine()
    runs = []
    with tempfile.TemporaryDirectory(prefix="trigsight-scale-") as scratch:
        content, out, cache = Path(scratch) / "content", Path(scratch) / "release", Path(scratch) / "cache"
        for file in files:
            if file != held:
                _copy(file, content / file.relative_to(source))
        steps = [("cold", lambda: None), ("unchanged", lambda: None),
                 ("one page edited", lambda: _append(content / edited.relative_to(source), EDIT)),
                 ("one page added", lambda: _copy(held, content / held.relative_to(source)))]
        for label, change in steps:
            change()
            result = {"label": label, **release(content, out, cache)}
            runs.append(result)
            print(_row(result, runs[0]), flush=True)
    corpus = str(args.content) if args.content else args.corpus
    lines = [
        f"# Re-release bench, {date.today().isoformat()}",
        "",
        f"Command: `.venv/bin/python bench/scale/run.py {_command(args)}`",
        f"Machine at start: {start_line}",
        f"Machine at end: {common.machine()}",
        f"Corpus: {corpus}, {len(files) - 1} markdown files at first ({runs[0]['pages']} pages with the "
        f"generated contents page, {runs[0]['directives']} directives); edited: {edited.relative_to(source)}; "
        f"added in the last run: {held.relative_to(source)}. One release folder and one cache folder for all four runs; "
        "local Chromium; offline embeddings.",
        "",
        "| run | wall s | ratio to cold | " + " | ".join(f"{s} s" for s in STAGES)
        + " | pages proved | directives | left out | texts embedded | peak RSS MB | load before → after |",
        "|---|---|---|" + "---|" * len(STAGES) + "---|---|---|---|---|---|",
    ]
    lines += [_row(r, runs[0]) for r in runs]
    lines += ["", "Pages proved in each re-release:", ""]
    lines += [f"- {r['label']}: {', '.join(r['proved']) or 'none'}" for r in runs[1:]]
    lines += ["", "Wall s is the whole `trigsight release` command (Python start-up included); the stage columns are "
              "the manifest's timings (build is the source gate with rendering; index and payload run at once, "
              "so they overlap). Peak RSS is the largest single "
              "process's (getrusage of waited-for children), not the sum over processes. The machine is shared: "
              "read every figure next to its load average."]
    name = date.today().isoformat() + (f"-{args.pages}-pages" if args.pages else "") \
        + (f"-{args.label}" if args.label else "")
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / f"{name}.md")


def _copy(file: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)     # the held-back page may be alone in its folder
    shutil.copyfile(file, target)


def _append(file: Path, text: str) -> None:
    file.write_text(file.read_text("utf-8").rstrip("\n") + text, "utf-8")


def _command(args) -> str:
    parts = [f"--content {args.content}" if args.content else f"--corpus {args.corpus}"]
    return " ".join(parts + ([f"--pages {args.pages}"] if args.pages else [])
                    + ([f"--label {args.label}"] if args.label else []))


def _row(r: dict, cold: dict) -> str:
    stages = " | ".join(f"{r['timings'].get(s, 0):.1f}" for s in STAGES)
    load = f"{r['load'][0][0]:.1f} → {r['load'][1][0]:.1f}"
    index = f"{r['embedded']}" + (" (index reused)" if r["index_reused"] else "")
    return (f"| {r['label']} | {r['seconds']:.1f} | {r['seconds'] / cold['seconds']:.1%} | {stages} | "
            f"{len(r['proved'])}/{r['pages']} | {r['directives']} | {r['left_out']} | {index} | "
            f"{r['peak_mb']:.0f} | {load} |")


if __name__ == "__main__":
    main()
