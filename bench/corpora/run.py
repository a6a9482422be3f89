"""Release real documentation folders with the real CLI and report what readers get.

For each corpus (fetched from its registry by fetch.py, never committed) this runs
`trigsight release` exactly as an author would (bench/common.py), then reads the published
release: pages, passages, passages left out and why (the source gate's "repeats on the
page" and the browser gate's failures), markup a reader should never see inside published
passages (scan.py; text the author wrote as inline code is masked first, since showing
`<kbd>` as code is the author's intent), the release's warning lines, and wall time.

    python bench/corpora/run.py                        # every corpus, full release
    python bench/corpora/run.py furo jupyter-book      # some
    python bench/corpora/run.py --source-only          # build + source gate, no browser (fast)
    python bench/corpora/run.py --whole attrs          # the docs folder of the whole sdist (fetch.py --whole)

Results: bench/corpora/results/<date>.md (appended per run), naming the machine and its load.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from datetime import date
from html.parser import HTMLParser
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from fetch import CORPORA, fetch, manifest, whole  # noqa: E402
from scan import scan  # noqa: E402
from trigsight.math_threads import ONE_MATH_THREAD  # noqa: E402

from common import ROOT, machine, release  # noqa: E402

RESULTS = HERE / "results"


class _Code(HTMLParser):
    """Inline code texts of a page (not code blocks): what the author showed as code."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth = self.pre = 0
        self.texts: list[str] = []
        self.current: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "pre":
            self.pre += 1
        elif tag == "code" and not self.pre:
            self.depth += 1
            self.current = []

    def handle_endtag(self, tag):
        if tag == "pre":
            self.pre -= 1
        elif tag == "code" and self.depth:
            self.depth -= 1
            text = re.sub(r"\s+", " ", "".join(self.current)).strip()
            if text:
                self.texts.append(text)

    def handle_data(self, data):
        if self.depth:
            self.current.append(data)


def code_texts(html: str) -> list[str]:
    parser = _Code()
    parser.feed(html)
    return sorted(set(parser.texts), key=len, reverse=True)


def masked(passages: list[dict], pages_dir: Path, pages: list[dict]) -> list[str]:
    """Each passage's text with the page's inline code replaced by a placeholder."""
    code = {p["path"]: code_texts((pages_dir / p["file"]).read_text("utf-8")) for p in pages}
    out = []
    for passage in passages:
        text = passage["text"]
        for snippet in code.get(passage["page"], ()):
            if snippet in text:
                text = text.replace(snippet, "‹code›")
        out.append(text)
    return out


def measure(name: str, out_root: Path, source_only: bool, whole_project: bool = False) -> dict:
    if whole_project:    # the docs folder inside the whole sdist, as the project's repository holds it
        folder, corpus = whole(name), CORPORA[name]
        info = {"version": corpus.version, "source": f"{corpus.source}, whole"}
    else:
        folder = fetch(name)
        info = manifest(folder)
    if source_only:
        return _source_only(name, folder, info)
    out = out_root / name / ("release-whole" if whole_project else "release")
    run = release(folder, out, cache=out_root / name / "cache", check=False)
    if not run.manifest:
        return {"name": name, "version": info.get("version", ""), "error": run.stderr.strip().splitlines()[-1:]}
    allowlist = json.loads((run.out / "allowlist.json").read_text("utf-8"))
    gates = run.manifest["gates"]
    report_file = run.out / "reports" / "browser.json"
    failures = json.loads(report_file.read_text("utf-8"))["failures"] if report_file.is_file() else []
    left_out = Counter(s["reason"] for s in gates["source"]["skipped"])
    left_out.update(f"browser: {f.get('reason', 'failed')}" for f in failures if f.get("kind") == "passage")
    texts = masked(allowlist["passages"], run.out, allowlist["pages"])
    browser = gates.get("browser", {})
    return {"name": name, "version": info.get("version", ""), "source": info.get("source", ""),
            "pages": gates["source"]["pages"], "passages": len(allowlist["passages"]),
            "left_out": dict(left_out), "markup": {k: v[:3] for k, v in scan(texts).items()},
            "markup_count": sum(len(v) for v in scan(texts).values()),
            "warnings": [line[len("warning: "):] for line in run.stderr.splitlines() if line.startswith("warning: ")],
            "seconds": round(run.seconds, 1), "timings": run.manifest.get("timings", {}),
            "agreement": browser.get("agreement", {}).get("agree"), "directives": browser.get("directives"),
            "links_proven": browser.get("passages", {}).get("proven"),
            "languages": dict(Counter(page["language"] for page in allowlist["pages"]))}


