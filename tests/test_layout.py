"""The package's shape: no import cycles, the request side never reaches build-time code, the README draws the tree."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from conftest import ROOT

PACKAGES = {"trigsight": ROOT / "pipeline", "trigsight_site": ROOT / "site"}
# What serves readers and agents. It may use the shared modules (matching rules, the
# published-release reader, tokenizer, BM25, embedders) but nothing that builds or gates.
REQUEST_SIDE = ("trigsight_site", "trigsight.answering", "trigsight.retrieval.search",
                "trigsight.publishing.published")
BUILD_SIDE = ("trigsight.build", "trigsight.gates", "trigsight.publishing.publish", "trigsight.retrieval.index",
              "trigsight.release", "trigsight.cli", "trigsight.cli_measure", "trigsight.cli_options")


def modules() -> dict[str, Path]:
    found = {}
    for package, folder in PACKAGES.items():
        for file in folder.rglob("*.py"):
            parts = list(file.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join([package, *parts])] = file
    return found


def executed_at_import(tree: ast.Module):
    """Import statements run when the module is imported: not those inside functions."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        todo.extend(ast.iter_child_nodes(node))


def imports_of(name: str, file: Path, known: set[str], at_import_only: bool = False) -> set[str]:
    """Modules of ours that `name` imports (anywhere, or only those run at import time)."""
    is_package = file.name == "__init__.py"
    base = name.split(".") if is_package else name.split(".")[:-1]
    tree = ast.parse(file.read_text("utf-8"))
    found = set()
    for node in executed_at_import(tree) if at_import_only else ast.walk(tree):
        targets = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            origin = ".".join(base[:len(base) - node.level + 1] + ([node.module] if node.module else [])) \
                if node.level else node.module
            targets = [origin] + [f"{origin}.{alias.name}" for alias in node.names]
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


MODULES = modules()
GRAPH = {name: imports_of(name, file, set(MODULES)) for name, file in MODULES.items()}
AT_IMPORT = {name: imports_of(name, file, set(MODULES), at_import_only=True) for name, file in MODULES.items()}


def within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes)


def reachable(start: str) -> set[str]:
    seen, todo = set(), [start]
    while todo:
        for nxt in GRAPH[todo.pop()] - seen:
            seen.add(nxt)
            todo.append(nxt)
    return seen


def test_no_module_imports_itself_back_through_others():
    cycles = set()
    for start in AT_IMPORT:
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in AT_IMPORT[node]:
                if nxt == start:
                    cycles.add(" → ".join(path + [start]))
                elif nxt not in path:
                    stack.append((nxt, path + [nxt]))
    assert not cycles, "import cycles:\n" + "\n".join(sorted(cycles))


@pytest.mark.parametrize("module", sorted(m for m in GRAPH if within(m, REQUEST_SIDE)))
def test_request_side_module_never_imports_build_time_code(module):
    reached = {m for m in reachable(module) if within(m, BUILD_SIDE)}
    assert not reached, f"{module} reaches build-time modules: {sorted(reached)}"


def test_the_readme_layout_section_draws_every_folder_of_the_package():
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme.split("## Layout", 1)[1].split("\n## ", 1)[0]
    drawn = set(re.findall(r"^\s*([\w./-]+/)\s", section, re.MULTILINE))
    folders = {f"{path.relative_to(ROOT).as_posix()}/" for path in (ROOT / "pipeline").iterdir()
               if path.is_dir() and (path / "__init__.py").is_file()}
    top = {"pipeline/", "site/", "content/", "bench/", "docs/", "tests/"}
    missing = (folders | top) - {d if d.startswith(tuple(top)) else f"pipeline/{d}" for d in drawn} - drawn
    assert not missing, f"README's Layout section does not draw {sorted(missing)}"
