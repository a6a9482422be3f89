"""`POST /api/mcp`: a Model Context Protocol server with four read-only tools.

Two eras on one endpoint, both stateless and answered with plain JSON:

- 2026-07-28: no handshake and no session. Every request names its protocol version and
  client capabilities in `params._meta`, and the `MCP-Protocol-Version`, `Mcp-Method` and
  (for `tools/call`) `Mcp-Name` headers must repeat the body. `server/discover` replaces
  `initialize`; every result carries `resultType`, list results carry cache hints.
- 2024-11-05 … 2025-11-25: the `initialize` handshake most clients still open with. With no
  session to keep, `initialize` just answers and every later request is served on its own.

A request is modern when its `_meta` names a protocol version or its version header
names a non-handshake revision (the official SDK's routing rule); everything else is
handshake-era. The tools themselves live in `mcp_tools`.
"""
from __future__ import annotations

import base64
import binascii
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

from flask import Blueprint, Response, current_app, request

from . import current_release, current_retriever, current_settings, mcp_tools, offload, security, site_title
from .json_body import BodyError, decode, read_body

log = logging.getLogger(__name__)
mcp = Blueprint("mcp", __name__)

ENDPOINT = "/api/mcp"
MODERN_VERSIONS = ("2026-07-28",)
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"
VERSION_HEADER, METHOD_HEADER, NAME_HEADER = "MCP-Protocol-Version", "Mcp-Method", "Mcp-Name"
NAME_PARAMS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}
LIST_TTL_MS = 300_000  # the tool list only changes with a deploy
MAX_BODY_BYTES = 256 * 1024

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = \
    -32700, -32600, -32601, -32602, -32603
HEADER_MISMATCH, UNSUPPORTED_VERSION = -32020, -32022
# HTTP status per JSON-RPC code on the 2026-07-28 wire (the SDK's table).
MODERN_STATUS = {PARSE_ERROR: 400, INVALID_REQUEST: 400, INVALID_PARAMS: 400, HEADER_MISMATCH: 400,
                 UNSUPPORTED_VERSION: 400, METHOD_NOT_FOUND: 404, INTERNAL_ERROR: 500}
_B64_SENTINEL = re.compile(r"^=\?base64\?(?P<payload>.*)\?=$")


@dataclass
class RpcError(Exception):
    """A JSON-RPC error; `status` overrides the HTTP status for transport-level refusals."""

    code: int
    message: str
    data: Any = None
    status: int | None = None
    headers: dict | None = None


def rpc_error_body(code: int, message: str, request_id: Any = None, data: Any = None) -> dict:
    error = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": error}


def rpc_error(error: RpcError, request_id: Any = None, modern: bool = True) -> Response:
    """The one place an MCP error response is built.

    Handshake-era clients read JSON-RPC errors from a 200 response (a 404 means "session
    expired" to them), so only envelope-level failures get a 4xx there.
    """
    if error.status is not None:
        status = error.status
    elif not modern and error.code in (METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR):
        status = 200
    else:
        status = MODERN_STATUS.get(error.code, 400)
    response = _json(rpc_error_body(error.code, error.message, request_id, error.data), status)
    response.headers.update(error.headers or {})
    return response


def _json(body: dict, status: int = 200) -> Response:
    return Response(json.dumps(body, ensure_ascii=False, separators=(",", ":")), status,
                    content_type="application/json")


def decode_header(value: str | None) -> str | None:
    """A header value, with the `=?base64?…?=` form that carries non-ASCII decoded."""
    if value is None:
        return None
    match = _B64_SENTINEL.fullmatch(value)
    if match is None:
        return value
    try:
        raw = base64.b64decode(match["payload"], validate=True)
        return raw.decode("utf-8") if base64.b64encode(raw).decode() == match["payload"] else None
    except (binascii.Error, UnicodeDecodeError):
        return None


