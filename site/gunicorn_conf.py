"""gunicorn settings for the site, shared by `trigsight serve` and the gates' live server.

Used as `gunicorn -c python:trigsight_site.gunicorn_conf ... 'trigsight_site:create_app()'`;
the command line still sets bind and workers.

Why gevent: gunicorn's thread worker hands a connection to a thread as soon as its first
bytes arrive and that thread then blocks reading the rest of the request, so a handful of
clients that send one header line every few seconds hold every thread (8 of them stopped
the site). gunicorn's documentation says the same of its sync worker: it needs a buffering
proxy in front. An async worker is the fix gunicorn itself ships: each connection is a
greenlet, waiting on a slow client costs a few kilobytes instead of a thread, and the worker
gives a connection `keepalive` seconds to send a whole request head before it drops it
(gunicorn's base_async worker reads each request head under `gevent.Timeout(keepalive)`).
A reverse proxy in front (README, "Deploying") buffers too; this setting makes the server
safe without one.
"""
from __future__ import annotations

import gc
import os
import signal
import threading
import time

worker_class = "gevent"
worker_connections = 1000       # per worker: open connections, slow ones included
keepalive = 5                   # seconds an idle or still-sending connection may take for a request head
timeout = 60                    # a worker that stops answering its arbiter this long is replaced
# On SIGHUP (reload) or SIGTERM, a worker stops accepting and lets in-flight requests finish for
# up to this long: a whole chat answer may take 3 x TRIGSIGHT_CHAT_TIMEOUT (180 s by default). An
# idle worker exits at once; only a request still running is waited for.
graceful_timeout = 180
limit_request_line = 8190
limit_request_fields = 64
limit_request_field_size = 8190

PARENT_VARIABLE = "TRIGSIGHT_SERVER_PARENT"     # set by trigsight.gates.liveserver, never by `trigsight serve`


def on_starting(server) -> None:
    """Load the question encoder in the arbiter, before it forks any worker.

    Its ~100 MB of weights (a 65 MB uint8 embedding table and float32 layers) are then
    pages every worker shares copy-on-write with the arbiter, one copy per machine instead
    of one per worker; the index's arrays are shared already, through the page cache of
    their memory-mapped files. `gc.freeze()` keeps the collector from writing to (and so
    copying) the pages of the objects loaded here. Only the model is loaded early, never
    the app: gevent patches each worker after the fork, and the app must be imported after
    that.
    """
    from trigsight_site import preload_question_encoder

    preload_question_encoder(server.log)
    gc.freeze()


def when_ready(server) -> None:
    """A server that trigsight started for a gate or a test stops when trigsight does, however it
    ends: SIGKILL, or a signal that came while the server was still starting, before its caller
    held its PID (a SIGTERM in that window once left one running: CI of stop 63)."""
    parent = os.environ.get(PARENT_VARIABLE, "")
    if parent.isdigit():
        threading.Thread(target=_stop_when_orphaned, args=(int(parent),), name="parent-watch", daemon=True).start()


def _stop_when_orphaned(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(0.2)
    # liveserver starts the server in a session of its own, so its process group is the arbiter and its workers
    if os.getpgid(0) == os.getpid():
        os.killpg(0, signal.SIGKILL)
    os.kill(os.getpid(), signal.SIGTERM)
