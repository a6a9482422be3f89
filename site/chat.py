"""The chat: `POST /api/chat` (JSON or server-sent events) and the `/chat` form that needs no script.

Answers come from `trigsight.answering.conversation`, which yields one event per resolved sentence;
this module only checks the request, picks the representation and renders. Model text
reaches the reader as escaped text (Jinja autoescape, JSON strings, `textContent` in
chat.js); the only links drawn are chips whose URL is a published passage's own.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from urllib.parse import parse_qs

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    jsonify,
    render_template,
    request,
)
from trigsight.answering.conversation import ChatSettings, Turn, collect, run
from trigsight.answering.model_client import ModelSettings

from . import current_release, current_retriever, current_settings, site_title
from .http_errors import error_response
from .json_body import BodyError, read_body, read_json

chat = Blueprint("chat", __name__)

MAX_BODY_BYTES = 64 * 1024
MAX_QUESTION_CHARS = 1000
MAX_HISTORY_TURNS = 12
MAX_TURN_CHARS = 4000
ROLES = ("user", "assistant")
EVENT_STREAM = "text/event-stream"
FORM = "application/x-www-form-urlencoded"
_FINGERPRINTED = re.compile(r"^(?P<stem>.+)\.[0-9a-f]{10}(?P<ext>\.[A-Za-z0-9]+)?$")


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status, self.message = status, message


@dataclass(frozen=True)
class ChatRequest:
    question: str
    history: tuple[Turn, ...] = ()
    context: bool = False


def chat_settings() -> ChatSettings:
    """The chat's part of the settings the app was created with (already checked there)."""
    settings = current_settings(current_app)
    model = ModelSettings(api_key=settings.openai_api_key, base_url=settings.openai_base_url,
                          model=settings.model, timeout=settings.chat_timeout)
    return ChatSettings(settings.chat_mode, model, site_title(current_app))


def parse_chat_request(data) -> ChatRequest:
    """Validate a decoded JSON body; raise BadRequest with the status to answer."""
    if not isinstance(data, dict):
        raise BadRequest(400, 'Send a JSON object: {"question": "...", "history": [...]}.')
    question = data.get("question")
    if not isinstance(question, str) or not question.strip():
        raise BadRequest(400, '"question" must be a non-empty string.')
    if len(question) > MAX_QUESTION_CHARS:
        raise BadRequest(413, f'"question" is longer than {MAX_QUESTION_CHARS} characters.')
    history = data.get("history", [])
    if not isinstance(history, list):
        raise BadRequest(400, '"history" must be a list of {"role", "content"} objects.')
    if len(history) > MAX_HISTORY_TURNS:
        raise BadRequest(413, f'"history" holds more than {MAX_HISTORY_TURNS} turns.')
    turns = []
    for turn in history:
        if not isinstance(turn, dict) or not isinstance(turn.get("content"), str):
            raise BadRequest(400, 'Each "history" item must be {"role": "user"|"assistant", "content": "..."}.')
        if turn.get("role") == "system":
            raise BadRequest(400, 'A "system" turn is not accepted: the server writes the instructions.')
        if turn.get("role") not in ROLES:
            raise BadRequest(400, f'"role" must be "user" or "assistant", not {turn.get("role")!r}.')
        if len(turn["content"]) > MAX_TURN_CHARS:
            raise BadRequest(413, f'A "history" turn is longer than {MAX_TURN_CHARS} characters.')
        turns.append(Turn(turn["role"], turn["content"]))
    return ChatRequest(question.strip(), tuple(turns), data.get("context") is True)


def answer_events(chat_request: ChatRequest):
    release, retriever = current_release(current_app), current_retriever(current_app)
    if release is None or retriever is None:
        abort(503, "The chat needs a published release with its retrieval index: run `trigsight release`.")
    return run(chat_request.question, chat_request.history, retriever, release, chat_settings())


@chat.post("/api/chat")
def api_chat():
    if request.mimetype != "application/json":
        return error_response(415, "Send the question as application/json.")
    accepted = request.accept_mimetypes
    representation = accepted.best_match(["application/json", EVENT_STREAM]) if accepted else "application/json"
    if representation is None:
        return error_response(406, "The chat answers application/json or text/event-stream.")
    try:
        chat_request = parse_chat_request(read_json(MAX_BODY_BYTES))
    except (BadRequest, BodyError) as error:
        return error_response(error.status, error.message)
    events = answer_events(chat_request)
    if representation == EVENT_STREAM:
        return event_stream(events, chat_request.context)
    document = collect(events)
    if not chat_request.context:
        document.pop("context")
    return jsonify(document)


