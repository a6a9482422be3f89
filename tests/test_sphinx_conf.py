"""A Sphinx folder's conf.py: read as data, never run, and followed as Sphinx follows it."""
import re
from html import unescape

import pytest
from trigsight.build import sphinx_conf
from trigsight.build.builder import BuildConfig, run
from trigsight.build.content import run as read_folder

CONF = '''\
import os, sys
from demo import get_version
project = "Demo"
release = get_version()               # known only when Sphinx runs
version = "6.1"
source_suffix = {".txt": "restructuredtext"}
root_doc = "contents"
exclude_patterns = ["_build", "requirements.txt", "drafts/**", "old_*"]
default_role = "code"
extlinks = {"ticket": ("https://code.example.org/ticket/%s", "#%s"),
            "pypi": ("https://pypi.org/project/%s/", None), "py": ("https://x.org/%s", "%s, in short")}
extensions = ["sphinx_issues"]
issues_github_path = "demo/demo"
rst_epilog = """
.. |demo-list| replace:: :ref:`the mailing list <mailing-list>`
"""
'''
PAGES = {
    "contents.txt": "Contents\n========\n\n.. toctree::\n\n   intro\n   topics/index\n",
    "index.txt": "Demo\n====\n\nDemo |version| fixes :ticket:`12` and :issue:`14, 15`; see :pypi:`demo` and :py:`a, b`.\n\n"
                 "Ask `demo.run` on |demo-list|.\n\n.. console::\n\n    $ demo --help\n      usage: demo\n",
    "intro.txt": "Introduction\n============\n\n.. _mailing-list:\n\nThe list\n--------\n\nWrite to us.\n",
    "topics/index.txt": "Topics\n======\n\nRead :doc:`../intro` first.\n",
    "requirements.txt": "sphinx>=8\n",
    "old_notes.txt": "Old\n===\n\nGone.\n",
    "drafts/next.txt": "Next\n====\n\nNot yet.\n",
    "README.rst": "Building the docs\n=================\n\nRun make html.\n",
    "notes.md": "# Notes\n\nSphinx does not read markdown here.\n",
}


@pytest.fixture
def django_like(write_content):
    return write_content({"conf.py": CONF, **PAGES})


def test_conf_py_makes_the_pages_sphinx_reads_and_leaves_out_the_rest(django_like):
    folder = read_folder(django_like)
    assert sorted(page.source for page in folder.pages) == ["contents.txt", "index.txt", "intro.txt",
                                                            "topics/index.txt"]
    assert {page.source: page.path for page in folder.pages}["topics/index.txt"] == "/topics"
    warnings = "\n".join(folder.warnings)
    assert "exclude_patterns says: drafts/next.txt, old_notes.txt, requirements.txt" in warnings
    assert "source_suffix and extensions say, not published: README.rst, notes.md" in warnings


def test_conf_py_settings_show_on_the_pages_as_sphinx_shows_them(django_like):
    built = run(BuildConfig(django_like))
    home = {page.path: page.body_html for page in built.pages}["/"]
    assert "Demo 6.1 fixes" in home
    assert '<a href="https://code.example.org/ticket/12">#12</a>' in home
    assert '<a href="https://x.org/a,%20b">a, b, in short</a>' in home      # extlinks never split a list
    assert ('<a href="https://github.com/demo/demo/issues/14">#14</a>, '
            '<a href="https://github.com/demo/demo/issues/15">#15</a>') in home
    assert '<a href="https://pypi.org/project/demo/">https://pypi.org/project/demo/</a>' in home
    assert "Ask <code>demo.run</code> on <a href=\"/intro#mailing-list\">the mailing list</a>." in home
    assert '<code class="language-console">$ demo --help\n  usage: demo\n</code>' in home
    topics = {page.path: page.body_html for page in built.pages}["/topics"]
    assert '<a href="/intro">Introduction</a>' in topics


def test_toctrees_are_followed_from_conf_py_root_doc(django_like):
    contents = next(p for p in run(BuildConfig(django_like)).pages if p.generated).html
    listed = re.findall(r'<a href="(/[^"]*)" lang="en">', contents.split('<ul class="contents">')[1])
    assert listed == ["/", "/contents", "/intro", "/topics"]    # the home page heads the navigation


def test_the_root_doc_is_the_home_page_when_there_is_no_index(write_content):
    folder = write_content({"conf.py": 'master_doc = "start"\n', "start.rst": "Start\n=====\n\nHello.\n",
                            "other.rst": "Other\n=====\n\nMore.\n"})
    assert {page.source: page.path for page in read_folder(folder).pages} == {"start.rst": "/",
                                                                              "other.rst": "/other"}


