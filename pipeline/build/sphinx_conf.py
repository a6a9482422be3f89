"""A Sphinx project's `conf.py`, read as data and never run (pure reading).

Sphinx runs `conf.py`; trigsight only reads it. It reads the assignments at the file's top level
whose values are written out: strings, numbers, lists, tuples and dicts, names given such values
earlier, and those joined with `+`, `%` or an f-string. A value computed when Sphinx runs
(`release = get_version("flask")`), or set in an `if`, a loop or a function, is not known, and
whatever depends on it keeps Sphinx's default. What is read:
- `source_suffix`, with the suffixes its extensions add (myst_parser: .md; nbsphinx, myst_nb:
  .ipynb; their custom formats, `.md` read through jupytext): the pages are the files Sphinx reads, so a Django folder's `.txt` files are pages, and
  a stray README.md that Sphinx never reads is left out;
- `exclude_patterns` and `include_patterns`, matched as Sphinx matches them;
- `root_doc` (`master_doc`): where the toctrees are followed from; the home page when there is no index;
- `rst_prolog` and `rst_epilog`; `version`, `release` and `today` (the |version| substitutions);
  `default_role`; `extlinks` and sphinx-issues' `issues_github_path` (roles that make links):
  rst_project.py gives them to the reStructuredText reader.
"""
from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

