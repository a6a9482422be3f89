"""reStructuredText pages: read as Sphinx sites write them, their includes in place, problems at file and line."""
import re

import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.build.content import run as read_folder
from trigsight.errors import ContentError

INDEX = """\
Welcome to Demo
===============

Demo is a *small* library for **testing**. Read :doc:`guide/install` first, then :ref:`tuning <config-label>`.
Every option is in :ref:`config-label`; :ref:`the-list` is not a heading, and :ref:`the same
configuration <config-label>` spans two lines.

.. _the-list:

A paragraph with a label.

.. toctree::
   :maxdepth: 2
   :caption: Contents

   guide/install
   guide/api

.. note::
   Demo needs Python 3.9 or newer.

.. seealso:: The project's change log.
"""
INSTALL = """\
Installation
============

Install it with pip::

   pip install demo

.. code-block:: python
   :caption: Check ``demo.__version__``
   :emphasize-lines: 2

   import demo
   print(demo.__version__)

* First item with ``inline code``.
* Second item with `a link <https://example.com/>`_.

  Its second paragraph.

.. versionadded:: 2.1 The ``--fast`` flag.

Call :func:`demo.run`, :meth:`~demo.Client.close` or :class:`the client <demo.Client>`.

.. automodule:: demo
   :members:
"""
CONFIG = """\
:orphan:

.. _config-label:

Configuration
=============

timeout
   Seconds to wait before giving up.

=====  =======
Name   Default
=====  =======
a      1
=====  =======

.. py:function:: connect(host, port=80, *args, **options) -> [Connection](list)

   Open a connection to *host*.

.. autoclass:: demo.Client
   :members:

   .. attribute:: retries

      How many times the client tries again.
"""


@pytest.fixture
def demo(write_content):
    return write_content({"index.rst": INDEX, "guide/install.rst": INSTALL, "guide/config.rst": CONFIG,
                          "guide/api.rst": "API\n===\n\nThe functions.\n"})


def test_a_sphinx_page_in_restructuredtext_is_a_page_of_what_sphinx_shows(demo):
    built = run(BuildConfig(demo))
    html = {page.path: page.body_html for page in built.pages}
    install = html["/guide/install"]
    assert '<code class="language-python">import demo\nprint(demo.__version__)\n</code>' in install
    assert "<strong>Check <code>demo.__version__</code></strong>" in install
    assert "pip install demo" in install and "<p>Install it with pip:</p>" in install
    assert "<code>inline code</code>" in install and 'href="https://example.com/"' in install
    assert "Its second paragraph." in install
    assert "New in version 2.1" in install and "<code>--fast</code> flag." in install
    assert "<code>demo.run()</code>" in install and "<code>close()</code>" in install
    assert "<code>the client</code>" in install and "automodule" not in install and ":members:" not in install
    index = html["/"]
    assert 'class="admonition kind-note"' in index and "Demo needs Python 3.9 or newer." in index
    assert "See also" in index and "change log" in index
    assert '<a href="/guide/install">Installation</a>' in index
    assert '<a href="/guide/config#config-label">tuning</a>' in index       # a title of its own
    assert '<a href="/guide/config#config-label">Configuration</a>' in index     # the section's title
    assert '<a href="/#the-list">the-list</a>' in index
    assert '<a href="/guide/config#config-label">the same configuration</a>' in index
    assert "toctree" not in index and "maxdepth" not in index
    config = html["/guide/config"]
    assert "<dt>timeout</dt>" in config and "<th>Name</th>" in config and "<td>1</td>" in config
    assert "connect(host, port=80, *args, **options) -&gt; [Connection](list)" in config and "Open a connection to <em>host</em>." in config
    assert "orphan" not in config and ":members:" not in config
    assert "demo.Client" in config and "How many times the client tries again." in config   # autodoc's words
    assert "Demo needs Python 3.9 or newer." in [p.text for p in built.texts["/"].passages]


