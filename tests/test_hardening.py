"""Probes an attacker would send, against real gunicorn on loopback, each answered 4xx in the one error shape.

Each case below was a probe of issue 15 (the old answer is in the comment); the test holds the new one.
"""
from __future__ import annotations

import json

import pytest
from trigsight.gates.liveserver import serve_release

from wire import exchange, post_json, request

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
MCP_HEADERS = {"Content-Type": "application/json", "MCP-Protocol-Version": MODERN, "Mcp-Method": "tools/call"}
SECURITY_HEADERS = ("content-security-policy", "x-content-type-options", "referrer-policy", "permissions-policy",
                    "x-frame-options", "cross-origin-opener-policy")


def mcp_call(tool: str, arguments: str, request_id: str = "1") -> str:
    """A 2026-07-28 tools/call as JSON text, `arguments` written verbatim (so escapes survive)."""
    meta = json.dumps(META)
    return (f'{{"jsonrpc":"2.0","id":{request_id},"method":"tools/call","params":{{"name":"{tool}",'
            f'"arguments":{arguments},"_meta":{meta}}}}}')


def mcp_headers(tool: str) -> dict:
    return {**MCP_HEADERS, "Mcp-Name": tool}


@pytest.fixture(scope="module")
def site_js(bundled_release):
    [name] = [p.name for p in (bundled_release / "static").glob("site.*.js")]
    return name


# --- 1. security headers on every kind of response ---------------------------------------------

def every_kind(site_js: str) -> dict[str, bytes]:
    return {
        "page": request("GET", "/"),
        "static file": request("GET", f"/static/{site_js}"),
        "chat API": request("POST", "/api/chat", {"Content-Type": "application/json"}, b'{"question":"gates?"}'),
        "MCP API": request("POST", "/api/mcp", {**MCP_HEADERS, "Mcp-Name": "list_sources"},
                           mcp_call("list_sources", "{}").encode()),
        "error page": request("GET", "/no/such/page", {"Accept": "text/html"}),
        "API error": request("GET", "/api/chat"),
        "not modified": None,   # filled in by the test: needs the page's ETag
    }


@pytest.mark.parametrize("kind", ["page", "static file", "chat API", "MCP API", "error page", "API error",
                                  "not modified"])
def test_every_response_carries_the_security_headers(bundled_site, site_js, kind):
    # before: none of these headers on any response
    raw = every_kind(site_js)[kind]
    if raw is None:
        etag = exchange(bundled_site, request("GET", "/")).headers["etag"]
        raw = request("GET", "/", {"If-None-Match": etag})
    reply = exchange(bundled_site, raw)
    assert reply.status < 500
    for name in SECURITY_HEADERS:
        assert name in reply.headers, name
    policy = dict(part.strip().split(" ", 1) for part in reply.headers["content-security-policy"].split(";"))
    assert policy["default-src"] == "'self'" and policy["frame-ancestors"] == "'none'"
    assert "unsafe-inline" not in reply.headers["content-security-policy"]
    assert "unsafe-eval" not in reply.headers["content-security-policy"]
    assert reply.headers["x-content-type-options"] == "nosniff"
    assert reply.headers["x-frame-options"] == "DENY"
    assert reply.headers["x-trigsight-release"]


# --- 4. inputs that were 500s ---------------------------------------------------------------------

DEEP = "[" * 1000 + "]" * 1000


@pytest.mark.parametrize("case, path, headers, text, status", [
    # before: 500 (the embedder's tokenizer met a lone surrogate)
    ("lone surrogate in the question", "/api/chat", {}, '{"question":"gate \\ud800"}', 400),
    # before: 500 (RecursionError)
    ("JSON nested 1,000 deep", "/api/chat", {}, '{"question":"gates?","history":' + DEEP + "}", 400),
    ("JSON nested 1,000 deep, bare", "/api/chat", {}, DEEP, 400),
    ("lone surrogate as an object key", "/api/chat", {}, '{"question":"gates?","\\udc00":1}', 400),
])
def test_malformed_unicode_and_deep_json_get_400_from_the_chat(bundled_site, case, path, headers, text, status):
    reply = post_json(bundled_site, path, text, headers)
    assert reply.status == status
    assert reply.json()["error"]["status"] == status and reply.json()["error"]["message"]
    assert b"Traceback" not in reply.body


@pytest.mark.parametrize("case, text, tool, code, reply_id", [
    # before: -32603 from the tool (the lone surrogate reached the embedder)
    ("lone surrogate in a tool argument", mcp_call("find_evidence", '{"claim":"gate \\ud800"}'),
     "find_evidence", -32700, None),
    ("lone surrogate in verify_quote", mcp_call("verify_quote", '{"page":"mcp","quote":"\\udfff"}'),
     "verify_quote", -32700, None),
    # before: a plain HTTP 500 (the reply could not be encoded)
    ("lone surrogate as the JSON-RPC id", mcp_call("list_sources", "{}", request_id='"\\ud800"'),
     "list_sources", -32700, None),
    ("JSON nested 1,000 deep", DEEP, "list_sources", -32700, None),
    ("arguments nested 100 deep", mcp_call("read_page", '{"page":' + "[" * 100 + "]" * 100 + "}"),
     "read_page", -32700, None),
])
def test_malformed_unicode_and_deep_json_get_a_parse_error_from_mcp(bundled_site, case, text, tool, code, reply_id):
    reply = post_json(bundled_site, "/api/mcp", text, mcp_headers(tool))
    assert reply.status == 400
    body = reply.json()
    assert body["jsonrpc"] == "2.0" and body["id"] == reply_id and body["error"]["code"] == code


