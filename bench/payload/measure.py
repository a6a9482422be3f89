"""Measure the JavaScript a page costs on the wire, in headless Chromium; exit 1 over budget.

    python bench/payload/measure.py URL [URL ...] --budget BYTES --runs 3 [--reduced-motion] [--json FILE]

Works against any site: ours on loopback (`trigsight serve`) or a deployed one. Each URL is
loaded `--runs` times with a cold cache; a page's figure is the median of its runs, every
script's body bytes as transferred (brotli when the server negotiated it), headers excluded.
Scripts requested after the load event (lazy) are shown separately and count toward the budget.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from trigsight.gates.payload import measure, report_lines
from trigsight.settings import Settings


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_environ(os.environ)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("urls", nargs="+", metavar="URL")
    parser.add_argument("--budget", type=int, default=settings.js_budget,
                        help="JS bytes allowed per page [TRIGSIGHT_JS_BUDGET, default 8192]")
    parser.add_argument("--runs", type=int, default=3, help="loads per page; the median is reported")
    parser.add_argument("--reduced-motion", action="store_true",
                        help="emulate prefers-reduced-motion: reduce (pages may skip decorative scripts)")
    parser.add_argument("--chromium", default=settings.chromium, help="Chromium executable [TRIGSIGHT_CHROMIUM]")
    parser.add_argument("--chromium-arg", action="append", default=[], metavar="FLAG",
                        help="extra Chromium flag, repeatable (e.g. --disable-blink-features=TextFragmentIdentifiers)")
    parser.add_argument("--json", type=Path, help="also write the figures as JSON to this file")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.budget < 0:
        parser.error("--runs must be at least 1 and --budget zero or more")

    measurement = measure(args.urls, runs=args.runs, chromium=args.chromium, reduced_motion=args.reduced_motion,
                          browser_args=args.chromium_arg)
    for line in report_lines(measurement, args.budget):
        print(line)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(measurement.to_json(budget=args.budget), indent=1) + "\n", "utf-8")
    over = measurement.over(args.budget)
    for page in over:
        print(f"{page.url}: {page.total} bytes of JavaScript > budget {args.budget} bytes", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
