"""Images the pages show from the content folder: published with the release, found from the page's file."""
import re
import struct
import zlib

import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.gates.liveserver import serve_release

import small_site


def png(width: int = 3, height: int = 2) -> bytes:
    """A real PNG of `width` × `height` red pixels."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + b"\xff\x00\x00" * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def images(html: str) -> list[tuple[str, str]]:
    return re.findall(r'<img src="([^"]*)" alt="([^"]*)"', html)


@pytest.mark.parametrize("page, markdown, alt", [
    ("guide/index.md", "![The flow](flow.png)", "The flow"),                       # served at /guide, not /guide/
    ("guide/deep/page.md", "![The flow](../flow.png)", "The flow"),
    ("guide/index.md", '<img src="flow.png" alt="The flow">', "The flow"),          # the author's raw HTML
    ("other.md", "![The flow](/guide/flow.png)", "The flow"),                       # from the folder's root
    ("other.md", "![[flow.png]]", "flow"),                                          # Obsidian: found by its name
    ("other.md", "![[flow.png|The flow]]", "The flow"),
    ("other.md", "![[flow.png|300]]", "flow"),                                      # a width, not words
    ("other.md", "![The flow](<guide/flow.png>)", "The flow"),
    ("guide/index.md", "![The flow](../.gitbook/assets/flow.png)", "The flow"),     # GitBook's image folder
])
def test_an_image_in_the_content_folder_is_published_and_its_src_points_at_it(write_content, page, markdown, alt):
    folder = write_content({page: f"# Page\n\nA sentence about the flow of work.\n\n{markdown}\n",
                            "guide/flow.png" if ".gitbook" not in markdown else ".gitbook/assets/flow.png": png()})
    built = run(BuildConfig(folder))
    [asset] = [a for name, a in built.assets.items() if name.startswith("media/")]
    assert re.fullmatch(r"flow\.[0-9a-f]{10}\.png", asset.file) and asset.data == png()
    [html] = [p.html for p in built.pages if p.source.source == page]
    assert images(html) == [(f"/static/{asset.file}", alt)]
    assert not any("images not in the content folder" in w for w in built.warnings)


def test_an_image_not_in_the_folder_keeps_its_src_and_is_named_in_a_warning(write_content, tmp_path):
    (tmp_path / "secret.png").write_bytes(png())
    folder = write_content({"a.md": "# A\n\n![gone](pics/gone.png) ![outside](../secret.png) "
                                    "![linked](linked.png) ![web](https://example.org/x.png)\n"})
    (folder / "linked.png").symlink_to(tmp_path / "secret.png")      # inside the folder, pointing out of it
    built = run(BuildConfig(folder))
    [html] = [p.html for p in built.pages if p.source.source == "a.md"]
    assert [src for src, _ in images(html)] == ["pics/gone.png", "../secret.png", "linked.png",
                                                "https://example.org/x.png"]
    assert not [name for name in built.assets if name.startswith("media/")]
    assert "images not in the content folder, left as written: ../secret.png (a.md); linked.png (a.md); " \
           "pics/gone.png (a.md)" in built.warnings


def test_one_image_shown_by_two_pages_is_published_once_and_a_changed_image_gets_a_new_name(write_content):
    folder = write_content({"a.md": "# A\n\n![x](img/x.png)\n", "b/c.md": "# C\n\n![x](../img/x.png)\n",
                            "img/x.png": png()})
    first = [a.file for name, a in run(BuildConfig(folder)).assets.items() if name.startswith("media/")]
    (folder / "img" / "x.png").write_bytes(png(4, 4))
    second = [a.file for name, a in run(BuildConfig(folder)).assets.items() if name.startswith("media/")]
    assert len(first) == len(second) == 1 and first != second


def test_in_chromium_an_image_beside_a_page_served_at_another_url_is_shown(tmp_path, trigsight, page):
    content = small_site.write(tmp_path / "content", {
        "index.md": "# Home\n\nThe garden has a quiet bench under the old pear tree.\n",
        "guide/index.md": "# Guide\n\nThe diagram shows where the water runs.\n\n![Where the water runs](water.png)\n",
        "guide/water.png": png(5, 3)})
    result = small_site.release(trigsight, content, tmp_path / "release", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    with serve_release(tmp_path / "release") as base:
        page.goto(base + "/guide")
        image = page.locator("main img")
        image.wait_for()
        page.wait_for_function("document.querySelector('main img').complete")
        assert image.evaluate("i => [i.naturalWidth, i.naturalHeight]") == [5, 3]
        assert image.get_attribute("alt") == "Where the water runs"
