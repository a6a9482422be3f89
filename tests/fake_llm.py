"""A local OpenAI-compatible server that replays scripted model outputs (the tests' only double).

It speaks `POST /v1/chat/completions`, streamed (server-sent `chat.completion.chunk`s and
`[DONE]`) or not, on 127.0.0.1. A script is chosen by the question in the last user
message and says what the "model" writes, how it is cut into pieces and how slowly it
streams, or how it fails (an HTTP status, a hang, a stream cut mid-way). Like a real server it
stops at the request's `max_tokens` (a token counted as four characters, reasoning included),
with `finish_reason` "length".

A script's reply may write `{handle:some words}`: the fake reads the sources in the prompt,
as a model would, and writes the handle of the first source whose text contains those
words (or `S99`, a handle never issued, when none does). Transcripts stay valid when
retrieval ranks the same passages differently.
"""
from __future__ import annotations

import contextlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SOURCE = re.compile(r"^\[(S\d+)\] \((.*?)\)\n(.*?)(?=\n\n\[S\d+\] \(|\n\nQuestion: |\Z)", re.M | re.S)
TEMPLATE = re.compile(r"\{handle:([^}]+)\}")
QUESTION = re.compile(r"\n\nQuestion: (.*)\Z", re.S)


def sources_in(prompt: str) -> dict[str, str]:
    """Handle label → source text, read from the final user message."""
    return {m.group(1): m.group(3) for m in SOURCE.finditer(prompt)}


def question_in(prompt: str) -> str:
    match = QUESTION.search(prompt)
    return match.group(1).strip() if match else prompt.strip()


def fill(reply: str, sources: dict[str, str]) -> str:
    def handle(match: re.Match) -> str:
        words = match.group(1).casefold()
        return next((label for label, text in sources.items() if words in text.casefold()), "S99")
    return TEMPLATE.sub(handle, reply)


@dataclass
class Script:
    question: str
    reply: str = ""
    piece: int = 12             # characters per streamed piece
    delay: float = 0.0          # seconds between pieces
    status: int = 200           # anything else: answer with this HTTP error
    hang: float = 0.0           # seconds to wait before answering at all
    cut_after: int = -1         # close the stream after this many pieces (-1: never)
    reasoning: str = ""         # streamed first as `reasoning_content`, as llama.cpp and vLLM send a thinking model's

    @classmethod
    def from_json(cls, data: dict) -> "Script":
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})


@dataclass
class FakeLLM:
    scripts: dict[str, Script] = field(default_factory=dict)
    requests: list[dict] = field(default_factory=list)
    default: Script = field(default_factory=lambda: Script("", "I cannot find that in these pages."))
    base_url: str = ""
    models: list[str] = field(default_factory=lambda: ["scripted"])   # what GET /models lists
    listings: int = 0                   # GET /models requests served
    known_models_only: bool = False     # a chat request for another model gets 404, as from Ollama or vLLM

    def add(self, *scripts: Script) -> None:
        for script in scripts:
            self.scripts[script.question] = script

    def script_for(self, prompt: str) -> Script:
        return self.scripts.get(question_in(prompt), self.default)


def _handler(fake: FakeLLM):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/") == "/v1/models":
                fake.listings += 1
                return self._json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in fake.models]})
            self._json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if self.path.rstrip("/") != "/v1/chat/completions":
                return self._json(404, {"error": {"message": "not found"}})
            fake.requests.append(body)
            if fake.known_models_only and body.get("model") not in fake.models:
                return self._json(404, {"error": {"message": f"model '{body.get('model')}' not found",
                                                  "type": "not_found_error"}})
            prompt = body["messages"][-1]["content"]
            script = fake.script_for(prompt)
            if script.hang:
                time.sleep(script.hang)
            if script.status != 200:
                return self._json(script.status, {"error": {"message": "scripted failure", "type": "server_error"}})
            reply = fill(script.reply, sources_in(prompt))
            if not body.get("stream"):
                return self._json(200, {"id": "fake", "object": "chat.completion", "created": 0,
                                        "model": body.get("model", ""),
                                        "choices": [{"index": 0, "finish_reason": "stop",
                                                     "message": {"role": "assistant", "content": reply}}]})
            self._stream(reply, script, body.get("model", ""), body.get("max_tokens"))

        def _stream(self, reply: str, script: Script, model: str, max_tokens: int | None) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            pieces = [("reasoning_content", script.reasoning[i:i + script.piece])
                      for i in range(0, len(script.reasoning), script.piece)]
            pieces += [("content", reply[i:i + script.piece]) for i in range(0, len(reply), script.piece)]
            budget = 4 * max_tokens if max_tokens else None      # characters the request lets it write
            finish = "stop"
            with contextlib.suppress(BrokenPipeError, ConnectionResetError):
                for number, (kind, piece) in enumerate(pieces):
                    if number == script.cut_after:
                        self.wfile.write(b"5\r\ndata:\r\n")   # half an event, then the connection drops
                        self.wfile.flush()
                        self.close_connection = True
                        return
                    if budget is not None:
                        piece, budget = piece[:max(budget, 0)], budget - len(piece)
                        if not piece:
                            finish = "length"
                            break
                    self._chunk({"id": "fake", "object": "chat.completion.chunk", "created": 0, "model": model,
                                 "choices": [{"index": 0, "delta": {kind: piece}, "finish_reason": None}]})
                    if script.delay:
                        time.sleep(script.delay)
                self._chunk({"id": "fake", "object": "chat.completion.chunk", "created": 0, "model": model,
                             "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})
                self._send(b"data: [DONE]\n\n")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        def _chunk(self, data: dict) -> None:
            self._send(f"data: {json.dumps(data, ensure_ascii=False)}\n\n".encode())

        def _send(self, data: bytes) -> None:
            self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
            self.wfile.flush()

        def _json(self, status: int, data: dict) -> None:
            payload = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)

    return Handler


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address) -> None:
        pass   # a client that gives up (a timeout test) resets the connection: expected here


@contextlib.contextmanager
def serve(fake: FakeLLM | None = None):
    """Run the fake on a free loopback port; yield it with `base_url` set (".../v1")."""
    fake = fake or FakeLLM()
    server = _Server(("127.0.0.1", 0), _handler(fake))
    thread = threading.Thread(target=server.serve_forever, name="fake-llm", daemon=True)
    thread.start()
    fake.base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
