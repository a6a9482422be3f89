"""What a Sphinx project's conf.py tells the reStructuredText reader (sphinx_conf.py reads it).

- `rst_prolog` and `rst_epilog` are put around every page, as Sphinx puts them: the prolog after
  the page's leading fields (`:orphan:`), the epilog at the end; their lines are conf.py's lines;
- `version`, `release` and `today` fill |version|, |release| and |today| where the page defines
  no substitution of that name (|today| is the day of the build unless `today` is set, as in Sphinx);
- `default_role` is the role of `text` in single backquotes (`code` in Flask's docs);
- `extlinks` roles (sphinx.ext.extlinks) and sphinx-issues' `:issue:`, `:pr:`, `:commit:`, `:user:`
  and `:pypi:` become links with the caption Sphinx shows (`#5123`);
- `tags.add(...)` sets the tags `.. only::` tests, beside the HTML builder's own.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from datetime import date

from docutils import nodes, utils
from docutils.transforms import Transform

from .included_files import origin_of
from .sphinx_conf import NAME, SphinxConf

BUILDER_TAGS = frozenset({"html", "format_html", "builder_html"})    # what Sphinx's HTML builder sets
_FIELD = re.compile(r":\w+:")        # Sphinx's docinfo line: the prolog goes after these
_TITLED = re.compile(r"^(.*?)\s*<([^<>]*)>$", re.S)
ISSUES = {"issue": ("https://github.com/{path}/issues/{n}", "#{n}"),
          "pr": ("https://github.com/{path}/pull/{n}", "#{n}"),
          "commit": ("https://github.com/{path}/commit/{n}", "@{short}"),
          "user": ("https://github.com/{n}", "@{n}")}


@dataclass(frozen=True)
class RstProject:
    prolog: tuple[str, int] = ("", 0)          # text, conf.py's line it starts on
    epilog: tuple[str, int] = ("", 0)
    substitutions: dict = field(default_factory=dict)
    default_role: str = ""
    links: dict = field(default_factory=dict)  # role name → (URL pattern, caption pattern, takes a list)
    tags: tuple[frozenset, frozenset] = (BUILDER_TAGS, frozenset())   # set for sure, set on some paths only
    # zzzeeksphinx's short names of objects (SQLAlchemy, Mako): None without it, else its module prefixes
    module_prefixes: dict | None = None

    def framed(self, text: str, origins: list[tuple[int, str, int]]) -> tuple[str, list[tuple[int, str, int]]]:
        """The page with the prolog and epilog in place, and where each of its lines comes from."""
        prolog, epilog = self.prolog[0].splitlines(), self.epilog[0].splitlines()
        if not prolog and not epilog:
            return text, origins
        lines = text.split("\n")
        at = 0
        while at < len(lines) and _FIELD.match(lines[at]):
            at += 1
        block = ([""] if at else []) + prolog + [""] if prolog else []
        after = [(at, NAME, self.prolog[1] - (1 if at else 0))] if block else []
        after.append((at + len(block), *origin_of(origins, at, origins[0][1], 1)))
        moved = [(index, name, line) for index, name, line in origins if index < at] + after + \
                [(index + len(block), name, line) for index, name, line in origins if index >= at]
        lines[at:at] = block
        if epilog:
            moved.append((len(lines), NAME, self.epilog[1] - 1))
            lines += [""] + epilog
        return "\n".join(lines), moved

    def role(self, name: str):
        """The role function of a link role, or None."""
        pattern, caption, listed = self.links.get(name.lower(), (None, None, False))
        if pattern is None:
            return None

        def link(role_name, rawtext, text, lineno, inliner, options=None, content=None):
            text = utils.unescape(text)
            titled = _TITLED.match(text)
            title, targets = (titled.group(1), [titled.group(2)]) if titled and titled.group(1) else \
                (None, [t.strip() for t in text.split(",")] if listed else [text])   # sphinx-issues: `12, 14`
            made = []
            for target in filter(None, targets):
                made += [nodes.Text(", ")] if made else []
                made.append(nodes.reference(rawtext, title or _filled(caption, target) or _filled(pattern, target),
                                            refuri=_filled(pattern, target)))
            return made, []
        return link


def project(conf: SphinxConf | None) -> RstProject | None:
    if conf is None:
        return None
    links = {}
    path = conf.get("issues_github_path")
    if path or "sphinx_issues" in conf.get("extensions", [], (list, tuple)):
        links["pypi"] = ("https://pypi.org/project/{n}", "{n}", True)
    if path and re.fullmatch(r"[\w.-]+/[\w.-]+", path):
        links.update({name: (url.replace("{path}", path), shown, True) for name, (url, shown) in ISSUES.items()})
    for name, value in conf.get("extlinks", {}, dict).items():
        if isinstance(name, str) and isinstance(value, (tuple, list)) and len(value) == 2 and \
                isinstance(value[0], str) and isinstance(value[1], (str, type(None))):
            links[name.lower()] = (_braced(value[0]), _braced(value[1]) if value[1] is not None else "", False)
    sure, maybe = conf.tags
    extensions = conf.get("extensions", [], (list, tuple))
    return RstProject(
        (conf.get("rst_prolog", ""), conf.lines.get("rst_prolog", 1)),
        (conf.get("rst_epilog", ""), conf.lines.get("rst_epilog", 1)),
        {"today": date.today().strftime(conf.get("today_fmt") or "%b %d, %Y"),
         **{name: conf.get(name) for name in ("version", "release", "today") if conf.get(name)}},
        conf.get("default_role", "") or "", links, (BUILDER_TAGS | sure, maybe - sure),
        {str(k): str(v) for k, v in conf.get("zzzeeksphinx_module_prefixes", {}, dict).items()}
        if "zzzeeksphinx" in extensions else None)


def only_shown(expression: str, tags: tuple[frozenset, frozenset] = (BUILDER_TAGS, frozenset())) -> bool:
    """Whether Sphinx's `.. only:: expression` shows its content on the web. The tags set are the
    HTML builder's and those conf.py adds; one it adds on some paths only may be either, so the
    content is shown unless the expression is false either way. A tag never set is false."""
    try:
        return _truth(ast.parse(expression.strip() or "True", mode="eval").body, *tags) is not False
    except (SyntaxError, ValueError, RecursionError):
        return True


def _truth(node: ast.expr, sure: frozenset, maybe: frozenset) -> bool | None:
    """Kleene's three values: True, False, or None for "either"."""
    match node:
        case ast.Name(id=name):
            return True if name in sure else None if name in maybe else False
        case ast.Constant(value=bool(value)):
            return value
        case ast.UnaryOp(op=ast.Not(), operand=inner):
            value = _truth(inner, sure, maybe)
            return None if value is None else not value
        case ast.BoolOp(op=op, values=inner):
            values = [_truth(value, sure, maybe) for value in inner]
            decides = isinstance(op, ast.Or)       # True decides an `or`, False an `and`
            return decides if decides in values else None if None in values else not decides
    return None


def _braced(pattern: str) -> str:
    """An extlinks pattern as `{n}` for the role's text: `%s` in it, or the text after it (before Sphinx 4)."""
    pieces = pattern.split("%%")
    if not any("%s" in piece for piece in pieces):
        return pattern + "{n}"
    return "%".join(piece.replace("%s", "{n}") for piece in pieces)


def _filled(pattern: str, target: str) -> str:
    return pattern.replace("{n}", target).replace("{short}", target[:7])


class DefaultSubstitutions(Transform):
    """Sphinx's |version|, |release| and |today|, where the page defines no substitution of that name;
    empty when conf.py computes them (`release = scrapy.__version__`), never an undefined reference."""
    default_priority = 210      # before docutils' own Substitutions transform (220)

    def apply(self) -> None:
        values = {**dict.fromkeys(("version", "release", "today"), ""),
                  **(getattr(self.document.settings, "trigsight_substitutions", None) or {})}
        defined = set(self.document.substitution_names)
        for reference in list(self.document.findall(nodes.substitution_reference)):
            name = reference["refname"]
            if name in values and name not in defined:
                reference.replace_self(nodes.Text(values[name]))
