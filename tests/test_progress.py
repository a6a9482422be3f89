"""Progress of long stages: a line per tenth of the work in CI logs, a tqdm bar on a terminal."""
from __future__ import annotations

import io
import re

import pytest
from trigsight.progress import Progress


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("total, step, lines", [(50, 1, 10), (100, 7, 10), (3, 1, 3), (1, 1, 1)])
def test_off_a_terminal_a_line_is_said_each_time_another_tenth_is_done(total, step, lines):
    said, stream = [], io.StringIO()
    with Progress("browser gate", total, "pages", said.append, stream) as progress:
        for _ in range(0, total, step):
            progress.advance(min(step, total - progress.done))
    assert len(said) == lines
    assert said[-1].startswith(f"browser gate: 100% ({total}/{total} pages)") and said[-1].endswith("done")
    percents = [int(re.match(r"browser gate: (\d+)%", line).group(1)) for line in said]
    assert percents == sorted(set(percents))
    assert all(re.search(r"[\d.]+ pages/s, \d+:\d\d elapsed, (ETA (\d+:\d\d|\?)|done)$", line) for line in said)
    assert stream.getvalue() == ""


def test_off_a_terminal_cached_units_are_counted_apart():
    said = []
    progress = Progress("browser gate", 10, "pages", said.append, io.StringIO())
    for number in range(10):
        progress.advance(cached=number < 6)
    assert "(6/10 pages, 6 cached)" in said[5] and "(10/10 pages, 6 cached)" in said[-1]


def test_work_sized_once_started_is_tracked_by_done_and_total():
    said = []
    progress = Progress("index", 0, "texts", said.append, io.StringIO())
    progress.track(0, 2000)
    for done in (512, 1024, 1536, 2000):
        progress.track(done, 2000)
    assert [line.split(" (")[0] for line in said] == ["index: 25%", "index: 51%", "index: 76%", "index: 100%"]


def test_on_a_terminal_a_bar_shows_rate_and_eta_and_nothing_is_said():
    said, stream = [], Terminal()
    with Progress("browser gate", 4, "pages", said.append, stream) as progress:
        for _ in range(4):
            progress.advance()
    assert said == []
    shown = stream.getvalue()
    assert "browser gate" in shown and "4/4" in shown and "pages/s" in shown and "<" in shown   # elapsed<eta
