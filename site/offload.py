"""CPU-bound work off the event loop.

Under gunicorn's gevent worker (`gunicorn_conf.py`) requests are greenlets that take turns
only when one waits on I/O, so a greenlet computing (embedding a question, scoring passages)
would hold every other request of its worker, a page that takes a millisecond included,
until it is done. Such work runs in gevent's pool of native threads instead, where the
interpreter's own switching lets the event loop go on serving. Outside gevent (the Flask
test client, a thread worker) it simply runs here.
"""
from __future__ import annotations

import os
from typing import Any, Callable


def run_blocking(function: Callable, *args, **kwargs):
    pool = _threadpool()
    if pool is None:
        return function(*args, **kwargs)
    return pool.apply(function, args, kwargs)


_pool: tuple[int, Any] | None = None      # (pid, pool): a pool made before a fork is not the worker's


def _threadpool():
    """One native thread per worker process, or None outside gevent.

    One, not gevent's default ten: the code run there takes locks created after gevent patched
    `threading` (the embedder's, among others), and gevent's locks deadlock when two native
    threads contend for one (measured: 7 of 10 concurrent questions hung). A single thread never
    contends with itself, and CPU-bound Python work gains nothing from more threads anyway.
    """
    global _pool
    try:
        from gevent import monkey
    except ImportError:
        return None
    if not monkey.is_module_patched("socket"):
        return None
    if _pool is None or _pool[0] != os.getpid():
        from gevent.threadpool import ThreadPool
        _pool = (os.getpid(), ThreadPool(1))
    return _pool[1]


class OffloadedRetriever:
    """A Retriever whose searches run off the event loop; everything else is the retriever's own."""

    def __init__(self, inner: Any):
        self.inner = inner

    def __getattr__(self, name: str):
        return getattr(self.inner, name)

    def search(self, *args, **kwargs):
        return run_blocking(self.inner.search, *args, **kwargs)

    def search_passages(self, *args, **kwargs):
        return run_blocking(self.inner.search_passages, *args, **kwargs)