@mcp.route(ENDPOINT, methods=["POST", "GET", "DELETE", "PUT", "PATCH"])
def endpoint():
    request_id, modern = None, True
    try:
        message = _read_message()
        if message is None:
            return Response(status=202)
        request_id = message["id"]
        modern = is_modern(message)
        version = request.headers.get(VERSION_HEADER)
        if not _names_version_in_meta(message) and version is not None \
                and version not in MODERN_VERSIONS + HANDSHAKE_VERSIONS:
            # No _meta to compare the header with: the header alone names a revision nobody speaks.
            raise _unsupported(version)
        result = _serve_modern(message) if modern else _serve_handshake_era(message)
        return _json({"jsonrpc": "2.0", "id": request_id, "result": result})
    except RpcError as error:
        return rpc_error(error, request_id, modern)
    except Exception:  # never a stack trace on the wire; the log has it
        log.exception("MCP request failed")
        return rpc_error(RpcError(INTERNAL_ERROR, "Internal error"), request_id, modern)


def _read_message() -> dict | None:
    """The request object, or None for an acknowledged notification; RpcError otherwise."""
    origin = request.headers.get("Origin")
    if not security.request_origin_allowed():
        raise RpcError(INVALID_REQUEST, f"Origin {origin!r} may not call this endpoint", status=403)
    if request.method != "POST":
        raise RpcError(INVALID_REQUEST, "This endpoint only accepts POST (stateless: no stream, no session)",
                       status=405, headers={"Allow": security.ALLOWED_API_METHODS})
    if request.mimetype != "application/json":
        raise RpcError(INVALID_REQUEST, "Send the JSON-RPC message with Content-Type: application/json",
                       status=415)
    try:
        body = read_body(MAX_BODY_BYTES)
    except BodyError:
        raise RpcError(INVALID_REQUEST, f"The request body is over {MAX_BODY_BYTES} bytes", status=413) from None
    try:
        message = decode(body)
    except BodyError as error:
        raise RpcError(PARSE_ERROR, f"Parse error: {error.message}") from None
    if isinstance(message, list):
        raise RpcError(INVALID_REQUEST, "Batches are not supported: send one JSON-RPC message per request")
    if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
        raise RpcError(INVALID_REQUEST, "The body must be one JSON-RPC 2.0 request or notification object")
    if "id" not in message:
        if not isinstance(message.get("method"), str):
            raise RpcError(INVALID_REQUEST, "A notification needs a method")
        version = request.headers.get(VERSION_HEADER)
        if version is not None and version not in MODERN_VERSIONS + HANDSHAKE_VERSIONS:
            raise _unsupported(version)
        return None  # notifications change nothing here: acknowledge and drop
    request_id = message["id"]
    if isinstance(request_id, bool) or not isinstance(request_id, (str, int)):
        raise RpcError(INVALID_REQUEST, "A request id must be a string or an integer")
    if not isinstance(message.get("method"), str) or "result" in message or "error" in message:
        raise RpcError(INVALID_REQUEST, "The body must be a JSON-RPC request with a method")
    if "params" in message and not isinstance(message["params"], dict):
        raise RpcError(INVALID_REQUEST, "params must be an object")
    return message


def _names_version_in_meta(message: dict) -> bool:
    meta = (message.get("params") or {}).get("_meta")
    return isinstance(meta, dict) and META_VERSION in meta


def is_modern(message: dict) -> bool:
    header = request.headers.get(VERSION_HEADER)
    return _names_version_in_meta(message) or (header is not None and header not in HANDSHAKE_VERSIONS)


def _unsupported(requested: Any) -> RpcError:
    return RpcError(UNSUPPORTED_VERSION, "Unsupported protocol version",
                    {"supported": list(MODERN_VERSIONS), "requested": requested})


