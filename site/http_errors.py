"""One error shape for every HTTP route: JSON for API clients, a page for readers."""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError


def error_body(status: int, message: str) -> dict:
    return {"error": {"status": status, "message": message}}


def wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(status: int, message: str):
    if wants_json():
        response = jsonify(error_body(status, message))
    else:
        from . import current_release
        from .chat import page_context  # the site's chrome: contents link and question box
        try:
            context = page_context(current_release(current_app))
        except Exception:   # an error page must render even when the release cannot be read
            context = {"site_title": "trigsight", "assets": {}, "contents_path": "", "language": "en"}
        response = render_template("error.html", status=status, message=message, title=str(status),
                                   path="", description="", **context)
    return response, status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException):
        if error.code == 413:   # a form over its limit: let the client finish sending, or it never reads this
            from .json_body import drain
            drain()
        return error_response(error.code or 500, error.description or error.name)

    @app.errorhandler(Exception)
    def unexpected(error: Exception):
        if app.testing or app.config.get("PROPAGATE_EXCEPTIONS"):
            raise error
        app.logger.exception("unhandled error")
        return error_response(500, InternalServerError.description)
