"""Included files: what a page pulls in from other files is on the page, as its generator shows it."""
import re

import pytest
from trigsight.build import includes
from trigsight.build.builder import BuildConfig, run
from trigsight.errors import ContentError

SHARED = "Intro line.\n<!-- start -->\nThe shared sentence is on every page that includes it.\n<!-- end -->\nOutro line.\n"
CODE = "import os\n# ANCHOR: main\nprint(os.sep)\n# ANCHOR_END: main\n"
SECTIONED = "Before.\n--8<-- [start:usage]\nThe shared sentence is in a named section.\n--8<-- [end:usage]\nAfter.\n"


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


@pytest.mark.parametrize("markdown, shown, hidden", [
    # MyST / Sphinx, with the part between two markers
    ("```{include} parts/shared.md\n:start-after: <!-- start -->\n:end-before: <!-- end -->\n```",
     "The shared sentence is on every page", "Intro line"),
    # MyST option values are YAML: quoted markers (attrs quotes its '### …' so YAML reads no comment)
    ("```{include} parts/shared.md\n:start-after: '<!-- start -->'\n:end-before: \"<!-- end -->\"\n```",
     "The shared sentence is on every page", "Outro line"),
    ("```{include} parts/shared.md\n---\nstart-after: '<!-- start -->'\nend-before: <!-- end -->\n---\n```",
     "The shared sentence is on every page", "Intro line"),
    (":::{include} parts/shared.md\n:::", "Intro line. The shared sentence is on every page", "{include}"),
    ("```{literalinclude} parts/code.py\n:language: python\n```", "print(os.sep)", "literalinclude"),
    # pymdown snippets: a file, lines of it, a named section, the block form
    ('--8<-- "parts/shared.md"', "The shared sentence is on every page", "8<"),
    ('--8<-- "parts/shared.md:3:3"', "The shared sentence is on every page", "Intro line"),
    ('--8<-- "parts/sectioned.md:usage"', "The shared sentence is in a named section", "Before."),
    ("--8<--\nparts/shared.md\nparts/sectioned.md\n--8<--", "Outro line. Before.", "8<"),
    # markdown-include, also filling a code block
    ("{!parts/shared.md!}", "The shared sentence is on every page", "{!"),
    ("{!> parts/shared.md!}", "The shared sentence is on every page", "{!"),      # mdx_include, as FastAPI writes it
    ("```python\n{!parts/code.py!}\n```", "print(os.sep)", "{!"),
    # mkdocs-include-markdown, with start and end
    ('{% include-markdown "parts/shared.md" start="<!-- start -->" end="<!-- end -->" %}',
     "The shared sentence is on every page", "Intro line"),
    # in a content tab's indented body, the included lines stay indented: the tab and the text after it hold
    ('=== "Python"\n\n    ```python\n    {!> parts/code.py!}\n    ```\n\n=== "Other"\n\n    Other tab.',
     "print(os.sep)", "{!"),
    # MDX: a partial imported from a markdown file and used as a component
    ("import Shared from './parts/shared.md';\n\n<Shared />", "Intro line. The shared sentence is on every page",
     "Shared"),
    # a MyST include shown as an example inside a longer fence is code, not an include
    ("````md\n```{include} parts/shared.md\n```\n````", "{include} parts/shared.md", "The shared sentence"),
    # mdBook, an anchor of a file
    ("```python\n{{#include parts/code.py:main}}\n```", "print(os.sep)", "import os"),
    # Quarto's include shortcode
    ("{{< include parts/shared.md >}}", "Intro line. The shared sentence is on every page", "{{"),
])
def test_an_included_file_is_shown_where_the_page_includes_it(write_content, markdown, shown, hidden):
    folder = write_content({"page.md": f"# Page\n\nThe page's own sentence.\n\n{markdown}\n\nThe last sentence.\n",
                            "parts/shared.md": SHARED, "parts/code.py": CODE, "parts/sectioned.md": SECTIONED})
    built = run(BuildConfig(folder))
    html = next(p for p in built.pages if p.path == "/page").body_html
    page = text_of(html)
    assert shown in page and hidden not in page
    assert "<p>The last sentence.</p>" in html         # what follows is read as before, not swallowed
    assert page.index("The page's own sentence") < page.index(shown.split(".")[0]) < page.index("The last sentence")
    assert not [w for w in built.warnings if "include" in w]


@pytest.mark.parametrize("marker, docs, read", [
    ("pyproject.toml", "docs", True), ("package.json", "docs", True), (".git", "docs", True),
    (None, "docs", False), ("pyproject.toml", ".cache/docs", False)])     # not the project's own docs
