"""Serve the published pages and assets byte for byte as the gates checked them.

Each file may have `.br`/`.gz` siblings written at release time (`trigsight.publishing.compress`); the
sibling the client negotiates is sent as stored, so readers get the bytes the payload gate
measured.
"""
from __future__ import annotations

import hashlib
import mimetypes
import re
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, redirect, request
from trigsight.publishing.compress import COMPRESSIBLE, ENCODINGS, is_sibling, sibling

from . import current_release
from .compression import negotiate

pages = Blueprint("pages", __name__)

CACHE_IMMUTABLE = "public, max-age=31536000, immutable"
CACHE_PAGE = "public, max-age=0, must-revalidate"
# assets.py names files `name.<10 hex digits>.ext`: such a URL never changes its bytes
FINGERPRINTED = re.compile(r"\.[0-9a-f]{10}(\.[^./]+)?$")


def send_release_file(file: Path, cache: str) -> Response:
    kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
        kind += "; charset=utf-8"
    encoding = None
    if file.suffix in COMPRESSIBLE:
        stored = [e for e in ENCODINGS if sibling(file, e).is_file()]
        encoding = negotiate(request, stored) if stored else None
    body = (sibling(file, encoding) if encoding else file).read_bytes()
    response = Response(body, content_type=kind)   # bytes: Content-Length is set from them
    response.headers["Cache-Control"] = cache
    if file.suffix in COMPRESSIBLE:
        response.vary.add("Accept-Encoding")
    if encoding:
        response.headers["Content-Encoding"] = encoding
    # hash of the bytes sent: each encoding is its own representation with its own ETag
    response.set_etag(hashlib.sha256(body).hexdigest()[:32])
    response = response.make_conditional(request)
    if response.status_code == 412:   # werkzeug keeps the body on a 412: send the error instead
        abort(412, "The precondition (If-Match / If-Unmodified-Since) does not hold for this file.")
    return response


def is_plain_name(name: str) -> bool:
    """A file name as the release wrote it: no empty, `.` or `..` segment, so no trailing slash either.

    (A trailing slash would otherwise reach the file itself: `site.js.br/` is `site.js.br`.)
    """
    return all(part not in ("", ".", "..") for part in name.split("/"))


@pages.get("/static/<path:name>")
def static_asset(name: str):
    release = current_release(current_app)
    if release is None or not is_plain_name(name) or is_sibling(name):
        abort(404)
    file = release.root / "static" / name
    if not file.is_file():
        return page(f"static/{name}")     # a docs folder's static/ pages (assets are fingerprinted)
    return send_release_file(file, CACHE_IMMUTABLE if FINGERPRINTED.search(name) else CACHE_PAGE)


@pages.get("/", defaults={"path": ""})
@pages.get("/<path:path>")
def page(path: str):
    release = current_release(current_app)
    # A docs folder's api/ or static/ pages are pages like any other; only the site's own
    # endpoints (/api/chat, /api/mcp: publishing.paths.RESERVED) are not, and a release refuses them.
    found = None if release is None else release.page("/" + path.rstrip("/")) if path else release.page("/")
    if found is not None:
        return send_release_file(release.page_file(found), CACHE_PAGE)
    moved = None if release is None or not path else release.moved("/" + path.rstrip("/"))
    if moved is not None:      # a page that moved (build/moved_pages.py): where it is now
        return redirect(moved, 301)
    if path == "api" or path.startswith("api/"):
        abort(404, f"There is no API at /{path}.")
    if release is None:
        abort(503, "No release is published yet: run `trigsight release` first.")
    abort(404, f"There is no page at /{path}.")
