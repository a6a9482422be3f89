"""Release-time pre-compression: `.br` and `.gz` siblings that decode to the file, or none."""
import gzip
import os

import brotli
import pytest
from trigsight.publishing import compress

TEXT = ("Every sentence here is a passage a browser proved it can point to. " * 40).encode()


@pytest.mark.parametrize("name", ["pages/index.html", "pages/gates/payload.html", "static/site.0123456789.js",
                                  "static/style.0123456789.css", "static/icon.svg", "static/data.json"])
def test_compressible_files_get_siblings_that_decode_to_the_file(tmp_path, name):
    file = tmp_path / name
    file.parent.mkdir(parents=True)
    file.write_bytes(TEXT)
    [result] = compress.run(tmp_path)
    assert result.file == name and result.size == len(TEXT)
    assert brotli.decompress((tmp_path / (name + ".br")).read_bytes()) == TEXT
    assert gzip.decompress((tmp_path / (name + ".gz")).read_bytes()) == TEXT
    assert result.encoded == {"br": (tmp_path / (name + ".br")).stat().st_size,
                              "gzip": (tmp_path / (name + ".gz")).stat().st_size}
    assert result.encoded["br"] < result.encoded["gzip"] < len(TEXT)


@pytest.mark.parametrize("name, data", [
    ("static/photo.0123456789.png", TEXT),          # images are compressed formats already
    ("static/tiny.0123456789.js", b"x"),            # a sibling larger than the file is useless
    ("static/noise.0123456789.js", os.urandom(4096)),
    ("allowlist.json", TEXT),                       # not served: only pages/ and static/ are
])
def test_files_that_would_not_shrink_or_are_not_served_get_no_siblings(tmp_path, name, data):
    file = tmp_path / name
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_bytes(data)
    compress.run(tmp_path)
    assert sorted(p.name for p in file.parent.iterdir()) == [file.name]


def test_compression_is_reproducible_from_one_release_to_the_next(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder / "static").mkdir(parents=True)
        (tmp_path / folder / "static" / "site.0123456789.js").write_bytes(TEXT)
        compress.run(tmp_path / folder)
    for suffix in (".br", ".gz"):
        name = "static/site.0123456789.js" + suffix
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()


def test_stale_names_siblings_of_a_file_rewritten_after_compression(tmp_path):
    page = tmp_path / "pages" / "index.html"
    page.parent.mkdir()
    page.write_bytes(TEXT)
    compress.run(tmp_path)
    assert compress.stale(tmp_path) == []
    page.write_bytes(TEXT + b"<p>added later</p>")
    assert compress.stale(tmp_path) == ["pages/index.html.br", "pages/index.html.gz"]


def _release(folder, data: bytes, br: bytes | None = None):
    page = folder / "pages" / "index.html"
    page.parent.mkdir(parents=True)
    page.write_bytes(data)
    if br is not None:
        (folder / "pages" / "index.html.br").write_bytes(br)
        (folder / "pages" / "index.html.gz").write_bytes(gzip.compress(data, mtime=0))
    return page


def test_an_unchanged_file_takes_the_siblings_the_previous_release_wrote(tmp_path):
    quick = brotli.compress(TEXT, quality=1)      # not what this release would write: a reuse shows
    assert quick != compress.encode(TEXT, "br")
    _release(tmp_path / "before", TEXT, quick)
    _release(tmp_path / "now", TEXT)
    compress.run(tmp_path / "now", tmp_path / "before")
    assert (tmp_path / "now" / "pages" / "index.html.br").read_bytes() == quick
    assert compress.stale(tmp_path / "now") == []


@pytest.mark.parametrize("before, stored", [
    (TEXT, b"not brotli at all"),                                  # a damaged sibling
    (TEXT, brotli.compress(TEXT + b"!", quality=1)),               # a sibling of other bytes
    (TEXT + b"<p>edited</p>", brotli.compress(TEXT + b"<p>edited</p>", quality=1)),   # the file changed
])
def test_a_sibling_that_does_not_decode_to_the_file_is_encoded_anew(tmp_path, before, stored):
    _release(tmp_path / "before", before, stored)
    _release(tmp_path / "now", TEXT)
    compress.run(tmp_path / "now", tmp_path / "before")
    assert (tmp_path / "now" / "pages" / "index.html.br").read_bytes() == compress.encode(TEXT, "br")
    assert compress.stale(tmp_path / "now") == []
