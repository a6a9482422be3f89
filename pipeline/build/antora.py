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


def components(content_dir: Path) -> dict[Path, dict]:
    """Each component's folder (where its `antora.yml` is, not in hidden folders or node_modules) and
    that file's settings, read once."""
    found = sorted(file for file in content_dir.rglob(DESCRIPTOR)
                   if not any(part.startswith(".") or part == "node_modules"
                              for part in file.relative_to(content_dir).parts[:-1]))
    return {file.parent.resolve(): _read(file) for file in found}


def _module_page(parts: tuple[str, ...]) -> bool:
    """Are these path parts, from a component's folder, a page of one of its modules (`modules/m/pages/…`)?"""
    return len(parts) > 3 and parts[0] == "modules" and parts[2] == "pages"


def _inside(file: Path, components: dict[Path, dict]) -> tuple[Path, dict, tuple[str, ...]] | None:
    """(the component folder, its settings, the file's path parts within it) of the component holding `file`."""
    resolved = file.resolve()
    for folder, settings in components.items():
        if resolved.is_relative_to(folder):
            return folder, settings, resolved.relative_to(folder).parts
    return None


def attributes(content_dir: Path, components: dict[Path, dict]) -> dict[str, str]:
    """The attributes the playbook and the components' antora.yml files set, the component's last."""
    settings = [_read(folder / PLAYBOOK) for folder in (content_dir.parent, content_dir) if (folder / PLAYBOOK).is_file()]
    found: dict[str, str] = {}
    for data in [*settings, *components.values()]:
        asciidoc = data.get("asciidoc")
        values = asciidoc.get("attributes") if isinstance(asciidoc, dict) else None
        for name, value in (values or {}).items() if isinstance(values, dict) else ():
            if value is False or value is None:
                found.pop(str(name), None)
            else:
                found[str(name)] = ("" if value is True else str(value)).removesuffix("@")
    return found


def not_pages(components: dict[Path, dict], files: list[Path]) -> set[Path]:
    """Of `files`, those an Antora component does not publish as pages: its navigation files (`nav:`)
    and whatever sits outside its modules' `pages/` folders (partials, examples, a README)."""
    found: set[Path] = set()
    for file in files:
        inside = _inside(file, components)
        if inside is None:
            continue
        folder, settings, parts = inside
        listed = settings.get("nav")
        navigation = {(folder / str(name)).resolve() for name in (listed if isinstance(listed, list) else ())}
        if file.resolve() in navigation or not _module_page(parts):
            found.add(file)
    return found


def page_path(file: Path, components: dict[Path, dict]) -> str:
    """`admin/users.adoc` for a component's `modules/admin/pages/users.adoc` (`install.adoc` for the ROOT
    module's), under the component's name when the folder holds several; "" for any other file."""
    inside = _inside(file, components)
    if inside is None or not _module_page(inside[2]):
        return ""
    folder, settings, parts = inside
    module = [] if parts[1] == "ROOT" else [parts[1]]
    name = [str(settings.get("name") or folder.name)] if len(components) > 1 else []
    return "/".join([*name, *module, *parts[3:]])


def up_to_modules(file: Path) -> str:
    """`../../` from a module's page (`modules/admin/pages/users.adoc`) up to its `modules/` folder; "" elsewhere."""
    parts = file.parts
    at = max((n for n, part in enumerate(parts) if part == "modules"), default=-1)
    return "../" * (len(parts) - at - 2) if at >= 0 and _module_page(parts[at:]) else ""


def start_page(components: dict[Path, dict]) -> Path | None:
    """The page the first component's `start_page` names (`module:page.adoc`, `page.adoc` for ROOT's), if any."""
    for folder, settings in components.items():
        named = settings.get("start_page")
        if isinstance(named, str) and named.strip():
            module, _, page = named.strip().rpartition(":")
            return folder / "modules" / (module.rpartition(":")[2] or "ROOT") / "pages" / page
    return None
