"""Load on the real server: 50 clients on pages, chat and MCP, and 50 slow clients dripping headers.

    .venv/bin/python bench/load/run.py [--release DIR] [--clients 50] [--seconds 30] [--workers 2]
                                       [--drippers 50] [--compare-gthread] [--blas-threads N]

1. Load: gunicorn with the site's own config (trigsight_site/gunicorn_conf.py: gevent
   workers) serves a release; `--clients` threads on loopback, each on its own keep-alive
   connection, take turns over three routes for `--seconds`: a page (GET, brotli), the
   chat (POST /api/chat, offline answers) and MCP (POST /api/mcp: find_evidence,
   read_page, verify_quote). Reported: requests, errors (anything but a 200, or no
   answer within 60 s), p50/p95/max latency per route, and the workers' RSS before
   (started, one warm-up request per route) and after.
2. Slow clients: `--drippers` sockets each send a request line and then one header line
   per second, never finishing; meanwhile one client sends normal page requests one after
   another for 12 s. Reported: their p50/p95/max latency and how many waited over 5 s.
   With --compare-gthread the same is measured against the worker the site used before
   (`-k gthread --threads 4`), as the "before" figure.
3. `--blas-threads N` serves with N math threads of numpy's library per worker instead of the site's
   one (`trigsight.math_threads`); N = the cores is how the site served before.

Bounded: every loop stops by its deadline and every socket has a timeout; loopback only.
Without --release it builds the bundled content/ with the real CLI first.
Writes bench/load/results/<date>.md and prints it.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from datetime import date
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # bench/common.py
from trigsight.files import unused_name  # noqa: E402
from trigsight.gates.liveserver import GUNICORN_CONFIG, free_port  # noqa: E402
from trigsight.math_threads import ONE_MATH_THREAD, with_one_math_thread  # noqa: E402
from trigsight.publishing.published import Release  # noqa: E402

import common  # noqa: E402
from common import ROOT, percentile  # noqa: E402

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
ROUTES = ("page", "chat", "mcp")
SLOW_AFTER = 5.0


class Server:
    """gunicorn on 127.0.0.1 with the site's config (plus `extra` arguments); stopped by its pid."""

    def __init__(self, release: Path, workers: int, extra: tuple[str, ...] = (), math_threads: int = 0):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        threads = {name: str(math_threads) for name in ONE_MATH_THREAD} if math_threads else {}
        env = with_one_math_thread({**os.environ, "TRIGSIGHT_RELEASE_DIR": str(release.absolute()),
                                  "OPENAI_API_KEY": "", "OPENAI_BASE_URL": "", **threads})
        self.process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", *GUNICORN_CONFIG, *extra, "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(workers), "--log-level", "error", "trigsight_site:create_app()"],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.base + "/", timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        self.stop()
        sys.exit("gunicorn did not start")

    def workers(self) -> list[int]:
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text().split()
        return [int(pid) for pid in children]

    def rss_mb(self) -> list[float]:
        sizes = []
        for pid in self.workers():
            status = Path(f"/proc/{pid}/status").read_text()
            kb = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:"))
            sizes.append(kb / 1024)
        return sizes

    def stop(self) -> None:
        try:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(self.process.pid, signal.SIGKILL)


def requests_for(release: Release) -> dict[str, list[tuple[str, str, bytes, dict]]]:
    """(method, path, body, headers) per route, cycled through by the clients."""
    questions = json.loads((ROOT / "bench" / "chat" / "questions.json").read_text("utf-8"))["answerable"]
    pages = [("GET", p.path, b"", {"Accept-Encoding": "br"}) for p in release.pages]
    chat = [("POST", "/api/chat", json.dumps({"question": q["question"]}).encode(), {"Content-Type": "application/json"})
            for q in questions]
    passages = release.passages[::max(1, len(release.passages) // 20)]
    calls = [("find_evidence", {"claim": p.text}) for p in passages[:8]] + \
            [("read_page", {"page": p.slug}) for p in release.pages[:6]] + \
            [("verify_quote", {"page": release.page(p.page).slug, "quote": p.text}) for p in passages[8:14]]
    mcp = [("POST", "/api/mcp", json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
        "name": name, "arguments": arguments, "_meta": META}}).encode(),
        {"Content-Type": "application/json", "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call",
         "Mcp-Name": name}) for n, (name, arguments) in enumerate(calls)]
    return {"page": pages, "chat": chat, "mcp": mcp}


