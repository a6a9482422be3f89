"""Docusaurus folder metadata: `_category_.json` / `_category_.yml` (pure reading).

A Docusaurus docs folder names its sidebar category in a `_category_` file: `label` (the
category's name) and `position` (its place among its siblings). The navigation reads both:
the position orders the folder among its siblings, and the label names the folder's head
page in the navigation when that page's front matter gives no navigation label. A file
that cannot be read is named in a warning and changes nothing: a sidebar detail never
refuses a release.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import yaml

NAMES = ("_category_.json", "_category_.yml", "_category_.yaml")


@dataclass(frozen=True)
class Category:
    label: str = ""
    position: float | None = None


@dataclass
class CategoriesResult:
    folders: dict[str, Category] = field(default_factory=dict)   # folder ("" = top) → its category
    warnings: list[str] = field(default_factory=list)


def run(content_dir: Path) -> CategoriesResult:
    result = CategoriesResult()
    for file in sorted(p for p in Path(content_dir).rglob("_category_.*") if p.name in NAMES):
        relative = file.relative_to(content_dir)
        if any(part.startswith(".") or part == "node_modules" for part in relative.parts):
            continue
        folder = relative.parent.as_posix()
        try:
            text = file.read_text("utf-8")
            data = json.loads(text) if file.suffix == ".json" else yaml.safe_load(text)
        except (OSError, UnicodeDecodeError, ValueError, yaml.YAMLError, RecursionError) as error:
            result.warnings.append(f"category file ignored, not readable: {relative.as_posix()} ({type(error).__name__})")
            continue
        if not isinstance(data, dict):
            result.warnings.append(f"category file ignored, not a mapping of keys: {relative.as_posix()}")
            continue
        label = data.get("label")
        position = data.get("position")
        result.folders["" if folder == "." else folder] = Category(
            label.strip() if isinstance(label, str) else "",
            float(position) if isinstance(position, (int, float)) and not isinstance(position, bool) else None)
    return result
