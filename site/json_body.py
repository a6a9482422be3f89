"""Reading an API's JSON body: a byte limit that holds for chunked bodies too, and JSON held to valid Unicode.

Both APIs read their bodies here, so a limit or a decoding rule cannot differ between them:

- the limit is enforced on the bytes read, not on `Content-Length` (a chunked body has none);
- a JSON text whose strings hold a lone surrogate (`"\\ud800"`) is refused: it is valid JSON
  grammar but not text, and nothing downstream (tokenizers, UTF-8 encoders) can take it;
- nesting deeper than `MAX_DEPTH` is refused before anything walks it recursively.
"""
from __future__ import annotations

import json
import re

from flask import request
from werkzeug.exceptions import RequestEntityTooLarge

MAX_DEPTH = 32                      # the deepest real request (chat history) is 3 levels
DRAIN_BYTES = 1024 * 1024           # read and drop this much of a refused body before answering
_SURROGATE = re.compile("[\ud800-\udfff]")


class BodyError(Exception):
    """The body cannot be used: `status` 413 (too large) or 400 (not the JSON text we take)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


def limit_body(limit: int) -> None:
    """Make every later read of this request's body stop past `limit` bytes with a 413.

    Call it before anything touches the body (`request.form`, `request.stream`).
    """
    if request.content_length is not None and request.content_length > limit:
        raise RequestEntityTooLarge(f"The request body is over {limit} bytes.")
    # werkzeug stops reading at max_content_length and raises 413 only on a read past it,
    # so allow one byte more and look at what came.
    request.max_content_length = limit + 1


def read_body(limit: int) -> bytes:
    """The raw body, at most `limit` bytes; BodyError(413) beyond."""
    try:
        limit_body(limit)
        body = request.stream.read(limit + 1)
    except RequestEntityTooLarge:
        body = None
    if body is None or len(body) > limit:
        drain()
        raise BodyError(413, f"The request body is over {limit} bytes.")
    return body


def drain() -> None:
    """Read what is left of a refused body (up to DRAIN_BYTES) so the 413 reaches the client.

    A server that closes a socket with unread bytes in it sends a TCP reset, and the client
    loses the answer; gunicorn drains on keep-alive connections but not on `Connection: close`.
    Past DRAIN_BYTES the client is on its own: the bound keeps the refusal cheap.
    """
    stream = request.environ.get("wsgi.input")
    if stream is None:
        return
    left = DRAIN_BYTES
    try:
        while left > 0 and (chunk := stream.read(min(65536, left))):
            left -= len(chunk)
    except (OSError, ValueError):   # the client went away, or sent a malformed chunk
        pass


def decode(body: bytes):
    """The JSON value of `body`; BodyError(400) for anything that is not a usable JSON text."""
    try:
        value = json.loads(body)
    except RecursionError:
        raise BodyError(400, f"The JSON is nested more than {MAX_DEPTH} levels deep.") from None
    except ValueError:              # includes UnicodeDecodeError: the body is not UTF-8
        raise BodyError(400, "The body is not JSON.") from None
    check(value)
    return value


def check(value) -> None:
    """Refuse nesting past MAX_DEPTH and strings (keys too) that are not valid Unicode; iterative."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                raise BodyError(400, "The JSON holds a string that is not valid Unicode (a lone surrogate).")
        elif isinstance(item, (dict, list)):
            if depth > MAX_DEPTH:
                raise BodyError(400, f"The JSON is nested more than {MAX_DEPTH} levels deep.")
            if isinstance(item, dict):
                stack.extend((key, depth) for key in item)
                stack.extend((child, depth + 1) for child in item.values())
            else:
                stack.extend((child, depth + 1) for child in item)


def has_surrogate(text: str) -> bool:
    return _SURROGATE.search(text) is not None


def read_json(limit: int):
    """read_body + decode."""
    return decode(read_body(limit))
