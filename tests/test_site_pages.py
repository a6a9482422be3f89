"""The site serves the release's pages exactly as the gates checked them."""
import asyncio
import concurrent.futures
import json
import urllib.error
import urllib.request

import pytest
from trigsight.gates.liveserver import serve_release
from trigsight.publishing.publish import page_file
from trigsight_site import create_app

import small_site
from mcp import Client


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


SITE_WITH_ROUTE_NAMED_FOLDERS = {
    "index.md": "# Home\n\nStart with [the API](api/index.md).\n",
    "api/index.md": "# API\n\nThe API reference lists every function the library exports to callers.\n",
    "api/client.md": "# Client\n\nThe client object opens one connection per host and reuses it.\n",
    "static/files.md": "# Static files\n\nStatic files are served from the public folder without processing.\n",
    "reports/weekly.md": "# Weekly report\n\nThe weekly report sums up the week's releases in one table.\n",
}


def test_a_docs_folders_api_static_and_reports_pages_are_proven_and_served(tmp_path, trigsight):
    """Before, /api/* and /reports/* were the site's own and /static/* its assets: the pages answered 404,
    the payload gate refused the release, and the browser gate cached "no match" for every passage."""
    content = small_site.write(tmp_path / "content", SITE_WITH_ROUTE_NAMED_FOLDERS)
    result = small_site.release(trigsight, content, tmp_path / "release", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    allowlist = json.loads((tmp_path / "release" / "allowlist.json").read_text())
    proven = {p["page"] for p in allowlist["passages"]}
    wanted = {"/api", "/api/client", "/static/files", "/reports/weekly"}
    assert wanted <= proven
    with serve_release(tmp_path / "release") as base:
        for path in wanted:
            status, _, body = fetch(base + path)
            assert status == 200 and body == (tmp_path / "release" / page_file(path)).read_bytes(), path
        status, headers, _ = fetch(base + "/api/nothing-here")
        assert status == 404 and headers["Content-Type"].startswith("application/json")
        request = urllib.request.Request(base + "/api/chat", data=json.dumps({"question": "What does the client reuse?"})
                                         .encode(), headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            answer = json.loads(response.read())
        assert answer["answer"] and answer["answer"][0]["citations"][0]["page"] == "/api/client"


MOVED_SITE = {
    "index.md": "# Seed library\n\nSee [the old sowing page](sowing.md) and the [old guide](old/guide.rst).\n",
    "docs/sowing.md": "---\ntitle: Sowing\naliases: [/plant, old-sowing.html]\n---\n# Sowing\n\n"
                      "Sow peas in March, two finger-widths deep.\n\n## Spacing\n\nLeave a hand's width between seeds.\n",
    "docs/guide.rst": "Guide\n=====\n\nBorrow a packet, grow it out, return seeds in autumn.\n",
    # jekyll-redirect-from's old page, an HTML refresh in markdown, Sphinx's moved page
    "sowing.md": "---\nredirect_to: /docs/sowing\n---\n# Moved\n\nThis page has moved.\n",
    "spacing.md": '<meta http-equiv="refresh" content="0; url=docs/sowing.html#spacing">\n\n# Moved\n\nGone.\n',
    "old/guide.rst": ":orphan:\n\n.. meta::\n\n  :http-equiv=refresh: 3; url=../../docs/guide/\n\n"
                     "This page has moved\n===================\n\nYou should be redirected automatically.\n",
    "away.md": "---\nredirect_to: https://example.org/seeds\n---\n# Away\n\nThe swap list now lives elsewhere.\n",
}


def test_pages_that_moved_answer_with_a_redirect_to_the_page_they_name(tmp_path, trigsight):
    content = small_site.write(tmp_path / "content", MOVED_SITE)
    result = small_site.release(trigsight, content, tmp_path / "release", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert ("warning: pages that say they moved, served as redirects to their new address: 3 (old/guide.rst → "
            "/docs/guide, sowing.md → /docs/sowing, spacing.md → /docs/sowing#spacing)") in result.stderr
    assert ("warning: pages that say they moved to no page of this folder, published as they are: "
            "away.md → https://example.org/seeds") in result.stderr
    allowlist = json.loads((tmp_path / "release" / "allowlist.json").read_text())
    assert sorted(p["path"] for p in allowlist["pages"]) == ["/", "/away", "/contents", "/docs/guide", "/docs/sowing"]
    assert not any("moved" in p["text"] for p in allowlist["passages"])
    home = (tmp_path / "release" / "pages" / "index.html").read_text()
    assert 'href="/docs/sowing"' in home and 'href="/docs/guide"' in home    # links to moved pages go on
    with serve_release(tmp_path / "release") as base:
        opener = urllib.request.build_opener(NoRedirects)
        for old, new in [("/sowing", "/docs/sowing"), ("/spacing/", "/docs/sowing#spacing"),
                         ("/old/guide", "/docs/guide"), ("/plant", "/docs/sowing"), ("/docs/old-sowing", "/docs/sowing")]:
            try:
                opener.open(base + old, timeout=10)
                raise AssertionError(f"{old} was not redirected")
            except urllib.error.HTTPError as answer:
                assert answer.code == 301 and answer.headers["Location"] == new, old
        status, _, body = fetch(base + "/away")
        assert status == 200 and b"The swap list now lives elsewhere." in body
        with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:   # Playwright's loop may run here
            read = pool.submit(asyncio.run, read_page(base + "/api/mcp", base + "/old/guide/")).result()  # an old link
        assert read["path"] == "/docs/guide" and "Borrow a packet" in read["text"]


async def read_page(endpoint: str, page: str) -> dict:
    async with Client(endpoint) as client:
        return (await client.call_tool("read_page", {"page": page})).structured_content


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None
