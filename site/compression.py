"""Content negotiation for compressed responses.

Pages and static files are pre-compressed at release time (`trigsight.publishing.compress`) and sent
as stored; `compress_response` covers what is made per request (chat pages, JSON, errors).
"""
from __future__ import annotations

import gzip

import brotli
from flask import Flask, Request, Response, request

PREFERRED = ("br", "gzip")     # when the client accepts both equally, brotli wins
COMPRESSIBLE_TYPES = frozenset({"text/html", "text/plain", "text/css", "text/javascript", "text/xml",
                                "application/javascript", "application/json", "application/xml",
                                "image/svg+xml"})
MIN_BYTES = 512                # below this the headers cost more than compression saves
DYNAMIC_BROTLI_QUALITY = 5     # per request: fast; quality 11 is for release-time files
DYNAMIC_GZIP_LEVEL = 6


def negotiate(req: Request, offered=PREFERRED) -> str | None:
    """The encoding to send: the client's highest quality among `offered`, ties to our order."""
    best, best_quality = None, 0.0
    for encoding in offered:
        quality = req.accept_encodings[encoding]
        if quality > best_quality:
            best, best_quality = encoding, quality
    return best


def may_compress(response: Response) -> bool:
    return response.mimetype in COMPRESSIBLE_TYPES


def compress_response(response: Response) -> Response:
    """after_request: compress a buffered, compressible response the client accepts."""
    if not may_compress(response):
        return response
    response.vary.add("Accept-Encoding")
    if ("Content-Encoding" in response.headers or response.is_streamed or response.direct_passthrough
            or response.status_code < 200 or response.status_code in (204, 206, 304)):
        return response
    body = response.get_data()
    encoding = negotiate(request) if len(body) >= MIN_BYTES else None
    if encoding is None:
        return response
    encoded = (brotli.compress(body, quality=DYNAMIC_BROTLI_QUALITY) if encoding == "br"
               else gzip.compress(body, compresslevel=DYNAMIC_GZIP_LEVEL, mtime=0))
    if len(encoded) >= len(body):
        return response
    etag, weak = response.get_etag()
    response.set_data(encoded)          # also sets Content-Length
    response.headers["Content-Encoding"] = encoding
    if etag:                            # a strong ETag names one representation, so it changes with it
        response.set_etag(f"{etag}-{encoding}", weak)
    return response


def init_app(app: Flask) -> None:
    app.after_request(compress_response)
