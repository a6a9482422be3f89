"""What pages include from other files, and how much of it a reader now sees.

    .venv/bin/python bench/corpora/includes.py [--label NAME] [--release] [CORPUS ...]

Docs folders pull shared text into pages: a changelog page that is only
```` ```{include} ../CHANGES.md ````, snippets (`--8<-- "file.md"`), code samples in `{!file.py!}`.
For each PyPI corpus of fetch.py this harness unpacks the *whole* cached sdist (the project as its
authors keep it, so files above the docs folder are there), builds the site in process (build and
source gate, no browser) with includes left as before (shown as nothing) and as read now, and
reports the include directives its pages write (counted here by plain text rules), the pages
whose body changed, the files read from outside the docs folder, the passages published, and
those left out as repeats: a tab label or a tip written in every tab ("Python 3.8+") told apart by
the empty code blocks between them before is no longer told apart by the code now shown there.

With `--release`, each unpacked folder is also released with the real CLI (`trigsight release`,
cold proof cache: Chromium proves every passage) and the passages proven, the predictor/browser
agreement and the wall time are reported.

Results: bench/corpora/results/<date>-includes[-label].md, naming the machine.
"""
from __future__ import annotations

import argparse
import re
import sys
import tempfile
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import trigsight  # noqa: E402
from reading_order import unpack  # noqa: E402
from trigsight.build import builder, includes  # noqa: E402

from common import machine, release, write_results  # noqa: E402

DEFAULT = ("black", "furo", "jupyter-book", "python-markdown", "hatch", "fastapi-ja", "fastapi-ko", "fastapi-ru")
# Written the ways includes.py reads them; counted on the page files' text, outside nothing.
_WRITTEN = re.compile(r"\{(?:literal)?include\}|-{1,3}8<-{1,3}|\{![^!\n]+!\}|\{%-?\s*include(?:-markdown)?\s+[\"']"
                      r"|\{\{#include\s")


def build(content: Path, read: bool):
    saved = builder.includes.run
    if not read:
        builder.includes.run = lambda folder, pages: includes.IncludesResult(pages)
    try:
        return builder.run(builder.BuildConfig(content))
    finally:
        builder.includes.run = saved


def repeats(built) -> int:
    """Passages the source gate leaves out because they repeat on their page with nothing near to tell them apart."""
    return sum(1 for text in built.texts.values() for skipped in text.skipped if skipped.reason.startswith("repeats"))


def released(content: Path, out: Path) -> str:
    """` proven, agreement, seconds |` of a cold `trigsight release` of `content`."""
    run = release(content, out, cache=out.with_name(out.name + "-cache"), check=False)
    browser = run.manifest.get("gates", {}).get("browser", {})
    if not run.manifest:
        return f" refused: {run.stderr.strip().splitlines()[-1:]} |"
    agreement = browser.get("agreement", {})
    return (f" {browser.get('passages', {}).get('proven')} | {agreement.get('agree')}/{browser.get('directives')} | "
            f"{run.seconds:.0f} s |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", default=list(DEFAULT))
    parser.add_argument("--label", default="")
    parser.add_argument("--release", action="store_true", help="also release each folder in Chromium")
    args = parser.parse_args()
    lines = [f"# Included files, {date.today().isoformat()}", "",
             f"Machine: {machine()}; code: {Path(trigsight.__file__).parent}", "",
             "| corpus | pages | include directives written (pages) | pages changed | files read from outside "
             "the folder | passages: before → now | left out as repeats: before → now |"
             + (" cold release: passages proven | agreement | time |" if args.release else ""),
             "|---|---|---|---|---|---|---|" + ("---|---|---|" if args.release else "")]
    with tempfile.TemporaryDirectory() as work:
        for name in args.corpora:
            content = unpack(name, Path(work), whole=True)
            texts = {p: p.read_text("utf-8", "replace") for p in sorted(content.rglob("*.md"))}
            written = {p: len(_WRITTEN.findall(t)) for p, t in texts.items() if _WRITTEN.search(t)}
            before, now = build(content, False), build(content, True)
            bodies = {p.source.source: p.source.body for p in before.authored}
            changed = [p.source.source for p in now.authored if p.source.body != bodies.get(p.source.source)]
            outside = next((w.split(": ", 1)[1] for w in now.warnings if w.startswith("included files read")), "")
            lines.append(f"| {name} | {len(now.authored)} | {sum(written.values())} ({len(written)}) | "
                         f"{len(changed)} | {outside or '—'} | {len(before.passages):,} → {len(now.passages):,} | "
                         f"{repeats(before)} → {repeats(now)} |" + (released(content, Path(work) / f"rel-{name}")
                                                                     if args.release else ""))
            print(lines[-1], file=sys.stderr, flush=True)
    write_results(lines, HERE / "results" / (f"{date.today().isoformat()}-includes"
                                             + (f"-{args.label}" if args.label else "") + ".md"))


if __name__ == "__main__":
    main()
