"""Raw HTTP/1.1 on loopback sockets, for probes a well-behaved client library would not send."""
from __future__ import annotations

import json
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit


@dataclass
class Reply:
    status: int
    headers: dict[str, str]      # lower-case names; a repeated header keeps its last value
    body: bytes

    def json(self):
        return json.loads(self.body)


def address(base: str) -> tuple[str, int]:
    parts = urlsplit(base)
    return parts.hostname, parts.port


def exchange(base: str, raw: bytes, timeout: float = 30.0) -> Reply:
    """Send `raw` (a whole request, `Connection: close`) and read the reply to the end."""
    with socket.create_connection(address(base), timeout=timeout) as sock:
        sock.sendall(raw)
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return parse(data)


def parse(data: bytes) -> Reply:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = dechunk(body)
    return Reply(status, headers, body)


def dechunk(body: bytes) -> bytes:
    out = b""
    while body:
        size_line, _, rest = body.partition(b"\r\n")
        size = int(size_line.split(b";")[0], 16)
        if size == 0:
            break
        out += rest[:size]
        body = rest[size + 2:]
    return out


def request(method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b"",
            host: str = "127.0.0.1", chunked: bool = False) -> bytes:
    """A raw request; the body is sent with Content-Length, or in 16 KB chunks when `chunked`."""
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    if chunked:
        lines.append("Transfer-Encoding: chunked")
        payload = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 16384]), body[i:i + 16384])
                           for i in range(0, len(body), 16384)) + b"0\r\n\r\n"
    else:
        if body or method in ("POST", "PUT", "PATCH"):
            lines.append(f"Content-Length: {len(body)}")
        payload = body
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + payload


def post_json(base: str, path: str, text: str, headers: dict[str, str] | None = None, **options) -> Reply:
    """POST a JSON text exactly as written (lone surrogates stay `\\ud800` escapes)."""
    return exchange(base, request("POST", path, {"Content-Type": "application/json", **(headers or {})},
                                  text.encode("utf-8"), **options))