# --- limits that read Content-Length only ------------------------------------------------------------

def padded_question(size: int) -> bytes:
    return json.dumps({"question": "Which gates run?", "padding": "x" * size}).encode()


@pytest.mark.parametrize("path, body, headers, status", [
    # before: 200 (the 64 KB limit read Content-Length only)
    ("/api/chat", padded_question(150_000), {"Content-Type": "application/json"}, 413),
    ("/chat", b"question=" + b"x" * 150_000, {"Content-Type": "application/x-www-form-urlencoded"}, 413),
    # before: 400 / -32700 instead of 413
    ("/api/chat", padded_question(300_000), {"Content-Type": "application/json"}, 413),
    ("/api/mcp", mcp_call("list_sources", json.dumps({"pad": "x" * 300_000})).encode(),
     {**MCP_HEADERS, "Mcp-Name": "list_sources"}, 413),
])
@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "content-length"])
def test_body_limits_hold_for_chunked_bodies_too(bundled_site, path, body, headers, status, chunked):
    reply = exchange(bundled_site, request("POST", path, {**headers, "Accept": "application/json"}, body,
                                           chunked=chunked))
    assert reply.status == status
    if path == "/api/mcp":
        assert reply.json()["error"]["code"] == -32600
    else:
        assert reply.json()["error"]["status"] == status


@pytest.mark.parametrize("path, body, headers", [
    ("/api/chat", b'{"question":"Which gates run before a release?"}', {"Content-Type": "application/json"}),
    ("/api/mcp", mcp_call("list_sources", "{}").encode(), {**MCP_HEADERS, "Mcp-Name": "list_sources"}),
])
def test_a_small_chunked_body_is_still_answered(bundled_site, path, body, headers):
    reply = exchange(bundled_site, request("POST", path, headers, body, chunked=True))
    assert reply.status == 200, reply.body[:300]


# --- 3. Host is never trusted ----------------------------------------------------------------------------

def test_without_a_public_url_mcp_links_are_relative_whatever_the_host(bundled_site):
    # before: links to http://evil.example/...
    reply = exchange(bundled_site, request("POST", "/api/mcp", mcp_headers("read_page"),
                                           mcp_call("read_page", '{"page":"mcp"}').encode(), host="evil.example"))
    assert reply.status == 200
    page = reply.json()["result"]["structuredContent"]
    assert page["url"] == "/mcp"
    assert page["passages"] and all(p["url"].startswith("/mcp#:~:text=") for p in page["passages"])
    assert b"evil.example" not in reply.body


@pytest.mark.parametrize("origin, host, status", [
    # before: 200 (an Origin equal to Host passed: DNS rebinding)
    ("http://evil.example", "evil.example", 403),
    ("http://evil.example:8000", "evil.example:8000", 403),
    ("null", "127.0.0.1", 403),
    ("http://127.0.0.1:8000", "127.0.0.1", 200),
    ("http://localhost:5173", "evil.example", 200),
    ("http://[::1]:8000", "127.0.0.1", 200),
])
def test_without_a_public_url_only_loopback_origins_may_call_mcp(bundled_site, origin, host, status):
    reply = exchange(bundled_site, request("POST", "/api/mcp", {**mcp_headers("list_sources"), "Origin": origin},
                                           mcp_call("list_sources", "{}").encode(), host=host))
    assert reply.status == status
    if status == 403:
        assert reply.json()["error"]["code"] == -32600


@pytest.fixture(scope="module")
def public_site(bundled_release):
    with serve_release(bundled_release, workers=1, env={"TRIGSIGHT_PUBLIC_URL": "https://docs.example.org/"}) as base:
        yield base


def test_with_a_public_url_mcp_links_start_with_it_whatever_the_host(public_site):
    reply = exchange(public_site, request("POST", "/api/mcp", mcp_headers("read_page"),
                                          mcp_call("read_page", '{"page":"mcp"}').encode(), host="evil.example"))
    page = reply.json()["result"]["structuredContent"]
    assert page["url"] == "https://docs.example.org/mcp"
    assert all(p["url"].startswith("https://docs.example.org/mcp#:~:text=") for p in page["passages"])


@pytest.mark.parametrize("origin, status", [
    ("https://docs.example.org", 200),
    ("http://docs.example.org", 403),
    ("https://evil.example", 403),
    ("http://127.0.0.1:8000", 403),
])
def test_with_a_public_url_only_its_origin_may_call_mcp(public_site, origin, status):
    host = urlsplit_host(origin)
    reply = exchange(public_site, request("POST", "/api/mcp", {**mcp_headers("list_sources"), "Origin": origin},
                                          mcp_call("list_sources", "{}").encode(), host=host))
    assert reply.status == status


