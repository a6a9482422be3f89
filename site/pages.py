"""Serve the published pages and assets byte for byte as the gates checked them."""
from __future__ import annotations

import hashlib
import mimetypes
from pathlib import Path

from flask import Blueprint, Response, abort, current_app, request

from . import current_release

pages = Blueprint("pages", __name__)

CACHE_IMMUTABLE = "public, max-age=31536000, immutable"
CACHE_PAGE = "public, max-age=0, must-revalidate"


def send_release_file(file: Path, cache: str) -> Response:
    body = file.read_bytes()
    kind = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/javascript", "application/json"):
        kind += "; charset=utf-8"
    response = Response(body, content_type=kind)
    response.headers["Cache-Control"] = cache
    response.set_etag(hashlib.sha256(body).hexdigest()[:32])
    return response.make_conditional(request)


@pages.get("/static/<path:name>")
def static_asset(name: str):
    release = current_release(current_app)
    if release is None or ".." in name.split("/"):
        abort(404)
    file = release.root / "static" / name
    if not file.is_file():
        abort(404)
    return send_release_file(file, CACHE_IMMUTABLE)


@pages.get("/", defaults={"path": ""})
@pages.get("/<path:path>")
def page(path: str):
    release = current_release(current_app)
    if release is None:
        abort(503, "No release is published yet: run `trigsight release` first.")
    found = release.page("/" + path.rstrip("/")) if path else release.page("/")
    if found is None:
        abort(404, f"There is no page at /{path}.")
    return send_release_file(release.page_file(found), CACHE_PAGE)
