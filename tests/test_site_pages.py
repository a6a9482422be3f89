"""The site serves the release's pages exactly as the gates checked them."""
import json
import urllib.error
import urllib.request

import pytest
from trigsight_site import create_app


def fetch(url: str, accept: str = "text/html"):
    request = urllib.request.Request(url, headers={"Accept": accept, "Accept-Encoding": "identity"})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def test_every_published_page_is_served_byte_for_byte(bundled_release, bundled_site):
    allowlist = json.loads((bundled_release / "allowlist.json").read_text())
    for page in allowlist["pages"]:
        status, headers, body = fetch(bundled_site + page["path"])
        assert status == 200, page["path"]
        assert body == (bundled_release / page["file"]).read_bytes(), page["path"]
        assert headers["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("path, accept, kind", [
    ("/no/such/page", "text/html", "text/html"),
    ("/no/such/page", "application/json", "application/json"),
    ("/api/no-such-endpoint", "text/html", "application/json"),
])
def test_missing_pages_get_a_well_formed_404(bundled_site, path, accept, kind):
    status, headers, body = fetch(bundled_site + path, accept)
    assert status == 404 and headers["Content-Type"].startswith(kind)
    assert b"Traceback" not in body
    if kind == "application/json":
        error = json.loads(body)["error"]
        assert set(error) == {"status", "message"} and error["status"] == 404
        assert isinstance(error["message"], str) and error["message"].strip()


def test_without_a_release_the_site_says_so(tmp_path):
    client = create_app({"RELEASE_DIR": str(tmp_path), "TESTING": True}).test_client()
    response = client.get("/", headers={"Accept": "application/json"})
    assert response.status_code == 503
    assert "trigsight release" in response.get_json()["error"]["message"]
