"""A folder's own listing file: Nextra's `_meta.json`, Fumadocs' `meta.json`, mkdocs-awesome-pages' `.pages` (pure reading).

These generators keep, in each folder, a small file that lists its pages and subfolders in
order, by file name without its suffix (Nextra, Fumadocs) or with it (awesome-pages):
- Nextra `_meta.json`: `{"index": "Introduction", "setup": {"title": "Setup"}, "---": …}`, in key order;
- Fumadocs `meta.json`: `{"title": "Guide", "pages": ["index", "setup", "---Part---", "...", "!old"]}`;
- awesome-pages `.pages`: `title: Guide` and `nav: [intro.md, setup, {Install: install.md}, ...]`.

Each page a listing names takes its place as its order and the listing's title as its navigation
label, unless its front matter gives its own; each subfolder it names takes its place among its
siblings as a Docusaurus category would (`Category`), with the title the subfolder's own file
gives. Separators, links, `...` (the rest) and `!hidden` entries place nothing. A file that
cannot be read is named in a warning and changes nothing.
"""
from __future__ import annotations

import dataclasses
import json
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from .categories import Category
from .navigation import HEAD_NAMES
from .page_source import PageSource, without_suffix

NAMES = ("_meta.json", "meta.json", ".pages")
_LINK = re.compile(r"^\[.*\]\(.*\)$|^[a-z][a-z0-9+.-]*:", re.I)


@dataclass
class FolderMeta:
    pages: list[PageSource]
    folders: dict[str, Category] = field(default_factory=dict)   # folder ("" = top) → its place and label
    files: list[str] = field(default_factory=list)               # the listing files read
    warnings: list[str] = field(default_factory=list)


def run(content_dir: Path, pages: list[PageSource]) -> FolderMeta:
    content_dir = Path(content_dir)
    result = FolderMeta(pages)
    listings: dict[str, tuple[str, list[tuple[str, str]]]] = {}     # folder → (its title, [(entry, label)])
    names: dict[str, str] = {}                                       # folder → its listing file
    for file in sorted(p for p in content_dir.rglob("*") if p.name in NAMES and p.is_file()):
        relative = file.relative_to(content_dir).as_posix()
        folder = posixpath.dirname(relative)
        if folder in listings or any(part.startswith(".") or part == "node_modules"
                                     for part in relative.split("/")[:-1]):
            continue
        try:
            listings[folder] = _read(file)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError, RecursionError) as error:
            result.warnings.append(f"listing file ignored, not readable: {relative} ({type(error).__name__})")
            continue
        names[folder] = relative
    by_stem = {(posixpath.dirname(p.source), without_suffix(posixpath.basename(p.source))): p for p in pages}
    place: dict[str, tuple[int, str]] = {}
    for folder, (_, entries) in listings.items():
        for at, (name, label) in enumerate(entries, start=1):
            stem = without_suffix(name)
            page = by_stem.get((folder, stem))
            inner = posixpath.join(folder, stem) if folder else stem
            if page is not None and folder and stem.lower() in HEAD_NAMES:
                continue     # a subfolder's head page stands for the folder, placed by the parent's listing
            if page is not None:
                place.setdefault(page.source, (at, label))
            elif any(p.source.startswith(inner + "/") for p in pages):
                result.folders.setdefault(inner, Category(label or listings.get(inner, ("", []))[0], float(at)))
            else:
                continue
            if names[folder] not in result.files:    # a file named meta.json that lists nothing is not one
                result.files.append(names[folder])
    result.pages = [dataclasses.replace(page, order=page.order if page.order is not None else place[page.source][0],
                                        nav_label=page.nav_label or place[page.source][1])
                    if page.source in place else page for page in pages]
    return result


def _read(file: Path) -> tuple[str, list[tuple[str, str]]]:
    """(the folder's title, [(entry name, its label)]) of one listing file, in its order."""
    text = file.read_text("utf-8")
    if file.name == ".pages":
        data = yaml.safe_load(text) or {}
        if not isinstance(data, dict):
            raise ValueError("not a mapping of keys")
        entries = []
        for item in data.get("nav") or data.get("arrange") or []:
            label, name = next(iter(item.items())) if isinstance(item, dict) and len(item) == 1 else ("", item)
            if isinstance(name, str):
                entries.append((name, str(label)))
        return _title(data), _named(entries)
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("not a mapping of keys")
    if file.name == "meta.json":
        names = data.get("pages") if isinstance(data.get("pages"), list) else []
        return _title(data), _named([(name, "") for name in names if isinstance(name, str)])
    entries = []
    for name, value in data.items():          # Nextra: name → title, or name → {title, type, href, display}
        if isinstance(value, dict) and (value.get("href") or value.get("display") == "hidden"
                                        or value.get("type") == "separator"):
            continue
        entries.append((name, value if isinstance(value, str) else _title(value)))
    return "", _named(entries)


def _title(data: object) -> str:
    return data["title"].strip() if isinstance(data, dict) and isinstance(data.get("title"), str) else ""


def _named(entries: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The entries that name a file or folder: no separators, links, rest markers or hidden ones."""
    return [(name.strip().strip("/"), label.strip()) for name, label in entries
            if name.strip() and not re.match(r"^(?:-{3}|\.{3}|!|z\.\.\.a|a\.\.\.z)", name.strip())
            and not _LINK.match(name.strip()) and name.strip() != "*"]
