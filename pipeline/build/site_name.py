"""The name and language a docs folder's generator gives its site (pure reading).

When TRIGSIGHT_SITE_TITLE is not set, the site is called what its generator's settings call it;
when TRIGSIGHT_LANGUAGE is not set, pages that tell no language of their own are in the one those
settings state. The first file found that states each wins:
- MkDocs: `site_name`, `theme.language`, in the mkdocs.yml whose docs folder this is (toc_files);
- Sphinx: `project`, `language` in conf.py (sphinx_conf.py reads it as data, never runs it);
- MyST (mystmd, Jupyter Book 2): `project.title`, else `site.title`, in myst.yml;
- Jupyter Book 1, Jekyll: `title`, `lang` (or `language`) in `_config.yml`;
- mdBook: `title`, `language` under `[book]` in the book.toml beside the folder (`src/`);
- Mintlify: `name` in docs.json or mint.json;
- Quarto: `website.title` (else `book.title`) and `lang` in `_quarto.yml`;
- Hugo: `title`, `defaultContentLanguage` (else `languageCode`) in hugo.toml / config.toml (or
  .yaml) of the site the folder is the `content/` of;
- Docusaurus, VitePress: the first `title: '…'` and `defaultLocale: '…'` / `lang: '…'` written out
  in docusaurus.config.{js,ts} beside the folder or `.vitepress/config.{js,ts,mts}` in it (read
  as text, never run).
A file that cannot be read is passed over: a name never refuses a release.
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import yaml

from . import sphinx_conf
from .toc_files import load_yaml, mkdocs_settings

LONGEST = 120
DEFAULT = "trigsight"
DEFAULT_LANGUAGE = "en"
LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*")
_JS = r"""^\s*{key}\s*:\s*(['"])((?:(?!\1)[^\\\n]|\\.)+)\1\s*,?\s*$"""
_JS_TITLE, _JS_LOCALE = re.compile(_JS.format(key="title"), re.M), re.compile(_JS.format(key="(?:defaultLocale|lang)"), re.M)


@dataclass(frozen=True)
class SiteName:
    title: str               # "" when the folder's settings name none
    origin: str = ""         # the file and key it was read from
    language: str = ""       # a language tag, "" when they state none
    language_origin: str = ""


@dataclass(frozen=True)
class _Stated:
    file: str                # as a warning names it
    title: object = None     # the values as read, checked later
    title_key: str = ""
    language: object = None
    language_key: str = ""


def run(content_dir: Path, sphinx=sphinx_conf.NOT_READ) -> SiteName:
    """`sphinx`: the folder's conf.py as the caller read it already (None: it has none)."""
    content_dir = Path(content_dir).resolve()
    conf = sphinx_conf.read(content_dir) if sphinx is sphinx_conf.NOT_READ else sphinx
    title = origin = language = language_origin = ""
    for reader in (_mkdocs, lambda _: _sphinx(conf), _myst, _config_yml, _mdbook, _mintlify, _quarto, _hugo,
                   _javascript):
        try:
            stated = reader(content_dir)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError, tomllib.TOMLDecodeError, RecursionError):
            continue
        if stated is None:
            continue
        if not title and (title := _clean(stated.title)):
            origin = f"{stated.file} {stated.title_key}"
        if not language and (language := _tag(stated.language)):
            language_origin = f"{stated.file} {stated.language_key}"
    return SiteName(title, origin, language, language_origin)


def _clean(title: object) -> str:
    text = " ".join(title.split()) if isinstance(title, str) else ""
    return text if len(text) <= LONGEST else ""


def _tag(language: object) -> str:
    """`zh_CN` (Sphinx) → `zh-CN`; anything that is not a language tag → ""."""
    tag = language.strip().replace("_", "-") if isinstance(language, str) else ""
    return tag if LANGUAGE_TAG.fullmatch(tag) else ""


def _mkdocs(content_dir: Path) -> _Stated | None:
    found = mkdocs_settings(content_dir)
    if found is None or isinstance(found[1], Exception):
        return None
    theme = found[1].get("theme")
    return _Stated(found[0], found[1].get("site_name"), "site_name",
                   theme.get("language") if isinstance(theme, dict) else None, "theme.language")


def _sphinx(conf: sphinx_conf.SphinxConf | None) -> _Stated | None:
    return _Stated("conf.py", conf.get("project"), "project", conf.get("language"), "language") if conf else None


def _myst(content_dir: Path) -> _Stated | None:
    data = _yaml(content_dir / "myst.yml")
    for part in ("project", "site"):
        section = data.get(part) if isinstance(data, dict) else None
        if isinstance(section, dict) and _clean(section.get("title")):
            return _Stated("myst.yml", section["title"], f"{part}.title")
    return None


def _config_yml(content_dir: Path) -> _Stated | None:
    data = _yaml(content_dir / "_config.yml")
    if not isinstance(data, dict):
        return None
    key = "lang" if "lang" in data else "language"
    return _Stated("_config.yml", data.get("title"), "title", data.get(key), key)


def _mdbook(content_dir: Path) -> _Stated | None:
    for folder, shown in ((content_dir, "book.toml"), (content_dir.parent, "../book.toml")):
        if (folder / "book.toml").is_file():
            book = tomllib.loads((folder / "book.toml").read_text("utf-8")).get("book")
            return _Stated(shown, book.get("title"), "title", book.get("language"), "language") \
                if isinstance(book, dict) else None
    return None


def _mintlify(content_dir: Path) -> _Stated | None:
    for name in ("docs.json", "mint.json"):
        if (content_dir / name).is_file():
            data = json.loads((content_dir / name).read_text("utf-8"))
            return _Stated(name, data.get("name"), "name") if isinstance(data, dict) else None
    return None


def _quarto(content_dir: Path) -> _Stated | None:
    data = _yaml(content_dir / "_quarto.yml")
    if not isinstance(data, dict):
        return None
    part = next((p for p in ("website", "book") if isinstance(data.get(p), dict) and data[p].get("title")), "website")
    section = data.get(part) if isinstance(data.get(part), dict) else {}
    return _Stated("_quarto.yml", section.get("title"), f"{part}.title", data.get("lang"), "lang")


def _hugo(content_dir: Path) -> _Stated | None:
    if content_dir.name != "content":
        return None
    for name in ("hugo.toml", "config.toml", "hugo.yaml", "config.yaml", "hugo.yml", "config.yml"):
        file = content_dir.parent / name
        if file.is_file():
            data = tomllib.loads(file.read_text("utf-8")) if name.endswith(".toml") else _yaml(file)
            if not isinstance(data, dict):
                return None
            key = "defaultContentLanguage" if "defaultContentLanguage" in data else "languageCode"
            return _Stated(f"../{name}", data.get("title"), "title", data.get(key), key)
    return None


def _javascript(content_dir: Path) -> _Stated | None:
    candidates = [(content_dir.parent / f"docusaurus.config.{suffix}", f"../docusaurus.config.{suffix}")
                  for suffix in ("ts", "js", "mjs")]
    candidates += [(content_dir / ".vitepress" / f"config.{suffix}", f".vitepress/config.{suffix}")
                   for suffix in ("mts", "ts", "js", "mjs")]
    for file, shown in candidates:
        if file.is_file():
            text = file.read_text("utf-8")[:200_000]
            title, locale = _JS_TITLE.search(text), _JS_LOCALE.search(text)
            return _Stated(shown, _unquoted(title), "title", _unquoted(locale), "defaultLocale" if locale and
                           "defaultLocale" in locale.group(0) else "lang")
    return None


def _unquoted(match: re.Match | None) -> str | None:
    return match.group(2).replace("\\" + match.group(1), match.group(1)) if match else None


def _yaml(file: Path) -> object:
    return load_yaml(file) if file.is_file() else None
