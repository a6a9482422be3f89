"""Time the browser gate alone over a published release, before and after a change, and profile it.

    .venv/bin/python bench/scale/gate.py --release /work/node/release --content /work/node/content \
        [--before REV] [--keep DIR] [--profile-pages 4] [--profile-directives 300]

The page jobs are the release's own: every check of its reports/browser.json (keys, directives
and the order of each page), planned again from CONTENT for each check's intended block. Each
variant runs in a child process over a hard-linked copy of the release with no proof cache:
`gates.browser.run` over all pages, as `trigsight release` runs it (gunicorn and a local
Chromium started inside, so their start is in the gate's seconds). `--before REV` runs the
pipeline of that git revision (`git archive` into a scratch folder, first on PYTHONPATH);
"after" is this working tree. With `--keep DIR` each variant's result is kept there and
reused when the same code is run again (named by revision, or by a hash of the working tree's
pipeline/): the report then says when each was measured and under which load.

For each variant it prints and writes: directives/s of the whole gate and of the check alone,
the CPU milliseconds per directive of every process kind in the child's tree (Chromium's
browser, renderer, GPU and utility processes, the Playwright driver, gunicorn, Python), the
load average, and whether every outcome (key, count, ok, reason, matched text, target) is
identical to the release's report and to the first variant's. Then a profile on the largest
pages, one tab: page load, the in-page count, and the same-document activations (ms, frames,
hash navigations and CPU per directive), the phases a directive's cost splits into.
Writes bench/scale/results/gate-<date>.md.
"""
from __future__ import annotations

import argparse
import collections
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import date, datetime, timezone
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # bench/common.py
from trigsight.files import unused_name  # noqa: E402

import common  # noqa: E402
from common import ROOT  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
FIELDS = ("key", "directive", "count", "ok", "reason", "matched", "target", "fresh")
KINDS = ("renderer", "browser", "gpu", "utility", "driver", "gunicorn", "python")
# Counts frames and hash navigations while the probe activates; works with any probe version.
COUNTERS_JS = """() => { window.__bench = {frames: 0, navigations: 0};
  addEventListener("hashchange", () => window.__bench.navigations++);
  const tick = () => { window.__bench.frames++; requestAnimationFrame(tick); }; requestAnimationFrame(tick); }"""


def cpu_by_kind(root: int) -> collections.Counter:
    """CPU seconds so far of `root`'s live process tree, by kind of process."""
    procs = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                head, tail = (entry / "stat").read_text().rsplit(")", 1)
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            fields = tail.split()
            procs[int(entry.name)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / TICKS, command)
    children = collections.defaultdict(list)
    for pid, (parent, _, _) in procs.items():
        children[parent].append(pid)
    totals, todo = collections.Counter(), [root]
    while todo:
        pid = todo.pop()
        _, seconds, command = procs.get(pid, (0, 0.0, ""))
        totals[_kind(pid, command, root)] += seconds
        todo += children.get(pid, [])
    return totals


def _kind(pid: int, command: str, root: int) -> str:
    if "chrom" in command.split(" ", 1)[0]:
        kind = command.split("--type=", 1)[1].split()[0] if "--type=" in command else "browser"
        return {"gpu-process": "gpu"}.get(kind, kind)
    if "run-driver" in command:
        return "driver"
    if "gunicorn" in command:
        return "gunicorn"
    return "python" if pid == root else "other"


def per_directive(before: collections.Counter, after: collections.Counter, directives: int) -> dict:
    return {k: round(1000 * (after[k] - before[k]) / max(1, directives), 2) for k in after if after[k] > before[k]}


# ---- the child: one variant's code, all pages, then the profile ------------------------------------

