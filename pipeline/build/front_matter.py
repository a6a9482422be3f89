"""A page file's text: its encoding and its front matter (pure).

Front matter is YAML between `---` lines or Hugo's TOML between `+++` lines; a malformed block
stops the release naming the file and the line. Text is UTF-8 (a byte order mark dropped), or
UTF-16 when it starts with its byte order mark.
"""
from __future__ import annotations

import re
import tomllib

import yaml

from ..errors import ContentError


def split_front_matter(text: str, shown: str) -> tuple[dict, str, int]:
    """Return (metadata, body, 1-based line where the body starts): YAML between `---`, or
    TOML between `+++` (Hugo)."""
    lines = text.splitlines(keepends=True)
    opening = lines[0].rstrip("\r\n").rstrip() if lines else ""
    if opening == "+++":
        return _toml_front_matter(lines, shown)
    if opening != "---":
        return {}, text, 1
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n").rstrip() in ("---", "..."):
            block = "".join(lines[1:index])
            try:
                meta = yaml.safe_load(block) if block.strip() else {}
            except yaml.YAMLError as error:
                mark = getattr(error, "problem_mark", None)
                line = mark.line + 2 if mark is not None else 2
                reason = getattr(error, "problem", None) or "invalid YAML"
                raise ContentError(f"malformed front matter: {reason}", shown, line) from None
            if not isinstance(meta, dict):
                raise ContentError("front matter must be a mapping of `key: value` lines", shown, 2)
            return meta, "".join(lines[index + 1:]), index + 2
    raise ContentError("front matter opened with '---' is never closed", shown, 1)


def _toml_front_matter(lines: list[str], shown: str) -> tuple[dict, str, int]:
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n").rstrip() == "+++":
            try:
                meta = tomllib.loads("".join(lines[1:index]))
            except tomllib.TOMLDecodeError as error:
                where = re.search(r"\(at line (\d+), column \d+\)", str(error))
                reason = re.sub(r"\s*\(at line.*$", "", str(error)) or "invalid TOML"
                raise ContentError(f"malformed front matter: {reason}", shown,
                                   int(where.group(1)) + 1 if where else 2) from None
            return meta, "".join(lines[index + 1:]), index + 2
    raise ContentError("front matter opened with '+++' is never closed", shown, 1)


def decode(raw: bytes, shown: str) -> str:
    """UTF-8, with or without its byte order mark; UTF-16 only with one (what Windows PowerShell's
    `>` and Notepad's "Unicode" write), since without it UTF-16 is not told apart from other bytes."""
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return raw.decode("utf-16")
        except UnicodeDecodeError as error:
            raise ContentError(f"not valid UTF-16 (at byte {error.start}); save the file as UTF-8", shown,
                               raw[:error.start].decode("utf-16", "replace").count("\n") + 1) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise ContentError(f"not valid UTF-8 (byte 0x{raw[error.start]:02x}); "
                           "save the file as UTF-8", shown, line) from None
    return text.removeprefix("\ufeff")


def key_line(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if re.match(rf"{re.escape(key)}\s*[:=]", line):
            return number
    return 1
