"""Rendering: the docs dialects through the site's templates; raw HTML sanitised, never leaked."""
import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.errors import ContentError


def render(write_content, files):
    build = run(BuildConfig(write_content(files)))
    return {page.source.source: page for page in build.pages}


def assert_shown(body: str, present: str, absent: str | None) -> None:
    assert present in body
    if absent:
        assert absent not in body


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
    # an author's classes go, and so does the attribute they leave empty; words that say so stay words
    ('<div class="alert alert-info">\n\nSay class="" here.\n\n</div>', '<div>\n<p>Say class="" here.</p>',
     '<div class'),
])
def test_markdown_renders_safely_whatever_the_dialect(write_content, markdown, present, absent):
    page = render(write_content, {"index.md": markdown})["index.md"]
    assert present in page.body_html
    if absent:
        assert absent not in page.body_html


@pytest.mark.parametrize("name, markdown, title", [
    ("index.md", "Intro.\n\n# The Title\n\n## Later\n\nText.", "The Title"),
    ("docs/guide.md", "## Examples\n\nBody only.", "Guide"),
    # conventional-changelog: patch releases are h2s, minor releases h1s; none of them is the title
    ("CHANGELOG.md", "## [7.8.1](x) (2023-04-26)\n\nFixes.\n\n# [7.8.0](x) (2022-12-15)\n\nFeatures.", "Changelog"),
])
def test_title_is_the_h1_a_page_opens_with_else_the_file_name(write_content, name, markdown, title):
    assert render(write_content, {name: markdown})[name].title == title


def test_links_to_markdown_files_are_rewritten_to_page_paths(write_content):
    pages = render(write_content, {"index.md": "# The Title\n\nSee [guide](docs/guide.md#part).",
                                   "docs/guide.md": "## Examples\n\nBody only."})
    assert 'href="/docs/guide#part"' in pages["index.md"].html


def test_a_link_climbing_past_the_folders_root_stays_at_the_root(write_content):
    """Sphinx reads :doc:`../topics/x` on a top-level page as topics/x, and a browser clamps ../ at /."""
    pages = render(write_content, {"guide.md": "Now in {doc}`../topics/cache` and [there](../../topics/cache.md).",
                                   "topics/cache.md": "# Caching\n\nText."})
    assert '<a href="/topics/cache">Caching</a> and <a href="/topics/cache">there</a>' in pages["guide.md"].body_html


@pytest.mark.parametrize("heading, expected", [
    ("What's new?", "whats-new"), ("`fs.readFile(path[, options])`", "fsreadfilepath-options"),
    ("Step 1 — install", "step-1--install"), ("Установка и настройка", "установка-и-настройка"),
    ("インストール方法", "インストール方法"), ("snake_case names", "snake_case-names"), ("!!!", "section"),
])
def test_a_heading_gets_the_id_github_would_give_it(write_content, heading, expected):
    pages = render(write_content, {"a.md": f"# A\n\n## {heading}\n\nText.\n\n## {heading}\n\nMore.\n"})
    assert f'id="{expected}"' in pages["a.md"].body_html and f'id="{expected}-1"' in pages["a.md"].body_html


@pytest.mark.parametrize("link, href", [
    # Node.js's doc tool names the second "process.exitCode" processexitcode_1, GitHub processexitcode-1
    ("[a](#processexitcode_1)", "#processexitcode-1"), ("[a](#processexitcode)", "#processexitcode"),
    ("[a](guide.md#Event-Close)", "/docs/guide#event-close"),      # MkDocs' or a hand-written slug
    ('<a href="guide.html#event_close">a</a>', "/docs/guide#event-close"),
    ("[a](guide.md#legacy)", "/docs/guide#legacy"),                 # an <a id> of the page's raw HTML
    ("[a](guide.md#nowhere)", "/docs/guide#nowhere"), ("[a](#nowhere)", "#nowhere"),
])
def test_a_link_to_an_anchor_another_generator_named_lands_on_that_heading(write_content, link, href):
    pages = render(write_content, {
        "docs/intro.md": f"# Intro\n\n{link}\n\n## `process.exit([code])`\n\nA.\n\n## `process.exitCode`\n\nB.\n",
        "docs/guide.md": "# The guide\n\n<a id=\"legacy\"></a>\n\n## Event: 'close'\n\nText.\n"})
    assert f'href="{href}"' in pages["docs/intro.md"].body_html


@pytest.mark.parametrize("link, href", [
    ("[a](guide.html)", "/docs/guide"), ("[a](./guide)", "/docs/guide"), ("[a](guide.md#x)", "/docs/guide#x"),
    ('<a href="guide.html#y">a</a>', "/docs/guide#y"), ("[a](/elsewhere)", "/elsewhere"),
    ("[a](missing.md)", "missing.md"), ("[](guide.md)", "/docs/guide"),
    # site-absolute links that name a page's file, and Hugo's {{< ref >}} paths from the folder's root
    ("[a](/docs/guide.md)", "/docs/guide"), ("[a](/docs/guide/)", "/docs/guide"), ("[a](docs/guide.md#x)", "/docs/guide#x"),
    ('[a]({{< ref "docs/guide.md" >}})', "/docs/guide"), ("[a](/api/chat)", "/api/chat"),
])
def test_links_to_pages_work_as_a_reader_expects(write_content, link, href):
    pages = render(write_content, {"docs/intro.md": f"# Intro\n\n{link}", "docs/guide.md": "# The guide\n\nText."})
    assert f'href="{href}"' in pages["docs/intro.md"].body_html
    if link.startswith("[]"):
        assert f'href="{href}">The guide</a>' in pages["docs/intro.md"].body_html