def child(spec: dict) -> dict:
    from trigsight.gates import browser as browser_gate
    from trigsight.gates import browser_check

    plans = [browser_gate.PagePlan(browser_check.PageJob(j["path"], "", [browser_check.Check(**c) for c in j["checks"]]),
                                   html_sha256="") for j in spec["jobs"]]
    directives = sum(len(p.job.checks) for p in plans)
    # Chromium, its driver and gunicorn live inside `run`: read their CPU as each page is done,
    # and keep the last reading (from their start to the last page).
    readings = []
    load, cpu, started = os.getloadavg(), cpu_by_kind(os.getpid()), time.perf_counter()
    result = browser_gate.run(Path(spec["release"]), plans, None, spec.get("chromium", ""),
                              progress=lambda path, cached: readings.append(cpu_by_kind(os.getpid())))
    seconds = time.perf_counter() - started
    cpu_after = readings[-1]
    outcomes = {path: [{k: o.to_json().get(k) for k in FIELDS} for o in found] for path, found in result.outcomes.items()}
    return {"directives": directives, "pages": len(plans), "gate_seconds": seconds,
            "check_seconds": result.stats.seconds, "chromium": result.chromium,
            "workers": getattr(browser_gate, "WORKERS", None), "load_start": load, "load_end": os.getloadavg(),
            "cpu_ms": per_directive(cpu, cpu_after, directives), "outcomes": outcomes,
            "measured": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "profile": profile(spec, plans)}


def profile(spec: dict, plans) -> list[dict]:
    """One tab, the largest pages: load, count and activation, timed and counted per directive."""
    from playwright.sync_api import sync_playwright
    from trigsight.gates import browser_check, chromium
    from trigsight.gates.liveserver import serve_release

    largest = sorted(plans, key=lambda p: -len(p.job.checks))[:spec["profile_pages"]]
    rows = []
    with serve_release(Path(spec["release"]), workers=1, env={"TRIGSIGHT_DEV": ""}) as base, \
            sync_playwright() as playwright:
        browser = chromium.launch(playwright, spec.get("chromium", ""))
        context = browser.new_context(**browser_check.TAB["context_options"])
        context.add_init_script(browser_check.TAB["init_script"])
        page = context.new_page()
        for plan in largest:
            checks = plan.job.checks[:spec["profile_directives"]]
            directives = [c.directive for c in checks]
            began = time.perf_counter()
            page.goto(base + plan.job.path, wait_until="load")
            loaded = time.perf_counter() - began
            elements = page.evaluate("() => document.getElementsByTagName('*').length")
            began = time.perf_counter()
            page.evaluate("(ds) => window.__trigsight.count(ds).length", directives)
            counted = time.perf_counter() - began
            page.evaluate(COUNTERS_JS)
            cpu, began = cpu_by_kind(os.getpid()), time.perf_counter()
            page.evaluate("([ds, i, f]) => window.__trigsight.activate(ds, i, f)",
                          [directives, [c.intended for c in checks], browser_check.SAME_DOCUMENT_FRAMES])
            activated = time.perf_counter() - began
            counters = page.evaluate("() => window.__bench")
            n = len(checks)
            rows.append({"page": plan.job.path, "directives": len(plan.job.checks), "profiled": n, "elements": elements,
                         "load_ms": round(1000 * loaded), "count_ms_per_directive": round(1000 * counted / n, 2),
                         "activate_ms_per_directive": round(1000 * activated / n, 2),
                         "frames_per_directive": round(counters["frames"] / n, 2),
                         "navigations_per_directive": round(counters["navigations"] / n, 2),
                         "activate_cpu_ms": per_directive(cpu, cpu_by_kind(os.getpid()), n),
                         "load": os.getloadavg()[0]})
        browser.close()
    return rows


# ---- the parent: jobs, variants, comparison, report ------------------------------------------------

def jobs_of(release: Path, content: Path, saved: Path | None = None) -> tuple[list[dict], dict]:
    """The release's checks, in its order, with each check's intended block planned again from CONTENT
    (or taken from `saved`, a previous run's spec: planning a big site again takes minutes)."""
    from trigsight.build.builder import BuildConfig
    from trigsight.build.builder import run as build
    from trigsight.gates import browser as browser_gate

    report = json.loads((release / "reports" / "browser.json").read_text("utf-8"))
    reference = {page["path"]: [{k: row.get(k) for k in FIELDS} for row in page["checks"]] for page in report["pages"]}
    if saved:
        jobs = json.loads(saved.read_text("utf-8"))["jobs"]
        assert {j["path"]: [c["key"] for c in j["checks"]] for j in jobs} == \
            {path: [row["key"] for row in rows] for path, rows in reference.items()}, f"{saved} is not this release's"
        return jobs, reference
    built = build(BuildConfig(content))
    planned = {p.job.path: {c.key: c for c in p.job.checks} for p in browser_gate.plan(built, built.passages, "")}
    jobs = []
    for page in report["pages"]:
        checks = []
        for row in page["checks"]:
            check = planned[page["path"]][row["key"]]
            assert check.directive == row["directive"], f"{row['key']}: the content differs from the release's"
            checks.append({"key": check.key, "directive": check.directive, "intended": check.intended,
                           "fresh": check.fresh})
        jobs.append({"path": page["path"], "checks": checks})
    return jobs, reference


