"""Slow clients cannot starve the server (real gunicorn, its site config, loopback sockets).

The bounds here are generous on purpose: they tell "served" from "starved" (a starved request
waits for the drip to end, 20 s here), on a shared and loaded machine. The figure itself, a
normal request's latency while 50 sockets drip, is measured by bench/load/run.py.
"""
from __future__ import annotations

import socket
import threading
import time
import urllib.request

import pytest
from trigsight.gates.liveserver import serve_release

from wire import address

DRIPPERS = 50
DRIP_SECONDS = 20       # how long each dripping socket keeps sending, unless the server drops it
STARVED_AFTER = 8.0     # far below DRIP_SECONDS, far above a served request


class Dripper:
    """Sockets that open a request and send one more header line every second, never finishing it."""

    def __init__(self, base: str, count: int):
        self.sockets = [socket.create_connection(address(base), timeout=5) for _ in range(count)]
        self.dropped_after: list[float] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)

    def run(self):
        started = time.monotonic()
        live = list(self.sockets)
        for sock in live:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        line = 0
        while live and not self.stop.is_set() and time.monotonic() - started < DRIP_SECONDS:
            time.sleep(1.0)
            line += 1
            for sock in list(live):
                try:
                    sock.sendall(f"X-Drip-{line}: {'x' * 20}\r\n".encode())
                except OSError:                 # the server closed it
                    self.dropped_after.append(time.monotonic() - started)
                    live.remove(sock)

    def __enter__(self):
        self.thread.start()
        time.sleep(1.5)                         # every socket has sent a line: a thread worker would be held
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()
        for sock in self.sockets:
            sock.close()


@pytest.fixture(scope="module")
def site(bundled_release):
    with serve_release(bundled_release, workers=2) as base:
        yield base


def timed_get(url: str) -> float:
    started = time.monotonic()
    with urllib.request.urlopen(url, timeout=STARVED_AFTER) as response:
        assert response.status == 200 and response.read()
    return time.monotonic() - started


def test_normal_requests_are_served_while_50_sockets_drip_headers(site):
    # before (gthread, 2 workers x 4 threads): 8 dripping sockets held every thread and these timed out
    with Dripper(site, DRIPPERS):
        took = [timed_get(site + path) for path in ("/", "/mcp", "/chat", "/gates/browser", "/")]
    assert max(took) < STARVED_AFTER, took


def test_a_client_that_never_finishes_its_request_head_is_dropped(site):
    # gunicorn gives a connection `keepalive` seconds (5) to send a whole request head
    with Dripper(site, 5) as drip:
        deadline = time.monotonic() + DRIP_SECONDS
        while len(drip.dropped_after) < 5 and time.monotonic() < deadline:
            time.sleep(0.5)
    assert len(drip.dropped_after) == 5
    assert max(drip.dropped_after) < DRIP_SECONDS - 5