@pytest.mark.parametrize("link, shown", [
    ("[](#event-close)", '<a href="#event-close">Event: \'close\'</a>'),
    ("[](guide.md#setup)", '<a href="/docs/guide#setup">Setting up</a>'),
    ("[](guide.md#nowhere)", '<a href="/docs/guide#nowhere">The guide</a>'),
])
def test_a_link_without_words_shows_the_section_it_points_at(write_content, link, shown):
    pages = render(write_content, {"docs/intro.md": f"# Intro\n\nSee {link}.\n\n## Event: 'close'\n\nA.\n",
                                   "docs/guide.md": "# The guide\n\n## Setting up {#setup}\n\nText."})
    assert shown in pages["docs/intro.md"].body_html


@pytest.mark.parametrize("index", [
    "# Home\n\n## Guides\n\n```{toctree}\n:maxdepth: 1\n\nguide\nThe API <api>\ntopics/*\n```\n",
    "Home\n====\n\nGuides\n------\n\n.. toctree::\n   :maxdepth: 1\n\n   guide\n   The API <api>\n   topics/*\n",
])
def test_a_visible_toctree_lists_its_pages_as_sphinx_shows_them(write_content, index):
    name = "index.md" if index.startswith("#") else "index.rst"
    pages = render(write_content, {name: index, "guide.md": "# The guide\n\nText.", "api.md": "# API\n\nText."})
    body = pages[name].body_html
    assert '<a href="/guide">The guide</a>' in body and '<a href="/api">The API</a>' in body
    assert "topics/*" not in body


@pytest.mark.parametrize("name, text", [
    ("index.rst", "Filters\n=======\n\nBefore.\n\n.. jinja:filters:: jinja2.defaults.DEFAULT_FILTERS\n\nAfter.\n"),
    ("index.md", "# Filters\n\nBefore.\n\n```{jinja:filters} jinja2.defaults.DEFAULT_FILTERS\n```\n\nAfter.\n"),
    # what a service serves: the video's id is no words for the reader
    ("index.md", "# Filters\n\nBefore.\n\n```{youtube} 2Z7wDaYt53Y_DEFAULT_FILTERS\n```\n\nAfter.\n"),
    ("index.rst", "Filters\n=======\n\nBefore.\n\n.. youtube:: 2Z7wDaYt53Y_DEFAULT_FILTERS\n\nAfter.\n"),
])
def test_an_extensions_directive_that_lists_what_it_finds_in_code_shows_nothing(write_content, name, text):
    body = render(write_content, {name: text})[name].body_html
    assert "<p>Before.</p>" in body and "<p>After.</p>" in body and "DEFAULT_FILTERS" not in body


@pytest.mark.parametrize("name, text, shown", [
    # a domain's object description still shows its signature, and an extension's directive its words
    ("index.rst", "API\n===\n\n.. py:function:: jinja2.select_autoescape\n", "select_autoescape"),
    ("index.md", "# API\n\n```{click:note} jinja2.Environment\nWords of the author.\n```\n", "Words of the author."),
    ("index.md", "# API\n\n```{toggle}\n:::{note} This note is toggled!\n:::\n```\n", "This note is toggled!"),
    ("index.md", "# API\n\n```{unheard-of} Step 2\n```\n", "Step 2"),      # words, not an id
])
def test_an_object_or_an_extensions_directive_with_words_still_shows(write_content, name, text, shown):
    assert shown in render(write_content, {name: text})[name].body_html


