"""Which published release a request is served from: one snapshot per request, switched as a whole.

`trigsight release` publishes by pointing the `release` symlink at `releases/<id>` with
one rename (`trigsight.publishing.publish`). Each worker keeps one snapshot: the folder
the link resolved to, its allowlist and its retrieval index, loaded together. Every
request takes the current snapshot once, at its start, and reads pages, chips and index
from that snapshot's own folder (`releases/<id>/…`, never through the link), so a
response cannot mix two releases, and its id goes out in the `X-Trigsight-Release` header.

The link is looked at on every request (a realpath and a stat: a few microseconds). When it
points somewhere new, the first request to notice loads the new release while the others
go on with the old snapshot; once it is loaded, the next requests get the new one. gunicorn's
SIGHUP (graceful reload: new workers, each loading the current link) switches as a whole too.
The index is memory-mapped by `Retriever.load`, so a worker forked from a preloaded master
shares its pages of the mapped files, and a switch maps the new release's files.
"""
from __future__ import annotations

import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from trigsight.errors import ReleaseNotFound
from trigsight.publishing.published import Release

log = logging.getLogger(__name__)

Location = tuple[str, int, int]     # (real path, device, inode) of a release folder


@dataclass(frozen=True)
class Snapshot:
    release: Release | None
    retriever: Any = None           # trigsight.retrieval.search.Retriever, or None without an index
    location: Location | None = None

    @property
    def release_id(self) -> str:
        return self.release.release_id if self.release is not None else ""


def locate(configured: Path | None) -> Location | None:
    """Where `configured` points now (through any symlink), or None when nothing is there."""
    if configured is None:
        return None
    real = os.path.realpath(configured)
    try:
        info = os.stat(real)
    except OSError:
        return None
    return real, info.st_dev, info.st_ino


class LiveRelease:
    """The snapshot a worker serves, re-read when the release link (or folder) changes."""

    def __init__(self, configured: Path | None, load_retriever: Callable[[Release], Any]):
        self.configured = configured
        self._load_retriever = load_retriever
        self._lock = threading.Lock()
        self._failed: Location | None = None
        self._snapshot = Snapshot(None)
        self.refresh()

    def current(self) -> Snapshot:
        """The snapshot to serve this request from; switches when the link points elsewhere."""
        snapshot = self._snapshot
        here = locate(self.configured)
        if here == snapshot.location or here is None or here == self._failed:
            return snapshot
        # One request loads; the others keep serving the old snapshot meanwhile.
        if not self._lock.acquire(blocking=False):
            return snapshot
        try:
            if locate(self.configured) != self._snapshot.location:
                self._switch()
        finally:
            self._lock.release()
        return self._snapshot

    def refresh(self) -> Snapshot:
        """Load whatever the link points at now (at start, or when told to)."""
        with self._lock:
            self._switch()
        return self._snapshot

    def _switch(self) -> None:
        here = locate(self.configured)
        if here is None:
            return
        try:
            release = Release.load(here[0])
        except (ReleaseNotFound, ValueError, KeyError, OSError) as error:
            # A broken or half-written folder: keep serving the last good release, try again on the next change.
            self._failed = here
            if self._snapshot.release is not None:
                log.warning("release at %s could not be loaded (%s); still serving %s",
                            here[0], error, self._snapshot.release_id)
            return
        self._snapshot = Snapshot(release, self._load_retriever(release), here)
        self._failed = None
        log.info("serving release %s from %s", release.release_id, here[0])
