"""How long Chromium takes to land on single links of one page, beside what `search_scans` predicts.

    .venv/bin/python bench/scale/link_search.py --rows 250 [--repeat 3] [--label NAME] [DIRECTIVE ...]

Releases pytest's plugin list cut to its first N rows (as bench/scale/big_page.py cuts it) with
this working tree, serves the release with the gate's own gunicorn on loopback
(`liveserver.serve_release`), loads the page once in a local headless Chromium and, for each
directive (default: the same link written with a common prefix
and with a rare suffix, and a plain one), clears `:target`, navigates to the directive in the
same document and waits frame by frame for `:target`: the median of the repeats in ms, what it
landed on, and the extra page reads `directives.search_scans` predicts (and those times the
page's length in characters). The directives need not be the release's own: any link can be
timed on the page. Writes bench/scale/results/link-search-<date>[-NAME].md.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
sys.path.insert(0, str(Path(__file__).resolve().parent))      # big_page.py
from big_page import PAGE, table_page  # noqa: E402

import common  # noqa: E402
from common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT / "bench" / "corpora"))
from fetch import fetch  # noqa: E402

DEFAULT = ["text=pytest-,pytest%2Dbeartype", "text=pytest%2Dbeartype,-Pytest%20plugin", "text=pytest%2Dbeartype",
           "text=N%2FA,-pytest%2Dbrowserstack%2Dlocal"]
LAND = """async ([directives, repeat]) => {
  const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
  const out = [];
  for (const directive of directives) {
    const times = []; let landed = null;
    for (let k = 0; k < repeat; k++) {
      location.hash = "#__bench_reset";   // names no element: :target is null again
      const started = performance.now();
      location.hash = ":~:" + directive;
      for (let f = 0; f < 240 && !document.querySelector(":target"); f++) await frame();
      times.push(performance.now() - started);
      const target = document.querySelector(":target");
      landed = target ? target.textContent.trim().slice(0, 60) : null;
    }
    out.push({directive, times, landed});
  }
  return out;
}"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("directives", nargs="*", default=DEFAULT)
    parser.add_argument("--rows", type=int, default=250)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright
    from trigsight.gates import chromium
    from trigsight.gates.liveserver import serve_release
    from trigsight.matching.directives import parse_directive, search_scans
    from trigsight.matching.textmodel import fold, normalise

    source = (fetch("pytest") / PAGE).read_text("utf-8")
    machine = common.machine()
    with tempfile.TemporaryDirectory(prefix="trigsight-link-search-") as scratch:
        content, release = Path(scratch) / "content", Path(scratch) / "release"
        content.mkdir()
        (content / "index.rst").write_text(table_page(source, args.rows), "utf-8")
        common.release(content, release, cache=Path(scratch) / "cache", env={"TRIGSIGHT_SITE_CSS": ""})
        allowlist = json.loads((release / "allowlist.json").read_text("utf-8"))
        text = fold(normalise(next(page["text"] for page in allowlist["pages"] if page["path"] == "/")))
        with serve_release(release, workers=1, gate=True) as base, sync_playwright() as playwright:
            browser = chromium.launch(playwright)
            page = browser.new_page()
            page.goto(base + "/", wait_until="load")
            timed = page.evaluate(LAND, [args.directives, args.repeat])
            browser.close()
    lines = [f"# Landing on single links, {date.today().isoformat()}", "",
             f"Command: `.venv/bin/python bench/scale/link_search.py {' '.join(sys.argv[1:])}`".rstrip(),
             f"Machine: {machine}",
             f"Page: `{PAGE}` of pytest's sdist, its table cut to the first {args.rows} rows, released by this working "
             f"tree ({len(allowlist['passages'])} links; main text {len(text):,} characters). Same-document navigation "
             f"in a local headless Chromium, median of {args.repeat}.", "",
             "| directive | ms to :target (median) | all runs | landed on | predicted extra page reads | "
             "predicted characters read beyond one pass |", "|---|---|---|---|---|---|"]
    for row in timed:
        scans = search_scans(text, parse_directive(row["directive"]))
        lines.append(f"| `{row['directive']}` | {statistics.median(row['times']):.1f} | "
                     f"{', '.join(f'{t:.0f}' for t in row['times'])} | {row['landed'] or 'nothing'} | {scans:.1f} | "
                     f"{round(scans * len(text)):,} |")
    name = f"link-search-{date.today().isoformat()}" + (f"-{args.label}" if args.label else "") + ".md"
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / name)


if __name__ == "__main__":
    main()
