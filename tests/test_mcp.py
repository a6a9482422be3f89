"""site/mcp.py + site/mcp_tools.py: the MCP endpoint, driven by the official SDK and by hand."""
from __future__ import annotations

import asyncio
import base64
import concurrent.futures
import json
from urllib.parse import urlsplit

import pytest
from mcp.shared.exceptions import MCPError
from mcp_types import DiscoverResult, methods
from trigsight_site import create_app

from mcp import Client

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
TOOLS = {"list_sources", "read_page", "find_evidence", "verify_quote"}
TRUE_CLAIM = "Before the allowlist is published, every page of the site is loaded in headless Chromium."
FABRICATED = "The author holds a PhD in computer science from MIT."


# --- the official SDK client against gunicorn on loopback --------------------------------

def allowlisted_urls(release) -> set[str]:
    allowlist = json.loads((release / "allowlist.json").read_text("utf-8"))
    return {p["url"] for p in allowlist["passages"]}


def local(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + ("#" + parts.fragment if parts.fragment else "")


async def exercise(url: str, mode: str, allowlist: set[str]) -> None:
    async with Client(url, mode=mode) as client:
        if mode == "legacy":
            assert client.protocol_version == "2025-11-25"
            assert client.session.initialize_result.server_info.name == "trigsight"
            assert (await client.session.send_ping()).model_dump(exclude_none=True) == {}
        else:
            assert client.protocol_version == MODERN
            # a pinned client adopts a synthesized result; ask the server for the real one
            discover = client.session.discover_result if mode == "auto" else \
                DiscoverResult.model_validate(await client.session.send_discover(MODERN))
            assert discover.supported_versions == [MODERN] and discover.capabilities.tools is not None
            assert discover.cache_scope == "public" and discover.ttl_ms > 0

        listed = await client.list_tools()
        assert {tool.name for tool in listed.tools} == TOOLS
        for tool in listed.tools:
            assert tool.annotations.read_only_hint is True
            assert tool.input_schema["additionalProperties"] is False
        if mode != "legacy":
            assert listed.cache_scope == "public" and listed.ttl_ms > 0

        sources = (await client.call_tool("list_sources", {})).structured_content
        assert {"index", "ru", "ja", "ko"} <= {page["slug"] for page in sources["pages"]}
        assert all(page["passage_count"] > 0 for page in sources["pages"])

        page = (await client.call_tool("read_page", {"page": url.replace("/api/mcp", "/ja")})).structured_content
        assert page["slug"] == "ja" and page["language"] == "ja" and page["passages"]
        for passage in page["passages"]:
            assert page["text"][passage["start"]:passage["end"]] == passage["text"]
            assert passage["proven"] and local(passage["url"]) in allowlist

        found = (await client.call_tool("find_evidence", {"claim": TRUE_CLAIM})).structured_content
        assert found["supported"] and local(found["evidence"][0]["url"]) in allowlist
        assert "Chromium" in found["evidence"][0]["text"]
        refused = (await client.call_tool("find_evidence", {"claim": FABRICATED})).structured_content
        assert refused["supported"] is False and refused["evidence"] == []

        quote = found["evidence"][0]["text"]
        slug = found["evidence"][0]["page"]["slug"]
        whole = (await client.call_tool("verify_quote", {"page": slug, "quote": quote.upper()})).structured_content
        assert whole["present"] and whole["exact_passage"] and whole["link"]["proven"]
        assert local(whole["link"]["url"]) in allowlist
        absent = (await client.call_tool("verify_quote", {"page": slug, "quote": "headless Firefox"})).structured_content
        assert absent["present"] is False and absent["link"] is None

        failed = await client.call_tool("read_page", {"page": "no-such-page"})
        assert failed.is_error and "no-such-page" in failed.content[0].text
        with pytest.raises(MCPError) as unknown:
            await client.call_tool("delete_everything", {})
        assert unknown.value.error.code == -32602


@pytest.mark.parametrize("mode", ["auto", MODERN, "legacy"])
def test_the_official_sdk_client_discovers_lists_and_calls_every_tool(bundled_site, bundled_release, mode):
    # Its own thread and event loop: pytest-playwright's sync API may already own this
    # thread's loop when browser tests ran earlier in the session.
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(asyncio.run, exercise(bundled_site + "/api/mcp", mode, allowlisted_urls(bundled_release))).result()


# --- the wire, by hand (in-process) -----------------------------------------------------

@pytest.fixture
def client(bundled_release):
    return create_app({"RELEASE_DIR": str(bundled_release), "TESTING": True}).test_client()


def headers(method: str | None = None, name: str | None = None, version: str | None = MODERN) -> dict:
    found = {"Content-Type": "application/json"}
    if version is not None:
        found["MCP-Protocol-Version"] = version
    if method is not None:
        found["Mcp-Method"] = method
    if name is not None:
        found["Mcp-Name"] = name
    return found


def modern(method: str, params: dict | None = None, request_id=1, meta=META) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**(params or {}), "_meta": meta}}