def client(port: int, number: int, deadline: float, plan: dict, results: list) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    turn = number
    while time.monotonic() < deadline:
        route = ROUTES[turn % len(ROUTES)]
        method, path, body, headers = plan[route][(turn // len(ROUTES)) % len(plan[route])]
        turn += 1
        started = time.perf_counter()
        try:
            connection.request(method, path, body=body or None, headers=headers)
            response = connection.getresponse()
            response.read()
            ok = response.status == 200
        except (OSError, http.client.HTTPException):
            ok = False
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        results.append((route, time.perf_counter() - started, ok))
    connection.close()


def load(server: Server, plan: dict, clients: int, seconds: float) -> list[tuple[str, float, bool]]:
    results: list = []
    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=client, args=(server.port, n, deadline, plan, results)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    return results


def drip(port: int, count: int, stop: threading.Event) -> None:
    sockets = []
    for _ in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        sockets.append(sock)
    line = 0
    while not stop.wait(1.0):
        line += 1
        for sock in list(sockets):
            try:
                sock.sendall(f"X-Drip-{line}: {'x' * 20}\r\n".encode())
            except OSError:
                sockets.remove(sock)
                # a dropped dripper comes back at once, as an attacker's would
                try:
                    again = socket.create_connection(("127.0.0.1", port), timeout=5)
                    again.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    sockets.append(again)
                except OSError:
                    pass
    for sock in sockets:
        sock.close()


def slow_clients(server: Server, drippers: int, seconds: float = 12.0) -> list[float]:
    stop = threading.Event()
    dripping = threading.Thread(target=drip, args=(server.port, drippers, stop))
    dripping.start()
    time.sleep(1.5)
    took, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.perf_counter()
        try:
            with urllib.request.urlopen(server.base + "/", timeout=SLOW_AFTER * 2) as response:
                response.read()
            took.append(time.perf_counter() - started)
        except OSError:
            took.append(float("inf"))
        time.sleep(0.1)
    stop.set()
    dripping.join()
    return took


def ms(seconds: float) -> str:
    return "timeout" if seconds == float("inf") else f"{seconds * 1000:.0f} ms"


def report_load(results, rss_before, rss_after, args) -> list[str]:
    lines = [f"### {args.clients} clients for {args.seconds:.0f} s ({args.workers} gevent workers)", "",
             "| route | requests | errors | req/s | p50 | p95 | max |", "|---|---|---|---|---|---|---|"]
    for route in ROUTES:
        took = [t for r, t, ok in results if r == route]
        errors = sum(1 for r, _, ok in results if r == route and not ok)
        if took:
            lines.append(f"| {route} | {len(took)} | {errors} | {len(took) / args.seconds:.1f} | "
                         f"{ms(percentile(took, 0.5))} | {ms(percentile(took, 0.95))} | {ms(max(took))} |")
    total_errors = sum(1 for *_, ok in results if not ok)
    lines += ["", f"Total: {len(results)} requests, {total_errors} errors.", "",
              f"Worker RSS (MB): before {', '.join(f'{v:.0f}' for v in rss_before)}; "
              f"after {', '.join(f'{v:.0f}' for v in rss_after)}.", ""]
    return lines


def report_slow(name: str, took: list[float], drippers: int) -> list[str]:
    finite = [t for t in took if t != float("inf")] or [float("inf")]
    slow = sum(1 for t in took if t > SLOW_AFTER)
    return [f"| {name} | {drippers} | {len(took)} | {ms(percentile(finite, 0.5))} | {ms(percentile(finite, 0.95))} | "
            f"{ms(max(took))} | {slow} |"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path, help="a published release (default: build content/)")
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--drippers", type=int, default=50)
    parser.add_argument("--compare-gthread", action="store_true", help="also measure the old gthread worker")
    parser.add_argument("--blas-threads", type=int, default=0, metavar="N",
                        help="numpy's math threads per worker (default: the site's own, 1; before stop 76: one a core)")
    args = parser.parse_args()

    machine_before = common.machine()
    release_dir = args.release
    if release_dir is None:
        release_dir = ROOT / ".cache" / "bench-load" / "release"
        print(f"building a release of content/ into {release_dir} …", file=sys.stderr)
        common.release(ROOT / "content", release_dir, cache=ROOT / ".cache" / "bench-load" / "proofs")
    release = Release.load(release_dir)
    plan = requests_for(release)

    server = Server(release_dir, args.workers, math_threads=args.blas_threads)
    try:
        for route in ROUTES:                     # warm up: the question embedder loads on first use
            for _ in range(args.workers * 2):
                method, path, body, headers = plan[route][0]
                request = urllib.request.Request(server.base + path, data=body or None, headers=headers,
                                                 method=method)
                urllib.request.urlopen(request, timeout=120).read()
        rss_before = server.rss_mb()
        print(f"load: {args.clients} clients for {args.seconds:.0f} s …", file=sys.stderr)
        results = load(server, plan, args.clients, args.seconds)
        rss_after = server.rss_mb()
        print("slow clients (gevent) …", file=sys.stderr)
        slow = {"gevent (site config)": slow_clients(server, args.drippers)}
    finally:
        server.stop()
    if args.compare_gthread:
        print("slow clients (gthread, before) …", file=sys.stderr)
        old = Server(release_dir, args.workers, ("--worker-class", "gthread", "--threads", "4"))
        try:
            slow["gthread, 4 threads (before)"] = slow_clients(old, args.drippers)
        finally:
            old.stop()

    lines = [f"# Load on the real server ({date.today().isoformat()})", "",
             f"Release {release.release_id}: {len(release.pages)} pages, {len(release.passages)} passages. "
             "Chat answers offline (no model). Server: gunicorn, the site's config "
             "(trigsight_site/gunicorn_conf.py), loopback; clients in the same machine's Python threads; "
             f"numpy's math threads per worker: {args.blas_threads or 1}"
             f"{'' if args.blas_threads else ' (the site sets 1)'}.", "",
             f"Machine at start: {machine_before}", f"Machine at end: {common.machine()}", "",
             "Command: `.venv/bin/python bench/load/run.py " + " ".join(sys.argv[1:]) + "`", ""]
    lines += report_load(results, rss_before, rss_after, args)
    lines += ["### A normal request while sockets drip headers (one header line per second, never finishing)", "",
              f"| worker | drippers | requests | p50 | p95 | max | over {SLOW_AFTER:.0f} s |", "|---|---|---|---|---|---|---|"]
    for name, took in slow.items():
        lines += report_slow(name, took, args.drippers)
    lines += [""]
    text = "\n".join(lines)
    out = unused_name(HERE / "results" / f"{date.today().isoformat()}.md")
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text + "\n", "utf-8")
    print(text)
    print(f"\nwritten to {out.relative_to(ROOT)}", file=sys.stderr)


if __name__ == "__main__":
    main()
