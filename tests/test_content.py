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


@pytest.mark.parametrize("body, language", [
    # a translated docs page full of English API names and code is still Japanese
    ("# パスパラメータ\n\nPython のフォーマット文字列と同じ構文で `item_id` を宣言できます。\n\n"
     "```python\n@app.get(\"/items/{item_id}\")\nasync def read_item(item_id):\n    return {\"item_id\": item_id}\n```\n"
     "[FastAPI](https://fastapi.tiangolo.com/) と Pydantic を使います。", "ja"),
    ("# 경로 매개변수\n\n`item_id`의 값은 함수의 item_id 인자로 전달됩니다. Pydantic을 사용합니다.", "ko"),
    ("# Параметры пути\n\nЗначение `item_id` передаётся в функцию как аргумент.", "ru"),
    ("# Параметри шляху\n\nЗначення передається у функцію як аргумент.", "uk"),
    ("# 路径参数\n\n你可以使用与 Python 格式化字符串相同的语法来声明路径参数。", "zh"),
    ("# Path parameters\n\nDeclare `item_id` as in a format string; the 日本語 docs say the same.", "de"),
    # Latin letters, too few function words to tell (trigsight.languages): the site's language
    ("# Paramètres de chemin\n\nLa valeur est passée à la fonction.", "de"),
])
def test_a_page_without_a_language_is_read_in_the_language_its_script_tells(write_content, body, language):
    folder = write_content({"page.md": body})
    assert content.run(folder, default_language="de").pages[0].language == language


def test_front_matter_language_wins_over_the_script(write_content):
    folder = write_content({"page.md": "---\nlanguage: en\n---\nこのページは日本語で書かれています。"})
    assert content.run(folder).pages[0].language == "en"


@pytest.mark.parametrize("files, where, message", [
    ({"a.md": "---\ntitle: [unclosed\n---\nx"}, "a.md:3", "malformed front matter"),
    ({"a.md": "---\ntitle: x\nno closing fence\n"}, "a.md:1", "never closed"),
    ({"a.md": "---\n- a list\n---\nx"}, "a.md:2", "must be a mapping"),
    ({"a.md": "---\nslug: Bad Slug!\n---\nx"}, "a.md:2", "slug 'Bad Slug!'"),
    ({"a.md": "---\ntitle: ok\nhide-toc: [unclosed\n---\nx"}, "a.md:4", "malformed front matter"),
    ({"a.md": "---\nsidebar_label: {a: 1}\n---\nx"}, "a.md:2", "`sidebar_label` must be a text value"),
    ({"a.md": "---\nslug: same\n---\nx", "b.md": "---\nslug: same\n---\ny"}, "b.md:1", "duplicate slug 'same'"),
    ({"a.md": b"line one\nline two \xff\xfe\n"}, "a.md:2", "not valid UTF-8"),
    ({"a.md": "# Title\n\nA line.\n".encode("utf-16-le").join([b"\xff\xfe", b"\x00\xd8"])}, "a.md:4",
     "not valid UTF-16"),
    ({"a.md": "+++\ntitle = 'x'\nweight = = 3\n+++\nx"}, "a.md:3", "malformed front matter"),
    ({"a.md": "+++\ntitle = 'x'\n"}, "a.md:1", "'+++' is never closed"),
    ({"a.md": "+++\nslug = 'Bad Slug!'\n+++\nx"}, "a.md:2", "slug 'Bad Slug!'"),
    ({"api/chat.md": "x"}, "api/chat.md:1", "its address /api/chat is the site's own endpoint"),
    ({"a.md": "---\nslug: api/mcp\n---\nx"}, "a.md:1", "its address /api/mcp is the site's own endpoint"),
])
def test_bad_content_is_reported_with_file_and_line(write_content, files, where, message):
    folder = write_content(files)
    with pytest.raises(ContentError) as caught:
        content.run(folder)
    assert any(str(p).startswith(str(folder / where.split(":")[0]) + ":" + where.split(":")[1])
               and message in p.message for p in caught.value.problems), str(caught.value)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-be", "utf-8-sig"])