def _source_only(name: str, folder: Path, info: dict) -> dict:
    """Build and source gate in-process (no browser, no index): a quick check while working."""
    from trigsight.build.builder import BuildConfig, run
    from trigsight.errors import TrigsightError

    started = time.perf_counter()
    try:
        build = run(BuildConfig(folder))
    except TrigsightError as refused:     # a refused build is a row, as a refused release is
        return {"name": name, "version": info.get("version", ""), "error": str(refused).splitlines()[-1:]}
    seconds = time.perf_counter() - started
    with tempfile.TemporaryDirectory() as tmp:
        pages = []
        for page in build.pages:
            file = Path(tmp) / f"{len(pages)}.html"
            file.write_text(page.html, "utf-8")
            pages.append({"path": page.path, "file": file.name})
        passages = [p.to_json() for p in build.passages]
        texts = masked(passages, Path(tmp), pages)
    hits = scan(texts)
    left_out = Counter(s.reason for t in build.texts.values() for s in t.skipped)
    return {"name": name, "version": info.get("version", ""), "source": info.get("source", ""),
            "pages": len(build.authored), "passages": len(passages), "left_out": dict(left_out),
            "markup": {k: v[:3] for k, v in hits.items()}, "markup_count": sum(len(v) for v in hits.values()),
            "warnings": build.warnings, "seconds": round(seconds, 1), "timings": {}, "agreement": None,
            "directives": None, "links_proven": None,
            "languages": dict(Counter(page.source.language for page in build.pages))}


def table(rows: list[dict], source_only: bool) -> str:
    head = ("| corpus | version | pages | passages published | left out (why) | markup in passages | "
            "warnings | time |\n|---|---|---|---|---|---|---|---|\n")
    lines = []
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['name']} | {r['version']} | release failed: {' '.join(r['error'])} | | | | | |")
            continue
        why = "; ".join(f"{n} {reason}" for reason, n in sorted(r["left_out"].items())) or "0"
        total = sum(r["left_out"].values())
        time_cell = f"{r['seconds']} s" + ("" if source_only else
                                           f" (browser {r['timings'].get('browser', 0):.0f} s, "
                                           f"payload {r['timings'].get('payload', 0):.0f} s, "
                                           f"index {r['timings'].get('index', 0):.0f} s)")
        lines.append(f"| {r['name']} | {r['version']} | {r['pages']} | {r['passages']} | {total}: {why} | "
                     f"{r['markup_count']} | {len(r['warnings'])} | {time_cell} |")
    return head + "\n".join(lines) + "\n"


def details(rows: list[dict]) -> str:
    out = []
    for r in rows:
        if "error" in r:
            continue
        out.append(f"### {r['name']}\n")
        if r.get("directives") is not None:
            out.append(f"- browser gate: {r['links_proven']} passage links proven of {r['directives']} directives; "
                       f"predictor/browser agreement {r['agreement']}/{r['directives']}")
        if r.get("languages"):
            out.append("- page languages: " + ", ".join(f"{lang} {n}" for lang, n in sorted(r["languages"].items())))
        for line in r["warnings"]:
            out.append(f"- warning: {line}")
        for kind, examples in r["markup"].items():
            out.append(f"- markup `{kind}`: " + " · ".join(f"“{e[:100]}”" for e in examples))
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help=f"corpora (default: all of {', '.join(CORPORA)})")
    parser.add_argument("--source-only", action="store_true", help="build and source gate only, no browser")
    parser.add_argument("--whole", action="store_true",
                        help="release the docs folder of the whole sdist or tarball (fetch.py --whole), not the "
                             "docs folder alone")
    parser.add_argument("--work", type=Path, default=ROOT / ".cache" / "corpora-bench",
                        help="where releases and their caches go")
    args = parser.parse_args(argv)
    names = args.names or list(CORPORA)
    where = machine()
    cold = not args.work.exists()
    started = time.strftime("%H:%M")
    rows = []
    for name in names:
        row = measure(name, args.work, args.source_only, args.whole)
        rows.append(row)
        print(table([row], args.source_only).splitlines()[-1], flush=True)
    kind = "build + source gate only (--source-only), in-process" if args.source_only else \
        f"full `trigsight release` via the CLI, {'cold caches' if cold else 'caches kept in ' + str(args.work)}"
    kind += ", whole sdists (--whole)" if args.whole else ""
    import trigsight  # which code built them: this checkout's, or a worktree's on PYTHONPATH
    threads = {name: os.environ[name] for name in ONE_MATH_THREAD if name in os.environ}
    text = (f"## {date.today().isoformat()} {started}: {kind}\n\nMachine: {where}; code: "
            f"{Path(trigsight.__file__).parent}; math threads: "
            f"{', '.join(f'{k}={v}' for k, v in threads.items()) or 'as trigsight sets them'}\n\n"
            + table(rows, args.source_only) + "\n" + details(rows))
    RESULTS.mkdir(exist_ok=True)
    result_file = RESULTS / f"{date.today().isoformat()}.md"
    with result_file.open("a", encoding="utf-8") as handle:
        handle.write(text + "\n")
    print(f"\nwritten to {result_file.relative_to(ROOT)}")
    return 1 if any("error" in r or r["markup_count"] for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
