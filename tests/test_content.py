"""Reading a content folder: front matter optional, bad input named by file and line."""
import pytest
from trigsight.build import content
from trigsight.errors import ContentError, UsageError


def test_front_matter_is_optional_and_defaults_are_sensible(write_content):
    folder = write_content({"guide/Getting Started.md": "# Hello\n\nText.", "README.md": "Top."})
    pages = {p.source: p for p in content.run(folder).pages}
    assert pages["guide/Getting Started.md"].slug == "guide/getting-started"
    assert pages["guide/Getting Started.md"].language == "en"
    assert pages["README.md"].slug == "index" and pages["README.md"].path == "/"


def test_front_matter_sets_title_slug_and_language(write_content):
    folder = write_content({"a.md": "---\ntitle: Über\nslug: ru/about\nlanguage: ru\n---\nТекст.\n"})
    page = content.run(folder).pages[0]
    assert (page.title, page.slug, page.language, page.path, page.body_line) == \
           ("Über", "ru/about", "ru", "/ru/about", 6)


@pytest.mark.parametrize("files, where, message", [
    ({"a.md": "---\ntitle: [unclosed\n---\nx"}, "a.md:3", "malformed front matter"),
    ({"a.md": "---\ntitle: x\nno closing fence\n"}, "a.md:1", "never closed"),
    ({"a.md": "---\n- a list\n---\nx"}, "a.md:2", "must be a mapping"),
    ({"a.md": "---\nslug: Bad Slug!\n---\nx"}, "a.md:2", "slug 'Bad Slug!'"),
    ({"a.md": "---\ncolour: red\n---\nx"}, "a.md:2", "unknown front matter key"),
    ({"a.md": "---\nslug: same\n---\nx", "b.md": "---\nslug: same\n---\ny"}, "b.md:1", "duplicate slug 'same'"),
    ({"a.md": b"line one\nline two \xff\xfe\n"}, "a.md:2", "not valid UTF-8"),
])
def test_bad_content_is_reported_with_file_and_line(write_content, files, where, message):
    folder = write_content(files)
    with pytest.raises(ContentError) as caught:
        content.run(folder)
    assert any(str(p).startswith(str(folder / where.split(":")[0]) + ":" + where.split(":")[1])
               and message in p.message for p in caught.value.problems), str(caught.value)


def test_empty_folder_is_a_content_error(tmp_path):
    with pytest.raises(ContentError, match="no markdown files"):
        content.run(tmp_path)


def test_missing_folder_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError):
        content.run(tmp_path / "nope")
