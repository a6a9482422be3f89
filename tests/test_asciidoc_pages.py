"""AsciiDoc pages: read as Asciidoctor draws them, their includes in place, never their markup in a sentence."""
import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.build.content import run as read_folder

INDEX = """\
= Demo Guide
Jane Doe <jane@example.com>
v1.2, 2026-01-01
:product: Demo
:url-home: https://example.com/demo

[[intro]]
== Introduction

{product} is a *small* tool for _testing_ with `demo run`. See <<install>> first,
then xref:guide/config.adoc#limits[the limits] and the link:https://example.com/[home page].
Its home is {url-home}[the project site].

NOTE: {product} needs Python 3.9 or newer.

[[install]]
== Installing it

Install it with pip:

[source,shell]
----
pip install demo
// not a comment inside code
----

. First step with `code`.
.. A nested step.
. Second step.
+
Its second paragraph.

Then choose the flags:

`--fast`::
`-f`::
    Skips the checks.
    They run again later.

--slow:: Waits longer.

[WARNING]
====
Never run it as root.
====

////
A comment block nobody sees.
////

// a comment line nobody sees

|===
|Name |Default

|timeout
|30 seconds
|retries
|3
|===

include::partials/footer.adoc[]
"""
CONFIG = """\
Configuration
=============

Limits
------

[[limits]]
The limit is ten requests per second.

  an indented literal line
  shown as code

[verse]
first line
second line
"""
FOOTER = """\
ifdef::product[]
The footer names {product} on every page.
endif::[]
ifndef::product[]
This line is never shown.
endif::[]
"""


@pytest.fixture
def guide(write_content):
    return write_content({"index.adoc": INDEX, "guide/config.adoc": CONFIG, "partials/footer.adoc": FOOTER})


def test_an_asciidoc_page_is_a_page_of_what_asciidoctor_shows(guide):
    built = run(BuildConfig(guide))
    html = {page.path: page.body_html for page in built.pages}
    index = html["/"]
    assert '<h1 id="demo-guide">Demo Guide</h1>' in index and "Jane Doe" not in index and "v1.2" not in index
    assert "<p>Demo is a <strong>small</strong> tool for <em>testing</em> with <code>demo run</code>." in index
    assert "See Installing it first" in index                                  # a section's title for <<install>>
    assert '<a href="/guide/config#limits">the limits</a>' in index
    assert '<a href="https://example.com/">home page</a>' in index
    assert '<a href="https://example.com/demo">the project site</a>' in index
    assert 'class="admonition kind-note"' in index and "Demo needs Python 3.9 or newer." in index
    assert '<code class="language-shell">pip install demo\n// not a comment inside code\n</code>' in index
    assert "First step with <code>code</code>." in index and "<li>A nested step.</li>" in index
    assert "<p>Its second paragraph.</p>" in index
    assert "<dt><code>--fast</code>, <code>-f</code></dt>" in index and "Skips the checks. They run again later." in index
    assert "<dt>--slow</dt>" in index and "Waits longer." in index
    assert 'class="admonition kind-warning"' in index and "Never run it as root." in index
    assert "<th>Name</th>" in index and "<td>30 seconds</td>" in index and "<td>retries</td>" in index
    assert "The footer names Demo on every page." in index and "never shown" not in index
    assert "comment" not in index.replace("not a comment inside code", "")
    config = html["/guide/config"]
    assert '<h1 id="configuration">Configuration</h1>' in config and '<h2 id="limits">Limits</h2>' in config
    assert "<pre><code>an indented literal line\nshown as code\n</code></pre>" in config
    assert "first line<br" in config and "second line" in config
    passages = [p.text for text in built.texts.values() for p in text.passages]
    assert not any(mark in text for text in passages for mark in ("{product}", "<<", "::", "[[", "ifdef", "----"))


def test_a_file_another_page_includes_is_part_of_it_not_a_page(guide):
    folder = read_folder(guide)
    assert sorted(page.source for page in folder.pages) == ["guide/config.adoc", "index.adoc"]
    assert folder.included == ["partials/footer.adoc"]
    assert any("AsciiDoc files other pages include" in line and "partials/footer.adoc" in line
               for line in folder.warnings)