def test_a_hidden_toctree_shows_nothing(write_content):
    pages = render(write_content, {"index.md": "# Home\n\n```{toctree}\n:hidden:\n\nguide\n```\n",
                                   "guide.md": "# The guide\n\nText."})
    assert "<ul>" not in pages["index.md"].body_html and "guide" not in pages["index.md"].body_html


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
    # one tab of a set: its title is the tab's label
    ("/// tab | Checks tab\nThe checks.\n///", '<p class="tab-label">Checks tab</p>\n<p>The checks.</p>', "///"),
    ("::::{tab-set}\n:::{tab-item} Label A\nText A.\n:::\n::::", '<p class="tab-label">Label A</p>\n<p>Text A.</p>', ":::"),
    ("```{group-tab} Bash\nRun it.\n```", '<p class="tab-label">Bash</p>\n<p>Run it.</p>', "{group-tab}"),
    # an image or a figure shows its picture (a figure its caption under it), as Sphinx does
    ("```{image} https://example.org/flow.png\n:alt: The flow\n```", '<img src="https://example.org/flow.png" alt="The flow">',
     "{image}"),
    ("```{figure} https://example.org/flow.png\nThe flow.\n```",
     '<p><img src="https://example.org/flow.png" alt=""></p>\n<p>The flow.</p>', "https://example.org/flow.png</p>"),
    ("```{code-tab} py\nprint(1)\n```", '<pre><code class="language-py">print(1)', "<p>py</p>"),
    (":::caution\n\nBody.\n\n:::", '<p class="admonition-title">Caution</p>', ":::"),
    (":::info[Migration from `x`]\n\nBody.\n\n:::", '<p class="admonition-title">Migration from <code>x</code></p>', "["),
    ("```{versionadded} 2.1\nNew here.\n```", "New in version 2.1", "{versionadded}"),
    ("```{versionremoved} 9.1\n```", "Removed in version 9.1", "<p>9.1</p>"),   # Sphinx 7.3's, bare as pytest writes it
    ("```{version-added} 7.10\n```", "New in version 7.10", "<p>7.10</p>"),    # Sphinx 9's name for it
    ("> \\[!WARNING]\n>\n> Escaped marker.", '<aside class="admonition kind-warning"', "[!"),
    ("## Setup {#install}\n\nText.", '<h2 id="install">Setup</h2>', "{#"),
    ("# 6.0 Migration Notes {: #\\6.0}\n\nText.", '<h1 id="6.0">6.0 Migration Notes</h1>', "{:"),   # pymdown's own
    ("* **name**{ #name }: what it is", '<strong id="name">name</strong>: what it is', "{ #"),
    ("See [the guide](guide.md){.internal-link target=\\_blank} now.", '<a href="guide.md">the guide</a> now.', "{."),
    ("[x](y){: #here .big data-x=\"a b\" rel='me' }", '<a href="y" id="here">x</a>', "{:"),
    ("Set {key=value} in a sentence.", "Set {key=value} in a sentence.", None),      # not after an element: text
    ("Label `bug`{ .label .bug } and `x`{#x} here.", 'Label <code>bug</code> and <code id="x">x</code> here.', "{"),
    ('A [span]{style="color: magenta"} of words.', "A span of words.", "{"),
    ("::: markdown.blockparser", "", "markdown.blockparser"),
    # mkdocstrings and mkdocs-click hold only the lines indented under them, not the rest of the page
    ("::: markdown.Markdown\n    options:\n      show_root_heading: true\n\nAfter it.\n\n:::note\nA note.\n:::",
     '<p>After it.</p>\n<aside class="admonition kind-note"', "show_root"),
    ("::: mkdocs-click\n    :module: hatch.cli\n    :command: hatch\nRight after.", "<p>Right after.</p>", "directive"),
    ("# ::: mkdocstrings\n    options:\n        show_submodules: true\n\nText.", "<p>Text.</p>", ":::"),
    ("## ::: not an autodoc heading", ">::: not an autodoc heading</h2>", None),
    (":white_check_mark: yes, 10:30:00 a:b:c", "✅ yes, 10:30:00 a:b:c", ":white_check_mark:"),
    ("````{furo-demo}\n```{note}\nShown once.\n```\n+++\n.. note::\n\n   rST twin.\n````", "Shown once.", "rST twin"),
    ("```{toctree}\n:hidden:\nintro\n```", "", "intro"),
    # towncrier's draft entries are made of files outside the docs: nothing of the directive shows
    ("Before.\n\n```{towncrier-draft-entries}\nmain\n```\n\nAfter.", "<p>Before.</p>\n<p>After.</p>", "main"),
    ("See them all:\n\n```{program-output} blackd --help\n\n```", '<code class="language-console">$ blackd --help\n',
     "<p>blackd"),
    # a directive of shell commands (pip's `{pip-cli}`) is a console block, not lines run into one paragraph
    ("```{pip-cli}\n$ pip download x --no-binary :all:\n$ pip install x.tar.gz\n```",
     '<code class="language-console">$ pip download x --no-binary :all:\n$ pip install x.tar.gz\n', "<p>$"),
    ("```{tab} Unix\nRun $ make in words.\n```", "<p>Run $ make in words.</p>", "<pre"),
    # a directive of Python code (Click's `click:example`, `click:run`) is a code block, not sentences;
    # named like an admonition, an extension's directive is no "Example" box
    ("```{click:example}\n@click.command()\ndef hello():\n    click.echo('.' * 3)\n```",
     "<pre><code class=\"language-python\">@click.command()\ndef hello():\n    click.echo('.' * 3)\n", "<p>@click"),
    ("```{eval-rst}\n.. click:example::\n    if __name__ == '__main__':\n        hello()\n\n"
     ".. click:run::\n    invoke(hello, args=['--help'])\n```",
     "<code class=\"language-python\">invoke(hello, args=['--help'])\n", "Example"),
    ("```{tab} Install (Linux)\nWords.\n```", '<p class="tab-label">Install (Linux)</p>', "<pre"),
    # a diagram's source is shown as code, never as sentences (structlog's, in MyST and rST alike)
    ("```{mermaid}\n:align: center\n\nflowchart TD\n    A --> |calls| B\n```",
     '<code class="language-mermaid">flowchart TD\n    A --&gt; |calls| B\n', "<p>flowchart"),
    ("```{eval-rst}\n.. graphviz::\n\n   digraph { a -> b }\n```", '<code class="language-graphviz">digraph', "<p>digraph"),
    # Sphinx shows `~a.b.c` as `c`, `!x` as `x` and a function with its parentheses
    ("The {attr}`~Context.params` of {class}`!Choice[str]`, see {func}`click.echo`.",
     "The <code>params</code> of <code>Choice[str]</code>, see <code>click.echo()</code>.", "~"),
    # another project's object, section or page (intersphinx) shows without the inventory's name;
    # a C++ name keeps its colons
    ("A {class}`python:ValueError` or {exc}`~python:os.error`; see {ref}`python:implementations`, "
     "{doc}`twisted:core/howto/defer-intro`, {envvar}`python:PYTHONWARNINGS`, {term}`python:iterable` "
     "and {cpp:class}`std::vector`.",
     "A <code>ValueError</code> or <code>error</code>; see implementations, core/howto/defer-intro, "
     "<code>PYTHONWARNINGS</code>, iterable and std::vector.", "python:"),
    # MyST's {eval-rst}: its body read as reStructuredText
    ("```{eval-rst}\n.. note::\n\n   Read as **rst**.\n\n.. pip-options-list::\n```\n\nAfter.",
     '<p class="admonition-title">Note</p>\n<p>Read as <strong>rst</strong>.</p>\n</aside>', ".. "),
    ("In {file}`C:\\\\ProgramData\\\\pip.ini` run {samp}`pip install \\{name\\}`.",
     "In <code>C:\\ProgramData\\pip.ini</code> run <code>pip install {name}</code>.", "\\\\"),
    ("Use a {pep}`263` comment, {rfc}`the header <9110#section-8>`.",
     '<a href="https://peps.python.org/pep-0263/">PEP 263</a> comment, '
     '<a href="https://datatracker.ietf.org/doc/html/rfc9110.html#section-8">the header</a>.', "{pep}"),
    ("% a comment\n(target)=\nVisible.", '<span id="target"></span>', "comment"),
    ("Term\n: Its meaning.", "<dt>Term</dt>\n<dd>Its meaning.</dd>", None),
    ("Fact[^n].\n\n[^n]: Source.", '<a href="#fnref1" class="footnote-backref"', None),
    # mkdocs-autorefs cross-references show their text; escaped brackets and indexing stay as written
    ("Inherit [`markdown.Markdown`][markdown.Markdown], see the [API Reference][markdown] or [md.reset()][].",
     "Inherit <code>markdown.Markdown</code>, see the API Reference or md.reset().", "]["),
    ("Escaped \\[x\\]\\[y\\], arr[0][1] and ![alt][pic].", "Escaped [x][y], arr[0][1] and ![alt][pic].", None),
])
def test_each_dialect_renders_as_its_generator_would_show_it(write_content, markdown, present, absent):
    assert_shown(render(write_content, {"index.md": markdown})["index.md"].body_html, present, absent)


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
     "</TabItem>\n</Tabs>", '<p class="tab-label">❌ Incorrect</p>', "ok"),
    ('<TabItem value="ok" label={"<b>x</b>"}>\n\nText.\n\n</TabItem>', ">&lt;b&gt;x&lt;/b&gt;</p>", "<b>"),
    ('<TabItem value="Bad">\n```ts\nconst a = 1;\n```\n</TabItem>', '<code class="language-ts">const a = 1;', "```"),
    ("<TypeScriptOverlap strict />\n\nText.", "<p>Text.</p>", "TypeScriptOverlap"),
    # MDX has no indented code: indented text is text, and an indented fence under a line of text is code
    ("<Note>\n\n    Indented inside a component, still prose.\n\n</Note>", "<p>Indented inside a component, still prose.</p>",
     "<pre>"),
    ("Example:\n    ```python\n    from x import y\n    ```\n\nAfter.",
     '<p>Example:</p>\n<pre><code class="language-python">from x import y\n</code></pre>', "```"),
    ("- An item:\n      ```sh\n      npm i x\n      ```", '<li>An item:<pre><code class="language-sh">npm i x',
     "```"),
    ("<Tab>\n    Run it:\n\n    ```sh\n    npm i x\n    ```\n</Tab>", '<p>Run it:</p>\n<pre><code class="language-sh">npm i x',
     "```"),
    # an HTML element written as JSX, with a {…} value, on its line(s): nothing; one in HTML's own syntax is HTML
    ('<video src="/demo.mp4" autoPlay loop muted style={{width:"100%", borderRadius:"8px"}} />\n\nText.',
     "<p>Text.</p>", "video"),
    ('<video\n  src="/demo.mp4"\n  style={{ width: "100%" }}\n/>\n\nText.', "<p>Text.</p>", "width"),
    ('<img src={logo} alt="Logo" />\n\nText.', "<p>Text.</p>", "logo"),
    ('<div align="center">\n\nCentred.\n\n</div>', "<p>Centred.</p>", "align"),
    # a component's body with blank lines inside it (Mintlify's snippets)
    ("export const Frame = ({ src }) => {\n  const [url] = React.useState(null);\n\n  if (!url) {\n"
     "    return <div style={{ width: \"100%\" }} />;\n  }\n\n  return <iframe src={url} />;\n};\n\nText.",
     "<p>Text.</p>", "useState"),
])
def test_mdx_pages_show_what_the_docusaurus_site_shows(write_content, markdown, present, absent):
    assert_shown(render(write_content, {"index.mdx": markdown})["index.mdx"].body_html, present, absent)


