"""The trigsight web site: one Flask app factory serving a published release."""
from __future__ import annotations

from pathlib import Path

from flask import Flask
from trigsight.errors import ReleaseNotFound
from trigsight.publishing.published import Release
from trigsight.retrieval.search import IndexMismatch, Retriever
from trigsight.settings import setting

from . import compression
from .http_errors import register_error_handlers

EXTENSION = "trigsight"


def create_app(config: dict | None = None) -> Flask:
    """Build the app: defaults, then TRIGSIGHT_* environment, then `config`.

    With `RELEASE_DIR` pointing at a published release the pages, chat and MCP routes
    serve it; without one the app can still render templates (the release build uses it).
    """
    # static_folder=None: Flask's own /static route would shadow the release's fingerprinted assets
    app = Flask(__name__, static_folder=None)
    app.config.update(
        RELEASE_DIR=setting("TRIGSIGHT_RELEASE_DIR"),
        SITE_TITLE=setting("TRIGSIGHT_SITE_TITLE"),
        REQUIRE_RELEASE=False,
        MAX_CONTENT_LENGTH=256 * 1024,
        JSON_SORT_KEYS=False,
    )
    app.config.from_prefixed_env("TRIGSIGHT")
    if config:
        app.config.update(config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    register_error_handlers(app)
    compression.init_app(app)
    init_release(app)

    from .chat import chat
    from .mcp import mcp
    from .pages import pages
    from .reports import reports
    app.register_blueprint(chat)
    app.register_blueprint(mcp)
    app.register_blueprint(reports)  # development only: gate reports
    app.register_blueprint(pages)  # last: its catch-all route serves the release's pages
    return app


def init_release(app: Flask) -> None:
    """Attach the published release (if there is one) to the app."""
    if not app.config["RELEASE_DIR"]:
        app.extensions[EXTENSION] = {"release": None, "retriever": None}
        return
    try:
        release = Release.load(Path(app.config["RELEASE_DIR"]))
    except ReleaseNotFound:
        if app.config["REQUIRE_RELEASE"]:
            raise
        release = None
    retriever = None
    if release is not None:
        # Arrays are memory-mapped and the question embedder loads on the first question,
        # so this is cheap; the corpus is never embedded here.
        try:
            retriever = Retriever.load(release.root)
        except IndexMismatch:
            if app.config["REQUIRE_RELEASE"]:
                raise
            app.logger.warning("release in %s has no usable retrieval index", release.root, exc_info=True)
    app.extensions[EXTENSION] = {"release": release, "retriever": retriever}


def current_release(app: Flask) -> Release | None:
    return app.extensions[EXTENSION]["release"]


def current_retriever(app: Flask) -> Retriever | None:
    """The published release's retriever (None without a release or its index)."""
    return app.extensions[EXTENSION].get("retriever")
