"""The values a Python settings file (Sphinx's conf.py) gives its names, found without running it (pure).

Only assignments at the file's top level are followed: a value written out (strings, numbers,
lists, tuples, dicts, sets), a name given such a value earlier, and those joined with `+`, `%` or
an f-string; `+=`, and a list's `append`/`extend`/`insert` or a dict's `update` with such values.
Anything else a statement binds (an import, a call's result, a function, a loop's name) is
UNKNOWN from then on. A name an `if` or a `try` sets keeps its value only when every way through
agrees; `extensions` takes every extension any way through loads, and Sphinx's `tags.add("x")`
counts a tag as added for sure (TAGS) or on some ways only (MAYBE_TAGS).
"""
from __future__ import annotations

import ast

UNKNOWN = object()
TAGS, MAYBE_TAGS = "tags.add", "tags.add?"


def run(module: ast.Module, lines: dict) -> dict:
    """Name → value (or UNKNOWN) after the module's top level; `lines` gets each name's line."""
    known: dict = {}
    _run(module.body, known, lines)
    return known


def _run(statements: list[ast.stmt], known: dict, lines: dict) -> None:
    for statement in statements:
        match statement:
            case ast.Assign(targets=targets, value=value):
                for target in targets:
                    _bind(target, value, known, lines)
            case ast.AnnAssign(target=target, value=value) if value is not None:
                _bind(target, value, known, lines)
            case ast.AugAssign(target=ast.Name(id=name), op=ast.Add(), value=value):
                before, more = known.get(name, UNKNOWN), _value(value, known)
                known[name] = _joined(before, more)
            case ast.Expr(value=ast.Call(func=ast.Attribute(value=ast.Name(id="tags"), attr="add"),
                                         args=[ast.Constant(value=str(tag))])):
                known[TAGS] = known.get(TAGS, frozenset()) | {tag}
            case ast.Expr(value=ast.Call(func=ast.Attribute(value=ast.Name(id=name), attr=method), args=args)):
                known[name] = _called(known.get(name, UNKNOWN), method, [_value(a, known) for a in args])
            case ast.Try(body=body, orelse=orelse, handlers=handlers, finalbody=finalbody):
                _run(body + orelse, known, lines)
                for handler in handlers:
                    _branches([handler.body], known, lines)
                _run(finalbody, known, lines)
            case ast.If(body=body, orelse=orelse):
                _branches([body, orelse], known, lines)
            case _:
                for name in _bound(statement):
                    known[name] = UNKNOWN


def _branches(branches: list[list[ast.stmt]], known: dict, lines: dict) -> None:
    """Names a branch may or may not set keep their value only when every way through agrees."""
    ways = []
    for branch in branches:
        way = dict(known)
        _run(branch, way, {})
        ways.append(way)
    for name in {name for way in ways for name in way}:
        values = [way.get(name, UNKNOWN) for way in ways] + [known.get(name, UNKNOWN)] * (len(branches) < 2)
        if name == TAGS:       # a tag some way through adds may be set or not
            values = [value if isinstance(value, frozenset) else frozenset() for value in values]
            known[TAGS] = frozenset.intersection(*values)
            known[MAYBE_TAGS] = known.get(MAYBE_TAGS, frozenset()).union(*values) - known[TAGS]
        elif name == "extensions" and all(isinstance(value, list) for value in values):
            known[name] = list(dict.fromkeys(item for value in values for item in value))   # any it may load
        elif any(value is UNKNOWN or value != values[0] for value in values):
            known[name] = UNKNOWN


def _bind(target: ast.expr, value: ast.expr, known: dict, lines: dict) -> None:
    if isinstance(target, ast.Name):
        known[target.id] = _value(value, known)
        lines[target.id] = value.lineno
    elif isinstance(target, (ast.Tuple, ast.List)):
        values = _value(value, known)
        spread = isinstance(values, (list, tuple)) and len(values) == len(target.elts)
        for at, element in enumerate(target.elts):
            if isinstance(element, ast.Name):
                known[element.id] = values[at] if spread else UNKNOWN
    else:
        for name in _bound(target):
            known[name] = UNKNOWN


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
    """The value an expression has without running anything, or UNKNOWN."""
    match node:
        case ast.Constant(value=value):
            return value
        case ast.Name(id=name):
            return known.get(name, UNKNOWN)
        case ast.List(elts=items) | ast.Tuple(elts=items) | ast.Set(elts=items):
            values = [_value(item, known) for item in items]
            if any(value is UNKNOWN for value in values):
                return UNKNOWN
            return tuple(values) if isinstance(node, ast.Tuple) else values
        case ast.Dict(keys=keys, values=values):
            pairs = [(None if k is None else _value(k, known), _value(v, known)) for k, v in zip(keys, values)]
            result = {}
            for key, value in pairs:
                if key is UNKNOWN or value is UNKNOWN or (key is None and not isinstance(value, dict)):
                    return UNKNOWN
                result.update(value if key is None else {key: value})
            return result
        case ast.BinOp(left=left, op=ast.Add(), right=right):
            return _joined(_value(left, known), _value(right, known))
        case ast.BinOp(left=left, op=ast.Mod(), right=right):
            text, args = _value(left, known), _value(right, known)
            if isinstance(text, str) and args is not UNKNOWN:
                try:
                    return text % args
                except (TypeError, ValueError, KeyError):
                    return UNKNOWN
        case ast.JoinedStr(values=parts):
            pieces = []
            for part in parts:
                if isinstance(part, ast.FormattedValue):
                    value = _value(part.value, known)
                    if value is UNKNOWN or part.format_spec is not None or part.conversion not in (-1, 115):
                        return UNKNOWN
                    pieces.append(str(value))
                else:
                    pieces.append(_value(part, known))
            return "".join(pieces)
    return UNKNOWN


def _joined(left, right):
    same = type(left) is type(right) and isinstance(left, (str, list, tuple))
    return left + right if same else UNKNOWN


def _called(value, method: str, args: list):
    """A list's `append`/`extend`/`insert`, a dict's `update`; anything else makes the value unknown."""
    if value is UNKNOWN or any(arg is UNKNOWN for arg in args):
        return UNKNOWN
    if isinstance(value, list) and method == "append" and len(args) == 1:
        return value + args
    if isinstance(value, list) and method == "extend" and len(args) == 1 and isinstance(args[0], (list, tuple)):
        return value + list(args[0])
    if isinstance(value, list) and method == "insert" and len(args) == 2 and isinstance(args[0], int):
        return value[:args[0]] + [args[1]] + value[args[0]:]
    if isinstance(value, dict) and method == "update" and len(args) == 1 and isinstance(args[0], dict):
        return {**value, **args[0]}
    return UNKNOWN