def legacy(method: str, params: dict | None = None, request_id=1) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, **({"params": params} if params else {})}


def b64(text: str) -> str:
    return "=?base64?" + base64.b64encode(text.encode()).decode() + "?="


CALL = {"name": "list_sources", "arguments": {}}
ERRORS = [
    # (case, http verb, request headers, body (dict → JSON, str → raw), status, code, id in the reply)
    ("malformed JSON", "POST", headers("tools/list"), '{"jsonrpc": "2.0", "id": 1,', 400, -32700, None),
    ("batch", "POST", headers("tools/list"), [modern("tools/list")], 400, -32600, None),
    ("not an object", "POST", headers("tools/list"), "3", 400, -32600, None),
    ("not JSON-RPC 2.0", "POST", headers("tools/list"), {"id": 1, "method": "tools/list"}, 400, -32600, None),
    ("boolean id", "POST", headers("tools/list"), {**modern("tools/list"), "id": True}, 400, -32600, None),
    ("null id", "POST", headers("tools/list"), {**modern("tools/list"), "id": None}, 400, -32600, None),
    ("posted response", "POST", headers(), {"jsonrpc": "2.0", "id": 1, "result": {}}, 400, -32600, None),
    ("params not an object", "POST", headers("tools/list"), {"jsonrpc": "2.0", "id": 1, "method": "tools/list",
                                                             "params": [1]}, 400, -32600, None),
    ("GET", "GET", {}, None, 405, -32600, None),
    ("DELETE", "DELETE", headers(), None, 405, -32600, None),
    ("foreign Origin", "POST", {**headers("tools/list"), "Origin": "https://evil.example"},
     modern("tools/list"), 403, -32600, None),
    ("text/plain body", "POST", {**headers("tools/list"), "Content-Type": "text/plain"},
     modern("tools/list"), 415, -32600, None),
    ("oversized body", "POST", headers("tools/list"), modern("tools/list", {"pad": "x" * 300_000}),
     413, -32600, None),
    ("no _meta", "POST", headers("tools/list"), {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {}},
     400, -32602, 1),
    ("_meta without capabilities", "POST", headers("tools/list"),
     modern("tools/list", meta={"io.modelcontextprotocol/protocolVersion": MODERN}), 400, -32602, 1),
    ("version header differs", "POST", headers("tools/list", version="2099-01-01"), modern("tools/list"),
     400, -32020, 1),
    ("version header missing", "POST", headers("tools/list", version=None), modern("tools/list"),
     400, -32020, 1),
    ("method header differs", "POST", headers("tools/call", "list_sources"), modern("tools/list"),
     400, -32020, 1),
    ("method header missing", "POST", headers(), modern("tools/list"), 400, -32020, 1),
    ("name header differs", "POST", headers("tools/call", "read_page"), modern("tools/call", CALL),
     400, -32020, 1),
    ("name header missing", "POST", headers("tools/call"), modern("tools/call", CALL), 400, -32020, 1),
    ("name header base64 of another name", "POST", headers("tools/call", b64("read_page")),
     modern("tools/call", CALL), 400, -32020, 1),
    ("name header malformed base64", "POST", headers("tools/call", "=?base64?!!!?="),
     modern("tools/call", CALL), 400, -32020, 1),
    ("unsupported version", "POST", headers("tools/list", version="2099-01-01"),
     modern("tools/list", meta={**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}),
     400, -32022, 1),
    ("unknown method", "POST", headers("resources/list"), modern("resources/list"), 404, -32601, 1),
    ("ping is gone in 2026-07-28", "POST", headers("ping"), modern("ping"), 404, -32601, 1),
    ("unknown tool", "POST", headers("tools/call", "nope"), modern("tools/call", {"name": "nope"}),
     400, -32602, 1),
    ("tools/call without a name", "POST", headers("tools/call"), modern("tools/call", {"arguments": {}}),
     400, -32602, 1),
    ("arguments not an object", "POST", headers("tools/call", "read_page"),
     modern("tools/call", {"name": "read_page", "arguments": "mcp"}), 400, -32602, 1),
    ("unknown cursor", "POST", headers("tools/list"), modern("tools/list", {"cursor": "x"}), 400, -32602, 1),
    ("notification at an unsupported version", "POST", headers(version="2099-01-01"),
     {"jsonrpc": "2.0", "method": "notifications/cancelled"}, 400, -32022, None),
    # handshake era: errors answer a parsed request in a 200, as those clients expect
    ("legacy unknown method", "POST", headers(version=None), legacy("resources/list", request_id="a"),
     200, -32601, "a"),
    ("legacy unknown tool", "POST", headers(version="2025-11-25"), legacy("tools/call", {"name": "nope"}),
     200, -32602, 1),
    ("legacy initialize without a version", "POST", headers(version=None), legacy("initialize", {"x": 1}),
     200, -32602, 1),
]