def code_of(revision: str, scratch: Path) -> tuple[str, str | None]:
    """(name, PYTHONPATH) for a revision's pipeline; "." is this working tree (its installed package)."""
    if revision == ".":
        digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted((ROOT / "pipeline").rglob("*"))
                                         if p.is_file() and "__pycache__" not in p.parts)).hexdigest()[:10]
        return f"worktree-{digest}", None
    commit = subprocess.run(["git", "rev-parse", "--short", revision], cwd=ROOT, capture_output=True, text=True,
                            check=True).stdout.strip()
    folder = scratch / f"code-{commit}"
    if not folder.is_dir():
        folder.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", commit, "pipeline"], cwd=ROOT, capture_output=True, check=True)
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
        (folder / "pipeline").rename(folder / "trigsight")
    return commit, str(folder)


def run_variant(label: str, revision: str, spec: dict, scratch: Path, keep: Path | None, executable: str = "") -> dict:
    name, pythonpath = code_of(revision, scratch)
    name += f"-{Path(executable).name}" if executable else ""
    spec = {**spec, "chromium": executable}
    kept = keep / f"{name}.json" if keep else None
    if kept and kept.is_file():
        print(f"{label}: reusing {kept}", flush=True)
        return {**json.loads(kept.read_text("utf-8")), "label": label, "code": name}
    spec_file = scratch / f"spec-{name}.json"
    out_file = scratch / f"result-{name}.json"
    spec_file.write_text(json.dumps(spec), "utf-8")
    env = {**os.environ, **({"PYTHONPATH": pythonpath} if pythonpath else {})}
    subprocess.run([sys.executable, __file__, "--child", str(spec_file), str(out_file)], env=env, check=True)
    result = json.loads(out_file.read_text("utf-8"))
    if kept:
        keep.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(out_file, kept)
    return {**result, "label": label, "code": name}


