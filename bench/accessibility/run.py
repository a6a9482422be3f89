"""axe-core over every page of a release, in headless Chromium, light and dark, with and without JS.

    python bench/accessibility/run.py [--release DIR] [--out bench/accessibility/results]

Installs axe-core from npm into this folder (gitignored node_modules), serves the release
with gunicorn on loopback (or releases content/ first), injects axe into each page and runs
the WCAG 2.0/2.1/2.2 A and AA rules plus best practices. Prints every violation; exits 1 if any.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from trigsight.gates import chromium
from trigsight.gates.liveserver import serve_release
from trigsight.publishing.published import Release
from trigsight.settings import Settings

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
import common  # noqa: E402
from common import ROOT  # noqa: E402

TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
VARIANTS = [("light", True), ("dark", True), ("light", False)]   # (colour scheme, JavaScript on)


def axe_source() -> Path:
    return common.npm_install(HERE) / "axe-core" / "axe.min.js"


def audit(base: str, paths: list[str], axe: Path, chromium_path: str = "") -> tuple[str, list[dict]]:
    from playwright.sync_api import sync_playwright

    results = []
    with sync_playwright() as playwright:
        browser = chromium.launch(playwright, chromium_path)
        try:
            for scheme, javascript in VARIANTS:
                context = browser.new_context(color_scheme=scheme)
                if not javascript:
                    # axe itself is JavaScript, so "without JS" means: the site's own scripts
                    # never arrive (the site has no inline scripts; axe is injected inline).
                    context.route("**/*.js", lambda route: route.abort())
                for path in paths:
                    page = context.new_page()
                    page.goto(base + path, wait_until="networkidle")
                    page.add_script_tag(path=str(axe))
                    found = page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})", TAGS)
                    results.append({"path": path, "scheme": scheme, "javascript": javascript,
                                    "passes": len(found["passes"]), "violations": [
                                        {"id": v["id"], "impact": v["impact"], "help": v["help"],
                                         "nodes": [n["target"] for n in v["nodes"]][:5]} for v in found["violations"]]})
                    page.close()
                context.close()
            version = f"{browser.browser_type.name} {browser.version}"
        finally:
            browser.close()
    return version, results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, help="an existing release (default: release content/ now)")
    parser.add_argument("--out", type=Path, default=HERE / "results")
    args = parser.parse_args(argv)
    settings = Settings.from_environ(os.environ)
    axe = axe_source()
    axe_version = json.loads((axe.parent / "package.json").read_text())["version"]
    with tempfile.TemporaryDirectory(prefix="trigsight-a11y-") as tmp:
        release = args.release
        if release is None:
            release = Path(tmp) / "release"
            common.release(ROOT / "content", release)
        paths = [page.path for page in Release.load(release).pages]
        with serve_release(release) as base:
            browser, results = audit(base, paths, axe, settings.chromium)

    lines = [f"axe-core {axe_version} ({', '.join(TAGS)}) on {browser}: {len(paths)} pages x "
             f"{len(VARIANTS)} variants (light+JS, dark+JS, light without JS)"]
    for result in results:
        variant = f"{result['scheme']}{'' if result['javascript'] else ', no JS'}"
        verdict = "ok" if not result["violations"] else f"{len(result['violations'])} violation(s)"
        lines.append(f"  {result['path']:<16} {variant:<14} {result['passes']:>3} rules pass, {verdict}")
        for v in result["violations"]:
            lines.append(f"      {v['impact']}: {v['id']}: {v['help']} at {v['nodes']}")
    total = sum(len(r["violations"]) for r in results)
    lines.append(f"violations: {total}")
    print("\n".join(lines))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "axe.txt").write_text("\n".join(lines) + "\n", "utf-8")
    (args.out / "axe.json").write_text(json.dumps({"axe": axe_version, "browser": browser, "tags": TAGS,
                                                   "results": results}, indent=1) + "\n", "utf-8")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