def event_stream(events, with_context: bool) -> Response:
    app = current_app._get_current_object()

    def generate():
        try:
            for event in events:
                if event.kind == "context" and not with_context:
                    continue
                yield f"event: {event.kind}\ndata: {json.dumps(event.data, ensure_ascii=False)}\n\n"
        except Exception:  # the status line is gone: say so in the stream, log the rest
            app.logger.exception("chat stream failed")
            yield 'event: error\ndata: {"message": "The answer stopped because of a server error."}\n\n'

    response = Response(generate(), content_type=f"{EVENT_STREAM}; charset=utf-8")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"   # a proxy must pass each sentence on at once
    return response


# --- the page: works without JavaScript ------------------------------------------------------


@chat.route("/api/chat", methods=["GET", "PUT", "PATCH", "DELETE"])
def api_chat_other_methods():
    response, status = error_response(405, "The chat API answers POST only.")
    response.headers["Allow"] = "POST, OPTIONS"
    return response, status


@chat.get("/chat")
def chat_page():
    release = current_release(current_app)
    if release is not None and release.page("/chat") is not None:
        from .pages import page  # the published page at /chat carries the form
        return page("chat")
    return render_chat(release)


@chat.post("/chat")
def chat_form():
    try:   # read here, not by request.form: the limit must hold for a chunked body too (413)
        body = read_body(MAX_BODY_BYTES)
    except BodyError as error:
        return error_response(error.status, error.message)
    release = current_release(current_app)
    form = parse_qs(body.decode("utf-8", "replace")) if request.mimetype == FORM else {}
    question = form.get("question", [""])[0]
    # Without a script the page keeps the conversation in the form: the exchange it shows goes back
    # as hidden fields, so "And on macOS?" is read after the question it follows, as chat.js sends it.
    earlier = {"question": form.get("previous_question", [""])[0], "answer": form.get("previous_answer", [""])[0]}
    history = [{"role": "user", "content": earlier["question"]},
               {"role": "assistant", "content": earlier["answer"]}] if earlier["question"].strip() else []
    try:
        chat_request = parse_chat_request({"question": question, "history": history})
    except BadRequest as error:
        return render_chat(release, question=question, error=error.message, earlier=earlier), error.status
    document = collect(answer_events(chat_request))
    return render_chat(release, question=chat_request.question, result=document)


def render_chat(release, question: str = "", result: dict | None = None, error: str = "",
                earlier: dict | None = None) -> str:
    removed = removed_summary(result["dropped"]) if result else ""
    if result:
        said = " ".join(sentence["text"] for sentence in result["answer"])
        earlier = {"question": question, "answer": said[:MAX_TURN_CHARS]}
    return render_template("chat.html", **page_context(release), question=question, result=result,
                           removed=removed, error=error, earlier=earlier, title="Ask this site", path="/chat",
                           description="")


def removed_summary(dropped: dict) -> str:
    """"Removed: 2 unverifiable citations, 1 link or tag." (chat.js words it the same way)."""
    parts = [(dropped.get("citations", 0), "unverifiable citation", "unverifiable citations"),
             (dropped.get("sentences", 0), "unsupported sentence", "unsupported sentences"),
             (dropped.get("links", 0) + dropped.get("markup", 0), "link or tag", "links or tags")]
    said = [f"{n} {one if n == 1 else many}" for n, one, many in parts if n]
    return f"Removed: {', '.join(said)}." if said else ""


def page_context(release) -> dict:
    """What base.html needs, for a page drawn per request instead of at release time."""
    settings = current_settings(current_app)
    if release is None:
        return {"site_title": settings.site_title or "trigsight", "contents_path": "", "assets": {},
                "language": settings.language or "en"}
    # the contents page is the one page trigsight drew itself (no source file)
    contents = next((p.path for p in release.pages if not p.source), "/")
    return {"site_title": settings.site_title or release.site_title, "contents_path": contents,
            "assets": release_assets(release.root, release.release_id),
            "language": settings.language or release.site_language}


@lru_cache(maxsize=4)
def release_assets(root: Path, release_id: str) -> dict[str, str]:
    """Template name → fingerprinted URL, read back from the release's static folder."""
    found = {}
    for file in sorted((Path(root) / "static").rglob("*")):
        relative = file.relative_to(Path(root) / "static").as_posix()
        match = _FINGERPRINTED.match(relative)
        if file.is_file() and match:
            found[match["stem"] + (match["ext"] or "")] = f"/static/{relative}"
    return found