def test_a_page_saved_as_utf16_or_with_a_byte_order_mark_is_read(write_content, encoding):
    text = "---\ntitle: Über\n---\n\n日本語とEnglish, CRLF too.\r\n"
    raw = text.encode(encoding) if encoding != "utf-16-be" else b"\xfe\xff" + text.encode("utf-16-be")
    page = content.run(write_content({"a.md": raw})).pages[0]
    assert (page.title, page.body.strip()) == ("Über", "日本語とEnglish, CRLF too.")


def test_hugo_toml_front_matter_and_section_pages_are_read(write_content):
    folder = write_content({"docs/_index.md": "+++\ntitle = 'Docs'\nweight = 2\ndraft = false\n+++\n\nSection.",
                            "docs/setup.md": "+++\ntitle = \"Set up\"\nlinkTitle = \"Setup\"\n"
                                             "date = 2024-01-02T03:04:05Z\n+++\nBody.",
                            "docs/old.md": "+++\ndraft = true\n+++\nOld."})
    result = content.run(folder)
    pages = {p.source: p for p in result.pages}
    assert (pages["docs/_index.md"].slug, pages["docs/_index.md"].title, pages["docs/_index.md"].order) == \
           ("docs", "Docs", 2)
    assert (pages["docs/setup.md"].title, pages["docs/setup.md"].nav_label, pages["docs/setup.md"].body_line) == \
           ("Set up", "Setup", 6)
    assert result.excluded == ["docs/old.md"] and result.ignored_keys == {"date": ["docs/setup.md"]}


@pytest.mark.parametrize("files, served", [
    # Hugo's translations by file name, beside the page in the site's language or another translation
    ({"about.md": "About.", "about.fr.md": "À propos.", "docs/_index.md": "Docs.", "docs/_index.pt-br.md": "Docs."},
     {"about.md": ("/about", "en"), "about.fr.md": ("/fr/about", "fr"), "docs/_index.md": ("/docs", "en"),
      "docs/_index.pt-br.md": ("/pt-br/docs", "pt-BR")}),
    ({"guide.de.md": "Anleitung.", "guide.ja.md": "ガイド。"}, {"guide.de.md": ("/de/guide", "de"),
                                                                "guide.ja.md": ("/ja/guide", "ja")}),
    # the site's own language keeps the page's address
    ({"setup.en.md": "Set up.", "setup.ko.md": "설정."}, {"setup.en.md": ("/setup", "en"),
                                                       "setup.ko.md": ("/ko/setup", "ko")}),
    # a name that only looks coded, alone, is a page of that name; a code no language has is a name
    ({"socket.io.md": "Sockets.", "engine.io.md": "Engines.", "next.js.md": "Next.", "next.md": "Next."},
     {"socket.io.md": ("/socket.io", "en"), "engine.io.md": ("/engine.io", "en"), "next.js.md": ("/next.js", "en"),
      "next.md": ("/next", "en")}),
    # front matter still wins
    ({"a.md": "A.", "a.fr.md": "---\nslug: francais/a\nlanguage: fr-CA\n---\nA."},
     {"a.md": ("/a", "en"), "a.fr.md": ("/francais/a", "fr-CA")}),
])
def test_translations_named_by_their_file_are_served_in_their_languages_folder(write_content, files, served):
    pages = {p.source: (p.path, p.language) for p in content.run(write_content(files)).pages}
    assert pages == served


def test_partials_and_installed_packages_are_not_pages(write_content):
    folder = write_content({"index.md": "Home.", "_shared.mdx": "Included.", "guide/_steps.md": "Included.",
                            "node_modules/pkg/README.md": "A dependency's readme."})
    result = content.run(folder)
    assert [p.source for p in result.pages] == ["index.md"]
    assert result.partials == ["_shared.mdx", "guide/_steps.md"]
    assert result.warnings == ["partials not published as pages (names or folders starting with _): "
                               "_shared.mdx, guide/_steps.md"]
    with pytest.raises(ContentError, match="partial"):
        content.run(write_content({"_only.md": "x"}, folder="partials-only"))


