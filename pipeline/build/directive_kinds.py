"""What each fenced directive's name is drawn as (pure data): an admonition of a family, code, a
container shown as it is, a tab, an object's signature, or nothing; and whether an unknown
directive's body is code (`code_language`). fenced_directives.py draws them; rst_source.py and
rst_markdown.py read reStructuredText's directives by the same names.
"""
from __future__ import annotations

import ast
import re
import textwrap

# kind as written → the family it is drawn as (style.css and sanitize.CLASSES know these)
ADMONITIONS = {
    **dict.fromkeys("note info seealso abstract summary tldr todo example quote question".split(), "note"),
    **dict.fromkeys("tip hint success check done".split(), "tip"),
    "important": "important",
    **dict.fromkeys("warning caution attention".split(), "warning"),
    **dict.fromkeys("danger error failure fail missing bug".split(), "danger"),
    "admonition": "note",
}
# Sphinx's version notes, and the names Sphinx 9 also gives them (coverage.py writes `.. version-added:: 7.10`)
VERSION_TITLES = {
    **dict.fromkeys(("versionadded", "version-added"), "New in version {arg}"),
    **dict.fromkeys(("versionchanged", "version-changed"), "Changed in version {arg}"),
    **dict.fromkeys(("deprecated", "version-deprecated"), "Deprecated since version {arg}"),
    **dict.fromkeys(("versionremoved", "version-removed"), "Removed in version {arg}"),
}
ADMONITIONS |= dict.fromkeys(VERSION_TITLES, "version")
TITLES = {"seealso": "See also", "tldr": "TL;DR", **VERSION_TITLES}
# sphinx.ext.doctest's blocks, whose argument names a group of tests, not a language
DOCTEST_LANGUAGES = {"doctest": "pycon", "testcode": "python", "testoutput": "text"}
CODE_DIRECTIVES = frozenset("code code-block sourcecode code-cell code-tab literal math".split()) | set(DOCTEST_LANGUAGES)
# A diagram's or a grammar's source: the generator draws it; here it is shown as the code it is.
DIAGRAM_DIRECTIVES = frozenset("mermaid graphviz digraph graph plantuml uml productionlist".split())
# sphinxcontrib-programoutput: the generator runs the command and shows its output; here, the command.
COMMAND_DIRECTIVES = frozenset("program-output command-output".split())
# Their argument is a file, a URL, a selector or a layout ("1 2 2 2" columns of a sphinx-design grid), not words.
UNTITLED = frozenset("""figure button-link button-ref html div tabs code-tabs code-group grid grid-item card-carousel
tab-set container""".split())
# Containers a generator draws around content it shows as it is (VitePress's `::: details Title` and
# `::: code-group`, VuePress's `::: tabs` of `@tab Label` parts, sphinx-design's grids, cards, dropdowns
# and tabs, sphinx-togglebutton's toggles, MyST's and Pandoc's divs): shown under their title, if any, and not
# named in a warning.
# sphinx-design's cards, whose body a line of `^^^` parts from its header and one of `+++` from its footer
CARDS = frozenset(("card", "grid-item-card"))


def card_parts(lines: list[str]) -> list[tuple[int, int]]:
    """A card's header, body and footer: the (start, end) of each run of `lines` between its marks."""
    marks = [n for n, line in enumerate(lines) if line.strip()[:3] in ("^^^", "+++")]
    return list(zip([0] + [n + 1 for n in marks], marks + [len(lines)]))


SHOWN_AS_IS = frozenset("""details tabs code-tabs code-group grid grid-item grid-item-card card card-carousel dropdown
tab-set tab-item tab group-tab container div figure topic sidebar margin rubric epigraph pull-quote highlights
compound toggle""".split())
# A domain's object descriptions (`.. function:: name(args)`, `{class}`, `.. envvar:: HOME`): the signature shown
# as code above the description, as Sphinx shows it (without what autodoc would add from the code).
OBJECTS = frozenset("""function class method attribute data exception classmethod staticmethod property decorator
decoratormethod type member macro struct union enum enumerator var directive role option cmdoption envvar describe
object confval globalvar""".split())
# One tab of a set (pymdown's `/// tab | Label`, sphinx-design's `{tab-item}`, sphinx-tabs' `{tab}` and `{group-tab}`):
# the title is its label.
TABS = frozenset("tab tab-item group-tab".split())
# Directives that place other files or navigation, or show what an extension makes of files outside the docs
# (towncrier's draft entries): nothing to show on the page itself.
SILENT_DIRECTIVES = frozenset("""
toctree include literalinclude toc contents tableofcontents raw iframe image meta index
highlight currentmodule module bibliography embed towncrier-draft-entries testsetup testcleanup
""".split())

# A shell session's prompt: a directive of commands (pip's `{pip-cli}`) is a console block whatever its name
_PROMPT = re.compile(r"^\s*(?:\$|>>>|PS [^>\n]*>|[A-Z]:\\[^>\n]*>)(?:\s|$)")

def code_language(body: str) -> str | None:
    """The language of a directive's body when it is code, not words: "console" for a shell session
    (its first line a command at a prompt), "python" for Python that does something (Click's
    `click:example`); None for text."""
    if _PROMPT.match(body.strip("\n").split("\n", 1)[0]):
        return "console"
    try:
        statements = ast.parse(textwrap.dedent(body).strip("\n")).body
    except (SyntaxError, ValueError):
        return None
    # a bare name or a list ("- a") parses too; a sentence of words does not
    acts = any(isinstance(s, _ACTS) or isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) for s in statements)
    return "python" if acts else None


_ACTS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom, ast.Assign,
         ast.AugAssign, ast.AnnAssign, ast.If, ast.With, ast.For, ast.While, ast.Try)