def test_a_line_of_the_epilog_is_named_at_its_line_in_conf_py(write_content):
    folder = write_content({"conf.py": 'x = 1\nrst_epilog = """\n.. |a| replace:: `unclosed\n"""\n',
                            "index.rst": "T\n=\n\nUses |a|.\n"})
    assert any("conf.py:3: Inline interpreted text" in line for line in read_folder(folder).warnings)


def test_a_version_conf_py_computes_is_shown_as_nothing_not_as_markup(write_content):
    folder = write_content({"conf.py": "import demo\nversion = demo.__version__\n",
                            "index.rst": "Demo |version| docs\n==================\n\nRelease |release|.\n"})
    result = read_folder(folder)
    assert "|version|" not in result.pages[0].body and "|release|" not in result.pages[0].body
    assert not any("Undefined substitution" in line for line in result.warnings)


def test_conf_py_is_never_run(write_content, tmp_path):
    marker = tmp_path / "ran"
    folder = write_content({"conf.py": f"open({str(marker)!r}, 'w').write('x')\nversion = '1.0'\n",
                            "index.rst": "T\n=\n\nVersion |version|.\n"})
    built = run(BuildConfig(folder))
    assert not marker.exists() and "Version 1.0." in built.pages[0].body_html


@pytest.mark.parametrize("conf, warning", [
    ("version = (\n", "conf.py:1: not read ("),
    ("x = " + "[" * 500 + "]" * 500 + "\n", "conf.py:1: not read (too many nested parentheses)"),
    ("version = " + " + ".join(["'a'"] * 5000) + "\n", "conf.py not read (nested too deeply)"),
])
def test_a_conf_py_that_cannot_be_read_is_a_warning_and_sphinx_defaults_apply(write_content, conf, warning):
    folder = write_content({"conf.py": conf, "index.rst": "T\n=\n\nHello.\n", "notes.md": "# Notes\n\nKept.\n"})
    result = read_folder(folder)
    assert any(line.startswith(warning) for line in result.warnings)
    assert sorted(page.source for page in result.pages) == ["index.rst"]


@pytest.mark.parametrize("conf, values, unknown", [
    ("a = 'x'\nversion = a + '.1'\nrelease = f'{version}rc1'\n", {"version": "x.1", "release": "x.1rc1"}, set()),
    ("release, version = get_version('demo')\n", {}, {"release", "version"}),
    ("version = '1'\nif os.environ.get('CI'):\n    version = '2'\n", {}, {"version"}),
    ("version = '1'\nif fast:\n    version = '1'\nelse:\n    version = '1'\n", {"version": "1"}, set()),
    ("extensions = ['a']\nif ok:\n    extensions.append('myst_parser')\n", {"extensions": ["a", "myst_parser"]}, set()),
    ("try:\n    from demo import __version__ as release\nexcept ImportError:\n    release = 'dev'\n", {},
     {"release"}),
    ("exclude_patterns = ['_build']\nexclude_patterns += ['x/*']\n", {"exclude_patterns": ["_build", "x/*"]}, set()),
    ("def setup(app):\n    global version\n    version = '9'\nversion = '1'\n", {"version": "1"}, set()),
    ("copyright = '%s, me' % 2024\n", {}, set()),
])
def test_conf_py_values_are_read_only_when_they_are_written_out(tmp_path, conf, values, unknown):
    (tmp_path / "conf.py").write_text(conf)
    read = sphinx_conf.read(tmp_path)
    assert read.values == values and read.unknown == unknown


@pytest.mark.parametrize("pattern, path, excluded", [
    ("_build", "_build/html/index.rst", True),
    ("old_*", "old_api.rst", True),
    ("old_*", "topics/old_api.rst", False),
    ("*/attic*", "topics/attic/a.rst", True),
    ("**/draft.rst", "a/b/draft.rst", True),
    ("[ab].rst", "a.rst", True),
    ("[!ab].rst", "c.rst", True),
    ("[!ab].rst", "a.rst", False),
])
def test_exclude_patterns_match_as_sphinx_matches_them(tmp_path, pattern, path, excluded):
    (tmp_path / "conf.py").write_text(f"exclude_patterns = [{pattern!r}]\n")
    assert sphinx_conf.read(tmp_path).excluded(path) is excluded


