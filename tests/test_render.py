"""Rendering: the docs dialects through the site's templates; raw HTML sanitised, never leaked."""
import pytest
from trigsight.build.builder import BuildConfig, run


def render(write_content, files):
    build = run(BuildConfig(write_content(files)))
    return {page.source.source: page for page in build.pages}


@pytest.mark.parametrize("markdown, present, absent", [
    ("<script>alert(1)</script>\n\nText.", "<p>Text.</p>", "alert(1)"),
    ("Inline <img src=x onerror=alert(1)> here.", '<img src="x">', "onerror"),
    ("<iframe src=//evil>inner</iframe><style>p{}</style>Kept.", "Kept.", "inner"),
    ("<b onclick='x()' style='color:red'>Bold</b>", "<b>Bold</b>", "onclick"),
    ("<!-- YAML\nadded: v1\n-->\n\nText <!-- inline --> here.", "<p>Text  here.</p>", "added"),
    ("<custom-widget>Words stay.</custom-widget>", "Words stay.", "custom-widget"),
    ("<a href='javascript:alert(1)'>x</a>", "<a>x</a>", "javascript"),
    ("```{note}\nA MyST directive.\n```", '<aside class="admonition kind-note" role="note">', "<code"),
    (":::{warning}\nColon fence.\n:::", '<p class="admonition-title">Warning</p>', "{warning}"),
    ("```{unheard-of} Title\nIts body **shows**.\n```", "<p>Its body <strong>shows</strong>.</p>", "<code"),
    ("[x](javascript:alert(1))", "[x](javascript:alert(1))", 'href="javascript'),
    ("| a | b |\n|---|---|\n| 1 | 2 |", "<td>1</td>", None),
])
def test_markdown_renders_safely_whatever_the_dialect(write_content, markdown, present, absent):
    page = render(write_content, {"index.md": markdown})["index.md"]
    assert present in page.body_html
    if absent:
        assert absent not in page.body_html


def test_title_defaults_to_first_h1_else_the_file_name_and_links_to_markdown_files_are_rewritten(write_content):
    pages = render(write_content, {"index.md": "Intro.\n\n## Later\n\n# The Title\n\nSee [guide](docs/guide.md#part).",
                                   "docs/guide.md": "## Examples\n\nBody only."})
    assert pages["index.md"].title == "The Title"
    assert 'href="/docs/guide#part"' in pages["index.md"].html
    assert pages["docs/guide.md"].title == "Guide"


@pytest.mark.parametrize("link, href", [
    ("[a](guide.html)", "/docs/guide"), ("[a](./guide)", "/docs/guide"), ("[a](guide.md#x)", "/docs/guide#x"),
    ('<a href="guide.html#y">a</a>', "/docs/guide#y"), ("[a](/elsewhere)", "/elsewhere"),
    ("[a](missing.md)", "missing.md"), ("[](guide.md)", "/docs/guide"),
])
def test_links_to_pages_work_as_a_reader_expects(write_content, link, href):
    pages = render(write_content, {"docs/intro.md": f"# Intro\n\n{link}", "docs/guide.md": "# The guide\n\nText."})
    assert f'href="{href}"' in pages["docs/intro.md"].body_html
    if link.startswith("[]"):
        assert f'href="{href}">The guide</a>' in pages["docs/intro.md"].body_html


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