@pytest.mark.parametrize("needle, file, line", [
    ("is a **small** tool", "index.adoc", 10),
    ("# Demo Guide", "index.adoc", 1),
    ("The footer names Demo", "partials/footer.adoc", 2),
])
def test_each_markdown_line_of_an_asciidoc_page_names_the_file_and_line_it_was_written_at(guide, needle, file, line):
    page = next(p for p in read_folder(guide).pages if p.source == "index.adoc")
    index = next(n for n, text in enumerate(page.body.split("\n")) if needle in text)
    assert page.locate(index) == (file, line)


@pytest.mark.parametrize("text, expected", [
    # git's man pages: two-line titles, linkgit:, [synopsis], an option list whose text is indented
    ("git-add(1)\n==========\n\nNAME\n----\ngit-add - Add file contents\n\nSYNOPSIS\n--------\n[synopsis]\n"
     "git add [--verbose | -v] [<pathspec>...]\n\nSee linkgit:git-commit[1].\n",
     '<h2 id="synopsis">SYNOPSIS</h2>\n<pre><code>git add [--verbose | -v] [&lt;pathspec&gt;...]\n</code></pre>\n'
     '<p>See <a href="git-commit">git-commit(1)</a>.</p>'),
    # a config example written as an indented literal paragraph is code, not block attributes
    ("= T\n\nFor example:\n\n  [core]\n    bare = true\n",
     "<pre><code>[core]\n  bare = true\n</code></pre>"),
    # text markdown would read as markup stays text: <placeholders>, a line opening with + or |
    ("= T\n\nPass <file> to it.\n\n+ is not a list item here\n\n| nor a table\n",
     "<p>Pass &lt;file&gt; to it.</p>\n<p>+ is not a list item here</p>\n<p>| nor a table</p>"),
    # AsciiDoc Python's quotes and em dash; a hard line break joins its lines
    ("= T\n\nSee ``Interactive\nmode'' for details--or not. +\nNext line.\n",
     "<p>See \u201cInteractive mode\u201d for details\u2014or not. Next line.</p>"),
    # a term's text may follow after a blank line, indented (git-credential-cache's options)
    ("= T\n\n--timeout <seconds>::\n\n\tNumber of seconds to cache credentials (default: 900).\n",
     "<dt>--timeout &lt;seconds&gt;</dt>\n<dd>Number of seconds to cache credentials (default: 900).</dd>"),
    # a role before formatting is not shown; an attribute's value may name another attribute
    (":rh: Red{nbsp}Hat\n\n= T\n\nCopy the [command]`crc` file to [filename]*~/bin* on {rh} systems.\n",
     "<p>Copy the <code>crc</code> file to <strong>~/bin</strong> on Red&nbsp;Hat systems.</p>"),
    # a term markdown dialects would read as a comment (MyST's %) stays a term; git's {asterisk}
    ("= T\n\n++%Cred++:: switch color to red\n\nIf it lacks {asterisk}, one is implied.\n",
     "<dt>%Cred</dt>\n<dd>switch color to red</dd>\n</dl>\n<p>If it lacks *, one is implied.</p>"),
    # 'text' is emphasis only in compat mode; an apostrophe never is
    (":compat-mode:\n\n= T\n\nRun 'git add' on the users' files, don't wait.\n",
     "<p>Run <em>git add</em> on the users' files, don't wait.</p>"),
    ("= T\n\nRun 'git add' first.\n", "<p>Run 'git add' first.</p>"),
    # an escaped mark is shown as written
    ("= T\n\nA \\*literal star* and \\{name} and \\<tag>.\n", "<p>A *literal star* and {name} and &lt;tag&gt;.</p>"),
    # a backslash that escapes nothing is shown (Windows' C:\ in bold italics)
    ("= T\n\nInstall it to your local [filename]*_C:\\_* drive.\n",
     "<p>Install it to your local <em><strong>C:\\</strong></em> drive.</p>"),
    # a listing's callouts are explained in a numbered list
    ("= T\n\n----\n$ git reset --soft HEAD^ <1>\n----\n<1> This keeps the working tree.\n",
     "<ol>\n<li>This keeps the working tree.</li>\n</ol>"),
    # a passthrough block is not shown; an include outside the content folder is left out
    ("= T\n\n++++\n<div>raw</div>\n++++\n\ninclude::../outside.adoc[]\n\nText.\n", "<p>Text.</p>"),
])
def test_asciidoc_markup_is_drawn_as_asciidoctor_draws_it(write_content, text, expected):
    built = run(BuildConfig(write_content({"index.adoc": text})))
    assert expected in built.pages[0].body_html
    assert "raw" not in built.pages[0].body_html


