"""The kinds of value a setting takes: each parses the text of an environment variable, or raises
ValueError, and says in `expected` what it accepts (pure; declared with each setting in settings.py).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Text:
    pattern: str = ""          # full match required when given
    expected: str = "any text"

    def parse(self, raw: str) -> str:
        if self.pattern and not re.fullmatch(self.pattern, raw):
            raise ValueError
        return raw


@dataclass(frozen=True)
class Integer:
    low: int | None = None
    high: int | None = None
    unit: str = ""

    @property
    def expected(self) -> str:
        return f"a whole number{_of(self.unit)}{_bounds(self.low, self.high)}"

    def parse(self, raw: str) -> int:
        value = int(raw.strip())
        _check_bounds(value, self.low, self.high)
        return value


@dataclass(frozen=True)
class Number:
    low: float | None = None
    high: float | None = None
    unit: str = ""

    @property
    def expected(self) -> str:
        return f"a number{_of(self.unit)}{_bounds(self.low, self.high)}"

    def parse(self, raw: str) -> float:
        value = float(raw.strip())
        if not math.isfinite(value):
            raise ValueError
        _check_bounds(value, self.low, self.high)
        return value


@dataclass(frozen=True)
class Flag:
    expected: str = "on (1, true, yes, on) or off (0, false, no, off, empty)"

    def parse(self, raw: str) -> bool:
        word = raw.strip().lower()
        if word in ("1", "true", "yes", "on"):
            return True
        if word in ("", "0", "false", "no", "off"):
            return False
        raise ValueError


@dataclass(frozen=True)
class Choice:
    options: tuple[str, ...]

    @property
    def expected(self) -> str:
        return "one of " + ", ".join(self.options)

    def parse(self, raw: str) -> str:
        word = raw.strip().lower()
        if word not in self.options:
            raise ValueError
        return word


@dataclass(frozen=True)
class PathKind:
    expected: str = "a path; empty for none"

    def parse(self, raw: str) -> Path | None:
        return Path(raw) if raw.strip() else None


@dataclass(frozen=True)
class Endpoints:
    """Browser endpoints: ws:// or wss:// (a Playwright browser server), http:// or https:// (Chromium DevTools)."""

    expected: str = ("comma-separated ws:// or wss:// (Playwright browser server) and http:// or https:// "
                     "(Chromium DevTools) URLs; empty for none")

    def parse(self, raw: str) -> tuple[str, ...]:
        if not raw.strip():
            return ()
        endpoints = tuple(part.strip() for part in raw.split(","))
        for endpoint in endpoints:
            parts = urlsplit(endpoint)
            if parts.scheme not in ("ws", "wss", "http", "https") or not parts.hostname or " " in endpoint:
                raise ValueError
            if parts.port == 0:        # reading .port raises ValueError for one that is not a number in range
                raise ValueError
        return endpoints


def _of(unit: str) -> str:
    return f" of {unit}" if unit else ""


def _bounds(low, high) -> str:
    if low is not None and high is not None:
        return f", from {low:g} to {high:g}"
    if low is not None:
        return f", at least {low:g}"
    return f", at most {high:g}" if high is not None else ""


def _check_bounds(value, low, high) -> None:
    if (low is not None and value < low) or (high is not None and value > high):
        raise ValueError
