"""Navigation: folders in front-matter order, a contents page, every page within two clicks."""
import re
from collections import deque

import pytest
from trigsight.build import navigation, page_source
from trigsight.build.builder import BuildConfig, run

HREF = re.compile(r'href="(/[^"#?]*)')


def big_folder() -> dict[str, str]:
    """64 pages and no home page: 40 at the top, a headed folder of 12, a headless one of 12."""
    files = {f"page-{n:02d}.md": f"# Topic {n:02d}\n\nTopic {n:02d} is explained here in full." for n in range(40)}
    files["api/index.md"] = "---\ntitle: API\n---\nThe API reference starts here."
    files.update({f"api/call-{n:02d}.md": f"# Call {n:02d}\n\nCall {n:02d} returns a value." for n in range(11)})
    files.update({f"guides/deep/step-{n:02d}.md": f"# Step {n:02d}\n\nStep {n:02d} follows the one before."
                  for n in range(12)})
    files["secret.md"] = "---\nunlisted: true\n---\n# Secret\n\nOnly a direct link finds this page."
    return files


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    from conftest import write_files
    return run(BuildConfig(write_files(tmp_path_factory.mktemp("big") / "content", big_folder())))


def links(page) -> set[str]:
    return {h if h == "/" else h.rstrip("/") for h in HREF.findall(page.html) if not h.startswith("/static/")}


def test_a_folder_without_a_home_page_gets_a_generated_contents_page_at_the_root(built):
    pages = {p.path: p for p in built.pages}
    home = pages["/"]
    assert home.generated and home.title == "Contents"
    assert len(built.authored) == 65 and "/contents" not in pages
    assert not [p for p in built.passages if p.page == "/"]     # navigation, nothing to cite


def test_every_listed_page_is_within_two_clicks_of_every_page(built):
    pages = {p.path: p for p in built.pages}
    listed = set(pages) - {"/secret"}
    graph = {path: links(page) & set(pages) for path, page in pages.items()}
    for start in pages:
        depth = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if depth[here] == 2:
                continue
            for there in graph[here]:
                if there not in depth:
                    depth[there] = depth[here] + 1
                    queue.append(there)
        assert listed <= set(depth), (start, sorted(listed - set(depth))[:5])


def test_unlisted_pages_are_published_but_linked_from_nowhere(built):
    pages = {p.path: p for p in built.pages}
    assert "/secret" in pages
    assert not [p.path for p in built.pages if "/secret" in links(p)]


def test_chrome_names_pages_only_in_attributes(built):
    """Breadcrumbs and previous/next carry titles in aria-label: no page's text holds another's title."""
    page = {p.path: p for p in built.pages}["/api/call-03"]
    assert 'aria-label="API"' in page.html and 'rel="prev"' in page.html and 'rel="next"' in page.html
    outside_main = page.html.split("<main")[0] + page.html.split("</main>")[1]
    assert "Call 02" not in re.sub(r'aria-label="[^"]*"', "", outside_main)


def source(path: str, **meta) -> page_source.PageSource:
    slug = page_source.default_slug(path)
    return page_source.PageSource(path, slug, None, "en", "", 1, **meta)


def test_pages_follow_front_matter_order_then_title_with_folders_under_their_heads():
    pages = [source("index.md"), source("zebra.md", order=1), source("apple.md"), source("mango.md"),
             source("guide/index.md", order=2), source("guide/b.md"), source("guide/a.md", nav_label="Aa")]
    titles = {p.slug: p.slug.rsplit("/", 1)[-1].capitalize() for p in pages}
    nav = navigation.build(pages, titles)
    assert [(e.source.source, e.depth) for e in nav.entries] == [
        ("index.md", 0), ("zebra.md", 0), ("guide/index.md", 0), ("guide/a.md", 1), ("guide/b.md", 1),
        ("apple.md", 0), ("mango.md", 0)]
    assert [e.title for e in nav.crumbs["/guide/b"]] == ["Index", "Guide"]
    assert nav.contents_path == "/contents"
    before, after = nav.neighbours("/guide/a")
    assert (before.source.source, after.source.source) == ("guide/index.md", "guide/b.md")


