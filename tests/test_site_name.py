"""The site keeps the name its generator's settings give it, unless TRIGSIGHT_SITE_TITLE names it."""
import json

import pytest
from trigsight.build import site_name
from trigsight.build.builder import BuildConfig, run
from trigsight.publishing.published import Release
from trigsight_site import create_app as create_site

from conftest import run_trigsight, write_files

PAGE = "# Welcome\n\nThe garden grows tomatoes in the summer.\n"


@pytest.mark.parametrize("files, folder, title, origin", [
    ({"mkdocs.yml": "site_name: Garden Guide\nnav:\n  - index.md\n"}, "docs", "Garden Guide", "../mkdocs.yml site_name"),
    ({"docs/conf.py": "project = 'Garden'\nrelease = get_version()\n"}, "docs", "Garden", "conf.py project"),
    ({"docs/myst.yml": "version: 1\nproject:\n  title: Garden Book\n"}, "docs", "Garden Book", "myst.yml project.title"),
    ({"docs/myst.yml": "version: 1\nsite:\n  title: Garden Site\n"}, "docs", "Garden Site", "myst.yml site.title"),
    ({"docs/_config.yml": "title: Garden Notes\nauthor: me\n"}, "docs", "Garden Notes", "_config.yml title"),
    ({"book.toml": "[book]\ntitle = \"The Garden Book\"\n"}, "src", "The Garden Book", "../book.toml title"),
    ({"docs/docs.json": json.dumps({"name": "Garden API", "navigation": []})}, "docs", "Garden API", "docs.json name"),
    ({"hugo.toml": "baseURL = 'https://x/'\ntitle = 'Garden Hugo'\n"}, "content", "Garden Hugo", "../hugo.toml title"),
    ({"docs/_quarto.yml": "project:\n  type: website\nwebsite:\n  title: Garden Tables\n"}, "docs", "Garden Tables",
     "_quarto.yml website.title"),
    ({"docs/_quarto.yml": "project:\n  type: book\nbook:\n  title: Garden Book\n"}, "docs", "Garden Book",
     "_quarto.yml book.title"),
    ({"docusaurus.config.js": "const config = {\n  title: 'Garden \\'Docs\\'',\n  tagline: 'x',\n  navbar: {\n"
                              "    title: 'Other',\n  },\n};\n"}, "docs", "Garden 'Docs'", "../docusaurus.config.js title"),
    ({"docs/.vitepress/config.mts": 'export default defineConfig({\n  title: "Garden Press",\n})\n'}, "docs",
     "Garden Press", ".vitepress/config.mts title"),
    ({"mkdocs.yml": "site_name: [not, text]\n", "docs/conf.py": "project = 'Second'\n"}, "docs", "Second",
     "conf.py project"),
    ({"docs/conf.py": "project = get_name()\n"}, "docs", "", ""),
    ({"docs/_config.yml": "title: [unclosed\n"}, "docs", "", ""),
    ({"docs/_config.yml": "title: " + "x" * 200 + "\n"}, "docs", "", ""),
    ({}, "docs", "", ""),
])
def test_the_site_is_named_as_its_generator_settings_name_it(tmp_path, files, folder, title, origin):
    named = site_name.run(write_files(tmp_path, {**files, f"{folder}/index.md": PAGE}) / folder)
    assert (named.title, named.origin) == (title, origin)


@pytest.mark.parametrize("files, folder, language, origin", [
    ({"mkdocs.yml": "site_name: Guide\ntheme:\n  name: material\n  language: ja\n"}, "docs", "ja",
     "../mkdocs.yml theme.language"),
    ({"docs/conf.py": "project = 'Garten'\nlanguage = 'zh_CN'\n"}, "docs", "zh-CN", "conf.py language"),
    ({"docs/_config.yml": "title: Notes\nlang: pt-BR\n"}, "docs", "pt-BR", "_config.yml lang"),
    ({"book.toml": "[book]\ntitle = 'Buch'\nlanguage = 'de'\n"}, "src", "de", "../book.toml language"),
    ({"hugo.toml": "title = 'x'\nlanguageCode = 'fr-fr'\ndefaultContentLanguage = 'fr'\n"}, "content", "fr",
     "../hugo.toml defaultContentLanguage"),
    ({"docusaurus.config.js": "module.exports = {\n  title: 'x',\n  i18n: {\n    defaultLocale: 'ko',\n  },\n};\n"},
     "docs", "ko", "../docusaurus.config.js defaultLocale"),
    ({"docs/.vitepress/config.mts": "export default {\n  lang: 'ru-RU',\n}\n"}, "docs", "ru-RU",
     ".vitepress/config.mts lang"),
    ({"docs/_quarto.yml": "website:\n  title: x\nlang: de\n"}, "docs", "de", "_quarto.yml lang"),
    ({"docs/conf.py": "language = 'english please'\n"}, "docs", "", ""),
    ({"docs/conf.py": "language = None\n", "mkdocs.yml": "theme:\n  language: es\n"}, "docs", "es",
     "../mkdocs.yml theme.language"),
])
def test_the_site_language_is_the_one_its_generator_settings_state(tmp_path, files, folder, language, origin):
    named = site_name.run(write_files(tmp_path, {**files, f"{folder}/index.md": PAGE}) / folder)
    assert (named.language, named.language_origin) == (language, origin)


def test_a_page_without_a_language_of_its_own_takes_the_generator_one(write_content):
    root = write_content({"docs/conf.py": "language = 'ja'\n", "docs/index.rst": "1\n=\n\n2024 3.1.4\n"}, folder="p")
    built = run(BuildConfig(root / "docs"))
    assert built.pages[0].source.language == "ja" and built.config.language == "ja"


@pytest.mark.parametrize("given, shown", [("", "Garden Guide"), ("Own Name", "Own Name")])
def test_every_page_title_and_header_carry_the_site_name(write_content, given, shown):
    root = write_content({"mkdocs.yml": "site_name: Garden Guide\n", "docs/index.md": PAGE}, folder="project")
    built = run(BuildConfig(root / "docs", site_title=given))
    html = built.pages[0].html
    assert f"<title>Welcome · {shown}</title>" in html and f'<a class="brand" href="/">{shown}</a>' in html
    assert any("site named 'Garden Guide'" in line for line in built.warnings) is (given == "")


def test_the_served_chat_and_mcp_keep_the_name_the_release_was_built_with(write_content, tmp_path):
    root = write_content({"mkdocs.yml": "site_name: Garden Guide\n", "docs/index.md": PAGE}, folder="project")
    out = tmp_path / "release"
    done = run_trigsight("release", "--content", str(root / "docs"), "--out", str(out),
                         env={"TRIGSIGHT_CACHE_DIR": str(tmp_path / "cache"), "TRIGSIGHT_SITE_TITLE": ""})
    assert done.returncode == 0, done.stderr
    assert Release.load(out).site_title == "Garden Guide"
    for configured, shown in (({}, "Garden Guide"), ({"SITE_TITLE": "Served Name"}, "Served Name")):
        client = create_site({"RELEASE_DIR": str(out), "TESTING": True, **configured}).test_client()
        assert f'<a class="brand" href="/">{shown}</a>' in client.get("/chat").get_data(as_text=True)
        reply = client.post("/api/mcp", headers={"Content-Type": "application/json"}, data=json.dumps(
            {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}))
        assert reply.get_json()["result"]["serverInfo"]["title"] == shown