NAME = "conf.py"
LARGEST = 1_000_000
# How trigsight reads each page suffix: .mdx (mdx.py), .ipynb (notebooks.py), .rst (rst_pages.py)
KINDS = {".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".ipynb": "notebook", ".rst": "rst"}
# Suffixes a conf.py may make pages of besides those trigsight reads anyway (Django writes `.txt`).
OTHER_SUFFIXES = (".txt", ".rest", ".myst")
# What extensions add to source_suffix (Sphinx's default is .rst alone)
EXTENSION_SUFFIXES = {"myst_parser": (".md",), "myst_nb": (".md", ".ipynb"), "nbsphinx": (".ipynb",),
                      "recommonmark": (".md",), "sphinx_markdown_parser": (".md",), "jupytext": (".md",)}
_READ = frozenset("""source_suffix exclude_patterns include_patterns root_doc master_doc rst_prolog rst_epilog
project language version release today today_fmt default_role extlinks issues_github_path extensions
nbsphinx_custom_formats nb_custom_formats""".split())
# Notebooks written as other files, read as notebooks by nbsphinx and myst_nb (`.md` through jupytext)
_CUSTOM_FORMATS = ("nbsphinx_custom_formats", "nb_custom_formats")
_UNKNOWN = object()
_TAGS, _MAYBE = "tags.add", "tags.add?"      # the tags conf.py adds for sure, and on some paths only


@dataclass
class SphinxConf:
    values: dict = field(default_factory=dict)     # the settings read, by name
    unknown: set = field(default_factory=set)      # settings set to what only running conf.py knows
    lines: dict = field(default_factory=dict)      # setting → the line its value starts on
    tags: tuple[frozenset, frozenset] = (frozenset(), frozenset())   # `tags.add`: for sure, on some paths
    warnings: list[str] = field(default_factory=list)

    def get(self, name: str, default=None, kind=str):
        value = self.values.get(name, default)
        return value if isinstance(value, kind) else default

    @property
    def suffixes(self) -> dict[str, str] | None:
        """Page suffix → how it is read ("rst", "markdown", "notebook"); None when not known."""
        written = self.values.get("source_suffix", {".rst": "restructuredtext"})
        extensions = self.values.get("extensions", [])
        if not isinstance(extensions, (list, tuple)) or {"source_suffix", "extensions", *_CUSTOM_FORMATS} & self.unknown:
            return None
        if isinstance(written, str):
            written = [written]
        if isinstance(written, (list, tuple)):
            written = {suffix: "restructuredtext" for suffix in written if isinstance(suffix, str)}
        if not isinstance(written, dict):
            return None
        found = {suffix.lower(): KINDS.get(suffix.lower()) or ("markdown" if "markdown" in str(kind).lower() or
                                                              "myst" in str(kind).lower() else "rst")
                 for suffix, kind in written.items() if isinstance(suffix, str)}
        for extension in extensions:
            for suffix in EXTENSION_SUFFIXES.get(str(extension), ()):
                found.setdefault(suffix, KINDS[suffix])
        for setting in _CUSTOM_FORMATS:
            for suffix in self.get(setting, {}, dict):
                if isinstance(suffix, str) and suffix.lower() in KINDS:
                    found.setdefault(suffix.lower(), KINDS[suffix.lower()])
        return {suffix: kind for suffix, kind in found.items() if suffix in KINDS or suffix in OTHER_SUFFIXES}

    def select(self, relatives: list[str]) -> tuple[list[str], list[str], list[str]]:
        """(the files Sphinx reads as pages, those its patterns leave out, those of suffixes it does not read)."""
        suffixes = self.suffixes
        pages, excluded, unread = [], [], []
        for relative in relatives:
            suffix = "." + relative.rsplit(".", 1)[-1].lower() if "." in relative.rsplit("/", 1)[-1] else ""
            if suffixes is not None and suffix not in suffixes:
                unread.append(relative)
            else:
                (excluded if self.excluded(relative) else pages).append(relative)
        return pages, excluded, unread

    @property
    def root_doc(self) -> str:
        return self.get("root_doc") or self.get("master_doc") or "index"

    def excluded(self, relative: str) -> bool:
        """Whether Sphinx leaves the file out (`exclude_patterns`, or not in `include_patterns`)."""
        def matches(patterns) -> bool:
            parts = relative.split("/")
            paths = ["/".join(parts[:end]) for end in range(1, len(parts) + 1)]   # the file and its folders
            return any(_pattern(p).match(path) for p in patterns if isinstance(p, str) for path in paths)
        include = self.get("include_patterns", ["**"], (list, tuple))
        return matches(self.get("exclude_patterns", [], (list, tuple))) or not matches(include)


def page_kinds(conf: SphinxConf | None) -> dict[str, str]:
    """Page suffix → how it is read: trigsight's own, and those the folder's conf.py adds."""
    added = (conf.suffixes or {}) if conf else {}
    return {**KINDS, **{suffix: kind for suffix, kind in added.items() if suffix not in KINDS}}


def read(content_dir: Path) -> SphinxConf | None:
    """The folder's conf.py read (None when it has none); never raises for what the file holds."""
    path = Path(content_dir) / NAME
    if not path.is_file():
        return None
    conf = SphinxConf()
    try:
        data = path.read_bytes()
        if len(data) > LARGEST:
            conf.warnings.append(f"{NAME} not read (over {LARGEST:,} bytes): Sphinx's defaults apply")
            return conf
        module = ast.parse(data.decode("utf-8-sig"), NAME)
    except SyntaxError as error:
        conf.warnings.append(f"{NAME}:{error.lineno or 1}: not read ({error.msg}): Sphinx's defaults apply")
        return conf
    except RecursionError:
        conf.warnings.append(f"{NAME} not read (nested too deeply): Sphinx's defaults apply")
        return conf
    except (OSError, UnicodeDecodeError, ValueError, MemoryError) as error:
        conf.warnings.append(f"{NAME} not read ({type(error).__name__}): Sphinx's defaults apply")
        return conf
    known: dict = {}
    try:
        _run(module.body, known, conf.lines)
    except RecursionError:
        conf.warnings.append(f"{NAME} not read (nested too deeply): Sphinx's defaults apply")
        return conf
    conf.tags = (known.get(_TAGS, frozenset()), known.get(_MAYBE, frozenset()))
    written = known.get("source_suffix")
    written = [written] if isinstance(written, str) else written if isinstance(written, (list, tuple, dict)) else []
    unread = sorted(str(s) for s in written if str(s).lower() not in KINDS and str(s).lower() not in OTHER_SUFFIXES)
    if unread:
        conf.warnings.append(f"{NAME}'s source_suffix names {', '.join(unread)}: files trigsight does not read "
                             "as pages, not published")
    conf.values = {name: value for name, value in known.items() if name in _READ and value is not _UNKNOWN}
    conf.unknown = {name for name, value in known.items() if name in _READ and value is _UNKNOWN}
    return conf


def _run(statements: list[ast.stmt], known: dict, lines: dict) -> None:
    for statement in statements:
        match statement:
            case ast.Assign(targets=targets, value=value):
                for target in targets:
                    _bind(target, value, known, lines)
            case ast.AnnAssign(target=target, value=value) if value is not None:
                _bind(target, value, known, lines)
            case ast.AugAssign(target=ast.Name(id=name), op=ast.Add(), value=value):
                before, more = known.get(name, _UNKNOWN), _value(value, known)
                known[name] = _joined(before, more)
            case ast.Expr(value=ast.Call(func=ast.Attribute(value=ast.Name(id="tags"), attr="add"),
                                         args=[ast.Constant(value=str(tag))])):
                known[_TAGS] = known.get(_TAGS, frozenset()) | {tag}
            case ast.Expr(value=ast.Call(func=ast.Attribute(value=ast.Name(id=name), attr=method), args=args)):
                known[name] = _called(known.get(name, _UNKNOWN), method, [_value(a, known) for a in args])
            case ast.Try(body=body, orelse=orelse, handlers=handlers, finalbody=finalbody):
                _run(body + orelse, known, lines)
                for handler in handlers:
                    _branches([handler.body], known, lines)
                _run(finalbody, known, lines)
            case ast.If(body=body, orelse=orelse):
                _branches([body, orelse], known, lines)
            case _:
                for name in _bound(statement):
                    known[name] = _UNKNOWN


def _branches(branches: list[list[ast.stmt]], known: dict, lines: dict) -> None:
    """Names a branch may or may not set keep their value only when every way through agrees."""
    ways = []
    for branch in branches:
        way = dict(known)
        _run(branch, way, {})
        ways.append(way)
    for name in {name for way in ways for name in way}:
        values = [way.get(name, _UNKNOWN) for way in ways] + [known.get(name, _UNKNOWN)] * (len(branches) < 2)
        if name == _TAGS:       # a tag some way through adds may be set or not
            values = [value if isinstance(value, frozenset) else frozenset() for value in values]
            known[_TAGS] = frozenset.intersection(*values)
            known[_MAYBE] = known.get(_MAYBE, frozenset()).union(*values) - known[_TAGS]
        elif name == "extensions" and all(isinstance(value, list) for value in values):
            known[name] = list(dict.fromkeys(item for value in values for item in value))   # any it may load
        elif any(value is _UNKNOWN or value != values[0] for value in values):
            known[name] = _UNKNOWN


def _bind(target: ast.expr, value: ast.expr, known: dict, lines: dict) -> None:
    if isinstance(target, ast.Name):
        known[target.id] = _value(value, known)
        lines[target.id] = value.lineno
    elif isinstance(target, (ast.Tuple, ast.List)):
        values = _value(value, known)
        spread = isinstance(values, (list, tuple)) and len(values) == len(target.elts)
        for at, element in enumerate(target.elts):
            if isinstance(element, ast.Name):
                known[element.id] = values[at] if spread else _UNKNOWN
    else:
        for name in _bound(target):
            known[name] = _UNKNOWN


def _bound(node: ast.AST) -> set[str]:
    """Every name a statement may bind (assigned, imported, defined) anywhere inside it."""
    names = set()
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and isinstance(inner.ctx, (ast.Store, ast.Del)):
            names.add(inner.id)
        elif isinstance(inner, (ast.Import, ast.ImportFrom)):
            names |= {(alias.asname or alias.name).split(".")[0] for alias in inner.names}
        elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(inner.name)
        elif isinstance(inner, ast.Expr) and isinstance(inner.value, ast.Call) and \
                isinstance(inner.value.func, ast.Attribute) and isinstance(inner.value.func.value, ast.Name):
            names.add(inner.value.func.value.id)         # `extensions.append(...)` inside a branch
    return names


def _value(node: ast.expr, known: dict):
    """The value an expression has without running anything, or _UNKNOWN."""
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            return known.get(name, _UNKNOWN)
        case ast.List(elts=items) | ast.Tuple(elts=items) | ast.Set(elts=items):
            values = [_value(item, known) for item in items]
            if any(value is _UNKNOWN for value in values):
                return _UNKNOWN
            return tuple(values) if isinstance(node, ast.Tuple) else values
        case ast.Dict(keys=keys, values=values):
            pairs = [(None if k is None else _value(k, known), _value(v, known)) for k, v in zip(keys, values)]
            result = {}
            for key, value in pairs:
                if key is _UNKNOWN or value is _UNKNOWN or (key is None and not isinstance(value, dict)):
                    return _UNKNOWN
                result.update(value if key is None else {key: value})
            return result
        case ast.BinOp(left=left, op=ast.Add(), right=right):
            return _joined(_value(left, known), _value(right, known))
        case ast.BinOp(left=left, op=ast.Mod(), right=right):
            text, args = _value(left, known), _value(right, known)
            if isinstance(text, str) and args is not _UNKNOWN:
                try:
                    return text % args
                except (TypeError, ValueError, KeyError):
                    return _UNKNOWN
        case ast.JoinedStr(values=parts):
            pieces = []
            for part in parts:
                if isinstance(part, ast.FormattedValue):
                    value = _value(part.value, known)
                    if value is _UNKNOWN or part.format_spec is not None or part.conversion not in (-1, 115):
                        return _UNKNOWN
                    pieces.append(str(value))
                else:
                    pieces.append(_value(part, known))
            return "".join(pieces)
    return _UNKNOWN


def _joined(left, right):
    same = type(left) is type(right) and isinstance(left, (str, list, tuple))
    return left + right if same else _UNKNOWN


def _called(value, method: str, args: list):
    """A list's `append`/`extend`/`insert`, a dict's `update`; anything else makes the value unknown."""
    if value is _UNKNOWN or any(arg is _UNKNOWN for arg in args):
        return _UNKNOWN
    if isinstance(value, list) and method == "append" and len(args) == 1:
        return value + args
    if isinstance(value, list) and method == "extend" and len(args) == 1 and isinstance(args[0], (list, tuple)):
        return value + list(args[0])
    if isinstance(value, list) and method == "insert" and len(args) == 2 and isinstance(args[0], int):
        return value[:args[0]] + [args[1]] + value[args[0]:]
    if isinstance(value, dict) and method == "update" and len(args) == 1 and isinstance(args[0], dict):
        return {**value, **args[0]}
    return _UNKNOWN


@functools.cache
def _pattern(pattern: str) -> re.Pattern:
    """Sphinx's glob: `**` any path, `*` and `?` within one folder, `[…]` a class."""
    out, index = [], 0
    while index < len(pattern):
        char = pattern[index]
        if pattern.startswith("**", index):
            out.append(".*")
            index += 2
            continue
        if char == "[" and "]" in pattern[index + 2:]:
            end = pattern.index("]", index + 2)
            inner = pattern[index + 1:end]
            out.append("[" + ("^/" + inner[1:] if inner.startswith("!") else inner.replace("\\", "\\\\")) + "]")
            index = end + 1
            continue
        out.append("[^/]*" if char == "*" else "[^/]" if char == "?" else re.escape(char))
        index += 1
    return re.compile("".join(out) + r"\Z")