def test_the_toctree_orders_the_site_and_orphan_keeps_a_page_out_of_navigation(demo):
    folder = read_folder(demo)
    pages = {page.source: page for page in folder.pages}
    assert pages["guide/config.rst"].unlisted and not pages["guide/install.rst"].unlisted
    contents = next(p for p in run(BuildConfig(demo)).pages if p.generated).html
    listed = re.findall(r'<a href="(/[^"]*)" lang="en">', contents.split('<ul class="contents">')[1])
    assert listed == ["/", "/guide/install", "/guide/api"]


@pytest.mark.parametrize("needle, file, line", [
    ("Demo is a *small* library", "index.rst", 4),
    ("Demo needs Python 3.9", "index.rst", 20),
    ("# Welcome to Demo", "index.rst", 1),
])
def test_each_markdown_line_of_an_rst_page_names_its_own_file_and_line(demo, needle, file, line):
    page = next(p for p in read_folder(demo).pages if p.source == "index.rst")
    index = next(n for n, text in enumerate(page.body.split("\n")) if needle in text)
    assert page.locate(index) == (file, line)


def test_includes_are_read_from_the_project_and_name_their_own_lines(write_content):
    root = write_content({
        "pyproject.toml": "[project]\nname = 'demo'\n",
        "CHANGES.rst": "Version 2.0\n-----------\n\nThe client reconnects on its own.\n\nBad title\n------\n",
        "src/demo.py": "one = 1\ntwo = 2\nthree = 3\n",
        ".env": "SECRET=hunter2\n",
        "docs/index.rst": "Demo\n====\n\n.. include:: ../CHANGES.rst\n\n.. literalinclude:: ../src/demo.py\n"
                          "   :lines: 2-3\n\n.. include:: ../.env\n\n.. include:: index.rst\n\nThe end.\n\n"
                          "Written as an example::\n\n   .. include:: ../CHANGES.rst\n",
    }, folder="project")
    folder = read_folder(root / "docs")
    page = folder.pages[0]
    assert "The client reconnects on its own." in page.body and "two = 2\nthree = 3" in page.body
    assert "one = 1" not in page.body and "hunter2" not in page.body and "The end." in page.body
    assert page.body.count("reconnects") == 1 and "```\n.. include:: ../CHANGES.rst\n```" in page.body
    reconnects = next(n for n, text in enumerate(page.body.split("\n")) if "reconnects" in text)
    assert page.locate(reconnects) == ("../CHANGES.rst", 4)
    warnings = "\n".join(folder.warnings)
    assert "../CHANGES.rst:7: Title underline too short" in warnings
    assert 'index.rst:9: include of "../.env" not read' in warnings
    assert 'index.rst:11: include of "index.rst" not read' in warnings
    assert "from outside the content folder: 2: ../CHANGES.rst (index.rst); ../src/demo.py (index.rst)" in warnings


def test_a_page_may_include_a_piece_of_itself_but_never_in_a_cycle(write_content):
    # Scrapy's settings.rst shows the lines between two of its comments under a second setting
    text = ("T\n=\n\nA\n-\n\n.. common-starts\n\nShared by both queues.\n\n.. common-ends\n\nB\n-\n\n"
            ".. include:: index.rst\n    :start-after: common-starts\n    :end-before: common-ends\n\n"
            "C\n-\n\n.. loop-starts\n\n.. include:: index.rst\n    :start-after: loop-starts\n\nOnce.\n")
    folder = read_folder(write_content({"index.rst": text}))
    body = folder.pages[0].body
    assert body.count("Shared by both queues.") == 2
    assert body.count("Once.") == 2           # the piece holds its own include: read once, then it stops
    assert 'include of "index.rst" not read' in "\n".join(folder.warnings)


