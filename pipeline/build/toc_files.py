"""A site generator's own table of contents: MkDocs' `nav:`, MyST's `toc:`, Jupyter Book's `_toc.yml` (pure reading).

A docs folder often keeps its reading order outside its pages, in its generator's settings:
- MkDocs: `nav:` in `mkdocs.yml`, which sits beside the docs folder or a few folders above it
  and names it with `docs_dir` (default `docs`): it is read only when that is this folder; `INHERIT:` names a file it extends (FastAPI's
  translations inherit the English nav). Paths are relative to the docs folder; a title given
  to a page is its navigation label.
- MyST (mystmd, Jupyter Book 2): `project.toc` in `myst.yml`, entries `file:` (with `title:`),
  `pattern:` (a glob) and `children:`, paths relative to `myst.yml`.
- Jupyter Book 1: `_toc.yml`, `root:` and nested `chapters:`, `parts:`, `sections:` of `file:`
  entries, paths relative to the file and written without a suffix.
- Mintlify: `navigation` in `docs.json` (or the older `mint.json`), whose `pages` lists name
  pages without their suffix and nest groups.
- Quarto: `_quarto.yml`, a book's `book.chapters` (files, and `part:`s of `chapters:`) or a website's
  `website.sidebar` (`contents:` of files, globs, `section:`s of `contents:`, and `href:`/`file:` entries
  with their `text:` as the label).

Each gives the pages it lists, in order, as content-relative file names (`Listing`). A file that
cannot be read is named in a warning and changes nothing: an order never refuses a release.
"""
from __future__ import annotations

import fnmatch
import json
import posixpath
import re
from dataclasses import dataclass, field
from html import unescape
from pathlib import Path

import yaml

from .links import named_file

MKDOCS_NAMES = ("mkdocs.yml", "mkdocs.yaml")
_TAG = re.compile(r"<[^>]*>")
_INVISIBLE = re.compile("[\u200b-\u200d\u2060\ufeff]")
_MOST_INHERITS = 5
_MOST_LEVELS_UP = 3      # mkdocs.yml beside the docs folder, or a few folders above it (docs_dir: docs/src/markdown)


@dataclass
class Listing:
    """The pages a table of contents lists, in its order, with the labels it gives them."""

    origin: str                                                  # the file it was read from, as the warning names it
    files: list[str] = field(default_factory=list)               # content files, first listed first, each once
    labels: dict[str, str] = field(default_factory=dict)         # content file → its label there
    warnings: list[str] = field(default_factory=list)
    budget: int = 20_000     # entries walked at most: YAML aliases can make a small file an endless tree

    def spent(self) -> bool:
        self.budget -= 1
        return self.budget < 0

    def add(self, file: str | None, label: str = "") -> None:
        if file is None or file in self.files:
            return
        self.files.append(file)
        label = " ".join(_INVISIBLE.sub("", unescape(_TAG.sub("", label))).split())
        if label:
            self.labels[file] = label


class _Lenient(yaml.SafeLoader):
    """Safe YAML that reads any tag as nothing (`!!python/name:…`, `!ENV`, `!relative` in mkdocs.yml)."""


_Lenient.add_multi_constructor("", lambda loader, suffix, node: None)


def load_yaml(file: Path) -> object:
    return yaml.load(file.read_text("utf-8"), Loader=_Lenient)  # noqa: S506 (a SafeLoader)


def _unreadable(origin: str, error: Exception) -> Listing:
    return Listing(origin, warnings=[f"{origin} ignored, not readable ({type(error).__name__}); pages in the "
                                     f"folder's own order"])


def run(content_dir: Path, files: list[str]) -> Listing | None:
    """The first table of contents found for `content_dir` (MkDocs, MyST, Jupyter Book 1, Mintlify),
    placed among `files`; None when there is none."""
    content_dir = Path(content_dir)
    for reader in (_mkdocs, _myst, _jupyter_book, _mintlify, _quarto):
        try:
            listing = reader(content_dir, files)
        except RecursionError as error:      # nested deeper than Python walks
            return _unreadable(reader.__name__.strip("_"), error)
        if listing is not None:
            return listing
    return None


def mkdocs_settings(content_dir: Path) -> tuple[str, dict | Exception, str] | None:
    """(the file as a warning names it, its settings or why they cannot be read, the docs folder's
    path inside `content_dir`) of the mkdocs.yml whose docs folder is `content_dir` or inside it."""
    here = Path(content_dir).resolve()
    for up, folder in enumerate((here, *here.parents[:_MOST_LEVELS_UP])):
        for name in MKDOCS_NAMES:
            config = folder / name
            if not config.is_file():
                continue
            origin = "../" * up + name
            try:
                data = _mkdocs_config(config)
            except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError, RecursionError) as error:
                return origin, error, ""
            docs = (config.parent / str(data.get("docs_dir") or "docs")).resolve()
            if docs == here or here in docs.parents:
                prefix = docs.relative_to(here).as_posix()
                return origin, data, "" if prefix == "." else prefix
    return None


def _mkdocs(content_dir: Path, files: list[str]) -> Listing | None:
    found = mkdocs_settings(content_dir)
    if found is None:
        return None
    origin, data, prefix = found
    if isinstance(data, Exception):
        return _unreadable(origin, data)
    if not isinstance(data.get("nav"), list):
        return None  # MkDocs then lists pages by name: the folder's own order
    listing = Listing(origin)
    _walk_mkdocs_nav(data["nav"], listing, files, prefix)
    return listing