def test_a_jekyll_sites_posts_are_pages_its_drafts_drafts_and_its_underscore_folders_partials(write_content):
    """Before, `_posts/…` made a slug starting with "_" and the whole site was refused."""
    folder = write_content({"index.md": "---\nlayout: home\n---\nHome.",
                            "_posts/2024-01-05-first-frost.md": "---\nlayout: post\ntitle: First frost\n---\nText.",
                            "garden/_posts/2024-02-01-seeds.md": "Seeds.", "_drafts/idea.md": "An idea.",
                            "_includes/note.md": "Included.", "_layouts/default.md": "Layout."})
    result = content.run(folder)
    assert sorted(p.slug for p in result.pages) == ["garden/posts/2024-02-01-seeds", "index",
                                                   "posts/2024-01-05-first-frost"]
    assert result.excluded == ["_drafts/idea.md"]
    assert result.partials == ["_includes/note.md", "_layouts/default.md"]


def test_pages_in_other_formats_are_named_never_lost_silently(write_content):
    folder = write_content({"index.md": "Home.", "api/index.rst": "API\n===", "tour.textile": "h1. Tour",
                            "guide.org": "* Guide", "notes.txt": "x", "logo.png": b"png"})
    assert content.run(folder).warnings == [
        "pages in formats trigsight does not read, not published: 1 .org (guide.org), 1 .textile (tour.textile)"]
    with pytest.raises(ContentError, match=r"no markdown files .*; found 1 \.org \(index\.org\), which trigsight"):
        content.run(write_content({"index.org": "* Title"}, folder="org"))


def test_empty_folder_is_a_content_error(tmp_path):
    with pytest.raises(ContentError, match="no markdown files"):
        content.run(tmp_path)


def test_missing_folder_is_a_usage_error(tmp_path):
    with pytest.raises(UsageError):
        content.run(tmp_path / "nope")


GENERATOR_KEYS = """---
title: Gates
sidebar_label: Gates (short)
sidebar_position: 3
hide-toc: true
layout: docs
tags: [a, b]
keywords: [gate]
search: {exclude: true}
---
Body.
"""


def test_keys_of_other_generators_are_understood_or_ignored_with_one_warning(write_content):
    folder = write_content({"gates.md": GENERATOR_KEYS, "b.md": "---\nlayout: page\nweight: 7\n---\nB.\n"})
    result = content.run(folder)
    page = {p.source: p for p in result.pages}["gates.md"]
    assert (page.title, page.nav_label, page.order, page.toc) == ("Gates", "Gates (short)", 3, False)
    assert {p.source: p.order for p in result.pages}["b.md"] == 7
    assert result.warnings == ["front matter keys ignored: keywords (gates.md); layout (b.md, gates.md); "
                               "search (gates.md); tags (gates.md)"]


@pytest.mark.parametrize("front, label, order, unlisted, ignored", [
    # Starlight
    ("sidebar:\n  label: Short\n  order: 2\n  badge: New", "Short", 2, False, ["sidebar.badge (a.md)"]),
    ("sidebar:\n  hidden: true", "", None, True, []),
    # Mintlify
    ("sidebarTitle: Quick", "Quick", None, False, []),
    # a sidebar key that is no mapping is another generator's: ignored, named
    ("sidebar: auto", "", None, False, ["sidebar (a.md)"]),
])
def test_a_nested_sidebar_mapping_gives_label_order_and_hiding(write_content, front, label, order, unlisted, ignored):
    result = content.run(write_content({"a.md": f"---\n{front}\n---\nA.\n", "b.md": "B."}))
    page = {p.source: p for p in result.pages}["a.md"]
    assert (page.nav_label, page.order, page.unlisted) == (label, order, unlisted)
    assert result.warnings == ([f"front matter keys ignored: {'; '.join(ignored)}"] if ignored else [])