def test_a_chain_of_changelogs_each_including_the_one_before_is_read_to_its_oldest(write_content):
    # SQLAlchemy's changelog_21.rst includes changelog_20.rst past its title, which includes changelog_14.rst,
    # and so on: nine deep
    files = {"changelog_1.rst": "Changes 1\n=========\n\nThe first release.\n"}
    for number in range(2, 11):
        files[f"changelog_{number}.rst"] = (f"Changes {number}\n=========\n\nRelease {number} is out.\n\n"
                                            f".. include:: changelog_{number - 1}.rst\n    :start-line: 3\n")
    files["index.rst"] = "All changes\n===========\n\n.. include:: changelog_10.rst\n    :start-line: 3\n"
    folder = read_folder(write_content(files))
    body = next(page for page in folder.pages if page.source == "index.rst").body
    assert "The first release." in body and body.count("is out.") == 9
    assert "not read" not in "\n".join(folder.warnings)


@pytest.mark.parametrize("text, expected", [
    ("T\n=\n\n.. tabs::\n\n   .. tab:: ``apt`` on *Linux*\n\n      Use apt.\n",
     '<p class="tab-label"><code>apt</code> on <em>Linux</em></p>\n<p>Use apt.</p>'),
    ("T\n=\n\n.. only:: latex\n\n   Printed only.\n\n.. only:: html\n\n   On the web.\n", "On the web."),
    # an object's info fields grouped as Sphinx shows them, each item a sentence of its own
    ("T\n=\n\n.. method:: run(request)\n\n   Runs.\n\n   :param request: the request\n"
     "   :type request: :class:`~a.Request`\n   :returns: nothing\n",
     "<p>Parameters:</p>\n<ul>\n<li><code>request</code> (<code>Request</code>) – the request</li>\n</ul>\n"
     "<p>Returns: nothing</p>"),
    # a description of several blocks stays blocks under its parameter, never markup in a sentence
    ("T\n=\n\n.. class:: R(url)\n\n   :param url: the URL\n\n       .. caution:: Not the ``Cookie`` header.\n",
     "<li>\n<p><code>url</code> – the URL</p>\n<aside class=\"admonition kind-warning\""),
    # a description with a hanging indent and a directive under it indented less is one paragraph (aiohttp)
    ("T\n=\n\n.. class:: R(app)\n\n   :param float keepalive_timeout: a delay before a TCP connection is\n"
     "                                   closed after a request.\n\n      .. versionadded:: 3.8\n",
     "<li>\n<p><code>keepalive_timeout</code> (float) – a delay before a TCP connection is closed after a request.</p>"),
    # Scrapy's stacked targets above a heading, and a stat's target above its definition
    ("T\n=\n\n.. reqmeta:: download_slot\n.. setting:: DOWNLOAD_SLOTS\n\nDOWNLOAD_SLOTS\n--------------\n\nDefault.\n\n"
     ".. stat:: item_count\n\n``item_count``\n    Items scraped.\n",
     '<h1 id="t">T</h1>\n<h2 id="download_slots">DOWNLOAD_SLOTS</h2>\n<p>Default.</p>\n<dl>\n<dt><code>item_count</code></dt>'),
    # a section inside `.. only::` is a section, as Sphinx reads it (Scrapy's settings page)
    ("T\n=\n\n.. class:: M\n\n   Warns.\n\n   M settings\n   ~~~~~~~~~~\n\n   Default.\n",
     '<h2 id="m-settings">M settings</h2>\n<p>Default.</p>'),
    ("T\n=\n\nA\n-\n\n.. only:: html\n\n   Elsewhere\n   ---------\n\n   Listed here.\n",
     '<h3 id="elsewhere">Elsewhere</h3>\n<p>Listed here.</p>'),
    ("T\n=\n\n`Unknown target`_ and :unknown-role:`words` stay text.\n", "<p>Unknown target and <code>words</code> stay text.</p>"),
    ('T\n=\n\nSee `The "B" part <The "B" part_>`_ now.\n\nThe "B" part\n------------\n', '<p>See The "B" part now.</p>'),
    ("T\n=\n\nIntro.\n\na) trivial *changes*;\nb) breaking ones.\n\n   iii. nested\n",
     '<ol type="a">\n<li>\n<p>trivial <em>changes</em>;</p>\n</li>\n<li>\n<p>breaking ones.</p>\n<ol type="i" start="3">'),
    ("T\n=\n\n.. highlight:: console\n\n::\n\n   $ demo --help\n", 'class="language-console"'),
    ("T\n=\n\n" + "  " * 3000 + "deep\n", "deep"),
    # an extension's directive reading a file shows nothing of its path
    ("T\n=\n\n.. pip-news-include:: ../../NEWS.rst\n\nAfter.\n", '<h1 id="t">T</h1>\n<p>After.</p>'),
    # Django's `.. setting::` above its heading is a link target, not the setting's name twice
    ("T\n=\n\n.. setting:: DEBUG\n\n``DEBUG``\n---------\n\nDefault: ``False``\n",
     '<h1 id="t">T</h1>\n<h2 id="debug"><code>DEBUG</code></h2>\n<p>Default: <code>False</code></p>'),
    # another project's object or section (intersphinx) shows without the inventory's name
    ("T\n=\n\nA :class:`python:PendingDeprecationWarning` unless :envvar:`python:PYTHONWARNINGS` is set "
     "(see :ref:`python:implementations`, :doc:`twisted:core/howto/defer-intro`).\n",
     "<p>A <code>PendingDeprecationWarning</code> unless <code>PYTHONWARNINGS</code> is set "
     "(see implementations, core/howto/defer-intro).</p>"),
    ("T\n=\n\nAdd :rst:role:`math:numref`, :rst:dir:`py:function` and :rst:dir:`inheritance-diagram:parts`.\n",
     "<p>Add <code>math:numref</code>, <code>py:function</code> and <code>inheritance-diagram:parts</code>.</p>"),
    # a signature continued after a backslash is one signature, as Sphinx joins it (aiohttp's reference)
    ("T\n=\n\n.. class:: TCPConnector(*, ssl=True, \\\n                 use_dns_cache=True,\\\n"
     "                 loop=None)\n\n   Connector.\n",
     "<p><code>TCPConnector(*, ssl=True, use_dns_cache=True, loop=None)</code></p>\n<p>Connector.</p>"),
    ("T\n=\n\n.. cpp:type:: template<typename T> \\\n              MyContainer = std::vector<T>\n",
     "<p><code>template&lt;typename T&gt; MyContainer = std::vector&lt;T&gt;</code></p>"),
    # an object's signatures one a line, each shown by itself (Django's `.. method:: attach(...)` over `attach(...)`)
    ("T\n=\n\n.. function:: compile(source)\n              compile(source, mode)\n\n   Compiles.\n",
     '<p><code>compile(source)</code></p>\n</div>\n<div class="directive">\n<p><code>compile(source, mode)</code></p>\n<p>Compiles.</p>'),
    ("T\n=\n\n.. method:: StreamReader.read(n=-1)\n      :async:\n\n   Reads.\n",
     '<div class="directive">\n<p><code>StreamReader.read(n=-1)</code></p>\n<p>Reads.</p>'),
    # a field of one line is one row, as Sphinx shows it (mypy's confvals, their fields after a blank line);
    # a field of several blocks stays a term over them
    ("T\n=\n\n.. confval:: follow_imports\n\n    :type: string\n    :default: ``normal``\n\n    Directs.\n\n"
     ":Long: First.\n\n       Second.\n",
     "<p><code>follow_imports</code></p>\n<p>type: string</p>\n<p>default: <code>normal</code></p>\n<p>Directs.</p>\n</div>\n"
     "<dl>\n<dt>Long</dt>\n<dd>\n<p>First.</p>\n<p>Second.</p>"),
    # a directive of shell commands is a console block, whatever the extension that names it
    ("T\n=\n\n.. shell-session::\n\n   $ make html\n   Running Sphinx\n\n   $ make clean\n",
     '<code class="language-console">$ make html\nRunning Sphinx\n\n$ make clean\n'),
    # a link to a label with a space in it is a link, not its markdown shown as text
    ("T\n=\n\n.. _glob-style patterns:\n\nP\n-\n\nA `glob-style patterns`_ link.\n",
     '<p>A <a href="#glob-style patterns">glob-style patterns</a> link.</p>'),
    # a field whose value is nothing (|version| that conf.py does not tell) is not shown (Celery's guides)
    ("T\n=\n\n:Release: |version|\n:Date: today\n\nText.\n", '<h1 id="t">T</h1>\n<p>Date: today</p>'),
    # Celery's abbreviations of its objects: no Python name starts with "@"
    ("T\n=\n\nThe :meth:`@config_from_object` and :exc:`~@MaxRetriesExceededError` and :class:`@-Foo`.\n",
     "<p>The <code>config_from_object()</code> and <code>MaxRetriesExceededError</code> and <code>Foo</code>.</p>"),
    # a table of contents over a title holding a project's own role (Celery's FAQ: ContentsFilter stopped at it)
    ("T\n=\n\n.. contents::\n   :local:\n\nUsing :setting:`broker_url`\n--------------------\n\nSet it.\n",
     "<code>broker_url</code></h2>\n<p>Set it.</p>"),
    ("T\n=\n\n# not a heading, *[not]* {a} `role`\\_ <b>\n\n\\1) not a list\n",
     "<p># not a heading, <em>[not]</em> {a} <em>role</em>_ &lt;b&gt;</p>\n<p>1) not a list</p>"),
])
def test_what_sphinx_extensions_write_never_refuses_the_release(write_content, text, expected):
    built = run(BuildConfig(write_content({"index.rst": text})))
    assert expected in built.pages[0].body_html
    assert "Printed only." not in built.pages[0].body_html