@pytest.mark.parametrize("markdown, present, absent", [
    # MkDocs Material content tabs: the label shows, the indented body is markdown, not code
    ('=== "Python"\n\n    Install it with **pip**.\n\n=== "Node"\n\n    Install it with npm.\n\nAfter.',
     '<p class="tab-label">Python</p>\n<p>Install it with <strong>pip</strong>.</p>', "<pre>"),
    ('=== "Shell"\n\n    ```sh\n    pip install x\n    ```\n\n    Then run it.',
     '<code class="language-sh">pip install x\n</code></pre>\n<p>Then run it.</p>', "==="),
    ('!!! note\n\n    === "A"\n\n        Nested body.', "<p>Nested body.</p>", "<pre>"),
    ('=== "Tabbed"\n\n\tIndented with a tab character.', "<p>Indented with a tab character.</p>", "<pre>"),
    # tabs inside a blockquote (griffe's `> TIP:` callouts): the quote's marks come before the indentation
    ('> Hint.\n>\n> === "before"\n>     ```python\n>     greet(1)\n>\n>     greet(2)\n>     ```\n>\n>     Words.\n\nOut.',
     '<p class="tab-label">before</p>\n<pre><code class="language-python">greet(1)\n\ngreet(2)\n</code></pre>\n'
     '<p>Words.</p>\n</blockquote>\n<p>Out.</p>', "==="),
    ('```md\n=== "Tab"\n    Kept as code.\n{% include "x" %}\n```', '=== "Tab"\n    Kept as code.\n{% include', None),
    # VuePress tabs and VitePress containers: labels and titles show, bodies are markdown
    ("::: tabs#install\n\n@tab:active pypi\n\n```bash\npip install x\n```\n\n@tab git\n\nFrom the repository.\n\n:::",
     '<p class="tab-label">pypi</p>\n<pre><code class="language-bash">pip install x\n</code></pre>\n'
     '<p class="tab-label">git</p>\n<p>From the repository.</p>', "@tab"),
    ("::: details Use uv to manage dependencies\nRun `uv sync` first.\n:::",
     "<p>Use uv to manage dependencies</p>\n<p>Run <code>uv sync</code> first.</p>", ":::"),
    # template tags only the generator fills in
    ('{% include "footer.md" %}\n\nText.', "<p>Text.</p>", "footer"),
    ("{{< youtube w7Ft2ymGmfc >}}\n\nText.", "<p>Text.</p>", "youtube"),
    # Hugo's own figure: the image (media.py publishes it when the folder has it) and its caption
    ('{{< figure src="flow.png" caption="How the water flows" >}}',
     '<p><img src="flow.png" alt="How the water flows"> How the water flows</p>', "figure"),
    ("{{< figure title='Frost' src='a b.png' alt='Frost on leaves' >}}",
     '<p><img src="a%20b.png" alt="Frost on leaves"> Frost</p>', "{{<"),
    ("{{#include ../listings/main.rs}}\n\nText.", "<p>Text.</p>", "include"),
    ('--8<-- "includes/abbreviations.md"\n\nText.', "<p>Text.</p>", "8&lt;"),
    ("--8<--\na.md\nb.md\n--8<--\n\nText.", "<p>Text.</p>", "a.md"),
    # markdown-include: a line, and a code block holding only include lines, are filled from other files
    ("{!../README.md!}\n\nText.", "<p>Text.</p>", "README"),
    ('```Python hl_lines="3"\n{!../../../docs_src/first_steps/tutorial001.py!}\n```\n\nText.', "<p>Text.</p>", "<pre"),
    ('```python\n--8<-- "app.py"\n```\n\nText.', "<p>Text.</p>", "<pre"),
    ("```\n{!x.py!}\nprint(2)\n```", "<pre><code>{!x.py!}\nprint(2)", None),     # code beside it: shown as written
    ("{{ macros_info() }}\n\nText.", "<p>Text.</p>", "macros"),
    ("Use `{% include %}` in a template.", "<code>{% include %}</code>", None),
    ("The version is {{ config.version }}.", "<p>The version is {{ config.version }}.</p>", None),
    # callouts drawn as admonitions
    ('{% hint style="danger" %}\nNever do this.\n{% endhint %}', '<aside class="admonition kind-danger"', "hint"),
    ("{{< notice warning >}}\nMind the gap.\n{{< /notice >}}", '<p class="admonition-title">Warning</p>', "notice"),
    ('{{% notice style="tip" title="Pro tip" %}}\nUse it.\n{{% /notice %}}', '<p class="admonition-title">Pro tip</p>',
     "notice"),
    ("{{< hint >}}\nNo closing tag anywhere.", "<p>No closing tag anywhere.</p>", "<aside"),
    ('{% tabs %}\n{% tab title="Python" %}\nPython body.\n{% endtab %}\n{% endtabs %}',
     '<p class="tab-label">Python</p>\n<p>Python body.</p>', "endtab"),
    ("{% highlight ruby %}\ndef x = 1 # {{ not a tag }}\n{% endhighlight %}", '<code class="language-ruby">def x = 1 # {{',
     "highlight"),
    ('{{< highlight go "linenos=table" >}}\nfunc main() {}\n{{< /highlight >}}', '<code class="language-go">func main',
     "highlight"),
    ('See [the guide]({{< ref "guide.md" >}}).', 'href="/guide"', "{{"),
    # markers that produce nothing
    ("[TOC]\n\nText.", "<p>Text.</p>", "TOC"),
    ("[[toc]]\n\nText.", "<p>Text.</p>", "toc"),
    ("# Indices and tables\n\n- {ref}`genindex`\n- {ref}`modindex`\n* {ref}`search`\n\nText.",
     "<h1 id=\"indices-and-tables\">Indices and tables</h1>\n<p>Text.</p>", "index"),
    ("- {ref}`search` for the {ref}`genindex` words.\n- {ref}`Search <search>`", "for the genindex words.", None),
    ("Text about HTML.\n\n*[HTML]: Hyper Text Markup Language", "<p>Text about HTML.</p>", "Hyper"),
    ("A lead paragraph.\n{: .lead }", "<p>A lead paragraph.</p>", "lead }"),
    # inline marks, tasks, callouts with titles, icons
    ("Some ==marked words== here, a==b stays.", "<mark>marked words</mark> here, a==b stays.", None),
    ("- [x] Done.\n- [ ] Open.", '<li class="task task-done">Done.</li>\n<li class="task">Open.</li>', "[x]"),
    ("> [!warning] Symlinks\n> Are followed.", '<p class="admonition-title">Symlinks</p>', "[!"),
    ("> [!danger]- Folded\n> Body.", '<aside class="admonition kind-danger"', "[!"),
    (":material-check: Supported :octicons-mark-github-16:", "<p> Supported </p>", "material"),
    ("- :material-lock:{ .lg .middle } __Environments__ :rocket:{ .big } :nope:{ .x }",
     "<li> <strong>Environments</strong> 🚀 :nope:{ .x }</li>", ".lg"),
    ("[:octicons-file-code-24:][_mark]{: .source-link }\n\nText.", "<p>Text.</p>", "source-link"),
    # md_in_html: the lines after a tag with a markdown attribute are markdown
    ('<figure markdown>\n  ![A demo](demo.gif){ loading=lazy role="img" }\n</figure>', 'alt="A demo"', "![A demo]"),
    ('<blockquote markdown="1">\nWithout **FastAPI** nothing.\n</blockquote>', "Without <strong>FastAPI</strong>", "**"),
    ('<div class="grid cards" markdown>\n- **One** card\n</div>', "<li><strong>One</strong> card</li>", "markdown"),
    ('<div markdown="0">\n*as written*\n</div>', "*as written*", None),
    ('[![Status](https://x.test/b.svg){ loading=lazy .off-glb }](https://x.test/) and ![Logo](l.png){ width="200" }',
     'alt="Logo"', "{"),
    # Obsidian wikilinks and embeds
    ("See [[guide]] and [[guide#Setup|the guide]].", '<a href="/guide">guide</a> and <a href="/guide">the guide</a>',
     "[["),
    ("[[Nowhere]] stays words, ![[Some note]] is gone.", "<p>Nowhere stays words,  is gone.</p>", "Some"),
    # an embedded image the folder lacks keeps its name (test_media.py: one it holds is published)
    ("See ![[pic.png]] here.", '<p>See <img src="pic.png" alt="pic"> here.</p>', "[["),
])
def test_site_generators_syntax_shows_what_their_sites_show(write_content, markdown, present, absent):
    assert_shown(render(write_content, {"index.md": markdown, "guide.md": "# Guide"})["index.md"].body_html, present, absent)