@pytest.mark.parametrize("front, published, unlisted", [
    ("draft: true", False, False), ("published: false", False, False), ("draft: false", True, False),
    ("unlisted: true", True, True), ("orphan: true", True, True), ("nav_exclude: true", True, True),
])
def test_drafts_are_not_published_and_unlisted_pages_are(write_content, front, published, unlisted):
    folder = write_content({"a.md": f"---\n{front}\n---\nA.\n", "b.md": "B."})
    result = content.run(folder)
    pages = {p.source: p for p in result.pages}
    assert ("a.md" in pages) == published and (result.excluded == ([] if published else ["a.md"]))
    if published:
        assert pages["a.md"].unlisted == unlisted


@pytest.mark.parametrize("file, slug, path", [
    ("入門.md", "入門", "/%E5%85%A5%E9%96%80"),
    ("руководство/Установка.md", "руководство/установка",
     "/%D1%80%D1%83%D0%BA%D0%BE%D0%B2%D0%BE%D0%B4%D1%81%D1%82%D0%B2%D0%BE/%D1%83%D1%81%D1%82%D0%B0%D0%BD%D0%BE%D0%B2%D0%BA%D0%B0"),
    ("시작하기.md", "시작하기", "/%EC%8B%9C%EC%9E%91%ED%95%98%EA%B8%B0"),
    ("Über uns.md", "über-uns", "/%C3%BCber-uns"),
    # the vowel signs of Devanagari are marks, not separators
    ("हिन्दी.md", "हिन्दी", "/%E0%A4%B9%E0%A4%BF%E0%A4%A8%E0%A5%8D%E0%A4%A6%E0%A5%80"),
    ("C#.md", "c", "/c"),
    ("notes_2024--draft.md", "notes_2024--draft", "/notes_2024--draft"),
])
def test_a_file_named_in_any_script_keeps_its_letters_in_its_slug_and_is_served_percent_encoded(
        write_content, file, slug, path):
    folder = write_content({file: "# Title\n\nText.\n"})
    page = content.run(folder).pages[0]
    assert (page.slug, page.path) == (slug, path)


def test_pages_named_only_in_other_scripts_do_not_collide(write_content):
    folder = write_content({"入門.md": "入門。", "概要.md": "概要。", "установка.md": "Текст.", "über.md": "Ü.",
                            "ber.md": "B."})
    assert sorted(p.slug for p in content.run(folder).pages) == ["ber", "über", "установка", "入門", "概要"]


@pytest.mark.parametrize("slug, accepted", [
    ("начало", True), ("docs/はじめに", True), ("guide/setup-2", True),
    ("Начало", False), ("docs/-x", False), ("a b", False), ("a//b", False),
])
def test_a_front_matter_slug_may_be_written_in_any_script_but_only_in_lower_case(write_content, slug, accepted):
    folder = write_content({"a.md": f"---\nslug: {slug}\n---\nText.\n"})
    if accepted:
        assert content.run(folder).pages[0].slug == slug
    else:
        with pytest.raises(ContentError, match="must be lowercase letters"):
            content.run(folder)


@pytest.mark.parametrize("front, slug", [
    ("slug: /gates/source", "gates/source"), ("id: intro", "docs/intro"),
    ("permalink: /about-us/", "about-us"), ("permalink: /:year/:title/", "docs/page"),
])
def test_slug_aliases_of_other_generators(write_content, front, slug):
    folder = write_content({"docs/page.md": f"---\n{front}\n---\nText.\n"})
    assert content.run(folder).pages[0].slug == slug


@pytest.mark.parametrize("index", ["index.md", "_index.md", "index.mdx"])
def test_a_readme_beside_an_index_page_is_left_out_and_named_as_mkdocs_does(write_content, index):
    folder = write_content({index: "# Home\n\nHome.", "README.md": "# Readme\n\nHow to build.",
                            f"guide/{index}": "# Guide\n\nGuide.", "guide/README.md": "# For contributors",
                            "notes/README.md": "# Notes\n\nThe notes folder's only page."})
    result = content.run(folder)
    assert sorted(p.source for p in result.pages) == sorted([index, f"guide/{index}", "notes/README.md"])
    assert result.readmes == ["README.md", "guide/README.md"]
    assert "README files beside an index page, not published (the index is the folder's page): " \
           "README.md, guide/README.md" in result.warnings