@pytest.mark.parametrize("conf, text, html", [
    ("extensions = ['sphinx_issues']\n", ":pypi:`pytest-xdist`", '<a href="https://pypi.org/project/pytest-xdist">pytest-xdist</a>'),
    ("issues_github_path = 'o/r'\n", ":user:`ann` and :commit:`0123456789abcdef`",
     '<a href="https://github.com/ann">@ann</a> and <a href="https://github.com/o/r/commit/0123456789abcdef">@0123456</a>'),
    ("extensions = ['sphinx.ext.extlinks']\nextlinks = {'gh': ('https://gh.example/', '')}\n", ":gh:`x/y`",
     '<a href="https://gh.example/x/y">x/y</a>'),
    ("", ":pypi:`pytest-xdist`", "<code>pytest-xdist</code>"),
])
def test_link_roles_show_as_sphinx_shows_them(write_content, conf, text, html):
    folder = write_content({"conf.py": conf, "index.rst": f"T\n=\n\nSee {text}.\n"})
    assert html in run(BuildConfig(folder)).pages[0].body_html


def test_a_page_default_role_is_that_page_alone(write_content):
    folder = write_content({"a.rst": "A\n=\n\n.. default-role:: code\n\nSee `thing`.\n",
                            "b.rst": "B\n=\n\nSee `thing`.\n", "index.rst": "Home\n====\n\nHello.\n"})
    html = {page.path: page.body_html for page in run(BuildConfig(folder)).pages}
    assert "See <code>thing</code>." in html["/a"] and "See <em>thing</em>." in html["/b"]


def test_a_link_to_a_text_file_never_names_a_markdown_page_of_the_same_name(write_content):
    folder = write_content({"index.md": "# Home\n\nRead [the log](notes.txt) or [the notes](notes).\n",
                            "notes.md": "# Notes\n\nThe notes.\n", "notes.txt": "plain text\n"})
    home = {page.path: page.body_html for page in run(BuildConfig(folder)).pages}["/"]
    assert '<a href="/notes">the notes</a>' in home and '<a href="/notes">the log</a>' not in home


SURE, MAYBE = frozenset({"html", "format_html", "builder_html", "release"}), frozenset({"insipid"})


@pytest.mark.parametrize("expression, shown", [
    ("html", True), ("latex", False), ("not latex", True), ("html and not latex", True),
    ("latex or epub", False), ("builder_html", True), ("html and draft", False), ("release", True),
    ("html and insipid", True), ("not insipid", True), ("latex and insipid", False), ("(html or latex) and release", True),
    ("not release", False), ("html and", True),
])
def test_only_shows_what_sphinx_html_builder_shows(expression, shown):
    from trigsight.build.rst_project import only_shown
    assert only_shown(expression, (SURE, MAYBE)) is shown


def test_tags_conf_py_adds_are_sure_or_maybe(tmp_path):
    (tmp_path / "conf.py").write_text("tags.add('release')\nif theme == 'insipid':\n    tags.add('insipid')\n"
                                      "if x:\n    tags.add('a')\nelse:\n    tags.add('a')\n")
    assert sphinx_conf.read(tmp_path).tags == ({"release", "a"}, {"insipid"})


def test_only_blocks_follow_the_tags_in_a_built_page(write_content):
    folder = write_content({"conf.py": "tags.add('cloud')\n",
                            "index.rst": "T\n=\n\n.. only:: not latex\n\n   Web one.\n\n.. only:: latex\n\n   Print.\n\n"
                                         ".. only:: cloud\n\n   Cloud one.\n\n.. only:: not cloud\n\n   Local.\n"})
    html = run(BuildConfig(folder)).pages[0].body_html
    assert "Web one." in html and "Cloud one." in html and "Print." not in html and "Local." not in html


@pytest.mark.parametrize("conf, suffixes", [
    ("", {".rst": "rst"}),
    ("extensions = ['myst_parser']\n", {".rst": "rst", ".md": "markdown"}),
    ("extensions = ['nbsphinx']\nnbsphinx_custom_formats = {'.md': ['jupytext.reads', {'fmt': 'Rmd'}], "
     "'.pct.py': ['jupytext.reads']}\n", {".rst": "rst", ".ipynb": "notebook", ".md": "markdown"}),
    ("source_suffix = ['.rst', '.txt']\n", {".rst": "rst", ".txt": "rst"}),
    ("source_suffix = {'.rst': 'restructuredtext', '.myst': 'markdown', '.weird': 'x'}\n",
     {".rst": "rst", ".myst": "markdown"}),
    ("extensions = load_extensions()\n", None),
])
def test_the_pages_are_the_suffixes_sphinx_and_its_extensions_read(tmp_path, conf, suffixes):
    (tmp_path / "conf.py").write_text(conf)
    assert sphinx_conf.read(tmp_path).suffixes == suffixes