def test_a_file_above_the_folder_is_read_only_inside_its_project(write_content, marker, docs, read):
    files = {f"{docs}/changelog.md": "# Changelog\n\n```{include} ../CHANGES.md\n```\n",
             "CHANGES.md": "## 2.0\n\nVersion 2.0 removed the legacy reader.\n",
             ".cache/CHANGES.md": "## 2.0\n\nVersion 2.0 removed the legacy reader.\n",
             f"{docs}/index.md": "# Home\n\n--8<-- \"../.env\"\n\n{!../.private/notes.md!}\n",
             ".env": "TOKEN=secret", ".private/notes.md": "A private note."}
    if marker:
        files[f"{marker}/HEAD" if marker == ".git" else marker] = "{}"
    project = write_content(files, "project")
    built = run(BuildConfig(project / docs))
    changelog = text_of(next(p for p in built.pages if p.path == "/changelog").body_html)
    home = text_of(next(p for p in built.pages if p.path == "/").body_html)
    assert ("Version 2.0 removed the legacy reader." in changelog) == read
    assert "secret" not in home and "private note" not in home        # hidden files are never read
    said = [w for w in built.warnings if w.startswith("included files read from outside")]
    assert said == (["included files read from outside the content folder: 1: ../CHANGES.md (changelog.md)"] if read else [])
    # what was not read is named at its file and line
    [unread] = [w for w in built.warnings if w.startswith("includes not read")]
    named = set(unread.split(": ", 2)[2].split("; "))
    assert named == {"index.md:3: ../.env", "index.md:5: ../.private/notes.md"} | (set() if read else {
        "changelog.md:3: ../CHANGES.md"})


def test_links_and_images_of_an_included_file_in_another_folder_still_reach_their_files(write_content):
    project = write_content({
        "pyproject.toml": "", "README.md": "# Proj\n\nSee [the guide](docs/guide.md#setup), ![logo](docs/img/logo.png), "
        "[notes](NOTES.md), [web](https://example.com) and [top](#proj).\n\n[ref]: docs/guide.md\n",
        "NOTES.md": "# Notes", "docs/index.md": "# Home\n\n```{include} ../README.md\n```\n",
        "docs/guide.md": "# Guide\n\n## Setup\n\nText.", "docs/img/logo.png": b"\x89PNG\r\n\x1a\n"}, "project")
    built = run(BuildConfig(project / "docs"))
    home = next(p for p in built.pages if p.path == "/").body_html
    assert 'href="/guide#setup"' in home and re.search(r'src="/static/logo\.[0-9a-f]+\.png"', home)
    assert 'href="https://example.com"' in home and 'href="#proj"' in home
    assert 'href="../NOTES.md"' in home         # a file outside the folder: named as from the page, not a page


@pytest.mark.parametrize("parser, markdown_read", [("myst_parser.sphinx_", True), ("myst", True), ("", False)])
def test_a_markdown_file_an_rst_page_includes_with_mysts_parser_is_read_as_markdown(write_content, parser,
                                                                                     markdown_read):
    option = f"\n   :parser: {parser}" if parser else ""
    project = write_content({
        "pyproject.toml": "", "SECURITY.md": "# Security\n\n> [!WARNING]\n> Do not file a public issue.\n\n"
                                             "Report it by **email**.\n",
        "docs/index.rst": "Home\n====\n\nText.\n", "docs/security.rst": f".. include:: ../SECURITY.md{option}\n"},
        "project")
    built = run(BuildConfig(project / "docs"))
    texts = {p.text for p in built.passages if p.page == "/security"}
    assert ({"Security", "Do not file a public issue.", "Report it by email."} <= texts) == markdown_read
    assert any("[!WARNING]" in text for text in texts) != markdown_read
    assert not [w for w in built.warnings if "reStructuredText problems" in w]


def test_includes_that_multiply_stop_at_the_pages_limit(write_content, monkeypatch):
    monkeypatch.setattr(includes, "MOST_BYTES_A_PAGE", 1_000_000)     # 20 MB in use; 1 MB keeps the test quick
    files = {"index.md": "# Home\n\n" + "{!_l1.md!}\n" * 10, "_l5.md": "```\n" + "x\n" * 5_000 + "```\n"}
    files.update({f"_l{n}.md": f"{{!_l{n + 1}.md!}}\n" * 10 for n in range(1, 5)})    # 10^5 copies unbounded
    built = run(BuildConfig(write_content(files)))
    home = next(p for p in built.pages if p.path == "/").body_html
    assert 450_000 <= home.count("x") <= 520_000        # about 1 MB of lines of x, not 10^5 copies of 10 kB


def test_includes_nest_and_a_cycle_stops(write_content):
    built = run(BuildConfig(write_content({
        "a.md": "# A\n\nFirst of A.\n\n{!b.md!}\n", "b.md": "Text of B.\n\n{!c.md!}\n", "c.md": "Text of C.\n\n{!a.md!}\n"})))
    page = text_of(next(p for p in built.pages if p.path == "/a").body_html)
    assert page.count("Text of B.") == 1 and page.count("Text of C.") == 1 and page.count("First of A.") == 1


@pytest.mark.parametrize("part", ["_parts/part.md", "parts/part.md"])     # a partial, or a page of its own too
def test_a_content_error_in_an_included_file_names_that_file_and_line_once(write_content, part):
    folder = write_content({"page.md": f"# Page\n\n{{!{part}!}}\n\nAfter. [[cite:nowhere]]\n",
                            "other.md": f"# Other\n\n--8<-- \"{part}\"\n", part: "One.\n\nTwo. [[cite:broken]]\n"})
    with pytest.raises(ContentError) as caught:
        run(BuildConfig(folder))
    where = sorted((p.path.replace(str(folder), ""), p.line) for p in caught.value.problems)
    assert where == sorted([("/page.md", 5), (f"/{part}", 3)])