def test_a_wikilink_finds_its_page_by_file_name_in_any_folder_unless_two_share_it(write_content):
    pages = render(write_content, {"index.md": "[[Deep note]] and [[Twin]].", "a/Deep note.md": "# Deep",
                                   "a/Twin.md": "# A", "b/twin.md": "# B"})
    assert '<a href="/a/deep-note">Deep note</a> and Twin.' in pages["index.md"].body_html


def test_generator_syntax_keeps_line_numbers_and_is_named_in_warnings(write_content):
    folder = write_content({"index.md": '=== "A"\n\n    Body.\n\n{% include "x" %}\n{{< y >}}\n*[A]: a\n'
                                        "{{ page.title }} is here.\nSee [[cite:]].",
                            "_part.md": "Included elsewhere."})
    with pytest.raises(ContentError) as caught:
        run(BuildConfig(folder))
    assert [(p.line, "malformed citation" in p.message) for p in caught.value.problems] == [(9, True)]
    (folder / "index.md").write_text('{% include "x" %}\n{{< y >}}\n\n{{ page.title }} is here.', "utf-8")
    build = run(BuildConfig(folder))
    assert build.warnings == [
        "partials not published as pages (names or folders starting with _): _part.md",
        "template tags only the site generator can fill in, not shown: {% include %} (index.md); {{< y >}} (index.md)",
        "template expressions shown as written: {{ page.title }} (index.md)"]
    assert [p.source.source for p in build.pages if p.source.source] == ["index.md"]


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
        "docs/a.md": "# A\n\n{doc}`b` and {ref}`the part <part>` and {abbr}`USE (Universal Sentence Encoder)`. "
                     "See [the policy](labels/policy.v2), {ref}`part` and {ref}`note`.",
        "docs/b.md": "# Page B\n\n(part)=\n## Part\n\n(labels/policy.v2)=\n## Policy\n\nText. [back](a.html)\n\n"
                     "(note)=\nA note.\n\n## Later"})
    body = pages["docs/a.md"].body_html
    assert '<a href="/docs/b">Page B</a>' in body and '<a href="/docs/b#part">the part</a>' in body
    assert '<a href="/docs/b#labels/policy.v2">the policy</a>' in body       # a label with / and . (Black's)
    assert '<a href="/docs/b#part">Part</a>' in body and '<a href="/docs/b#note">note</a>' in body  # a heading's title
    assert '<abbr title="Universal Sentence Encoder">USE</abbr>' in body
    assert 'href="/docs/a"' in pages["docs/b.md"].body_html