@pytest.mark.parametrize("files, order, heads", [
    # Docusaurus: category positions order folders among pages; the label names the head page
    ({"intro.md": "---\nsidebar_position: 1\n---\n# Intro", "basics/_category_.json": '{"label": "Basics", "position": 2}',
      "basics/page.md": "# A page", "extras/_category_.yml": "label: Extras\nposition: 0.5\n",
      "extras/index.md": "# Extras overview", "extras/more.md": "# More"},
     ["/extras", "/extras/more", "/intro", "/basics/page"], {"/extras": "Extras"}),
    # the head page's own front matter wins over its category
    ({"a.md": "---\nsidebar_position: 5\n---\n# A", "z/_category_.json": '{"label": "Zed", "position": 0}',
      "z/index.md": "---\nsidebar_label: Own label\nsidebar_position: 9\n---\n# Z"},
     ["/a", "/z"], {"/z": "Own label"}),
    # an unreadable category file changes nothing and is named in a warning
    ({"a.md": "# A", "b/_category_.json": "{not json", "b/page.md": "# B page"}, ["/a", "/b/page"], {}),
])
def test_docusaurus_categories_order_folders_and_name_their_heads(write_content, files, order, heads):
    build = run(BuildConfig(write_content(files)))
    contents = next(p for p in build.pages if p.generated).html
    listed = re.findall(r'<a href="(/[^"]*)" lang="en">([^<]*)</a>', contents.split('<ul class="contents">')[1])
    assert [path for path, _ in listed] == order
    assert {path: title for path, title in listed if path in heads} == heads
    broken = [w for w in build.warnings if "category file" in w]
    assert broken == (["category file ignored, not readable: b/_category_.json (JSONDecodeError)"]
                      if "b/_category_.json" in files else [])


@pytest.mark.parametrize("summary", [
    # mdBook: a title, a prefix chapter, numbered chapters nested, a draft chapter
    "# Summary\n\n[Preface](README.md)\n\n- [Zebra stripes](./zebra.md)\n  - [Why stripes](zebra/why.md)\n"
    "- [Apples](apples.md)\n- [Coming soon]()\n",
    # GitBook: `*` items, an anchor, a section heading
    "# Table of contents\n\n* [Preface](README.md)\n\n## Animals\n\n* [Zebra stripes](zebra.md#top)\n"
    "  * [Why stripes](<zebra/why.md>)\n* [Apples](apples.md \"Fruit\")\n",
])
def test_a_books_summary_sets_the_reading_order_and_is_not_a_page(write_content, summary):
    build = run(BuildConfig(write_content({
        "SUMMARY.md": summary, "README.md": "# Preface\n\nWhy this book.", "apples.md": "# Apples\n\nRed.",
        "zebra.md": "# Zebra stripes\n\nBlack and white.", "zebra/why.md": "# Why stripes\n\nFlies.",
        "notes.md": "---\norder: 1\n---\n# Notes\n\nIts own order wins."})))
    contents = next(p for p in build.pages if p.generated).html
    listed = re.findall(r'<a href="(/[^"]*)" lang="en">', contents.split('<ul class="contents">')[1])
    assert listed == ["/", "/notes", "/zebra", "/zebra/why", "/apples"]
    assert "/summary" not in [p.path for p in build.pages]
    assert "SUMMARY.md read as the reading order of the pages it links to (mdBook, GitBook), not published" \
        in build.warnings


def test_numbers_that_start_file_and_folder_names_order_them_unless_front_matter_does(write_content):
    build = run(BuildConfig(write_content({
        "index.md": "# Home", "10-deploy.md": "# Deploy", "2-install.md": "# Install", "1-intro.md": "# Zebra intro",
        "03-guides/index.md": "# Guides", "03-guides/2_b.md": "# B guide", "03-guides/1_a.md": "# Z guide",
        "04-reference/api.md": "# API", "2024-01-05-news.md": "# A news post", "404.md": "# Not found",
        "9-pinned.md": "---\norder: 0\n---\n# Pinned"})))
    contents = next(p for p in build.pages if p.generated).html
    listed = re.findall(r'<a href="(/[^"]*)" lang="en">', contents.split('<ul class="contents">')[1])
    assert listed == ["/", "/9-pinned", "/1-intro", "/2-install", "/03-guides", "/03-guides/1_a", "/03-guides/2_b",
                      "/04-reference/api", "/10-deploy", "/2024-01-05-news", "/404"]


PAGES = {"index.md": "# Welcome", "zebra.md": "# Zebra stripes", "apples.md": "# Apples",
         "guide/index.md": "# Guide", "guide/b.md": "# B step", "guide/a.md": "# A step"}