def test_front_matter_above_an_asciidoc_page_is_read_as_a_markdown_page_s(write_content):
    folder = read_folder(write_content({"guide.adoc": "---\ntitle: The Guide\nslug: start\n---\n= Guide\n\nText.\n"}))
    page = folder.pages[0]
    assert (page.title, page.slug) == ("The Guide", "start") and "title:" not in page.body
    assert page.locate(next(n for n, text in enumerate(page.body.split("\n")) if "Text." in text)) == ("guide.adoc", 7)


def test_an_include_inside_a_listing_block_fills_it_with_the_file(write_content):
    folder = write_content({"index.adoc": "= T\n\n[source,python]\n----\ninclude::app.py[]\n----\n\n////\n"
                                          "include::missing.adoc[]\n////\n",
                            "app.py": "print('hello')\n"})
    built = run(BuildConfig(folder))
    assert "<code class=\"language-python\">print('hello')\n" in built.pages[0].body_html.replace("&#x27;", "'")
    assert not any("missing.adoc" in line for line in built.warnings)


def test_a_page_linked_in_from_outside_the_folder_is_a_page_and_its_outside_include_is_refused(write_content):
    folder = write_content({"index.adoc": "= Home\n\nHome text.\n\ninclude::../outside/o.adoc[]\n"})
    outside = folder.parent / "outside"
    outside.mkdir()
    (outside / "o.adoc").write_text("---\ntitle: Outside\n---\n= Outside\n\nA page kept elsewhere.\n", "utf-8")
    (folder / "o.adoc").symlink_to(outside / "o.adoc")
    built = run(BuildConfig(folder))
    assert {page.path: page.source.title for page in built.pages if not page.generated} == {"/": None, "/o": "Outside"}
    assert any("include::../outside/o.adoc[] not in the content folder" in line for line in built.warnings)


def test_an_include_that_cannot_be_read_is_named_and_never_refuses_the_release(write_content):
    built = run(BuildConfig(write_content({"index.adoc": "= T\n\ninclude::missing.adoc[]\n\nText stays.\n"})))
    assert "Text stays." in built.pages[0].body_html
    assert any("index.adoc:3: include::missing.adoc[] not found" in line for line in built.warnings)


ANTORA_PAGE = """\
= Installing {prod}

include::partial$requirements.adoc[leveloffset=+1]

[subs="attributes"]
----
$ {bin} setup
----
"""


def test_an_antora_component_publishes_its_pages_with_its_partials_and_the_playbook_s_attributes(write_content):
    folder = write_content({
        "antora.yml": "name: guide\nversion: ~\nstart_page: ROOT:install.adoc\nnav:\n  - modules/ROOT/nav.adoc\n"
                      "asciidoc:\n  attributes:\n    bin: crc\n",
        "modules/ROOT/nav.adoc": "* xref:install.adoc[]\n",
        "modules/ROOT/pages/install.adoc": ANTORA_PAGE,
        "modules/ROOT/partials/requirements.adoc": "= Requirements\n\n{prod} needs 4 CPU cores. See xref:admin:users.adoc[].\n",
        "modules/admin/pages/users.adoc": "= Users\n\nSee xref:ROOT:install.adoc[the install page].\n",
        "modules/ROOT/examples/setup.adoc": "An example nobody publishes alone.\n",
        "README.adoc": "= About these docs\n",
    })
    (folder.parent / "antora-playbook.yml").write_text("asciidoc:\n  attributes:\n    prod: CRC@\n", "utf-8")
    built = run(BuildConfig(folder))
    html = {page.path: page.body_html for page in built.pages if not page.generated}
    assert sorted(html) == ["/", "/admin/users"]                     # the start page is the home page
    assert '<a href="/">the install page</a>' in html.pop("/admin/users")
    html = html["/"]
    assert '<h1 id="installing-crc">Installing CRC</h1>' in html and '<h2 id="requirements">Requirements</h2>' in html
    assert "CRC needs 4 CPU cores." in html and "$ crc setup" in html and '<a href="/admin/users">users</a>' in html
    assert any("modules/ROOT/nav.adoc" in line and "README.adoc" in line for line in built.warnings)
