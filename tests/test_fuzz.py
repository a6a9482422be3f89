"""Generated inputs (Hypothesis) for every door a stranger can knock on: no 500, no traceback,
no invariant broken, bounded time.

The HTTP targets run in-process with TESTING on, so any exception fails the example with its
traceback instead of hiding behind a 500; test_hardening.py sends the probes that matter
over real gunicorn. Examples are few by default (`make test` stays fast); a deeper run:

    .venv/bin/python -m pytest tests/test_fuzz.py --hypothesis-profile=deep
"""
from __future__ import annotations

import json
import re
import string
import subprocess
import sys
import uuid
from types import SimpleNamespace

import pytest
from bs4 import BeautifulSoup
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trigsight.answering.handles import HandleTable, Source, parse_citations, split_leading_handles, strip_handles
from trigsight.build import generators, mdx
from trigsight.build.dialects import make_parser
from trigsight.matching.directives import TextDirective, parse_directive
from trigsight.publishing.published import Release
from trigsight_site import create_app

from fake_llm import Script, serve

MODERN = "2026-07-28"
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META = {META_VERSION: MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
TOOLS = ("list_sources", "read_page", "find_evidence", "verify_quote", "nope")
HTTP = settings(suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow], deadline=None)
# An answered question costs a retrieval (and an embedding): a third of the profile's examples.
ANSWERING = settings(HTTP, max_examples=max(5, settings().max_examples // 3))

# --- strategies ------------------------------------------------------------------------------------

# Text that includes what real clients rarely send: lone surrogates, controls, RTL marks, CJK.
nasty_text = st.text(st.characters(codec=None, categories=None), max_size=40) | st.sampled_from(
    ["\ud800", "gate \udfff", "\x00", "\u202e", "[S1]", "<script>alert(1)</script>", "%", "../../etc/passwd",
     "http://evil.example/", "Chromium", "ЁЖ", "ゲート", "", " ", "x" * 1001])
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | nasty_text,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(nasty_text, children, max_size=4),
    max_leaves=12)


def chat_bodies():
    question = nasty_text | st.sampled_from(["Which gates run before a release?", "Что проверяет браузер?"])
    history = st.lists(st.fixed_dictionaries({"role": st.sampled_from(["user", "assistant", "system", 3]),
                                              "content": nasty_text}), max_size=3)
    shaped = st.fixed_dictionaries({"question": question}, optional={"history": history | json_values,
                                                                     "context": json_values})
    return shaped | json_values


def to_json_text(value) -> bytes:
    # ensure_ascii writes a lone surrogate as the escape a client would send: "\ud800"
    return json.dumps(value, ensure_ascii=True).encode()


raw_bodies = st.binary(max_size=200) | st.sampled_from([b"[" * 2000, b'{"question":', b"\xff\xfe", b"{}" * 50])


# --- the HTTP doors ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def app(bundled_release):
    return create_app({"RELEASE_DIR": str(bundled_release), "TESTING": True,
                       "OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""})


@pytest.fixture(scope="module")
def allowlist(bundled_release) -> set[str]:
    return {p.url for p in Release.load(bundled_release).passages}


def assert_error_shape(response, status: int) -> None:
    body = response.get_json()
    assert body["error"]["status"] == status and body["error"]["message"]


@HTTP
@given(body=chat_bodies() | raw_bodies,
       content_type=st.sampled_from(["application/json", "application/json; charset=utf-8", "text/plain", ""]),
       accept=st.sampled_from(["application/json", "text/event-stream", "text/html", "*/*", ""]))
def test_the_chat_api_answers_any_body_with_an_answer_or_a_well_formed_4xx(app, allowlist, body, content_type,
                                                                           accept):
    data = body if isinstance(body, bytes) else to_json_text(body)
    headers = {"Content-Type": content_type} if content_type else {}
    if accept:
        headers["Accept"] = accept
    response = app.test_client().post("/api/chat", data=data, headers=headers)
    assert response.status_code in (200, 400, 406, 413, 415), response.status_code
    text = response.get_data(as_text=True)
    assert "Traceback" not in text
    if response.status_code != 200:
        assert_error_shape(response, response.status_code)
    elif response.mimetype == "application/json":
        for sentence in response.get_json()["answer"]:
            assert sentence["status"] in ("supported", "unverified", "refusal")
            assert {c["url"] for c in sentence["citations"]} <= allowlist
    else:
        assert response.mimetype == "text/event-stream"
        urls = re.findall(r'"url": "([^"]*)"', text)
        assert set(urls) <= allowlist


def chip_links(html: str) -> set[str]:
    return {a["href"] for a in BeautifulSoup(html, "html.parser").find_all("a", href=True) if "#:~:" in a["href"]}


@ANSWERING
@given(question=nasty_text, encoded=st.booleans(), extra=st.dictionaries(nasty_text, nasty_text, max_size=2))
def test_the_chat_form_answers_any_question_with_a_page_and_only_allowlisted_chips(app, allowlist, question,
                                                                                  encoded, extra):
    client = app.test_client()
    if encoded:
        response = client.post("/chat", data={"question": question.encode("utf-8", "surrogatepass"), **{
            k.encode("utf-8", "surrogatepass"): v.encode("utf-8", "surrogatepass") for k, v in extra.items()}})
    else:
        response = client.post("/chat", data=("question=" + question).encode("utf-8", "surrogatepass"),
                               content_type="application/x-www-form-urlencoded")
    assert response.status_code in (200, 400, 413)
    html = response.get_data(as_text=True)
    assert "Traceback" not in html and "<html" in html
    assert chip_links(html) <= allowlist


def mcp_messages():
    """Envelopes that are right, nearly right and wrong, with fuzzed params and arguments."""
    arguments = st.fixed_dictionaries({}, optional={
        "page": nasty_text | st.sampled_from(["mcp", "/ja", "http://evil.example/mcp", "index.md"]),
        "claim": nasty_text, "quote": nasty_text, "max_results": json_values | st.integers(-5, 50)}) | json_values
    params = st.fixed_dictionaries({"name": st.sampled_from(TOOLS) | json_values, "arguments": arguments},
                                   optional={"_meta": st.just(META) | json_values, "cursor": json_values})
    method = st.sampled_from(["tools/call", "tools/list", "server/discover", "initialize", "ping", "x"]) | json_values
    message = st.fixed_dictionaries({"jsonrpc": st.just("2.0") | json_values, "method": method},
                                    optional={"id": st.integers() | nasty_text | json_values,
                                              "params": params | json_values})
    return message | json_values


@HTTP
@given(message=mcp_messages(), version=st.sampled_from([MODERN, "2025-11-25", "1999-01-01", None]),
       origin=st.sampled_from([None, "http://127.0.0.1:8000", "https://evil.example", "null"]),
       match_headers=st.booleans(), raw=st.none() | raw_bodies)
def test_mcp_answers_any_message_with_json_rpc_and_only_allowlisted_proven_links(app, allowlist, message, version,
                                                                                origin, match_headers, raw):
    headers = {"Content-Type": "application/json"}
    if version:
        headers["MCP-Protocol-Version"] = version
    if origin:
        headers["Origin"] = origin
    if match_headers and isinstance(message, dict):
        method = message.get("method")
        if isinstance(method, str) and method.isascii() and method.isprintable():
            headers["Mcp-Method"] = method
        name = (message.get("params") or {}).get("name") if isinstance(message.get("params"), dict) else None
        if isinstance(name, str) and name.isascii() and name.isprintable():
            headers["Mcp-Name"] = name
    response = app.test_client().post("/api/mcp", data=raw if raw is not None else to_json_text(message),
                                      headers=headers)
    assert response.status_code in (200, 202, 400, 403, 404, 405, 413, 415), response.status_code
    if response.status_code == 202:
        assert response.get_data() == b""
        return
    body = response.get_json()
    assert body["jsonrpc"] == "2.0" and ("result" in body) != ("error" in body)
    if "error" in body:
        assert isinstance(body["error"]["code"], int) and body["error"]["message"]
        return
    structured = body["result"].get("structuredContent") or {}
    for link in proven_links(structured):
        assert link in allowlist


def proven_links(value):
    """Every URL in a tool result that claims `proven: true`."""
    if isinstance(value, dict):
        if value.get("proven") is True and isinstance(value.get("url"), str):
            yield value["url"]
        for child in value.values():
            yield from proven_links(child)
    elif isinstance(value, list):
        for child in value:
            yield from proven_links(child)


# --- what the model writes (the scripted OpenAI-compatible server, fuzzed replies) ---------------------

model_text = st.lists(st.sampled_from(
    ["[S1]", "[S2]", "[s3]", "【S1】", "(S2)", "[S1, S3]", "[S9]", "[3]", "[[cite:x|y]]", "p0123456789",
     "[link](http://evil.example)", "<a href='http://evil.example'>x</a>", "http://evil.example/x", "![i](x.png)",
     "Every page is loaded in headless Chromium.", "The gate runs first.", ". ", "! ", "\n\n", "。",
     "Chromium", "gates", "allowlist"]) | st.text(string.printable, max_size=12), max_size=25).map("".join)


@pytest.fixture(scope="module")
def fake():
    with serve() as running:
        yield running


@ANSWERING
@given(reply=model_text, piece=st.integers(1, 40))
def test_whatever_the_model_writes_only_allowlisted_chips_reach_the_reader(bundled_release, allowlist, fake, reply,
                                                                          piece):
    question = f"Which gates run before a release? {uuid.uuid4().hex}"
    fake.add(Script(question, reply, piece=piece))
    app = create_app({"RELEASE_DIR": str(bundled_release), "TESTING": True, "OPENAI_BASE_URL": fake.base_url,
                      "MODEL": "scripted", "CHAT_TIMEOUT": 5})
    response = app.test_client().post("/api/chat", json={"question": question})
    assert response.status_code == 200
    for sentence in response.get_json()["answer"]:
        assert {c["url"] for c in sentence["citations"]} <= allowlist
        assert "evil.example" not in sentence["text"] and "<a" not in sentence["text"]


# --- the pure parsers ---------------------------------------------------------------------------------

PARSER = settings(deadline=2000)   # milliseconds: catastrophic regex backtracking would take far longer


@PARSER
@given(st.text(max_size=300) | st.from_regex(r"text=[-,%0-9A-Za-z]{0,40}", fullmatch=True))
def test_parse_directive_accepts_or_raises_value_error_and_nothing_else(text):
    try:
        directive = parse_directive(text)
    except ValueError:
        return
    assert directive.text                                   # a parsed directive always has its text
    assert parse_directive(str(directive)) == directive      # and writes back to an equivalent one


part = st.text(st.characters(codec="utf-8"), min_size=1, max_size=30)


@PARSER
@given(text=part, prefix=st.just("") | part, suffix=st.just("") | part, end=st.just("") | part)
def test_every_directive_written_parses_back_to_itself(text, prefix, suffix, end):
    directive = TextDirective(text, prefix, suffix, end)
    assert parse_directive(str(directive)) == directive
    assert re.fullmatch(r"text=[A-Za-z0-9_.~%,-]+", str(directive))


handle_text = st.lists(st.sampled_from(
    ["[S1]", "[s2]", "【S3】", "(S1)", "[S1, S3]", "[S1][S2]", "[Ｓ１]", "[S", "[S1-S3]", "[3]", "[[cite:a|b]]",
     "p0123456789", " ", "text", "。", "(", "[", "S", "1", ",", "]", "\n"]) | st.text(max_size=5),
    max_size=40).map("".join)


@PARSER
@given(handle_text)
def test_handle_parsing_never_fails_and_reads_back_only_handle_labels(text):
    cited = parse_citations(text)
    assert all(re.fullmatch(r"S\d{1,3}", label) for label in cited.labels)
    assert cited.stray >= 0
    handles, rest = split_leading_handles(text)
    assert handles + rest == text
    stripped = strip_handles(text)
    assert not parse_citations(stripped).labels


@PARSER
@given(text=handle_text, issued=st.integers(0, 8))
def test_only_handles_issued_in_this_request_resolve(text, issued):
    table = HandleTable({f"S{n}": Source(f"S{n}", (f"p{n}",), "/", "t", "x") for n in range(1, issued + 1)})
    for label in parse_citations(text).labels:
        number = int(label[1:])
        assert (table.get(label) is not None) == (1 <= number <= issued)


# What real docs folders write around their markdown (generators.py, mdx.py), to be shuffled.
GENERATOR_LINES = st.sampled_from([
    '=== "Tab"', '===+ "Tab"', "    body", "\t tabbed body", "        deeper", "```", "~~~", "```py",
    '{% include "x.md" %}', '{% hint style="info" %}', "{% endhint %}", '{% tab title="T" %}', "{% endtab %}",
    "{% highlight ruby %}", "{% endhighlight %}", "{{< notice warning >}}", "{{< /notice >}}", "{{% alert %}}",
    "{{< highlight go >}}", "{{< /highlight >}}", "{{#include a.rs}}", "{{ macro() }}", "--8<--", '--8<-- "a.md"',
    "[TOC]", "[[toc]]", "*[A]: b", "{: .lead }", "The {{ v }} value.", "import A from 'a';", "export const x = {",
    "};", "<Tabs>", '<TabItem value="x">', "</TabItem>", "{/* c */}", "# Heading {/* #id */}", "> [!tip] T",
    "> body", "- [x] t", "==m== and [[p|w]] and ![[e]]", "[[cite:index|Text.]]", "Text.", "",
])


@settings(deadline=2000)
@given(st.lists(st.one_of(GENERATOR_LINES, st.text(max_size=40)), max_size=40))
def test_generator_syntax_keeps_every_line_where_it_was_and_renders_whatever_is_written(lines):
    source = "\n".join(lines)
    state = SimpleNamespace(src=mdx.without_javascript(source), env={})
    assert state.src.count("\n") == source.count("\n")
    generators.read_generator_syntax(state)
    assert state.src.count("\n") == source.count("\n")      # errors name the author's line
    make_parser().render(source)


@pytest.mark.parametrize("line", ["{{< notice warning >}} " * 40 + "text", "{{% /alert %}}" * 40 + "text",
                                  '{% include "a.md" -%}' * 40 + "text", "{{#include a.rs}} " * 40 + "text",
                                  "{{ page.title }} " * 40 + "text"])
def test_a_long_line_of_tags_that_is_not_all_tags_renders_without_hanging(line):
    """Each tag can match in one way only; with two, a line like these backtracked for minutes
    (a child process, so a regression fails here instead of hanging the suite)."""
    code = "import sys; from trigsight.build.dialects import make_parser; print(make_parser().render(sys.stdin.read()))"
    done = subprocess.run([sys.executable, "-c", code], input=line, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0 and "text" in done.stdout, done.stderr
