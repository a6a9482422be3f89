"""How much reading the published links cost a browser, on real docs folders, before and after a change.

    .venv/bin/python bench/scale/directive_costs.py [--before REV] [--label NAME] [corpus ...]

For each corpus (names of bench/corpora/fetch.py, fetched from their registries; default below)
the pages are built in process, source gate included, no browser, by this working tree and,
with `--before REV`, by that revision's pipeline (`git archive`, first on PYTHONPATH of a child
process). Every directive of both is then scored by this tree's `directives.search_scans`: how
many times over Chromium reads the page, beyond the one pass every link costs, to find it (it
looks for the directive's first part from the top and, from each place, reads forward to the
next part's next occurrence). Prints, per corpus and code: passages, passages left out because
no nearby words tell them apart and because a browser would read too far, the directives that
use context, the sum of their extra reads, the 99th percentile and the worst, and the characters
read beyond one pass in all (scans times the page's length).
Writes bench/scale/results/directive-costs-<date>[-NAME].md.
"""
from __future__ import annotations

import argparse
import pickle
import subprocess
import sys
import tempfile
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
sys.path.insert(0, str(Path(__file__).resolve().parent))      # gate.py's code_of
import common  # noqa: E402
from common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT / "bench" / "corpora"))
from fetch import fetch  # noqa: E402

DEFAULT = ["nodejs-api", "pytest", "django", "flask", "sphinx", "fastapi-ja", "rxjs-changelog", "npm-docs"]
TOO_FAR = "a browser would read"
EXTRA_READS = ("Extra page reads: for each directive, `directives.search_scans` of this working tree (the same "
               "yardstick for both codes): the times over Chromium reads the page, beyond the one pass every link "
               "costs, looking forward from each place of the directive's first part.")


def build(corpus: str, out: Path) -> None:
    """Child: build the corpus with whichever trigsight is first on the path; pickle each page's view."""
    from trigsight.build import builder

    folder = fetch(corpus)
    made = builder.run(builder.BuildConfig(folder, "", "", ""))
    pages = [(path, text.haystack, [p.directive for p in text.passages], [s.reason for s in text.skipped])
             for path, text in made.texts.items()]
    out.write_bytes(pickle.dumps(pages))


def score(pages: list) -> dict:
    from trigsight.matching.directives import parse_directive, search_scans

    scans, chars, context = [], 0, 0
    for _path, haystack, directives, _reasons in pages:
        for directive in map(parse_directive, directives):
            if directive.prefix or directive.suffix:
                context += 1
            cost = search_scans(haystack, directive)
            scans.append(cost)
            chars += round(cost * len(haystack))
    reasons = [reason for *_, skipped in pages for reason in skipped]
    far = sum(TOO_FAR in reason for reason in reasons)
    return {"pages": len(pages), "passages": len(scans), "context": context, "scans": sum(scans),
            "p99": common.percentile(scans, 0.99) if scans else 0.0, "worst": max(scans, default=0.0),
            "chars": chars, "apart": len(reasons) - far, "far": far}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("corpora", nargs="*", default=DEFAULT)
    parser.add_argument("--before", default="", help="git revision to build each corpus with as well (its pipeline/)")
    parser.add_argument("--label", default="")
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return build(args.child[0], Path(args.child[1]))
    from gate import code_of

    machine = common.machine()
    rows = []
    with tempfile.TemporaryDirectory(prefix="trigsight-directive-costs-") as scratch:
        scratch = Path(scratch)
        codes = ([("before", code_of(args.before, scratch))] if args.before else []) + [("after", code_of(".", scratch))]
        for corpus in args.corpora:
            fetch(corpus)
            for label, (name, pythonpath) in codes:
                print(f"{corpus}, {label} ({name}) ...", file=sys.stderr, flush=True)
                out = scratch / f"{corpus}-{label}.pickle"
                env = {"PYTHONPATH": pythonpath} if pythonpath else {}
                subprocess.run([sys.executable, __file__, "--child", corpus, str(out)], cwd=ROOT, check=True,
                               env={**__import__("os").environ, **env})
                rows.append({"corpus": corpus, "code": f"{label} ({name})", **score(pickle.loads(out.read_bytes()))})
    lines = [f"# What the links cost a browser to find, {date.today().isoformat()}", "",
             f"Command: `.venv/bin/python bench/scale/directive_costs.py {' '.join(sys.argv[1:])}`".rstrip(),
             f"Machine: {machine}", "",
             "| corpus | code | pages | passages | left out: nothing tells apart | left out: read too far | "
             "with context | extra page reads, sum | p99 | worst | characters read beyond one pass |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['corpus']} | {r['code']} | {r['pages']} | {r['passages']:,} | {r['apart']:,} | {r['far']:,} | "
                     f"{r['context']:,} | {r['scans']:,.0f} | {r['p99']:.2f} | {r['worst']:.1f} | {r['chars']:,} |")
    lines += ["", EXTRA_READS]
    name = f"directive-costs-{date.today().isoformat()}" + (f"-{args.label}" if args.label else "") + ".md"
    common.write_results(lines, ROOT / "bench" / "scale" / "results" / name)


if __name__ == "__main__":
    main()