@pytest.mark.parametrize("text, expected", [
    # a role and a literal joined by an escaped space read as one piece of code (Sphinx's changelogs)
    (":confval:`autodoc_typehints`\\ ``='description'`` is set", "<code>autodoc_typehints='description'</code> is set"),
    (":func:`open`\\ ``(path)`` and ``a``\\ ``b``", "<code>open()(path)</code> and <code>ab</code>"),
    # apart, they stay apart; a plural after a literal is text
    ("``a`` and ``b``\\ s", "<code>a</code> and <code>b</code>s"),
])
def test_code_joined_by_an_escaped_space_is_one_code_span(write_content, text, expected):
    built = run(BuildConfig(write_content({"index.rst": "T\n=\n\n" + text + "\n"})))
    assert expected in built.pages[0].body_html and "``" not in built.pages[0].body_html


@pytest.mark.parametrize("files, expected", [
    ({"index.rst": "T\n=\n\n.. confval:: html_theme\n   :type: :code-py:`str`\n   :default: :code-py:`'alabaster'`\n\n"
                   "   The theme for HTML output.\n"},
     "<p><code>html_theme</code></p>\n<p>Type: <code>str</code></p>\n<p>Default: <code>'alabaster'</code></p>\n"
     "<p>The theme for HTML output.</p>"),
    ({"index.md": "# T\n\n```{confval} retries\n:type: int\n:default: `3`\n:no-index:\n\nHow often.\n```\n"},
     "<p><code>retries</code></p>\n<p>Type: int</p>\n<p>Default: <code>3</code></p>\n<p>How often.</p>"),
])
def test_a_settings_type_and_default_are_shown_as_sphinx_shows_them(write_content, files, expected):
    built = run(BuildConfig(write_content(files)))
    assert expected in built.pages[0].body_html and "no-index" not in built.pages[0].body_html