def send(client, verb: str, request_headers: dict, body):
    data = body if isinstance(body, str) or body is None else json.dumps(body)
    return client.open("/api/mcp", method=verb, headers=request_headers, data=data)


@pytest.mark.parametrize("case, verb, request_headers, body, status, code, reply_id", ERRORS,
                         ids=[case[0] for case in ERRORS])
def test_every_error_path_answers_a_well_formed_json_rpc_error(
        client, case, verb, request_headers, body, status, code, reply_id):
    response = send(client, verb, request_headers, body)
    reply = response.get_json()
    assert (response.status_code, reply["error"]["code"]) == (status, code)
    assert response.mimetype == "application/json"
    assert set(reply) == {"jsonrpc", "id", "error"} and reply["jsonrpc"] == "2.0" and reply["id"] == reply_id
    assert set(reply["error"]) <= {"code", "message", "data"}
    assert isinstance(reply["error"]["message"], str) and len(reply["error"]["message"]) > 10
    assert "Traceback" not in response.get_data(as_text=True)
    if status == 405:
        assert response.headers["Allow"] == "POST, OPTIONS"
    if code == -32022:
        assert reply["error"]["data"]["supported"] == [MODERN]


def test_an_unsupported_version_names_the_requested_one(client):
    body = modern("tools/list", meta={**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"})
    reply = send(client, "POST", headers("tools/list", version="2099-01-01"), body).get_json()
    assert reply["error"]["data"] == {"supported": [MODERN], "requested": "2099-01-01"}


@pytest.mark.parametrize("body, version", [
    ({"jsonrpc": "2.0", "method": "notifications/initialized"}, "2025-11-25"),
    ({"jsonrpc": "2.0", "method": "notifications/initialized"}, None),
    ({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1}}, MODERN),
])
def test_notifications_are_acknowledged_with_202_and_no_body(client, body, version):
    response = send(client, "POST", headers(version=version), body)
    assert response.status_code == 202 and response.get_data() == b""


def test_a_same_origin_request_is_served(client):
    origin = {**headers("tools/list"), "Origin": "http://localhost"}
    assert send(client, "POST", origin, modern("tools/list")).status_code == 200


def test_a_base64_encoded_name_header_is_decoded_before_comparing(client):
    ok = send(client, "POST", headers("tools/call", b64("list_sources")), modern("tools/call", CALL))
    assert ok.status_code == 200 and ok.get_json()["result"]["isError"] is False
    foreign = send(client, "POST", headers("tools/call", b64("überprüfen")),
                   modern("tools/call", {"name": "überprüfen"}))
    assert foreign.get_json()["error"]["code"] == -32602  # past the header check: an unknown tool


@pytest.mark.parametrize("method, params", [
    ("server/discover", None),
    ("tools/list", None),
    ("tools/call", CALL),
    ("tools/call", {"name": "find_evidence", "arguments": {"claim": TRUE_CLAIM}}),
])
def test_modern_results_are_complete_and_valid_for_2026_07_28(client, method, params):
    name = (params or {}).get("name")
    result = send(client, "POST", headers(method, name), modern(method, params)).get_json()["result"]
    methods.validate_server_result(method, MODERN, result)
    assert result["resultType"] == "complete"
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "trigsight"
    if method != "tools/call":
        assert result["cacheScope"] == "public" and result["ttlMs"] > 0


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"])
def test_every_handshake_revision_initializes_and_lists_tools_without_2026_fields(client, version):
    init = send(client, "POST", headers(version=None), legacy("initialize", {
        "protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}})).get_json()
    assert init["result"]["protocolVersion"] == version
    methods.validate_server_result("initialize", version, init["result"])
    listed = send(client, "POST", headers(version=version), legacy("tools/list")).get_json()["result"]
    methods.validate_server_result("tools/list", version, listed)
    assert "resultType" not in listed and "ttlMs" not in listed


def test_a_handshake_for_an_unknown_revision_is_answered_with_the_latest_one(client):
    reply = send(client, "POST", headers(version=None), legacy("initialize", {"protocolVersion": "2030-01-01"}))
    assert reply.get_json()["result"]["protocolVersion"] == "2025-11-25"


def test_legacy_ping_returns_exactly_an_empty_object(client):
    assert send(client, "POST", headers(version="2025-11-25"), legacy("ping")).get_json() == \
        {"jsonrpc": "2.0", "id": 1, "result": {}}


def call_tool(client, name: str, arguments: dict) -> dict:
    body = modern("tools/call", {"name": name, "arguments": arguments})
    return send(client, "POST", headers("tools/call", name), body).get_json()["result"]


@pytest.mark.parametrize("name, arguments, message", [
    ("read_page", {}, "Missing required argument: page"),
    ("read_page", {"page": "mcp", "extra": 1}, "Unknown argument(s): extra"),
    ("read_page", {"page": 7}, "must be a string"),
    ("read_page", {"page": "   "}, "must be 1 to"),
    ("find_evidence", {"claim": "x", "max_results": 0}, "between 1 and 20"),
    ("find_evidence", {"claim": "x", "max_results": True}, "must be an integer"),
    ("verify_quote", {"page": "nowhere", "quote": "x"}, "No published page matches 'nowhere'"),
])
def test_a_tool_that_cannot_answer_says_why_with_is_error(client, name, arguments, message):
    result = call_tool(client, name, arguments)
    assert result["isError"] is True and message in result["content"][0]["text"]
    assert "structuredContent" not in result


def test_without_a_published_release_tools_fail_softly_and_listing_still_works(tmp_path):
    bare = create_app({"RELEASE_DIR": str(tmp_path), "TESTING": True}).test_client()
    assert send(bare, "POST", headers("tools/list"), modern("tools/list")).status_code == 200
    result = call_tool(bare, "list_sources", {})
    assert result["isError"] is True and "No release is published" in result["content"][0]["text"]


@pytest.mark.parametrize("reference", ["mcp", "/mcp", "/mcp/", "http://elsewhere.example/mcp#:~:text=x", "mcp.md"])
def test_read_page_accepts_a_slug_a_path_or_a_url(client, reference):
    assert call_tool(client, "read_page", {"page": reference})["structuredContent"]["slug"] == "mcp"


def test_verify_quote_marks_a_link_it_built_itself_as_unproven(client, bundled_release):
    page = call_tool(client, "read_page", {"page": "mcp"})["structuredContent"]
    passage = next(p for p in page["passages"] if len(p["text"].split()) > 8)
    fragment = " ".join(passage["text"].split()[2:6])
    result = call_tool(client, "verify_quote", {"page": "mcp", "quote": fragment})["structuredContent"]
    assert result["present"] and not result["exact_passage"]
    assert result["passage"]["id"] == passage["id"] and result["passage"]["proven"] is True
    assert result["link"]["proven"] is False and "#:~:text=" in result["link"]["url"]
    assert local(result["link"]["url"]) not in allowlisted_urls(bundled_release)


def test_verify_quote_does_not_call_a_repeated_quotation_present(client):
    result = call_tool(client, "verify_quote", {"page": "mcp", "quote": "the"})["structuredContent"]
    assert result["occurrences"] > 1 and result["present"] is False and result["link"] is None


def test_find_evidence_returns_exact_cited_text_with_offsets_into_the_page(client):
    found = call_tool(client, "find_evidence", {"claim": TRUE_CLAIM, "max_results": 3})["structuredContent"]
    assert 1 <= len(found["evidence"]) <= 3 and found["retrieval_backend"]
    for evidence in found["evidence"]:
        page = call_tool(client, "read_page", {"page": evidence["page"]["slug"]})["structuredContent"]
        assert page["text"][evidence["start"]:evidence["end"]] == evidence["text"]