@pytest.mark.parametrize("markdown, present, absent", [
    # a callout is the admonition of its kind, titled by its title or by the heading that opens it
    ('::: {.callout-warning title="Careful"}\nDo not mix `mask=` with `rows`.\n:::\n\nAfter.',
     '<aside class="admonition kind-warning" role="note">\n<p class="admonition-title">Careful</p>', ":::"),
    ("::: {.callout-tip collapse=\"false\"}\n## Use a mask\n\nIt is faster.\n:::",
     '<p class="admonition-title">Use a mask</p>\n<p>It is faster.</p>', "<h2"),
    ("::: {.callout-note}\nPlain.\n:::", '<p class="admonition-title">Note</p>\n<p>Plain.</p>', None),
    ("::: {.callout-caution title='Single quotes'}\nText.\n:::", '<p class="admonition-title">Single quotes</p>', None),
    # a layout div shows what it holds, nested divs closing innermost first
    ("::: {.grid}\n\n::: {.g-col-6}\nLeft side.\n:::\n\n::: {.g-col-6}\nRight side.\n:::\n\n:::\n\nAfter the grid.",
     "<p>Right side.</p>\n</div>\n</div>\n<p>After the grid.</p>", ":::"),
    ("::: {#fig-plot}\nA figure caption.\n:::\n\n```\n:::\n```", "<p>A figure caption.</p>", None),
    # an executable cell is code in its language, without the options its generator reads
    ("```{python}\n#| echo: false\n#| label: fig-x\nimport polars as pl\n```", '<code class="language-python">import polars',
     "echo"),
    ("```{r}\nsummary(cars)\n```", '<code class="language-r">summary(cars)', None),
    # quartodoc's interlinks: a name written `~~GT.show()` shows as "show()"; a link to an object is its text
    ("See [`fmt()`](`gt.GT.fmt`), the [](`~gt.data.metro`) set and [](`gt.GT`).",
     "See <code>fmt()</code>, the <code>metro</code> set and <code>gt.GT</code>.", "%60"),
    ("Call `~~GT.show()` or `~~.great_tables.GT.save()`, not `~x`.", "<code>show()</code> or <code>.save()</code>, not <code>~x</code>",
     "~~"),
])
@pytest.mark.parametrize("name", ["index.qmd", "index.Rmd"])
def test_quarto_pages_show_what_quartos_site_shows(write_content, markdown, present, absent, name):
    page = render(write_content, {name: "---\ntitle: Tables\n---\n\n" + markdown})[name]
    assert_shown(page.body_html, present, absent)


