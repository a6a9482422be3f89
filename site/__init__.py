"""The trigsight web site: one Flask app factory serving a published release."""
from __future__ import annotations

import os

from flask import Flask, g, has_request_context
from trigsight.errors import TrigsightError
from trigsight.publishing.published import Release
from trigsight.retrieval.search import IndexMismatch, Retriever
from trigsight.settings import SETTINGS, Settings

from . import compression, security
from .http_errors import register_error_handlers
from .live import LiveRelease, Snapshot
from .offload import OffloadedRetriever

EXTENSION = "trigsight"
RELEASE_HEADER = "X-Trigsight-Release"


def create_app(config: dict | None = None) -> Flask:
    """Build the app: the settings, parsed once, then `config`.

    The settings are `config["SETTINGS"]` when given, else the TRIGSIGHT_* / OPENAI_*
    environment; a malformed one raises SettingsError here, so the server refuses to
    start rather than fail requests. Other `config` keys named like a setting without its
    prefix (`RELEASE_DIR`, `CHAT_TIMEOUT`, ...) replace it and are checked the same way;
    the rest is Flask config. With a release directory pointing at a published release the
    pages, chat and MCP routes serve it; without one the app still renders templates.
    """
    config = dict(config or {})
    # static_folder=None: Flask's own /static route would shadow the release's fingerprinted assets
    app = Flask(__name__, static_folder=None)
    settings = config.pop("SETTINGS", None) or Settings.from_environ(os.environ)
    # Flask's own keys (DEBUG, TESTING) stay Flask's, even where a setting shares the name.
    overrides = {s.key: config.pop(s.key) for s in SETTINGS if s.key in config and s.key not in app.config}
    app.config.update(
        SETTINGS=settings.override(overrides),
        MAX_CONTENT_LENGTH=256 * 1024,
        JSON_SORT_KEYS=False,
    )
    app.config.update(config)
    app.json.ensure_ascii = False
    app.json.sort_keys = False
    register_error_handlers(app)
    compression.init_app(app)
    security.init_app(app)
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
    """Attach the published release (if there is one), followed through its link (`live`)."""
    settings = current_settings(app)

    def load_retriever(release: Release) -> Retriever | None:
        # The vectors are memory-mapped and the question embedder loads on the first
        # question, so this is cheap; the corpus is never embedded here.
        try:
            return OffloadedRetriever(Retriever.load(release.root, api_key=settings.openai_api_key,
                                                     base_url=settings.openai_base_url))
        except IndexMismatch:
            app.logger.warning("release in %s has no usable retrieval index", release.root, exc_info=True)
            return None

    app.extensions[EXTENSION] = LiveRelease(settings.release_dir, load_retriever)

    @app.before_request
    def take_snapshot():
        g.trigsight_snapshot = app.extensions[EXTENSION].current()

    @app.after_request
    def name_release(response):
        release_id = snapshot(app).release_id
        if release_id:
            response.headers[RELEASE_HEADER] = release_id
        return response


def preload_question_encoder(log) -> None:
    """Load the offline encoder now when the configured release's index was built with it."""
    from trigsight.retrieval import embedders
    from trigsight.retrieval.layout import INDEX_DIR, load_meta

    try:
        release_dir = Settings.from_environ(os.environ).release_dir
        model_id = load_meta(release_dir / INDEX_DIR)["model"]["id"] if release_dir else None
    except (OSError, ValueError, KeyError, TrigsightError) as error:
        log.info("question encoder not preloaded: %s", error)
        return
    if model_id == embedders.USE_MODEL_ID:
        embedders.offline().load()
        log.info("question encoder %s loaded before the workers fork", model_id)


def current_settings(app: Flask) -> Settings:
    """The settings the app was created with (parsed once, in `create_app`)."""
    return app.config["SETTINGS"]


def site_title(app: Flask) -> str:
    """TRIGSIGHT_SITE_TITLE when set, else the name the served release was built with."""
    release = snapshot(app).release
    return current_settings(app).site_title or (release.site_title if release is not None else "trigsight")


def snapshot(app: Flask) -> Snapshot:
    """This request's release snapshot (taken once, as it began); outside a request, the current one."""
    if has_request_context() and "trigsight_snapshot" in g:
        return g.trigsight_snapshot
    return app.extensions[EXTENSION].current()


def current_release(app: Flask) -> Release | None:
    return snapshot(app).release


def current_retriever(app: Flask) -> OffloadedRetriever | None:
    """The published release's retriever (None without a release or its index)."""
    return snapshot(app).retriever