def compare(found: dict, reference: dict) -> str:
    if found == reference:
        return "identical"
    differing = [(path, a, b) for path in reference for a, b in zip(found.get(path, []), reference[path]) if a != b]
    example = differing[0] if differing else None
    return (f"{len(differing)} outcomes differ" + (f", e.g. {example[0]} {example[1]['key']}: "
                                                    f"{ {k: example[1][k] for k in example[1] if example[1][k] != example[2][k]} }"
                                                    if example else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, help="a published release (read only: a hard-linked copy is served)")
    parser.add_argument("--content", type=Path, help="the markdown it was released from")
    parser.add_argument("--before", default="", help="git revision to time first (its pipeline/)")
    parser.add_argument("--chromium", default="", help="also time this tree with this Chromium executable "
                        "(as TRIGSIGHT_CHROMIUM), e.g. /usr/bin/chromium-headless-shell")
    parser.add_argument("--keep", type=Path, help="keep each variant's result here, and reuse it for the same code")
    parser.add_argument("--jobs", type=Path, help="reuse the planned jobs of a spec JSON this bench wrote")
    parser.add_argument("--every", type=int, default=1, help="time every Nth page only (in path order)")
    parser.add_argument("--profile-pages", type=int, default=4)
    parser.add_argument("--profile-directives", type=int, default=300)
    parser.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        result = child(json.loads(args.child[0].read_text("utf-8")))
        args.child[1].write_text(json.dumps(result, ensure_ascii=False), "utf-8")
        return
    start_line = common.machine()
    with tempfile.TemporaryDirectory(prefix="trigsight-gate-") as scratch_name:
        scratch = Path(scratch_name)
        release = scratch / "release"
        shutil.copytree(args.release.resolve(), release, copy_function=os.link)
        jobs, reference = jobs_of(release, args.content, args.jobs)
        if args.every > 1:
            jobs = sorted(jobs, key=lambda j: j["path"])[::args.every]
            reference = {j["path"]: reference[j["path"]] for j in jobs}
        spec = {"release": str(release), "jobs": jobs, "profile_pages": args.profile_pages,
                "profile_directives": args.profile_directives}
        variants = ([("before", args.before, "")] if args.before else []) + [("after", ".", "")] + (
            [(f"after, {args.chromium}", ".", args.chromium)] if args.chromium else [])
        results = []
        for label, revision, executable in variants:
            result = run_variant(label, revision, spec, scratch, args.keep, executable)
            result["vs_release"] = compare(result["outcomes"], reference)
            result["vs_first"] = compare(result["outcomes"], results[0]["outcomes"]) if results else "–"
            results.append(result)
            print(_row(result), flush=True)
    common.write_results([report(args, results, start_line, reference)],
                         unused_name(ROOT / "bench" / "scale" / "results" / f"gate-{date.today().isoformat()}.md"))


def _row(r: dict) -> str:
    cpu = " ".join(f"{k} {r['cpu_ms'].get(k, 0):.1f}" for k in KINDS if r["cpu_ms"].get(k))
    total = sum(r["cpu_ms"].values())
    return (f"| {r['label']} ({r['code']}) | {r['measured']} | {r['workers']} | {r['directives']} | "
            f"{r['gate_seconds']:.0f} | {r['directives'] / r['gate_seconds']:.1f} | "
            f"{r['directives'] / r['check_seconds']:.1f} | {total:.1f}: {cpu} | "
            f"{r['load_start'][0]:.1f} → {r['load_end'][0]:.1f} | {r['vs_release']} | {r['vs_first']} |")


def report(args, results: list[dict], start_line: str, reference: dict) -> str:
    proven = sum(o["ok"] for rows in reference.values() for o in rows)
    lines = [
        f"# Browser gate bench, {date.today().isoformat()}",
        "",
        f"Command: `.venv/bin/python bench/scale/gate.py --release {args.release} --content {args.content}"
        + (f" --jobs {args.jobs}" if args.jobs else "") + (f" --every {args.every}" if args.every > 1 else "") + (f" --before {args.before}" if args.before else "") + (f" --chromium {args.chromium}" if args.chromium else "") + (f" --keep {args.keep}" if args.keep else "")
        + f" --profile-pages {args.profile_pages} --profile-directives {args.profile_directives}`",
        f"Machine at start: {start_line}",
        f"Machine at end: {common.machine()}",
        "Backend: " + "; ".join(sorted({r["chromium"] for r in results})) + ", local, launched through Playwright; "
        "no proof cache.",
        f"Release: {len(reference)} pages, {sum(len(v) for v in reference.values())} directives "
        f"({proven} proven in the release's own report).",
        "",
        "| variant (code) | measured | tabs | directives | gate s | directives/s (gate) | directives/s (check) | "
        "CPU ms / directive: total: by process | load 1-min start → end | outcomes vs release | vs first |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ] + [_row(r) for r in results] + [
        "",
        "Gate seconds include starting gunicorn and Chromium; the check is the pages alone. CPU is every process "
        "of the child's tree while the gate ran. Outcomes are compared field by field (key, directive, count, ok, "
        "reason, matched text, target, fresh verdict).",
        "",
        "## Profile: largest pages, one tab",
        "",
        "| variant | page | directives (profiled) | elements | load ms | count ms/d | activation ms/d | frames/d | "
        "hash navigations/d | activation CPU ms/d by process | load |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        for p in r["profile"]:
            cpu = ", ".join(f"{k} {v:.1f}" for k, v in sorted(p["activate_cpu_ms"].items(), key=lambda kv: -kv[1]))
            lines.append(f"| {r['label']} | {p['page']} | {p['directives']} ({p['profiled']}) | {p['elements']} | "
                         f"{p['load_ms']} | {p['count_ms_per_directive']} | {p['activate_ms_per_directive']} | "
                         f"{p['frames_per_directive']} | {p['navigations_per_directive']} | {cpu} | {p['load']:.1f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
