"""Content negotiation: stored .br/.gz sent with the right headers; dynamic responses compressed."""
import gzip
import json
import re
import urllib.request

import brotli
import pytest
from flask import Response, abort, jsonify
from trigsight_site import create_app

DECODE = {"br": brotli.decompress, "gzip": gzip.decompress, None: lambda body: body}


@pytest.fixture(scope="module")
def app(bundled_release):
    return create_app({"RELEASE_DIR": str(bundled_release), "TESTING": True})


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def site_js(bundled_release):
    [name] = [p.name for p in (bundled_release / "static").glob("site.*.js")]
    return name


def targets(bundled_release, site_js):
    return {"/": bundled_release / "pages" / "index.html",
            "/gates/payload": bundled_release / "pages" / "gates" / "payload.html",
            f"/static/{site_js}": bundled_release / "static" / site_js}


@pytest.mark.parametrize("accept, expected", [
    ("gzip, deflate, br, zstd", "br"),        # what Chromium sends
    ("br", "br"),
    ("gzip", "gzip"),
    ("*", "br"),
    ("br;q=0.5, gzip", "gzip"),
    ("br;q=0, gzip;q=0", None),
    ("identity", None),
    ("", None),
])
@pytest.mark.parametrize("which", [0, 1, 2])
def test_pages_and_assets_are_sent_in_the_negotiated_encoding(client, bundled_release, site_js, accept, expected,
                                                              which):
    path, file = list(targets(bundled_release, site_js).items())[which]
    response = client.get(path, headers={"Accept-Encoding": accept})
    assert response.status_code == 200
    assert response.headers.get("Content-Encoding") == expected
    assert "Accept-Encoding" in response.headers["Vary"]
    body = response.get_data()
    assert int(response.headers["Content-Length"]) == len(body)
    stored = file.with_name(file.name + {"br": ".br", "gzip": ".gz"}[expected]) if expected else file
    assert body == stored.read_bytes()                 # sent as stored: no per-request compression
    assert DECODE[expected](body) == file.read_bytes()


@pytest.mark.parametrize("path, cache", [
    ("/", "public, max-age=0, must-revalidate"),
    ("/static/{site_js}", "public, max-age=31536000, immutable"),
])
def test_fingerprinted_assets_are_immutable_and_pages_revalidate(client, site_js, path, cache):
    assert client.get(path.format(site_js=site_js)).headers["Cache-Control"] == cache


def test_an_unfingerprinted_static_name_is_not_cached_for_a_year(app, bundled_release, tmp_path):
    import shutil
    copy = tmp_path / "release"
    shutil.copytree(bundled_release, copy)
    (copy / "static" / "robots.txt").write_text("User-agent: *\n")
    client = create_app({"RELEASE_DIR": str(copy), "TESTING": True}).test_client()
    assert client.get("/static/robots.txt").headers["Cache-Control"] == "public, max-age=0, must-revalidate"


@pytest.mark.parametrize("accept", ["br", "gzip", "identity"])
def test_each_encoding_has_its_own_etag_and_answers_304_to_it(client, site_js, accept):
    etags = {enc: client.get(f"/static/{site_js}", headers={"Accept-Encoding": enc}).headers["ETag"]
             for enc in ("br", "gzip", "identity")}
    assert len(set(etags.values())) == 3
    again = client.get(f"/static/{site_js}", headers={"Accept-Encoding": accept, "If-None-Match": etags[accept]})
    assert again.status_code == 304 and again.get_data() == b""
    other = next(e for e in etags.values() if e != etags[accept])
    assert client.get(f"/static/{site_js}", headers={"Accept-Encoding": accept,
                                                     "If-None-Match": other}).status_code == 200


def test_head_answers_the_headers_of_the_compressed_body(client, bundled_release):
    head = client.head("/", headers={"Accept-Encoding": "br"})
    assert head.get_data() == b""
    assert head.headers["Content-Encoding"] == "br"
    assert int(head.headers["Content-Length"]) == (bundled_release / "pages" / "index.html.br").stat().st_size