def _check_envelope(message: dict) -> None:
    """The 2026-07-28 request ladder, in the SDK's order: envelope, headers, version."""
    params, method = message.get("params") or {}, message["method"]
    meta = params.get("_meta")
    if not isinstance(meta, dict):
        raise RpcError(INVALID_PARAMS, f"params._meta must be an object carrying {META_VERSION!r} "
                                       f"and {META_CAPABILITIES!r}")
    missing = [key for key in (META_VERSION, META_CAPABILITIES) if key not in meta]
    if missing:
        raise RpcError(INVALID_PARAMS, f"params._meta is missing {', '.join(missing)}")
    version = meta[META_VERSION]
    if request.headers.get(VERSION_HEADER) != version:
        raise RpcError(HEADER_MISMATCH, f"The {VERSION_HEADER} header does not match params._meta")
    if decode_header(request.headers.get(METHOD_HEADER)) != method:
        raise RpcError(HEADER_MISMATCH, f"The {METHOD_HEADER} header does not match the method")
    name_key = NAME_PARAMS.get(method)
    if name_key and params.get(name_key) is not None \
            and decode_header(request.headers.get(NAME_HEADER)) != params[name_key]:
        raise RpcError(HEADER_MISMATCH, f"The {NAME_HEADER} header does not match params.{name_key}")
    if not isinstance(version, str):
        raise RpcError(INVALID_PARAMS, "The protocol version must be a string")
    if version not in MODERN_VERSIONS:
        raise _unsupported(version)


def _serve_modern(message: dict) -> dict:
    _check_envelope(message)
    method, params = message["method"], message.get("params") or {}
    if method == "server/discover":
        result = {"supportedVersions": list(MODERN_VERSIONS), "capabilities": {"tools": {}},
                  "instructions": mcp_tools.INSTRUCTIONS, **_cache_hints()}
    elif method == "tools/list":
        result = {**_list_tools(params), **_cache_hints()}
    elif method == "tools/call":
        result = _call_tool(params)
    else:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")
    return {**result, "resultType": "complete", "_meta": {META_SERVER_INFO: _server_info()}}


def _serve_handshake_era(message: dict) -> dict:
    method, params = message["method"], message.get("params") or {}
    if method == "initialize":
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "initialize needs params.protocolVersion")
        return {"protocolVersion": requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": _server_info(), "instructions": mcp_tools.INSTRUCTIONS}
    if method == "ping":
        return {}
    if method == "tools/list":
        return _list_tools(params)
    if method == "tools/call":
        return _call_tool(params)
    raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}")


def _cache_hints() -> dict:
    return {"ttlMs": LIST_TTL_MS, "cacheScope": "public"}


def _server_info() -> dict:
    return {"name": "trigsight", "title": site_title(current_app), "version": mcp_tools.VERSION}


def _list_tools(params: dict) -> dict:
    if params.get("cursor") is not None:
        raise RpcError(INVALID_PARAMS, "Unknown cursor: the tool list has a single page")
    return {"tools": mcp_tools.tool_definitions()}


def _call_tool(params: dict) -> dict:
    name, arguments = params.get("name"), params.get("arguments")
    if not isinstance(name, str):
        raise RpcError(INVALID_PARAMS, "tools/call needs params.name")
    if arguments is not None and not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, "params.arguments must be an object")
    tool = mcp_tools.TOOLS.get(name)
    if tool is None:
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}", {"tools": sorted(mcp_tools.TOOLS)})
    # Links start with the configured public URL, or are relative: never built from Host.
    base = security.link_base(current_settings(current_app).public_url)
    retriever = current_retriever(current_app)
    # The tool runs off the event loop as a whole, so it gets the retriever itself, not its offloading wrapper.
    context = mcp_tools.ToolContext(current_release(current_app), base, current_app,
                                    getattr(retriever, "inner", retriever))
    # Tools only compute (no network): off the event loop, so one claim check does not hold the worker.
    return offload.run_blocking(mcp_tools.call, tool, arguments or {}, context)
