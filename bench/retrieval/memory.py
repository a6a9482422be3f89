"""Serving memory: RSS and PSS of each gunicorn worker after questions, on a published release.

    .venv/bin/python bench/retrieval/memory.py --release /tmp/node-release [--workers 2] [--questions 40]

Starts the real site (gunicorn with trigsight_site.gunicorn_conf, as `trigsight serve`
does) over the release, asks `--questions` chat questions (offline answers) and as many
MCP `find_evidence` calls, spread over the workers, then reads /proc/<pid>/smaps_rollup
of the arbiter and of each worker:

  RSS   every page the process has resident, shared ones counted in full: the memory-mapped
        index files (page cache) and the encoder's weights inherited from the arbiter count
        in every worker's RSS although the machine holds them once;
  PSS   each page divided by the number of processes sharing it: the sum over arbiter and
        workers is what the server costs the machine.

The questions are the first twelve words of evenly spaced passages of the release (so they
find something) and the claims are whole passages. Prints a markdown table and writes it to
bench/retrieval/results/<date>-memory.md (or --out).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import signal
import subprocess
import sys
import time
import urllib.request
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
FIELDS = ("Rss", "Pss", "Pss_Anon", "Pss_File", "Shared_Clean", "Shared_Dirty", "Private_Clean", "Private_Dirty")
GUNICORN_CONFIG = ("--config", "python:trigsight_site.gunicorn_conf")
MODERN = "2026-07-28"       # the MCP protocol version bench/load/run.py speaks
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


def smaps_rollup(pid: int) -> dict[str, float]:
    """The rollup's fields in MB."""
    out = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value, *_ = line.split()
        out[name.rstrip(":")] = int(value) / 1024
    return out


def children(pid: int) -> list[int]:
    return sorted(int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split())


def post(base: str, path: str, body: dict, headers: dict | None = None) -> int:
    request = urllib.request.Request(base + path, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    with urllib.request.urlopen(request, timeout=300) as response:
        response.read()
        return response.status


def load_average() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--release", type=Path, required=True, help="A published release folder (not the link).")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--label", default="", help="Names the run in the report (e.g. the code's commit).")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()

    allowlist = json.loads((args.release / "allowlist.json").read_text("utf-8"))
    passages = [p for p in allowlist["passages"] if len(p["text"].split()) >= 6]
    picked = passages[::max(1, len(passages) // args.questions)][:args.questions]
    questions = [" ".join(p["text"].split()[:12]) for p in picked]
    index_mb = sum(f.stat().st_size for f in (args.release / "index").rglob("*") if f.is_file()) / 2**20
    meta = json.loads((args.release / "index" / "index.json").read_text("utf-8"))

    port = 20000 + os.getpid() % 20000
    log = open(Path(os.environ.get("TMPDIR", "/tmp")) / f"memory-bench-{port}.log", "wb")
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", *GUNICORN_CONFIG, "--bind", f"127.0.0.1:{port}",
         "--workers", str(args.workers), "--log-level", "warning", "trigsight_site:create_app()"],
        env={**os.environ, "TRIGSIGHT_RELEASE_DIR": str(args.release.absolute())},
        stdout=subprocess.DEVNULL, stderr=log, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    try:
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=5).close()
                break
            except OSError:
                if process.poll() is not None or time.perf_counter() - started > 300:
                    raise SystemExit(f"gunicorn did not start; see {log.name}")
                time.sleep(0.5)
        up_s = time.perf_counter() - started
        load_start = load_average()
        asked = time.perf_counter()
        statuses = []
        for number, (question, passage) in enumerate(zip(questions, picked)):
            statuses.append(post(base, "/api/chat", {"question": question}))
            statuses.append(post(base, "/api/mcp", {
                "jsonrpc": "2.0", "id": number, "method": "tools/call",
                "params": {"name": "find_evidence", "arguments": {"claim": passage["text"]}, "_meta": META}},
                {"MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call", "Mcp-Name": "find_evidence"}))
        asked_s = time.perf_counter() - asked
        arbiter = process.pid
        rows = [("arbiter", arbiter, smaps_rollup(arbiter))]
        rows += [(f"worker {n}", pid, smaps_rollup(pid)) for n, pid in enumerate(children(arbiter), start=1)]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)
        log.close()

    total_pss = sum(r[2]["Pss"] for r in rows)
    lines = [f"# Serving memory — {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC {args.label}".rstrip(), "",
             f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}; load average at start "
             f"{load_start}, at end {load_average()}. Command: `python bench/retrieval/memory.py "
             f"{' '.join(sys.argv[1:])}`.", "",
             f"Release {allowlist['release_id']}: {len(allowlist['pages'])} pages, {len(meta['passages']):,} indexed "
             f"passages in {len(meta['chunks']):,} chunks, index schema {meta.get('schema')}, vector backend "
             f"{'HNSW graphs' if meta.get('ann') else 'exact scan'}, index folder {index_mb:.0f} MB on disk. "
             f"{args.workers} workers up in {up_s:.1f} s; {len(statuses)} requests ({len(questions)} chat questions, "
             f"{len(questions)} find_evidence calls; statuses {sorted(set(statuses))}) in {asked_s:.1f} s.", "",
             "| process | pid | " + " | ".join(f"{f} (MB)" for f in FIELDS) + " |",
             "|---|---|" + "---|" * len(FIELDS),
             *[f"| {name} | {pid} | " + " | ".join(f"{r.get(f, 0):.1f}" for f in FIELDS) + " |" for name, pid, r in rows],
             "", f"Sum of PSS over arbiter and workers (what the server costs the machine): {total_pss:.1f} MB.", "",
             "RSS counts every resident page in full, shared ones included (the mapped index files and the "
             "weights inherited from the arbiter); PSS divides each shared page among the processes sharing it."]
    text = "\n".join(lines) + "\n"
    print(text)
    out = args.out or HERE / "results" / f"{datetime.now(timezone.utc):%Y-%m-%d}-memory.md"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "a", encoding="utf-8") as handle:   # several runs (before / after) go into one day's file
        handle.write(text + "\n")
    print(f"wrote {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
