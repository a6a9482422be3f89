"""Rendering: CommonMark through the site's templates; unknown markup never crashes or leaks."""
import pytest
from trigsight.build.builder import BuildConfig, run


def render(write_content, files):
    build = run(BuildConfig(write_content(files)))
    return {page.source.source: page for page in build.pages}


@pytest.mark.parametrize("markdown, present, absent", [
    ("<script>alert(1)</script>\n\nText.", "&lt;script&gt;alert(1)&lt;/script&gt;", "<script>alert"),
    ("Inline <img src=x onerror=alert(1)> here.", "&lt;img src=x onerror=alert(1)&gt;", "<img src=x"),
    ("```{note}\nA MyST directive.\n```", '<code class="language-{note}">A MyST directive.', None),
    (":::{warning}\nColon fence.\n:::", "{warning}", None),
    ("[x](javascript:alert(1))", "[x](javascript:alert(1))", 'href="javascript'),
    ("| a | b |\n|---|---|\n| 1 | 2 |", "<td>1</td>", None),
])
def test_markdown_renders_safely_whatever_the_dialect(write_content, markdown, present, absent):
    page = render(write_content, {"index.md": markdown})["index.md"]
    assert present in page.html
    if absent:
        assert absent not in page.html


def test_title_defaults_to_first_heading_and_links_to_markdown_files_are_rewritten(write_content):
    pages = render(write_content, {"index.md": "Intro.\n\n## Later\n\n# The Title\n\nSee [guide](docs/guide.md#part).",
                                   "docs/guide.md": "Body only."})
    assert pages["index.md"].title == "The Title"
    assert 'href="/docs/guide#part"' in pages["index.md"].html
    assert pages["docs/guide.md"].title == "Guide"


def test_pages_are_rendered_through_the_site_template(write_content):
    page = render(write_content, {"index.md": "# Home\n\nHello."})["index.md"]
    assert page.html.startswith("<!doctype html>")
    assert '<main id="content"' in page.html and "<nav" in page.html
    assert '<link rel="stylesheet" href="/static/style.' in page.html


def test_author_citation_becomes_a_chip_linking_to_the_sentence(write_content):
    pages = render(write_content, {
        "index.md": "Claim made here. [[cite:results|The browser proved it.]]",
        "results.md": "# Results\n\nThe browser proved it. Other text."})
    html = pages["index.md"].html
    assert '<a class="cite" href="/results#:~:text=The%20browser%20proved%20it." ' in html
    assert ">Results</a>" in html