def _mkdocs_config(config: Path, depth: int = 0) -> dict:
    data = load_yaml(config)
    if not isinstance(data, dict):
        raise ValueError("not a mapping of keys")
    parent = data.get("INHERIT")
    if isinstance(parent, str) and depth < _MOST_INHERITS and (config.parent / parent).is_file():
        return {**_mkdocs_config(config.parent / parent, depth + 1), **data}
    return data


def _walk_mkdocs_nav(items: list, listing: Listing, files: list[str], prefix: str) -> None:
    for item in items:
        if listing.spent():
            return
        title, target = "", item
        if isinstance(item, dict) and len(item) == 1:
            title, target = next(iter(item.items()))
        if isinstance(target, list):
            _walk_mkdocs_nav(target, listing, files, prefix)
        elif isinstance(target, str) and not re.match(r"^[a-z][a-z0-9+.-]*:|^/|^#", target, re.I):
            path = posixpath.normpath(posixpath.join(prefix, target.split("#", 1)[0]))
            listing.add(named_file(path, files), str(title or ""))


def _myst(content_dir: Path, files: list[str]) -> Listing | None:
    return _entries_file(content_dir / "myst.yml", files, _project_toc)


def _jupyter_book(content_dir: Path, files: list[str]) -> Listing | None:
    return _entries_file(content_dir / "_toc.yml", files, lambda data: data)


def _project_toc(data: object) -> list | None:
    """MyST: the `toc` list of `project`, if the file has one."""
    project = data.get("project") if isinstance(data, dict) else None
    toc = project.get("toc") if isinstance(project, dict) else None
    return toc if isinstance(toc, list) else None


def _entries_file(config: Path, files: list[str], toc_of, walk=None) -> Listing | None:
    """The `file:` entries of a YAML table of contents (`toc_of` finds it in the file's data; `walk`
    reads it, by default as MyST and Jupyter Book write it)."""
    if not config.is_file():
        return None
    try:
        data = load_yaml(config)
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as error:
        return _unreadable(config.name, error)
    toc = toc_of(data)
    if toc is None:
        return None
    listing = Listing(config.name)
    (walk or _walk_entries)(toc, listing, files)
    return listing


def _mintlify(content_dir: Path, files: list[str]) -> Listing | None:
    for name in ("docs.json", "mint.json"):
        config = content_dir / name
        if not config.is_file():
            continue
        try:
            data = json.loads(config.read_text("utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as error:
            return _unreadable(name, error)
        if isinstance(data, dict) and "navigation" in data:
            listing = Listing(name)
            _walk_pages(data["navigation"], listing, files)
            return listing
    return None


def _quarto(content_dir: Path, files: list[str]) -> Listing | None:
    listing = _entries_file(content_dir / "_quarto.yml", files, _quarto_toc, _walk_quarto)
    return listing if listing is None or listing.files or listing.warnings else None


def _quarto_toc(data: object) -> object:
    """Quarto: a book's `chapters`, else a website's `sidebar`."""
    sections = [data.get(key) if isinstance(data, dict) else None for key in ("book", "website")]
    return next((section.get(key) for section, key in zip(sections, ("chapters", "sidebar"))
                 if isinstance(section, dict) and section.get(key)), None)


def _walk_quarto(node: object, listing: Listing, files: list[str]) -> None:
    """Quarto: the files of every contents list, depth first; a list's string is a file or a glob."""
    if listing.spent():
        return
    if isinstance(node, str):
        written = node.lstrip("/")
        if any(c in written for c in "*?["):
            for file in sorted(f for f in files if fnmatch.fnmatch(f, written)):
                listing.add(file)
        else:
            listing.add(named_file(posixpath.normpath(written), files))
    elif isinstance(node, list):
        for item in node:
            _walk_quarto(item, listing, files)
    elif isinstance(node, dict):
        label = node.get("text") if isinstance(node.get("text"), str) else ""
        for key in ("href", "file"):
            if isinstance(node.get(key), str):
                listing.add(named_file(posixpath.normpath(node[key].lstrip("/")), files), label)
        for value in node.values():
            if isinstance(value, (list, dict)):
                _walk_quarto(value, listing, files)


def _walk_pages(node: object, listing: Listing, files: list[str], in_pages: bool = False) -> None:
    """Mintlify: the names in every `pages` list, groups nested in them, depth first."""
    if listing.spent():
        return
    if isinstance(node, str) and in_pages:
        listing.add(named_file(posixpath.normpath(node.lstrip("/")), files))
    elif isinstance(node, list):
        for item in node:
            _walk_pages(item, listing, files, in_pages)
    elif isinstance(node, dict):
        for key, value in node.items():
            _walk_pages(value, listing, files, key == "pages")


def _walk_entries(node: object, listing: Listing, files: list[str]) -> None:
    """Every `root`/`file` entry (and `pattern`/`glob`'s matches), depth first, as written."""
    if listing.spent():
        return
    if isinstance(node, list):
        for item in node:
            _walk_entries(item, listing, files)
        return
    if not isinstance(node, dict):
        return
    title = node.get("title") if isinstance(node.get("title"), str) else ""
    for key in ("root", "file"):
        if isinstance(node.get(key), str):
            listing.add(named_file(posixpath.normpath(node[key].lstrip("/")), files), title)
    for key in ("pattern", "glob"):
        if isinstance(node.get(key), str):
            for file in sorted(f for f in files if fnmatch.fnmatch(f, node[key].lstrip("/"))):
                listing.add(file)
    for key, value in node.items():
        if isinstance(value, (list, dict)):
            _walk_entries(value, listing, files)
