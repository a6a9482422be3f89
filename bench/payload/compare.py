"""Ours vs the three.js baseline: the home page's JavaScript on the wire, one harness, one run.

    python bench/payload/compare.py [--release DIR] [--runs 3] [--budget BYTES] [--out bench/payload/results]

1. builds bench/payload/baseline/ (three.js and esbuild from npm, into its gitignored dist/);
2. releases content/ with the real CLI (or takes --release), then copies that release and
   swaps the home page's scene for the three.js build (same loader, same page, same
   pre-compression: only the scene's implementation differs);
3. serves both with gunicorn on loopback and measures both home pages with the payload
   gate's harness (`trigsight.gates.payload.measure`), plus ours under reduced motion (no scene),
   a cited page in a Chromium without text-fragment support (the fallback script), and
   every page of ours against the budget;
4. checks in Chromium that each scene really drew pixels, prints the figures and the ratio,
   and writes them to `--out` (payload.json, payload.txt).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from trigsight.gates.liveserver import serve_release
from trigsight.gates.payload import measure, report_lines
from trigsight.publishing import compress
from trigsight.publishing.published import Release
from trigsight.settings import Settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT / "tests"))
import pixels  # noqa: E402  (the scene's pixels, counted as tests/test_frontend.py counts them)

BASELINE = Path(__file__).resolve().parent / "baseline"
NO_FRAGMENTS = "--disable-blink-features=TextFragmentIdentifiers"   # stands in for older browsers


def build_baseline() -> Path:
    common.npm_install(BASELINE)
    subprocess.run([shutil.which("npm"), "run", "--silent", "build"], cwd=BASELINE, check=True)
    return BASELINE / "dist" / "scene-three.js"


def release_ours(out: Path) -> Path:
    return common.release(ROOT / "content", out).out


def baseline_release(ours: Path, bundle: Path, out: Path) -> Path:
    """A copy of our release whose home page loads the three.js scene instead of ours."""
    shutil.copytree(ours, out)
    data = bundle.read_bytes()
    name = f"scene-three.{hashlib.sha256(data).hexdigest()[:10]}.js"
    (out / "static" / name).write_bytes(data)
    home = out / "pages" / "index.html"
    html, swapped = re.subn(r'data-scene="[^"]*"', f'data-scene="/static/{name}"', home.read_text("utf-8"))
    if swapped != 1:
        sys.exit("the home page has no data-scene element to swap")
    home.write_text(html, "utf-8")
    compress.run(out)
    return out


def _paths(release: Path) -> list[str]:
    return [page.path for page in Release.load(release).pages]


def _cited_url(release: Path) -> str:
    """A chip's deep link to another page: where the text-fragment fallback would be needed."""
    allowlist = json.loads((release / "allowlist.json").read_text("utf-8"))
    return next(c["url"] for c in allowlist["citations"] if c["page"] != c["target"])


def drawn_pixels(base: str, chromium_path: str = "") -> int:
    from playwright.sync_api import sync_playwright
    from trigsight.gates import chromium

    with sync_playwright() as playwright:
        browser = chromium.launch(playwright, chromium_path)
        try:
            page = browser.new_page()
            page.goto(base + "/")
            page.wait_for_selector("[data-scene][data-state] canvas", timeout=15000)
            page.wait_for_timeout(500)
            hero = page.locator("[data-scene]")
            shown = hero.screenshot()
            page.evaluate("document.querySelector('[data-scene] canvas').style.visibility = 'hidden'")
            hidden = hero.screenshot()
            return pixels.different(page, shown, hidden)
        finally:
            browser.close()


def main(argv: list[str] | None = None) -> int:
    settings = Settings.from_environ(os.environ)
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, help="an existing release of content/ (default: release it now)")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--budget", type=int, default=settings.js_budget)
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent / "results")
    args = parser.parse_args(argv)

    bundle = build_baseline()
    with tempfile.TemporaryDirectory(prefix="trigsight-payload-") as tmp:
        ours = args.release.resolve() if args.release else release_ours(Path(tmp) / "ours")
        theirs = baseline_release(ours, bundle, Path(tmp) / "three")
        with serve_release(ours) as ours_base, serve_release(theirs) as theirs_base:
            chromium = settings.chromium
            scene = measure([ours_base + "/", theirs_base + "/"], runs=args.runs, chromium=chromium)
            quiet = measure([ours_base + "/"], runs=args.runs, chromium=chromium, reduced_motion=True)
            cited = _cited_url(ours)
            fallback = measure([ours_base + cited], runs=args.runs, chromium=chromium, browser_args=[NO_FRAGMENTS])
            every_page = measure([ours_base + page for page in _paths(ours)], runs=args.runs, chromium=chromium)
            every_page_lines = report_lines(every_page, args.budget, ours_base)
            pixels = {"ours": drawn_pixels(ours_base, chromium), "three.js": drawn_pixels(theirs_base, chromium)}

    ours_fig, three_fig = scene.pages
    rows = {"ours, with the scene": (ours_fig, ours_base), "ours, reduced motion (no scene)": (quiet.pages[0], ours_base),
            "three.js baseline, with the scene": (three_fig, theirs_base),
            f"ours, {cited.split('#')[0]} via a chip, no text-fragment support": (fallback.pages[0], ours_base)}
    ratio = three_fig.total / ours_fig.total
    lines = report_lines(scene, None)[:1]
    lines.append(f"three.js {json.loads((BASELINE / 'package.json').read_text())['dependencies']['three']}, "
                 f"bundled by esbuild (--bundle --minify), pre-compressed like ours (brotli 11)")
    for label, (figures, _) in rows.items():
        lines.append(f"  {label:<60} {figures.total:>7} B  (initial {figures.initial} B, lazy {figures.lazy} B)  "
                     f"runs {[load.total for load in figures.loads]}")
    lines.append(f"  pixels the scene adds to the page (screenshot diff): ours {pixels['ours']}, three.js {pixels['three.js']}")
    lines.append(f"ratio three.js / ours (home page JS, with the scene): {ratio:.1f}x")
    lines.append(f"ratio three.js / ours (the scene script alone, lazy bytes): {three_fig.lazy / ours_fig.lazy:.1f}x")
    lines.append("")
    lines.extend(every_page_lines)
    for line in lines:
        print(line)

    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "payload.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (args.out / "payload.json").write_text(json.dumps({
        "measured": scene.to_json()["measured"], "browser": scene.browser, "webgl": scene.webgl, "runs": args.runs,
        "three": json.loads((BASELINE / "package.json").read_text())["dependencies"]["three"],
        "pages": {label: figures.to_json(base) for label, (figures, base) in rows.items()},
        "pixels": pixels, "ratio": round(ratio, 2), "scene_ratio": round(three_fig.lazy / ours_fig.lazy, 2),
        "every_page": every_page.to_json(ours_base, args.budget)}, indent=1) + "\n", "utf-8")
    if every_page.over(args.budget):
        return 1
    return 0 if all(pixels.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