def test_a_page_docutils_cannot_read_is_named_with_its_file(write_content):
    folder = write_content({"index.rst": "T\n=\n\n" + "".join(f"{'  ' * n}- item\n\n" for n in range(600))})
    with pytest.raises(ContentError) as caught:
        run(BuildConfig(folder))
    problem = caught.value.problems[0]
    assert (problem.path, problem.line) == (str(folder / "index.rst"), 1)
    assert problem.message == "nested too deeply to read as reStructuredText"


CHANGELOG = """\
Changelog
=========

.. changelog::
    :version: 1.14.0
    :released: November 4, 2024

    .. change::
        :tags: usecase, runtime
        :tickets: 1560

        Added a new hook to :class:`.DefaultImpl`.

        It is for dialects only.

    .. change::
      :tags: bug
      :tickets: 1187

      Properly escape constraint names.

.. changelog::
    :version: 1.14.1
    :released:

    .. change::
        :tags: bug

        Fixed quoting.
"""


@pytest.mark.parametrize("expected", [
    '<h2 id="1140">1.14.0</h2>\n<p>Released: November 4, 2024</p>\n<ul>\n<li>\n<p>Added a new hook to '
    "<code>DefaultImpl</code>.</p>\n<p>It is for dialects only.</p>\n</li>\n<li>\n<p>Properly escape constraint "
    "names.</p>\n</li>\n</ul>",
    # a release not yet made has no date
    '<h2 id="1141">1.14.1</h2>\n<ul>\n<li>Fixed quoting.</li>\n</ul>',
])
def test_a_changelog_of_the_changelog_extension_is_a_section_per_release_and_an_item_per_change(
        write_content, expected):
    built = run(BuildConfig(write_content({"index.rst": CHANGELOG})))
    html = built.pages[0].body_html
    assert expected in html
    assert not re.search(r"tags|tickets|usecase|1560|🎟", html)