def test_indented_text_of_a_markdown_page_is_still_code(write_content):
    body = render(write_content, {"index.md": "Example:\n    ```python\n    x\n    ```\n\n    indented code\n"})
    assert "<pre><code>indented code" in body["index.md"].body_html


def test_containers_a_generator_shows_as_they_are_are_named_in_no_warning(write_content):
    build = run(BuildConfig(write_content({"index.md": "::: code-group\n```sh [npm]\nnpm i x\n```\n:::\n\n"
                                                       "::: tabs\n@tab A\nText.\n:::\n\n::: details More\nText.\n:::\n\n"
                                                       "::::{grid} 1 2 2 2\n:::{grid-item-card} Fast builds\nCached.\n:::\n"
                                                       "::::\n\n```{container} full-width\nWide.\n```\n"})))
    assert not any("directive" in warning for warning in build.warnings)
    texts = {passage.text for passage in build.passages}
    assert {"Fast builds", "Cached.", "Wide."} <= texts and not {"1 2 2 2", "full-width"} & texts


@pytest.mark.parametrize("name, page", [
    ("cards.md", "# Cards\n\n::::{card} Card Title\n:class-card: sd-border-0\nCard header.\n^^^\nCard body.\n+++\n"
                 "Card footer.\n::::\n\nAfter the card.\n"),
    ("cards.rst", "Cards\n=====\n\n.. grid::\n\n    .. grid-item-card:: Card Title\n\n        Card header.\n"
                  "        ^^^^^^^^^^^^\n        Card body.\n        ++++++++++++\n        Card footer.\n\n"
                  "After the card.\n"),
])
def test_a_cards_header_body_and_footer_are_sentences_of_their_own_without_their_marks(write_content, name, page):
    build = run(BuildConfig(write_content({name: page})))
    texts = [passage.text for passage in build.passages]
    assert texts == ["Cards", "Card Title", "Card header.", "Card body.", "Card footer.", "After the card."]
    assert not [w for w in build.warnings if "problems" in w]


@pytest.mark.parametrize("name, page", [
    ("tests.md", "# Tests\n\n```{testsetup} unions\nimport hidden\n```\n\n```{doctest} unions\n\n# As a union.\n"
                 ">>> convert(A(1))\n{'a': 1}\n```\n\n```{testcode} unions\nprint(3)\n```\n\n```{testoutput} unions\n3\n```\n\n"
                 "After the tests.\n"),
    ("tests.rst", "Tests\n=====\n\n.. testsetup:: unions\n\n   import hidden\n\n.. doctest:: unions\n\n   # As a union.\n"
                  "   >>> convert(A(1))\n   {'a': 1}\n\n.. testcode:: unions\n\n   print(3)\n\n.. testoutput:: unions\n\n   3\n\n"
                  "After the tests.\n"),
])
def test_doctest_blocks_are_code_in_their_language_whatever_group_they_name(write_content, name, page):
    build = run(BuildConfig(write_content({name: page})))
    html = next(p for p in build.pages if p.path == "/tests").body_html
    assert [passage.text for passage in build.passages] == ["Tests", "After the tests."]
    assert '<code class="language-pycon"># As a union.\n&gt;&gt;&gt; convert(A(1))' in html
    assert '<code class="language-python">print(3)' in html and '<code class="language-text">3' in html
    assert "hidden" not in html and "unions" not in html


def test_an_rst_code_tab_is_code_in_its_language_and_sphinx_9_version_notes_are_version_notes(write_content):
    page = ("Config\n======\n\n.. version-added:: 7.10 ``--save-signal``\n\n.. tabs::\n\n    .. code-tab:: ini\n"
            "        :caption: .coveragerc\n\n        [paths]\n        source =\n            src/\n\nAfter.\n")
    build = run(BuildConfig(write_content({"config.rst": page})))
    html = next(p for p in build.pages if p.path == "/config").body_html
    assert '<code class="language-ini">[paths]\nsource =\n    src/' in html
    assert '<p class="admonition-title">New in version 7.10</p>' in html
    assert not [w for w in build.warnings if "problems" in w or "shown as their text" in w]


@pytest.mark.parametrize("name, title", [("post.qmd", "Great Tables v0.12.0: zebra stripes"),
                                         ("post.md", "Great Tables `v0.12.0`: zebra stripes")])
def test_a_quarto_front_matter_title_shows_its_code_as_text(write_content, name, title):
    build = run(BuildConfig(write_content({name: '---\ntitle: "Great Tables `v0.12.0`: zebra stripes"\n---\n\nText.\n'})))
    page = next(p for p in build.pages if p.source.source == name)
    assert page.title == title and title in {passage.text for passage in build.passages}


