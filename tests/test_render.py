"""Rendering: the docs dialects through the site's templates; raw HTML sanitised, never leaked."""
import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.errors import ContentError


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


@pytest.mark.parametrize("markdown, present, absent", [
    ('!!! info "Read me"\n    Indented body.', '<p class="admonition-title">Read me</p>\n<p>Indented body.</p>', "<pre"),
    ("??? tip\n    Folded body.", '<aside class="admonition kind-tip" role="note">', "???"),
    ("/// warning | Careful\nBody.\n///", '<p class="admonition-title">Careful</p>', "///"),
    (":::caution\n\nBody.\n\n:::", '<p class="admonition-title">Caution</p>', ":::"),
    (":::info[Migration from `x`]\n\nBody.\n\n:::", '<p class="admonition-title">Migration from <code>x</code></p>', "["),
    ("```{versionadded} 2.1\nNew here.\n```", "New in version 2.1", "{versionadded}"),
    ("> \\[!WARNING]\n>\n> Escaped marker.", '<aside class="admonition kind-warning"', "[!"),
    ("## Setup {#install}\n\nText.", '<h2 id="install">Setup</h2>', "{#"),
    ("* **name**{ #name }: what it is", '<strong id="name">name</strong>: what it is', "{ #"),
    ("::: markdown.blockparser", "", "markdown.blockparser"),
    (":white_check_mark: yes, 10:30:00 a:b:c", "✅ yes, 10:30:00 a:b:c", ":white_check_mark:"),
    ("````{furo-demo}\n```{note}\nShown once.\n```\n+++\n.. note::\n\n   rST twin.\n````", "Shown once.", "rST twin"),
    ("```{toctree}\n:hidden:\nintro\n```", "", "intro"),
    ("% a comment\n(target)=\nVisible.", '<span id="target"></span>', "comment"),
    ("Term\n: Its meaning.", "<dt>Term</dt>\n<dd>Its meaning.</dd>", None),
    ("Fact[^n].\n\n[^n]: Source.", '<a href="#fnref1" class="footnote-backref"', None),
    # mkdocs-autorefs cross-references show their text; escaped brackets and indexing stay as written
    ("Inherit [`markdown.Markdown`][markdown.Markdown], see the [API Reference][markdown] or [md.reset()][].",
     "Inherit <code>markdown.Markdown</code>, see the API Reference or md.reset().", "]["),
    ("Escaped \\[x\\]\\[y\\], arr[0][1] and ![alt][pic].", "Escaped [x][y], arr[0][1] and ![alt][pic].", None),
])
def test_each_dialect_renders_as_its_generator_would_show_it(write_content, markdown, present, absent):
    body = render(write_content, {"index.md": markdown})["index.md"].body_html
    assert present in body
    if absent:
        assert absent not in body


@pytest.mark.parametrize("markdown, present, absent", [
    ("import Tabs from '@theme/Tabs';\nimport TabItem from '@theme/TabItem'\n\nText.", "<p>Text.</p>", "import"),
    ("import {\n  A,\n  B,\n} from './parts';\n\nexport const meta = {\n  a: 1,\n};\n\nText.", "<p>Text.</p>", "parts"),
    ("## Heading\nimport X from 'x';\n\nText.", "<p>Text.</p>", "import"),
    ("import statements work only in ES modules.", "<p>import statements work only in ES modules.</p>", None),
    ("Kept {/* a note to editors */} here.", "<p>Kept  here.</p>", "editors"),
    ("{/* one\nover lines */}\n\nText.", "<p>Text.</p>", "over lines"),
    ("Write `{/* x */}` in MDX.", "<code>{/* x */}</code>", None),
    ("## Headings {/* #my-heading-id */}\n\nText.", '<h2 id="my-heading-id">Headings</h2>', "{"),
    ("```js\nimport fs from 'node:fs';\n{/* kept */}\n```", "import fs from 'node:fs';\n{/* kept */}", None),
    ('<Tabs>\n<TabItem value="❌ Incorrect">\n\nBad.\n\n</TabItem>\n<TabItem value="ok" label="✅ Correct">\n\nGood.\n\n'
     "</TabItem>\n</Tabs>", "<p>❌ Incorrect</p>", "ok"),
    ('<TabItem value="ok" label={"<b>x</b>"}>\n\nText.\n\n</TabItem>', "<p>&lt;b&gt;x&lt;/b&gt;</p>", "<b>"),
    ("<TypeScriptOverlap strict />\n\nText.", "<p>Text.</p>", "TypeScriptOverlap"),
])
def test_mdx_pages_show_what_the_docusaurus_site_shows(write_content, markdown, present, absent):
    body = render(write_content, {"index.mdx": markdown})["index.mdx"].body_html
    assert present in body
    if absent:
        assert absent not in body


def test_mdx_pages_are_linked_like_markdown_and_keep_their_line_numbers(write_content):
    pages = render(write_content, {"docs/intro.md": "# Intro\n\n[a](guide.mdx#x), [b](./guide), [c](guide.md)",
                                   "docs/guide.mdx": "import A from 'a';\n\n# The guide\n\nText."})
    assert pages["docs/guide.mdx"].path == "/docs/guide"
    assert all(f'href="{href}"' in pages["docs/intro.md"].body_html for href in ("/docs/guide#x", "/docs/guide"))
    folder = write_content({"index.mdx": "import {\n  A,\n} from 'a';\n{/* one\ntwo */}\nSee [[cite:]]."})
    with pytest.raises(ContentError) as caught:
        run(BuildConfig(folder))
    assert [(p.line, "malformed citation" in p.message) for p in caught.value.problems] == [(6, True)]


def test_roles_and_labels_link_to_the_pages_they_name(write_content):
    pages = render(write_content, {
        "docs/a.md": "# A\n\n{doc}`b` and {ref}`the part <part>` and {abbr}`USE (Universal Sentence Encoder)`.",
        "docs/b.md": "# Page B\n\n(part)=\n## Part\n\nText. [back](a.html)"})
    body = pages["docs/a.md"].body_html
    assert '<a href="/docs/b">Page B</a>' in body and '<a href="/docs/b#part">the part</a>' in body
    assert '<abbr title="Universal Sentence Encoder">USE</abbr>' in body
    assert 'href="/docs/a"' in pages["docs/b.md"].body_html