NAV = """site_name: Fruit
markdown_extensions:
  - pymdownx.emoji:
      emoji_index: !!python/name:material.extensions.emoji.twemoji
nav:
  - Home: index.md
  - Animals:
    - Stripes explained: zebra.md
    - Source: https://example.com/source
  - guide/index.md
  - Steps:
    - guide/b.md
    - <code>A</code>&#8203; first: guide/a.md
"""
WALKED = ["/", "/zebra", "/guide", "/guide/b", "/guide/a", "/apples"]


@pytest.mark.parametrize("settings", [
    # a billion laughs: nine levels of aliases, each ten times the one before
    "a: &a [index.md, zebra.md]\n" + "".join(f"{n}: &{n} [{', '.join(['*' + p] * 10)}]\n"
                                              for p, n in zip("abcdefghi", "bcdefghij")) + "nav: *j\n",
    "nav: " + "[" * 3000 + "index.md" + "]" * 3000 + "\n",       # nested deeper than Python recurses
])
def test_a_hostile_mkdocs_nav_neither_hangs_nor_refuses_the_release(write_content, settings):
    folder = write_content({"mkdocs.yml": settings, **{f"docs/{k}": v for k, v in PAGES.items()}}, "project")
    build = run(BuildConfig(folder / "docs"))
    assert len(build.authored) == len(PAGES)


