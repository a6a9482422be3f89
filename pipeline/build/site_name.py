"""The name a docs folder's generator gives its site, shown in the header and page titles (pure reading).

When TRIGSIGHT_SITE_TITLE is not set, the site is called what its generator's settings call it.
The first of these found wins:
- MkDocs: `site_name` in the mkdocs.yml whose docs folder this is (toc_files finds it);
- Sphinx: `project` in conf.py (sphinx_conf.py reads it as data, never runs it);
- MyST (mystmd, Jupyter Book 2): `project.title`, else `site.title`, in myst.yml;
- Jupyter Book 1, Jekyll: `title` in `_config.yml`;
- mdBook: `title` under `[book]` in the book.toml beside the folder (`src/`);
- Mintlify: `name` in docs.json or mint.json;
- Hugo: `title` in hugo.toml / config.toml (or .yaml) of the site the folder is the `content/` of;
- Docusaurus, VitePress: the first `title: '…'` written out in docusaurus.config.{js,ts} beside the
  folder or `.vitepress/config.{js,ts,mts}` in it (read as text, never run).
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
_JS_TITLE = re.compile(r"""^\s*title\s*:\s*(['"])((?:(?!\1)[^\\\n]|\\.)+)\1\s*,?\s*$""", re.M)


@dataclass(frozen=True)
class SiteName:
    title: str          # "" when the folder's settings name none
    origin: str = ""    # the file and key it was read from


def run(content_dir: Path) -> SiteName:
    content_dir = Path(content_dir).resolve()
    for reader in (_mkdocs, _sphinx, _myst, _config_yml, _mdbook, _mintlify, _hugo, _javascript):
        try:
            found = reader(content_dir)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError, tomllib.TOMLDecodeError, RecursionError):
            continue
        if found is not None and (title := _clean(found.title)):
            return SiteName(title, found.origin)
    return SiteName("")


def _clean(title: object) -> str:
    text = " ".join(title.split()) if isinstance(title, str) else ""
    return text if len(text) <= LONGEST else ""


def _mkdocs(content_dir: Path) -> SiteName | None:
    found = mkdocs_settings(content_dir)
    if found is None or isinstance(found[1], Exception):
        return None
    return SiteName(found[1].get("site_name"), f"{found[0]} site_name")


def _sphinx(content_dir: Path) -> SiteName | None:
    conf = sphinx_conf.read(content_dir)
    return SiteName(conf.get("project"), "conf.py project") if conf else None


def _myst(content_dir: Path) -> SiteName | None:
    data = _yaml(content_dir / "myst.yml")
    for part in ("project", "site"):
        section = data.get(part) if isinstance(data, dict) else None
        if isinstance(section, dict) and _clean(section.get("title")):
            return SiteName(section["title"], f"myst.yml {part}.title")
    return None


def _config_yml(content_dir: Path) -> SiteName | None:
    data = _yaml(content_dir / "_config.yml")
    return SiteName(data.get("title"), "_config.yml title") if isinstance(data, dict) else None


def _mdbook(content_dir: Path) -> SiteName | None:
    for folder, shown in ((content_dir, "book.toml"), (content_dir.parent, "../book.toml")):
        if (folder / "book.toml").is_file():
            book = tomllib.loads((folder / "book.toml").read_text("utf-8")).get("book")
            return SiteName(book.get("title"), f"{shown} title") if isinstance(book, dict) else None
    return None


def _mintlify(content_dir: Path) -> SiteName | None:
    for name in ("docs.json", "mint.json"):
        if (content_dir / name).is_file():
            data = json.loads((content_dir / name).read_text("utf-8"))
            return SiteName(data.get("name"), f"{name} name") if isinstance(data, dict) else None
    return None


def _hugo(content_dir: Path) -> SiteName | None:
    if content_dir.name != "content":
        return None
    for name in ("hugo.toml", "config.toml", "hugo.yaml", "config.yaml", "hugo.yml", "config.yml"):
        file = content_dir.parent / name
        if file.is_file():
            data = tomllib.loads(file.read_text("utf-8")) if name.endswith(".toml") else _yaml(file)
            return SiteName(data.get("title"), f"../{name} title") if isinstance(data, dict) else None
    return None


def _javascript(content_dir: Path) -> SiteName | None:
    candidates = [(content_dir.parent / f"docusaurus.config.{suffix}", f"../docusaurus.config.{suffix}")
                  for suffix in ("ts", "js", "mjs")]
    candidates += [(content_dir / ".vitepress" / f"config.{suffix}", f".vitepress/config.{suffix}")
                   for suffix in ("mts", "ts", "js", "mjs")]
    for file, shown in candidates:
        if file.is_file():
            match = _JS_TITLE.search(file.read_text("utf-8")[:200_000])
            return SiteName(match.group(2).replace("\\" + match.group(1), match.group(1)),
                            f"{shown} title") if match else None
    return None


def _yaml(file: Path) -> object:
    return load_yaml(file) if file.is_file() else None
