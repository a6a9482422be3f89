"""One error shape for every HTTP route: JSON for API clients, a page for readers."""
from __future__ import annotations

from flask import Flask, jsonify, render_template, request
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
        response = render_template("error.html", status=status, message=message,
                                   site_title="trigsight")
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