def test_a_source_suffix_trigsight_cannot_read_is_named(write_content):
    folder = write_content({"conf.py": "source_suffix = {'.rst': 'restructuredtext', '.weird': 'x'}\n",
                            "index.rst": "T\n=\n\nHello.\n", "other.weird": "x"})
    assert "conf.py's source_suffix names .weird: files trigsight does not read as pages, not published" in \
        read_folder(folder).warnings


def test_a_sphinx_project_with_its_sources_apart_names_the_folder_to_give(write_content):
    folder = write_content({"source/conf.py": "project = 'P'\n", "source/index.rst": "T\n=\n\nHello.\n",
                            "Makefile": "html:\n"})
    assert any(line.startswith("source/conf.py found: Sphinx reads this project's pages from source/")
               for line in read_folder(folder).warnings)


_ZZZEEK = "extensions = ['zzzeeksphinx']\nzzzeeksphinx_module_prefixes = {'_sa': 'sqlalchemy', '_orm': 'sqlalchemy.orm'}\n"


@pytest.mark.parametrize("conf, text, shown", [
    (_ZZZEEK, ":paramref:`_sa.create_engine.echo`", "create_engine.echo"),
    (_ZZZEEK, ":func:`_sa.create_engine`", "create_engine()"),
    (_ZZZEEK, ":meth:`_orm.Session.commit`", "Session.commit()"),
    (_ZZZEEK, ":meth:`sqlalchemy.orm.Session.commit`", "Session.commit()"),
    (_ZZZEEK, ":class:`_orm.Session`", "Session"),
    (_ZZZEEK, ":class:`.Connection`", "Connection"),
    (_ZZZEEK, ":class:`sqlalchemy.orm.Session`", "sqlalchemy.orm.Session"),     # no prefix, not searched
    (_ZZZEEK, ":paramref:`.Session.begin.nested`", "Session.begin.nested"),    # a class's method's parameter
    (_ZZZEEK, ":attr:`_orm.Session.info`", "Session.info"),
    (_ZZZEEK, ":meth:`_sa.create_engine`", "sqlalchemy.create_engine()"),     # the prefix stands for its module
    (_ZZZEEK, ":attr:`_orm.BLANK`", "sqlalchemy.orm.BLANK"),
    (_ZZZEEK, ":meth:`the commit <_orm.Session.commit>`", "the commit"),
    ("extensions = ['sphinx.ext.autodoc']\nzzzeeksphinx_module_prefixes = {'_sa': 'sqlalchemy'}\n",
     ":paramref:`_sa.create_engine.echo`", "_sa.create_engine.echo"),          # only with the extension
])
def test_a_zzzeeksphinx_project_shows_objects_by_their_short_names(write_content, conf, text, shown):
    # SQLAlchemy's pages write `_sa.` and `_orm.` for the modules conf.py names; its site shows neither
    folder = write_content({"conf.py": conf, "index.rst": f"T\n=\n\nSee {text} here.\n"})
    assert [p.text for p in run(BuildConfig(folder)).passages] == [f"See {shown} here."]


_SQL_SESSION = "    >>> conn.execute(text('select 1'))\n    {execsql}BEGIN (implicit)\n    select 1{stop}\n    ROLLBACK{stop}\n"


@pytest.mark.parametrize("block", [
    ".. sourcecode:: pycon+sql\n\n" + _SQL_SESSION,
    ".. highlight:: pycon+sql\n\nRun it::\n\n" + _SQL_SESSION,       # a literal block in the page's language
])
@pytest.mark.parametrize("conf, shown", [
    (_ZZZEEK, ">>> conn.execute(text('select 1'))\nBEGIN (implicit)\nselect 1\nROLLBACK"),
    ("extensions = ['sphinx.ext.autodoc']\n", _SQL_SESSION.replace("    ", "").rstrip("\n")),   # as written
])
def test_a_zzzeeksphinx_sql_block_shows_its_sql_without_the_marks_of_where_it_starts_and_stops(
        write_content, block, conf, shown):
    html = run(BuildConfig(write_content({"conf.py": conf, "index.rst": f"T\n=\n\nSee.\n\n{block}"}))).pages[0].body_html
    code = re.search(r"<pre><code[^>]*>(.*?)</code></pre>", html, re.S).group(1)
    assert unescape(code).strip("\n") == shown