@pytest.mark.parametrize("files, content, order, labels, warning", [
    # MkDocs: nav in mkdocs.yml beside the docs folder, with titles, sections, a link and a python tag
    ({"mkdocs.yml": NAV, **{f"docs/{k}": v for k, v in PAGES.items()}}, "docs", WALKED,
     {"/": "Home", "/zebra": "Stripes explained", "/guide/a": "A first", "/apples": "Apples"},
     "reading order read from ../mkdocs.yml: 5 pages; not in it, so after the listed ones: apples.md"),
    # a translation that inherits its nav, its docs_dir by default, two folders down
    ({"en/mkdocs.yml": NAV, "ja/mkdocs.yml": "INHERIT: ../en/mkdocs.yml\ntheme:\n  language: ja\n",
      **{f"ja/docs/{k}": v for k, v in PAGES.items()}}, "ja/docs", WALKED, {"/zebra": "Stripes explained"},   # in ja
     "reading order read from ../mkdocs.yml: 5 pages"),
    # the settings name another folder: the folder's own order
    ({"mkdocs.yml": "docs_dir: website\n" + NAV, **{f"docs/{k}": v for k, v in PAGES.items()}}, "docs",
     ["/", "/apples", "/guide", "/guide/a", "/guide/b", "/zebra"], {"/zebra": "Zebra stripes"}, None),
    # settings YAML that does not parse: named, and the folder's own order
    ({"mkdocs.yml": "nav: [unclosed", **{f"docs/{k}": v for k, v in PAGES.items()}}, "docs",
     ["/", "/apples", "/guide", "/guide/a", "/guide/b", "/zebra"], {},
     "../mkdocs.yml ignored, not readable (ParserError); pages in the folder's own order"),
    # MyST (Jupyter Book 2): project.toc with titles, children and a pattern
    ({**PAGES, "myst.yml": "version: 1\nproject:\n  toc:\n    - file: index.md\n    - file: zebra.md\n"
      "      title: Stripes explained\n    - file: guide/index.md\n      children:\n        - pattern: guide/*.md\n"},
     "", ["/", "/zebra", "/guide", "/guide/a", "/guide/b", "/apples"], {"/zebra": "Stripes explained"},
     "reading order read from myst.yml: 5 pages"),
    # Jupyter Book 1: _toc.yml with names written without their suffix
    ({**PAGES, "_toc.yml": "format: jb-book\nroot: index\nchapters:\n- file: zebra\n- file: guide/index\n"
      "  sections:\n  - file: guide/b\n  - file: guide/a\n"}, "", WALKED, {}, "reading order read from _toc.yml"),
    # Sphinx toctrees in MyST pages, depth first from the home page, options either way, titled entries
    ({**PAGES, "index.md": "# Welcome\n\n```{toctree}\n---\nmaxdepth: 2\nhidden:\n---\n\nStripes explained <zebra>\n"
      "guide/index\nhttps://example.com\n```\n",
      "guide/index.md": "# Guide\n\n:::{toctree}\n:hidden:\n\nb\nA first </guide/a>\n:::\n"}, "", WALKED,
     {"/zebra": "Stripes explained", "/guide/a": "A first"}, "reading order read from {toctree} directives: 5 pages"),
    # a glob toctree lists its matches by name; front matter's own order still wins
    ({**PAGES, "zebra.md": "---\norder: 0\n---\n# Zebra stripes",
      "index.md": "# Welcome\n\n```{toctree}\n:glob:\n\nguide/index\nguide/*\napples\n```\n"}, "",
     ["/", "/zebra", "/guide", "/guide/a", "/guide/b", "/apples"], {}, "reading order read from {toctree}"),
    # docsify: _sidebar.md, links from the root or beside it
    ({**PAGES, "_sidebar.md": "- [Home](/)\n- [Stripes explained](zebra.md)\n- [Guide](guide/)\n"
      "  - [B step](/guide/b)\n  - [A first](guide/a.md)\n"}, "", WALKED,
     {"/zebra": "Stripes explained", "/guide/a": "A first"}, "reading order read from _sidebar.md: 4 pages"),
    # Mintlify: docs.json groups nested in tabs and in groups
    ({**PAGES, "docs.json": '{"name": "Fruit", "navigation": {"tabs": [{"tab": "Docs", "groups": ['
      '{"group": "Start", "pages": ["index", "zebra"]}, {"group": "Guide", "pages": ["guide/index", '
      '{"group": "Steps", "pages": ["guide/b", "guide/a"]}]}]}]}}'}, "", WALKED, {},
     "reading order read from docs.json: 5 pages"),
    # Quarto: _quarto.yml's website sidebar, sections of contents, an href entry labelled by its text
    ({**PAGES, "_quarto.yml": "project:\n  type: website\nwebsite:\n  navbar:\n    left:\n      - apples.md\n"
      "  sidebar:\n    contents:\n      - index.md\n      - zebra.md\n      - section: Guide\n        contents:\n"
      "          - guide/index.md\n          - guide/b.md\n          - text: A step\n            href: guide/a.md\n"}, "",
     WALKED, {"/guide/a": "A step"}, "reading order read from _quarto.yml: 5 pages"),
    # Nextra: _meta.json in each folder, in key order, titles as labels; the parent's title names a folder
    ({**PAGES, "_meta.json": '{"index": "Home", "zebra": "Stripes explained", "---": {"type": "separator"}, '
      '"guide": "The guide", "contact": {"title": "Contact", "href": "https://example.com"}}',
      "guide/_meta.json": '{"index": "Overview", "b": {"title": "B first"}, "a": "A step"}'}, "", WALKED,
     {"/": "Home", "/zebra": "Stripes explained", "/guide": "The guide", "/guide/b": "B first"},
     "reading order read from 2 folder listing files: _meta.json, guide/_meta.json"),
    # Fumadocs: meta.json pages with a separator, the rest and a hidden one; a folder's own title names it
    ({**PAGES, "meta.json": '{"title": "Docs", "pages": ["index", "zebra", "---Guides---", "guide", "...", "!old"]}',
      "guide/meta.json": '{"title": "The guide", "pages": ["index", "b", "a"]}'}, "", WALKED, {"/guide": "The guide"},
     "reading order read from 2 folder listing files"),
    # mkdocs-awesome-pages: .pages with file names, a titled entry and the rest
    ({**PAGES, ".pages": "nav:\n  - index.md\n  - Stripes explained: zebra.md\n  - guide\n  - ...\n",
      "guide/.pages": "title: The guide\nnav:\n  - b.md\n  - a.md\n"}, "", WALKED,
     {"/zebra": "Stripes explained", "/guide": "The guide"}, "reading order read from 2 folder listing files"),
    # a listing file that does not parse is named; the others still count
    ({**PAGES, "_meta.json": "{oops", "guide/_meta.json": '{"b": "B step", "a": "A step"}'}, "",
     ["/", "/apples", "/guide", "/guide/b", "/guide/a", "/zebra"], {},
     ["listing file ignored, not readable: _meta.json (JSONDecodeError)",
      "reading order read from 1 folder listing file: guide/_meta.json"]),
    # nested deeper than Python reads JSON: named the same way
    ({**PAGES, "_meta.json": "[" * 100_000 + "]" * 100_000, "guide/_meta.json": '{"b": "B step", "a": "A step"}'},
     "", ["/", "/apples", "/guide", "/guide/b", "/guide/a", "/zebra"], {},
     ["listing file ignored, not readable: _meta.json (RecursionError)",
      "reading order read from 1 folder listing file: guide/_meta.json"]),
    # Docusaurus: sidebars.js beside the docs folder, read as text: ids in order (number prefixes and a front
    # matter id as Docusaurus reads them), labels, links and comments passed over
    ({"sidebars.js": "// 'apples' is last\nmodule.exports = {docs: ['index', {type: 'link', label: 'Apples',"
                     " href: 'https://example.com/apples'}, {type: 'doc', id: 'stripes', label: 'Zebra'},\n"
                     "  /* 'guide/a' */ {type: 'category', label: 'Guide', items: [\"guide/index\", `guide/b`,"
                     " 'guide/a']}]};\n",
      **{f"docs/{k}": v for k, v in PAGES.items() if k not in ("zebra.md", "guide/a.md")},
      "docs/02-zebra.md": "---\nid: stripes\n---\n# Zebra stripes", "docs/guide/01-a.md": "# A step"}, "docs",
     ["/", "/stripes", "/guide", "/guide/b", "/guide/01-a", "/apples"], {},
     "reading order read from ../sidebars.js: 5 pages; not in it, so after the listed ones: apples.md"),
    # VitePress: the sidebar's links in .vitepress/config.mts, after the top navigation, which is not the order
    ({**PAGES, ".vitepress/config.mts": "export default defineConfig({\n  title: 'Fruit',\n  themeConfig: {\n"
      "    nav: [{ text: 'Apples', link: '/apples' }],\n    sidebar: [\n      { text: 'Home', link: '/' },\n"
      "      { text: 'Stripes explained', link: '/zebra' },\n      { text: 'Guide', link: '/guide/', items: [\n"
      "        { text: 'B', link: '/guide/b.md' }, { text: 'A', link: '/guide/a#top' }] }]\n  }\n})\n"}, "",
     WALKED, {}, "reading order read from .vitepress/config.mts: 5 pages; not in it, so after the listed ones: apples.md"),
    # VitePress: a group's `base` comes before the links of its items, nested groups inheriting it
    ({**PAGES, ".vitepress/config.mts": "export default {\n  themeConfig: {\n    sidebar: [\n      { link: '/' },\n"
      "      { link: '/zebra' },\n      { text: 'Guide', base: '/guide', items: [\n        { link: '/' },\n"
      "        { text: 'Steps', items: [{ link: '/b' }, { link: '/a' }] }] },\n      { link: '/apples' }]\n  }\n}\n"}, "",
     WALKED, {}, "reading order read from .vitepress/config.mts: 6 pages"),
    # a sidebar generated from the folder names no doc: the folder's own order
    ({"sidebars.ts": "const sidebars = {tutorialSidebar: [{type: 'autogenerated', dirName: '.'}]};\n",
      **{f"docs/{k}": v for k, v in PAGES.items()}}, "docs",
     ["/", "/apples", "/guide", "/guide/a", "/guide/b", "/zebra"], {}, None),
], ids=["mkdocs-nav", "mkdocs-inherit", "mkdocs-of-another-folder", "mkdocs-unreadable", "myst-toc",
        "jupyter-book-toc", "toctrees", "toctree-glob", "docsify-sidebar", "mintlify", "quarto-sidebar", "nextra", "fumadocs",
        "awesome-pages", "listing-unreadable", "listing-too-deep", "docusaurus-sidebars",
        "vitepress-sidebar", "vitepress-base", "docusaurus-autogenerated"])
def test_the_folders_own_table_of_contents_sets_the_reading_order_and_labels(
        write_content, files, content, order, labels, warning):
    folder = write_content(files, "project")
    build = run(BuildConfig(folder / content if content else folder))
    contents = next(p for p in build.pages if p.generated).html
    listed = re.findall(r'<a href="(/[^"]*)" lang="[^"]+">([^<]*)</a>', contents.split('<ul class="contents">')[1])
    assert [path for path, _ in listed] == order
    assert {path: title for path, title in listed if path in labels} == labels
    said = [w for w in build.warnings if "reading order" in w or "ignored, not readable" in w]
    expected = [] if warning is None else [warning] if isinstance(warning, str) else warning
    assert len(said) == len(expected) and all(any(w.startswith(start) for w in said) for start in expected)