@pytest.mark.parametrize("versions, listed", [
    ("2.0.0", ["Fixed the new thing.", "Fixed the old thing."]),         # the old fix names this page's release
    ("1.0.1, 2.0.0", ["Fixed the new thing.", "Fixed the old thing."]),
    ("1.0.0", ["Fixed the new thing."]),                                  # it names none: not listed here
    ("2.0.0 1.0.0", ["Fixed the new thing."]),                            # a comma list, as the extension reads it
])
def test_a_changelog_lists_the_imported_changes_that_name_its_release_and_nothing_else_it_imports(
        write_content, versions, listed):
    # SQLAlchemy's pages import every older one (`changelog_imports`), and give some releases `:released:` twice
    older = ("Old\n===\n\n.. changelog_imports::\n\n    .. include:: oldest.rst\n\n.. changelog::\n"
             f"    :version: 1.0.0\n\n    .. change::\n        :versions: {versions}\n\n        Fixed the old thing.\n")
    oldest = ".. changelog::\n    :version: 0.9\n\n    .. change::\n        :versions: 2.0.0\n\n        Fixed by 0.9.\n"
    newer = ("New\n===\n\n.. changelog_imports::\n\n    .. include:: older.rst\n        :start-line: 3\n\n"
             ".. changelog::\n    :version: 2.0.0\n    :released: May 2, 2025\n    :released: May 9, 2025\n\n"
             "    .. change::\n        :tags: bug\n\n        Fixed the new thing.\n")
    built = run(BuildConfig(write_content({"index.rst": newer, "older.rst": older, "oldest.rst": oldest})))
    page = next(page for page in built.pages if page.path == "/")
    items = "".join(f"<li>{text}</li>\n" for text in listed)
    assert f'<h2 id="200">2.0.0</h2>\n<p>Released: May 9, 2025</p>\n<ul>\n{items}</ul>' in page.body_html
    assert [p.text for p in built.passages if p.page == "/"][1:] == ["2.0.0", "Released: May 9, 2025", *listed]
    assert not any("problems" in warning or "shown as their text" in warning for warning in built.warnings)


def test_pages_with_nothing_to_cite_but_their_title_are_named_in_one_warning(write_content):
    built = run(BuildConfig(write_content({
        "index.rst": "Home\n====\n\nThe home page says something.\n\n.. toctree::\n\n   api\n   changes\n   guide\n",
        "api.rst": "API\n===\n\n.. automodule:: demo.api\n   :members:\n",
        "changes.rst": ".. include:: ../CHANGES.rst\n",
        "guide.md": "# Guide\n\nThe guide says something too.\n",
    })))
    named = [line for line in built.warnings if "nothing to cite but their title" in line]
    assert named == ["pages with nothing to cite but their title (autodoc of code that is not imported, an include "
                     "not read, only code, an empty file), published as they are: 2: api.rst, changes.rst"]