def test_quarto_pages_are_published_and_named_in_no_warning(write_content):
    build = run(BuildConfig(write_content({"index.qmd": "---\ntitle: Home\n---\n\nSee [the guide](guide.qmd).\n",
                                           "guide.qmd": "---\ntitle: Guide\n---\n\n::: {.callout-note}\nRead.\n:::\n"})))
    assert {page.path for page in build.pages} >= {"/", "/guide"}
    assert 'href="/guide"' in next(p for p in build.pages if p.path == "/").body_html
    assert not any("does not read" in w or "directive" in w for w in build.warnings)


@pytest.mark.parametrize("markdown, present, absent", [
    ("```{list-table} Treats\n:header-rows: 1\n\n* - Treat\n  - Price\n* - Frog\n  - 1.49 each.\n```\n",
     "<thead>\n<tr>\n<th>Treat</th>\n<th>Price</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>Frog</td>\n<td>1.49 each.</td>",
     "<li>"),
    ("```{list-table}\n---\nheader-rows: 0\nstub-columns: 1\n---\n* - Frog\n  - Cheap.\n```\n",
     "<tbody>\n<tr>\n<th>Frog</th>\n<td>Cheap.</td>", "<thead>"),
    ("```{list-table}\n* - First cell.\n\n    Second paragraph.\n  - `x`\n```\n",
     "<td>\n<p>First cell.</p>\n<p>Second paragraph.</p>\n</td>\n<td><code>x</code></td>", "<li>"),
    ("````{list-table}\n* - Code:\n\n    ```py\n    x = 1\n    ```\n````\n", '<td>\n<p>Code:</p>\n<pre><code class="language-py">x = 1',
     "<li>"),
])
def test_a_myst_list_table_is_drawn_as_the_table_it_stands_for(write_content, markdown, present, absent):
    build = run(BuildConfig(write_content({"index.md": f"# Home\n\n{markdown}"})))
    assert_shown(build.pages[0].body_html, present, absent)
    assert not any("list-table" in warning for warning in build.warnings)


def test_a_list_table_that_is_not_a_list_of_lists_is_shown_as_its_text_with_a_warning(write_content):
    build = run(BuildConfig(write_content({"index.md": "# Home\n\n```{list-table}\nJust words.\n\n* - A\n```\n"})))
    assert "<p>Just words.</p>" in build.pages[0].body_html and "<table>" not in build.pages[0].body_html
    assert any("list-table" in warning for warning in build.warnings)


@pytest.mark.parametrize("name, source", [
    ("index.md", "# Terms\n\n```{glossary}\n:sorted:\n\nbuild\n  A release's first stage.\n\n  It renders pages.\n\n"
                 "gate\ncheck\n\n    What stops a release.\n```\n"),
    ("index.rst", "Terms\n=====\n\n.. glossary::\n\n   build\n      A release's first stage.\n\n      It renders pages.\n\n"
                  "   gate\n   check\n\n      What stops a release.\n"),
])
def test_a_glossary_is_a_definition_list_whose_terms_are_not_run_into_their_definitions(write_content, name, source):
    build = run(BuildConfig(write_content({name: source})))
    body = build.pages[0].body_html
    assert "<dt>build</dt>\n<dd>\n<p>A release's first stage.</p>\n<p>It renders pages.</p>\n</dd>" in body
    assert "<dt>gate, check</dt>" in body and "<p>What stops a release.</p>" in body
    assert {"build", "A release's first stage.", "What stops a release."} <= {p.text for p in build.passages}
    assert not any("glossary" in warning or "problems" in warning for warning in build.warnings)


@pytest.mark.parametrize("link, warned", [
    ("[a](missing.md)", "missing.md (index.md)"), ("[a](/docs/gone/)", "/docs/gone/ (index.md)"),
    ("[a](https//example.org)", "https//example.org (index.md)"),      # a scheme without its colon
    ("[a](guide.md)", None), ("[a](/chat)", None), ("[a](/api/mcp)", None), ("[a](#top)", None),
    ("[a](https://example.org)", None), ("[a](mailto:x@example.org)", None),
])
def test_a_link_to_no_page_of_the_site_is_named_in_a_warning(write_content, link, warned):
    build = run(BuildConfig(write_content({"index.md": f"# Home\n\n{link}\n", "guide.md": "# Guide\n\nText.\n"})))
    lines = [w for w in build.warnings if w.startswith("links to no page of this site")]
    assert (warned in lines[0]) if warned else not lines


@pytest.mark.parametrize("sphinx, shown", [
    (True, "<p>See JSON or <em>logfmt</em>, and <a href=\"gone.md\">this</a>.</p>"),
    (False, '<p>See <a href="pkg.mod.JSONRenderer">JSON</a> or <a href="logfmt-renderer"><em>logfmt</em></a>, '
            'and <a href="gone.md">this</a>.</p>'),
])
def test_a_sphinx_reference_no_page_answers_is_its_text_as_sphinx_shows_it(write_content, sphinx, shown):
    files = {"index.md": "# Home\n\nSee [JSON](pkg.mod.JSONRenderer) or [*logfmt*](logfmt-renderer), and [this](gone.md).\n"}
    if sphinx:
        files["conf.py"] = "project = 'x'\nextensions = ['myst_parser']\n"
    build = run(BuildConfig(write_content(files)))
    assert shown in next(p for p in build.pages if p.source.source == "index.md").body_html
    assert any("pkg.mod.JSONRenderer (index.md)" in warning for warning in build.warnings)


def test_a_markdown_file_named_from_the_repositorys_root_is_its_page(write_content):
    pages = render(write_content, {"intro.md": "# Intro\n\nSee [the API](/docs/api/client.md#options).\n",
                                   "api/client.md": "# Client\n\n## Options\n\nText.\n"}, )
    assert 'href="/api/client#options"' in pages["intro.md"].body_html