def urlsplit_host(origin: str) -> str:
    return origin.split("://", 1)[1]


# --- smaller answers ------------------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".br/", ".gz/", "/", ".br//", "/."])
def test_a_stored_sibling_or_a_trailing_slash_is_not_a_static_file(bundled_site, site_js, suffix):
    # before: /static/site.<hash>.js.br/ sent raw brotli as text/javascript without Content-Encoding
    reply = exchange(bundled_site, request("GET", f"/static/{site_js}{suffix}", {"Accept-Encoding": "identity"}))
    assert reply.status == 404
    assert reply.headers["content-type"].startswith(("application/json", "text/html"))


def test_an_unknown_protocol_version_header_gets_minus_32022_in_any_era(bundled_site):
    # before: -32602 (the request was read as 2026-07-28 and its missing _meta was reported)
    body = b'{"jsonrpc":"2.0","id":7,"method":"tools/list"}'
    reply = exchange(bundled_site, request("POST", "/api/mcp", {"Content-Type": "application/json",
                                                                "MCP-Protocol-Version": "1999-01-01"}, body))
    assert reply.status == 400
    error = reply.json()["error"]
    assert error["code"] == -32022 and error["data"]["requested"] == "1999-01-01"
    assert reply.json()["id"] == 7


@pytest.mark.parametrize("origin, status", [(None, 204), ("http://127.0.0.1:8000", 204),
                                            ("https://evil.example", 403)])
def test_options_on_mcp_advertises_only_post_and_refuses_foreign_origins(bundled_site, origin, status):
    # before: 200 to any Origin, with Allow: PUT, PATCH, DELETE, GET ... that all answered 405
    reply = exchange(bundled_site, request("OPTIONS", "/api/mcp", {"Origin": origin} if origin else {}))
    assert reply.status == status
    if status == 204:
        assert set(reply.headers["allow"].replace(" ", "").split(",")) == {"POST", "OPTIONS"}
        assert reply.body == b""
    assert "access-control-allow-origin" not in reply.headers


@pytest.mark.parametrize("path, method, allow", [
    ("/api/mcp", "GET", {"POST", "OPTIONS"}),
    ("/api/mcp", "PUT", {"POST", "OPTIONS"}),
    ("/api/mcp", "PATCH", {"POST", "OPTIONS"}),
    ("/api/mcp", "DELETE", {"POST", "OPTIONS"}),
    # before: 404 from the page catch-all
    ("/api/chat", "GET", {"POST", "OPTIONS"}),
    ("/api/chat", "PUT", {"POST", "OPTIONS"}),
])
def test_other_methods_on_the_apis_get_405_naming_what_is_allowed(bundled_site, path, method, allow):
    reply = exchange(bundled_site, request(method, path))
    assert reply.status == 405
    assert set(reply.headers["allow"].replace(" ", "").split(",")) == allow
    assert reply.headers["content-type"].startswith("application/json")


def test_an_unknown_api_path_is_a_json_404_not_a_page(bundled_site):
    reply = exchange(bundled_site, request("GET", "/api/nothing", {"Accept": "text/html"}))
    assert reply.status == 404 and reply.json()["error"]["status"] == 404


@pytest.mark.parametrize("path", ["/", "/mcp", "/static/{site_js}"])
def test_a_failed_precondition_sends_the_error_not_the_file(bundled_site, site_js, path):
    # before: 412 with the whole page as its body
    path = path.format(site_js=site_js)
    whole = exchange(bundled_site, request("GET", path, {"Accept-Encoding": "identity"}))
    reply = exchange(bundled_site, request("GET", path, {"If-Match": '"not-this-one"', "Accept": "application/json",
                                                         "Accept-Encoding": "identity"}))
    assert reply.status == 412
    assert reply.json()["error"]["status"] == 412
    assert whole.body not in reply.body


# --- the policy in a real browser: the site needs nothing it forbids --------------------------------------

REPORT_VIOLATIONS = """
window.__violations = [];
document.addEventListener("securitypolicyviolation",
    (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
"""


def test_chromium_reports_no_policy_violation_on_pages_the_scene_the_fallback_and_the_chat(page, bundled_site,
                                                                                          bundled_release):
    allowlist = json.loads((bundled_release / "allowlist.json").read_text("utf-8"))
    page.add_init_script(REPORT_VIOLATIONS)
    seen = []
    page.on("console", lambda message: seen.append(message.text) if "Content Security Policy" in message.text
            else None)
    for path in ("/", "/gates/browser", allowlist["citations"][0]["url"]):
        page.goto(bundled_site + path)
        page.wait_for_load_state("networkidle")
        seen += page.evaluate("() => window.__violations")
    page.goto(bundled_site + "/chat")
    page.fill("#chat-question", "Which gates run before a release?")
    page.press("#chat-question", "Enter")
    page.wait_for_selector(".transcript[aria-busy=false]", timeout=60_000)
    assert page.locator(".transcript a.chip").count() >= 1      # the streamed answer arrived under the policy
    seen += page.evaluate("() => window.__violations")
    assert seen == []
