"""The source gate's page-text cache: a cached reading is the reading, and anything odd is a miss."""
from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from trigsight.build import page_text_cache
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build

from conftest import ROOT

CONTENT = ROOT / "content"


def readings(built) -> dict:
    """Everything the gates use from the pages' readings, comparable across builds."""
    return {path: (text.haystack, text.main_text, [(p.id, p.directive, p.text, p.block) for p in text.passages],
                   [vars(s) for s in text.skipped])
            for path, text in built.texts.items()}


@pytest.fixture(scope="module")
def uncached():
    return readings(build(BuildConfig(CONTENT)))


def entries(cache: Path) -> list[Path]:
    return sorted((cache / page_text_cache.FOLDER).glob("*.pickle"))


def test_a_build_from_the_cache_reads_every_page_as_a_build_without_it(tmp_path, uncached):
    first = readings(build(BuildConfig(CONTENT, cache_dir=tmp_path)))
    written = entries(tmp_path)
    again = readings(build(BuildConfig(CONTENT, cache_dir=tmp_path)))
    assert first == uncached and again == uncached
    assert len(written) >= len(uncached) and entries(tmp_path) == written


@pytest.mark.parametrize("damage", [b"", b"not a pickle", b"\x80\x05K\x01."], ids=["empty", "garbage", "an int"])
def test_a_damaged_entry_is_read_again_not_trusted(tmp_path, uncached, damage):
    build(BuildConfig(CONTENT, cache_dir=tmp_path))
    for entry in entries(tmp_path):
        entry.write_bytes(damage)
    assert readings(build(BuildConfig(CONTENT, cache_dir=tmp_path))) == uncached


@pytest.mark.parametrize("other", [("/other", "<p>One.</p>"), ("/page", "<p>One!</p>")], ids=["path", "html"])
def test_the_key_changes_with_the_page_path_and_every_byte_of_its_html(other):
    assert page_text_cache.key("/page", "<p>One.</p>") != page_text_cache.key(*other)



def test_every_entry_written_loads_back_as_the_page_reading_it_keeps(tmp_path, uncached):
    built = build(BuildConfig(CONTENT, cache_dir=tmp_path))
    for page in built.pages:
        entry = tmp_path / page_text_cache.FOLDER / f"{page_text_cache.key(page.path, page.html)}.pickle"
        kept = pickle.loads(entry.read_bytes())
        assert kept.haystack == uncached[page.path][0]
        assert [s.folded.glue for s in kept.segments] == [s.folded.glue for s in built.texts[page.path].segments]
