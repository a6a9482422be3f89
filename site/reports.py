"""Development only: the release's gate reports, and a link to them on every page.

With TRIGSIGHT_DEV=1 the app serves /reports/browser (the browser gate's human report)
and /reports/browser.json from the release folder, and adds a link to the report at the
end of every served page. Without it these routes are 404 and pages are sent untouched,
byte for byte as the gates checked them.
"""
from __future__ import annotations

import gzip

import brotli
from flask import Blueprint, Response, abort, current_app, request

from . import current_release, current_settings

reports = Blueprint("reports", __name__)

REPORTS = {"browser": ("browser.html", "text/html; charset=utf-8"),
           "browser.json": ("browser.json", "application/json; charset=utf-8")}
LINK = ('<aside class="dev-report" style="position:fixed;right:.75rem;bottom:.75rem;padding:.3rem .6rem;'
        'background:#fff8d6;border:1px solid #d9c36a;border-radius:6px;font:13px system-ui,sans-serif">'
        '<a href="/reports/browser">Browser gate report</a> (development)</aside>')
DECODE = {"br": brotli.decompress, "gzip": gzip.decompress}


def is_dev() -> bool:
    return current_settings(current_app).dev


@reports.get("/reports/<name>")
def report(name: str):
    release = current_release(current_app)
    if not is_dev() or release is None or name not in REPORTS:
        from .pages import page  # a docs folder's reports/ pages
        return page(f"reports/{name}")
    file_name, kind = REPORTS[name]
    file = release.root / "reports" / file_name
    if not file.is_file():
        abort(404, f"This release has no {file_name} (it was published before the browser gate wrote one).")
    response = Response(file.read_bytes(), content_type=kind)
    response.headers["Cache-Control"] = "no-store"
    return response


@reports.after_app_request
def link_report(response: Response) -> Response:
    """In development, add the report link to HTML pages (decoding a stored .br/.gz body)."""
    if (not is_dev() or response.mimetype != "text/html" or response.status_code != 200
            or request.path.startswith("/reports/") or response.is_streamed or response.direct_passthrough):
        return response
    encoding = response.headers.get("Content-Encoding")
    if encoding and encoding not in DECODE:
        return response
    body = response.get_data()
    body = DECODE[encoding](body) if encoding else body
    if b"</body>" not in body:
        return response
    response.set_data(body.replace(b"</body>", LINK.encode() + b"\n</body>", 1))
    response.headers.pop("Content-Encoding", None)
    response.headers.pop("ETag", None)
    response.headers["Cache-Control"] = "no-store"
    return response
