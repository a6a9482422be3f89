"""What an Antora site's settings tell about its AsciiDoc pages (pure but for reading them).

Antora keeps a component's pages in `modules/<module>/pages/`, the pieces they include in
`partials/` and `examples/` beside them, and names a file by a resource ID:
`include::partial$intro.adoc[]` is `modules/<this module>/partials/intro.adoc`,
`include::admin:example$config.yml[]` the `examples/` of module `admin` (`ROOT` when a page
names none and sits outside any module). Its settings files set the attributes every page
sees: the component's `antora.yml` (`asciidoc.attributes`) and the site's playbook
(`antora-playbook.yml`, in the content folder or the project folder above it); a value
ending in `@` is a default a page may change, `false` unsets. The navigation files
`antora.yml` lists under `nav:` are the site's menu, not pages; in a component only the files of
a module's `pages/` folder are pages, served as Antora serves them: `modules/admin/pages/users.adoc`
at `/admin/users`, the `ROOT` module's at the top (`/install`), each component's under its name
when the content folder holds several; the component's `start_page` is the home page when the
folder has no index page of its own.
"""
from __future__ import annotations

import re
from pathlib import Path

import yaml

_RESOURCE = re.compile(r"^(?:[\w.-]+@)?(?:(?:[\w.-]+:)?(?P<module>[\w.-]+):)?(?P<family>partial|example|page|image|"
                       r"attachment)\$(?P<path>.+)$")
_FAMILY_FOLDERS = {"partial": "partials", "example": "examples", "page": "pages", "image": "images",
                   "attachment": "attachments"}
PLAYBOOK = "antora-playbook.yml"
DESCRIPTOR = "antora.yml"


def resolve(target: str, including: Path) -> Path | None:
    """The file an Antora resource ID names, from the file that includes it; None when `target` is a path."""
    found = _RESOURCE.match(target)
    if not found:
        return None
    parts = including.parts
    modules = max((n for n, part in enumerate(parts) if part == "modules"), default=-1)
    if modules >= 0 and modules + 1 < len(parts):
        root, module = Path(*parts[:modules + 1]), parts[modules + 1]
    else:
        root, module = including.parent / "modules", "ROOT"
    return root / (found.group("module") or module) / _FAMILY_FOLDERS[found.group("family")] / found.group("path")


def _read(file: Path) -> dict:
    try:
        data = yaml.safe_load(file.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return {}
    return data if isinstance(data, dict) else {}


def attributes(content_dir: Path, components: list[Path]) -> dict[str, str]:
    """The attributes the playbook and the components' antora.yml files set, the component's last."""
    files = [folder / PLAYBOOK for folder in (content_dir.parent, content_dir) if (folder / PLAYBOOK).is_file()]
    files += components
    found: dict[str, str] = {}
    for file in files:
        asciidoc = _read(file).get("asciidoc")
        values = asciidoc.get("attributes") if isinstance(asciidoc, dict) else None
        for name, value in (values or {}).items() if isinstance(values, dict) else ():
            if value is False or value is None:
                found.pop(str(name), None)
            else:
                found[str(name)] = ("" if value is True else str(value)).removesuffix("@")
    return found


def not_pages(components: list[Path], files: list[Path]) -> set[Path]:
    """Of `files`, those an Antora component does not publish as pages: its navigation files (`nav:`)
    and whatever sits outside its modules' `pages/` folders (partials, examples, a README)."""
    found: set[Path] = set()
    for descriptor in components:
        listed = _read(descriptor).get("nav")
        navigation = {(descriptor.parent / str(name)).resolve() for name in (listed if isinstance(listed, list) else ())}
        component = descriptor.parent.resolve()
        for file in files:
            resolved = file.resolve()
            if not resolved.is_relative_to(component):
                continue
            parts = resolved.relative_to(component).parts
            if resolved in navigation or not (len(parts) > 3 and parts[0] == "modules" and parts[2] == "pages"):
                found.add(file)
    return found


def components(content_dir: Path) -> list[Path]:
    """The components' `antora.yml` files in the content folder (not in hidden folders or node_modules)."""
    return sorted(file for file in content_dir.rglob(DESCRIPTOR)
                  if not any(part.startswith(".") or part == "node_modules"
                             for part in file.relative_to(content_dir).parts[:-1]))


def page_path(file: Path, components: list[Path]) -> str:
    """`admin/users.adoc` for a component's `modules/admin/pages/users.adoc` (`install.adoc` for the ROOT
    module's), under the component's name when the folder holds several; "" for any other file."""
    resolved = file.resolve()
    for descriptor in components:
        component = descriptor.parent.resolve()
        if not resolved.is_relative_to(component):
            continue
        parts = resolved.relative_to(component).parts
        if len(parts) > 3 and parts[0] == "modules" and parts[2] == "pages":
            module = [] if parts[1] == "ROOT" else [parts[1]]
            name = [str(_read(descriptor).get("name") or component.name)] if len(components) > 1 else []
            return "/".join([*name, *module, *parts[3:]])
    return ""


def start_page(components: list[Path]) -> Path | None:
    """The page the first component's `start_page` names (`module:page.adoc`, `page.adoc` for ROOT's), if any."""
    for descriptor in components:
        named = _read(descriptor).get("start_page")
        if isinstance(named, str) and named.strip():
            module, _, page = named.strip().rpartition(":")
            return descriptor.parent / "modules" / (module.rpartition(":")[2] or "ROOT") / "pages" / page
    return None