@pytest.mark.parametrize("head", ["index.md", "README.md", "_index.md"])
def test_a_page_at_its_folders_address_gives_way_to_the_folders_own_page(write_content, head):
    folder = write_content({"deployment.md": "# Deployment (old)", f"deployment/{head}": "# Deployment",
                            "deployment/docker.md": "# Docker", "other.md": "---\nslug: elsewhere\n---\n# Other"})
    result = content.run(folder)
    assert sorted(p.source for p in result.pages) == sorted([f"deployment/{head}", "deployment/docker.md", "other.md"])
    assert "pages at the address of their folder's own page, not published (the folder's page wins): " \
           "deployment.md" in result.warnings


def test_a_slug_written_twice_is_still_refused(write_content):
    folder = write_content({"a.md": "---\nslug: deployment\n---\n# A", "deployment/index.md": "# Deployment"})
    with pytest.raises(ContentError, match="duplicate slug 'deployment'"):
        content.run(folder)


@pytest.mark.parametrize("files, redirects", [
    # the old page names where it went: as a site path, a generator's URL beside its own, a file beside it
    ({"new.md": "New.", "old.md": "---\nredirect_to: /new/\n---\nMoved."}, {"/old": "/new"}),
    ({"a/new.md": "New.", "a/old.md": '<meta http-equiv="refresh" content="0;URL=\'new.html#top\'">\n\nMoved.'},
     {"/a/old": "/a/new#top"}),
    ({"cli/install.rst": "Install\n=======\n\nText.\n",
      "ref/install.rst": ".. meta::\n   :http-equiv=refresh: 3; url=../../cli/install/\n\nMoved\n=====\n\nGone.\n"},
     {"/ref/install": "/cli/install"}),
    ({"guide/setup.md": "---\nslug: setup\n---\nSet up.", "old.md": "---\nredirect_to: guide/setup.md\n---\nMoved."},
     {"/old": "/setup"}),
    # the new page names its old addresses: from the root, or beside its folder (Hugo)
    ({"docs/new.md": "---\naliases: [/first, second.html]\nredirect_from: /third/\n---\nNew."},
     {"/first": "/docs/new", "/docs/second": "/docs/new", "/third": "/docs/new"}),
])
def test_pages_that_moved_and_old_addresses_become_redirects_to_a_page(write_content, files, redirects):
    result = content.run(write_content(files))
    assert result.moved.redirects == redirects
    assert not any(page.source in result.moved.moved_sources for page in result.pages)


def test_mkdocs_redirect_maps_answer_old_files_with_their_new_page(write_content):
    settings = ("site_name: X\nplugins:\n  - search\n  - redirects:\n      redirect_maps:\n"
                "        old-setup.md: guide/setup.md#run\n        'guide/legacy/index.md': guide/setup.md\n"
                "        gone.md: https://example.org/x\n        index.md: guide/setup.md\n")
    project = write_content({"mkdocs.yml": settings, "docs/index.md": "Home.", "docs/guide/setup.md": "Run it."},
                            "project")
    result = content.run(project / "docs")
    assert result.moved.redirects == {"/old-setup": "/guide/setup#run", "/guide/legacy": "/guide/setup"}
    assert result.warnings == [
        "redirects in mkdocs.yml or conf.py naming no page of this folder, not served: gone.md → https://example.org/x",
        "old addresses that are another page's address, not redirected: index.md (redirects)"]


