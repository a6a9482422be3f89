"""Progress of a long release stage: a tqdm bar on a terminal, a line per 10% otherwise (CI logs)."""
from __future__ import annotations

import sys
import time
from typing import Callable, TextIO

from tqdm import tqdm


class Progress:
    """Count `total` units of work; `advance()` as each is done, `close()` at the end.

    On a terminal the bar shows rate and ETA (tqdm). When `stream` is not a terminal,
    `say` gets one line each time another tenth is done, with the same rate and ETA.
    Units taken from a cache are counted apart (they make the rate look faster than the
    remaining work will go, so the ETA is reckoned on fresh work only).
    """

    def __init__(self, label: str, total: int, unit: str, say: Callable[[str], None],
                 stream: TextIO | None = None):
        self.label, self.total, self.unit, self.say = label, max(0, total), unit, say
        self.stream = stream if stream is not None else sys.stderr
        self.done = self.cached = 0
        self.started = time.perf_counter()
        self._tenths = 0
        self._bar = None
        self._open()

    def _open(self) -> None:
        if self._is_terminal() and self.total and self._bar is None:
            self._bar = tqdm(total=self.total, desc=self.label, unit=f" {self.unit}", file=self.stream,
                             dynamic_ncols=True, leave=True, smoothing=0.1)

    def _is_terminal(self) -> bool:
        isatty = getattr(self.stream, "isatty", None)
        return bool(isatty and isatty())

    def advance(self, units: int = 1, cached: bool = False) -> None:
        self.done += units
        self.cached += units if cached else 0
        if self._bar is not None:
            if self.cached:
                self._bar.set_postfix_str(f"{self.cached} cached", refresh=False)
            self._bar.update(units)
            return
        tenths = 10 * self.done // self.total if self.total else 10
        if tenths > self._tenths:
            self._tenths = tenths
            self.say(self.line())

    def track(self, done: int, total: int) -> None:
        """For work whose size is known only once it starts: `done` of `total` so far."""
        if total != self.total:
            self.total, self.started = total, time.perf_counter()
            self._open()
        if done > self.done:
            self.advance(done - self.done)

    def line(self) -> str:
        elapsed = time.perf_counter() - self.started
        fresh = self.done - self.cached
        rate = fresh / elapsed if elapsed > 0 else 0.0
        left = self.total - self.done
        eta = f"ETA {_clock(left / rate)}" if left and rate else ("done" if not left else "ETA ?")
        cached = f", {self.cached} cached" if self.cached else ""
        return (f"{self.label}: {100 * self.done // max(1, self.total)}% ({self.done}/{self.total} {self.unit}{cached}) "
                f"{rate:.3g} {self.unit}/s, {_clock(elapsed)} elapsed, {eta}")

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _clock(seconds: float) -> str:
    seconds = int(round(seconds))
    return f"{seconds // 60}:{seconds % 60:02d}"
