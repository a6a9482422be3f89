"""One very long page: how a cold release grows with the page, and the searches its links cost.

    .venv/bin/python bench/scale/big_page.py [--rows 250,500,1000,all] [--before REV] [--label NAME]
    .venv/bin/python bench/scale/big_page.py --corpus nodejs-api [--before REV] [--label NAME]

The page is pytest's plugin list (`reference/plugin_list.rst` of pytest's sdist, fetched from
PyPI by bench/corpora/fetch.py): one reStructuredText table of some 2,200 plugins in five
columns (name, summary, date, status, requirements), where "N/A", "pytest" and dates repeat
hundreds of times. The table is cut to its first N rows (`all`: the whole page, as pytest
publishes it). Each size is released cold (empty cache, `trigsight release` in a subprocess)
by this working tree and, with `--before REV`, by that revision's pipeline (`git archive`,
first on PYTHONPATH). `--corpus NAME` releases that whole corpus of bench/corpora/fetch.py the
same way instead (Node's API docs: 64 long pages).

For each it reads the release's manifest and reports and prints: passages proven, their
directives by shape (plain, prefix, suffix, both), the extra reads of the page a browser
makes to find them (`directives.search_scans`, summed), the source gate, browser gate and whole release seconds, directives per
second of the browser gate, and the predictor/browser agreement.
Writes bench/scale/results/big-page-<date>[-NAME].md.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import re
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
sys.path.insert(0, str(Path(__file__).resolve().parent))      # gate.py's code_of
from directive_costs import EXTRA_READS  # noqa: E402
from gate import code_of  # noqa: E402

import common  # noqa: E402
from common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT / "bench" / "corpora"))
from fetch import fetch  # noqa: E402

PAGE = "reference/plugin_list.rst"


def table_page(source: str, rows: int | None) -> str:
    """The plugin list with its first table cut to `rows` body rows (None: whole)."""
    lines = source.splitlines()
    rules = [i for i, line in enumerate(lines) if re.fullmatch(r"\s*=+(\s+=+)+\s*", line)]
    if rows is None or len(rules) < 3:
        return source
    head, bottom = rules[1], rules[2]   # rules[0] opens the table, rules[1] closes its header
    return "\n".join(lines[:head + 1] + lines[head + 1:min(head + 1 + rows, bottom)] + lines[bottom:]) + "\n"


def shapes(release: Path) -> tuple[collections.Counter, float]:
    """Directives by shape, and the extra reads of the page a browser makes to find them all."""
    from trigsight.matching.directives import parse_directive, search_scans
    from trigsight.matching.textmodel import fold, normalise

    allowlist = json.loads((release / "allowlist.json").read_text("utf-8"))
    texts = {page["path"]: fold(normalise(page["text"])) for page in allowlist["pages"]}
    counted, scans = collections.Counter(), 0.0
    for passage in allowlist["passages"]:
        directive = parse_directive(passage["directive"])
        counted[("prefix" if directive.prefix else "") + ("+" if directive.prefix and directive.suffix else "")
                + ("suffix" if directive.suffix else "") or "plain"] += 1
        scans += search_scans(texts[passage["page"]], directive)
    return counted, scans


def measure(content: Path, scratch: Path, pythonpath: str | None) -> dict:
    out, cache = scratch / "release", scratch / "cache"
    env = {"TRIGSIGHT_SITE_CSS": ""} | ({"PYTHONPATH": pythonpath} if pythonpath else {})
    load = os.getloadavg()[0]
    run = common.release(content, out, cache=cache, env=env)
    report = json.loads((out / "reports" / "browser.json").read_text("utf-8"))
    counted, scans = shapes(out)
    timings = run.manifest["timings"]
    directives = sum(len(page["checks"]) for page in report["pages"])
    agreement = re.search(r"agreement (\d+/\d+ \([\d.]+%\))", run.line("predictor/browser agreement"))
    return {"seconds": run.seconds, "source": timings.get("build", 0.0), "browser": timings.get("browser", 0.0),
            "directives": directives, "proven": sum(1 for page in report["pages"] for c in page["checks"] if c["ok"]),
            "shapes": dict(counted), "scans": scans, "agreement": agreement.group(1) if agreement else "?",
            "load": (load, os.getloadavg()[0])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", default="250,500,1000", help="table rows per size, comma separated; `all` for the whole page")
    parser.add_argument("--corpus", default="", help="release this whole corpus instead of the plugin list")
    parser.add_argument("--before", default="", help="git revision to release each size with as well (its pipeline/)")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    sizes = [None if size == "all" else int(size) for size in args.rows.split(",")]
    corpus = fetch(args.corpus or "pytest")
    machine = common.machine()
    results = []
    with tempfile.TemporaryDirectory(prefix="trigsight-big-page-") as scratch:
        scratch = Path(scratch)
        codes = ([("before", code_of(args.before, scratch))] if args.before else []) + [("after", code_of(".", scratch))]
        for rows in [None] if args.corpus else sizes:
            size = args.corpus or rows or "all"
            if args.corpus:
                content = corpus
            else:
                content = scratch / f"content-{size}"
                content.mkdir()
                (content / "index.rst").write_text(table_page((corpus / PAGE).read_text("utf-8"), rows), "utf-8")
            for label, (name, pythonpath) in codes:
                work = scratch / f"run-{size}-{label}"
                print(f"{size}{'' if args.corpus else ' rows'}, {label} ({name}) ...", file=sys.stderr, flush=True)
                results.append({"rows": size, "code": f"{label} ({name})", **measure(content, work, pythonpath)})
    lines = [f"# One long page, released cold, {date.today().isoformat()}", "",
             f"Command: `.venv/bin/python bench/scale/big_page.py {' '.join(sys.argv[1:])}`".rstrip(),
             f"Machine at start: {machine}", f"Machine at end: {common.machine()}",
             f"Content: the whole of {corpus.name}; cold release, empty cache." if args.corpus else
             f"Page: `{PAGE}` of pytest's sdist ({corpus.name}), its table cut to the first N rows; cold release, empty cache.",
             "", "| rows | code | directives | proven | shapes | extra page reads | build and source gate s | browser gate s | "
             "directives/s (browser gate) | release s | agreement | load 1-min start → end |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        shape = ", ".join(f"{k} {v}" for k, v in sorted(r["shapes"].items()))
        lines.append(f"| {r['rows']} | {r['code']} | {r['directives']} | {r['proven']} | {shape} | {r['scans']:,.0f} | "
                     f"{r['source']:.1f} | {r['browser']:.1f} | {r['directives'] / max(r['browser'], 1e-9):.1f} | "
                     f"{r['seconds']:.1f} | {r['agreement']} | {r['load'][0]:.2f} → {r['load'][1]:.2f} |")
    lines += ["", EXTRA_READS + " Summed over every link, each over its page's main text."]
    name = f"big-page-{date.today().isoformat()}" + (f"-{args.label}" if args.label else "") + ".md"
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / name)


if __name__ == "__main__":
    main()