def test_sphinx_reredirects_answer_old_pages_with_their_new_page(write_content):
    conf = ("extensions = ['sphinx_reredirects']\nredirects = {'guide/old': '../setup/run.html#first', "
            "'faq': 'https://example.org/faq', 'old/*': '/new/$source.html'}\n")
    folder = write_content({"conf.py": conf, "index.rst": "Home\n====\n", "setup/run.rst": "Run\n===\n\nRun it.\n"})
    result = content.run(folder)
    assert result.moved.redirects == {"/guide/old": "/setup/run#first"}
    assert "redirects in mkdocs.yml or conf.py naming no page of this folder, not served: faq → " \
           "https://example.org/faq" in result.warnings


@pytest.mark.parametrize("files, warning", [
    ({"old.md": "---\nredirect_to: https://example.org/new\n---\nMoved."},
     "pages that say they moved to no page of this folder, published as they are: old.md → https://example.org/new"),
    ({"old.md": "---\nredirect_to: missing.html\n---\nMoved."},
     "pages that say they moved to no page of this folder, published as they are: old.md → missing.html"),
    ({"old.md": "---\nredirect_to: old.html\n---\nMoved."},     # itself
     "pages that say they moved to no page of this folder, published as they are: old.md → old.html"),
    ({"a.md": "---\naliases: [/b]\n---\nA.", "b.md": "B."},
     "old addresses that are another page's address, not redirected: /b (a.md)"),
])
def test_a_redirect_to_no_page_or_over_a_page_is_not_made_and_is_named(write_content, files, warning):
    result = content.run(write_content(files))
    assert warning in result.warnings and result.moved.redirects == {}
    assert sorted(page.source for page in result.pages) == sorted(files)


@pytest.mark.parametrize("head", [":orphan:\n\n.. meta::\n   :description: Old notes.\n\n",
                                  ".. meta::\n   :keywords: notes\n\n:orphan:\n\n"])
def test_an_rst_pages_orphan_field_is_never_text_beside_its_meta(write_content, head):
    [page] = content.run(write_content({"notes.rst": head + "Notes\n=====\n\nKeep them short.\n"})).pages
    assert page.unlisted and "orphan" not in page.body


@pytest.mark.parametrize("rewrites, addresses", [
    # the Chinese pages are the site's root, the English ones stay under /en; the README the root's index shadows
    ("'zh/:rest*': ':rest*'", {"/", "/guide", "/guide/setup", "/en", "/en/guide", "/own-address"}),
    ('"zh/guide.md": "start.md", "/zh/guide/:page": "steps/:page"',
     {"/zh", "/start", "/steps/setup", "/en", "/en/guide", "/own-address", "/"}),
    # a rewrite given by a function, or by other pattern syntax, is passed over
    ("'zh/(.*)': '(.*)'", {"/zh", "/zh/guide", "/zh/guide/setup", "/en", "/en/guide", "/own-address", "/"}),
])
def test_pages_are_served_where_vitepress_rewrites_say(write_content, rewrites, addresses):
    folder = write_content({
        ".vitepress/config.mts": f"export default defineConfig({{\n  rewrites: {{\n    {rewrites},\n  }},\n}})\n",
        "README.md": "# Read me", "zh/index.md": "# 首页", "zh/guide.md": "# 指南\n\n见 [安装](/guide/setup.html)。",
        "zh/guide/setup.md": "# 安装", "zh/other.md": "---\nslug: own-address\n---\n# 其他",
        "en/index.md": "# Home", "en/guide.md": "# Guide"})
    assert {page.path for page in content.run(folder).pages} == addresses


def test_a_link_to_a_rewritten_address_with_its_files_suffix_finds_the_page(write_content):
    from trigsight.build.builder import BuildConfig, run
    folder = write_content({".vitepress/config.mts": "export default { rewrites: { 'zh/:rest*': ':rest*' } }\n",
                            "zh/index.md": "# 首页\n\n见 [安装](/guide/setup.html)、[指南](/guide.md#top)。",
                            "zh/guide.md": "# 指南", "zh/guide/setup.md": "# 安装"})
    home = next(page for page in run(BuildConfig(folder)).pages if page.path == "/")
    assert 'href="/guide/setup"' in home.body_html and 'href="/guide#top"' in home.body_html