def test_stored_siblings_are_not_resources_of_their_own(client, site_js):
    assert client.get(f"/static/{site_js}.br").status_code == 404
    assert client.get(f"/static/{site_js}.gz").status_code == 404


def test_gunicorn_sends_exactly_the_stored_brotli_bytes(bundled_site, bundled_release, site_js):
    for path, file in targets(bundled_release, site_js).items():
        request = urllib.request.Request(bundled_site + path, headers={"Accept-Encoding": "br"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.headers["Content-Encoding"] == "br", path
            assert response.read() == file.with_name(file.name + ".br").read_bytes(), path


@pytest.fixture(scope="module")
def dynamic(bundled_release):
    """The real app with three extra routes standing in for per-request output."""
    app = create_app({"RELEASE_DIR": str(bundled_release), "TESTING": True})
    rows = [{"id": f"p{i}", "text": f"Passage number {i} of the release, said in full."} for i in range(60)]
    app.add_url_rule("/dynamic/json", "json", lambda: jsonify(rows))
    app.add_url_rule("/dynamic/small", "small", lambda: jsonify({"ok": True}))
    app.add_url_rule("/dynamic/missing", "missing", lambda: abort(404, "No such passage. " * 60))
    app.add_url_rule("/dynamic/stream", "stream",
                     lambda: Response((f"data: {json.dumps(r)}\n\n" for r in rows), mimetype="text/event-stream"))
    app.add_url_rule("/dynamic/html-stream", "html_stream",
                     lambda: Response((f"<p>{r['text']}</p>" for r in rows), mimetype="text/html"))
    return app.test_client()


@pytest.mark.parametrize("accept, expected", [("gzip, deflate, br, zstd", "br"), ("gzip", "gzip"), ("identity", None)])
def test_json_made_per_request_is_compressed_when_the_client_accepts_it(dynamic, accept, expected):
    response = dynamic.get("/dynamic/json", headers={"Accept-Encoding": accept})
    assert response.headers.get("Content-Encoding") == expected
    assert "Accept-Encoding" in response.headers["Vary"]
    body = response.get_data()
    assert int(response.headers["Content-Length"]) == len(body)
    assert json.loads(DECODE[expected](body))[59]["id"] == "p59"


def test_html_error_pages_are_compressed_too(dynamic):
    headers = {"Accept": "text/html"}
    plain = dynamic.get("/dynamic/missing", headers={**headers, "Accept-Encoding": "identity"})
    squeezed = dynamic.get("/dynamic/missing", headers={**headers, "Accept-Encoding": "br"})
    assert plain.status_code == squeezed.status_code == 404
    assert squeezed.headers["Content-Encoding"] == "br" and squeezed.mimetype == "text/html"
    assert brotli.decompress(squeezed.get_data()) == plain.get_data()


@pytest.mark.parametrize("path", ["/dynamic/small", "/dynamic/stream", "/dynamic/html-stream"])
def test_small_and_streamed_responses_are_left_alone(dynamic, path):
    response = dynamic.get(path, headers={"Accept-Encoding": "br"})
    assert "Content-Encoding" not in response.headers
    if path != "/dynamic/small":   # streamed: chunks go out as they are made, never buffered
        assert response.is_streamed and "Content-Length" not in response.headers


def test_every_page_link_and_asset_in_the_release_is_served_compressed(client, bundled_release):
    allowlist = json.loads((bundled_release / "allowlist.json").read_text())
    for page in allowlist["pages"]:
        response = client.get(page["path"], headers={"Accept-Encoding": "br"})
        assert response.headers["Content-Encoding"] == "br", page["path"]
        html = brotli.decompress(response.get_data()).decode()
        for asset in re.findall(r'(?:src|href|data-scene|data-fallback)="(/static/[^"]+)"', html):
            served = client.get(asset, headers={"Accept-Encoding": "br"})
            assert served.status_code == 200 and served.headers["Content-Encoding"] == "br", asset
