"""reStructuredText pages parsed as Sphinx sites write them (docutils; rst_markdown.py writes the result).

docutils reads the reStructuredText; what only Sphinx or its extensions know is carried through
to the markdown reader, which already reads the same directives in MyST pages:
- every directive docutils does not know (`toctree`, `versionadded`, `seealso`, `py:function`,
  `autoclass`, `tab-set`, …) becomes a `directive` node with its name, argument and options, and
  either its body read as reStructuredText or, for those whose body is not prose (`toctree`,
  `autosummary`, …), its lines as written; `code-block`, `sourcecode` and `code` become code blocks
  with their language, accepting Sphinx's options;
- every role docutils does not know (`:ref:`, `:doc:`, `:func:`, `:kbd:`, …) becomes a `role` node;
- `.. include::` and `.. literalinclude::` are put in place before docutils reads the page, through
  included_files.py's rules (beside the file, the content folder, the project's root; never hidden,
  large or binary files), at most 20 deep and never in a cycle; docutils itself reads no file.

Problems docutils finds (a title's underline too short, an unknown link target) are warnings
naming the file and line, as Sphinx gives them: a release is not refused for them.
"""
from __future__ import annotations

import functools
import importlib
import io
import re
from dataclasses import dataclass, field
from pathlib import Path

from docutils import nodes, utils
from docutils.core import publish_doctree
from docutils.parsers.rst import Directive, directives, roles
from docutils.parsers.rst.languages import en
from docutils.readers import standalone
from docutils.statemachine import StringList

from ..errors import ContentError
from . import changelog_directives, glossaries
from .dialects import ZZZEEK_ROLES, standard_reference, zzzeek_shown, zzzeek_sql
from .directive_kinds import ADMONITIONS, CARDS, DOCTEST_LANGUAGES, VERSION_TITLES, card_parts, code_language
from .included_files import IncludedFiles, origin_of
from .rst_includes import Expander
from .rst_project import BUILDER_TAGS, DefaultSubstitutions, RstProject, only_shown

# Directives whose body is not prose: kept as written for the markdown reader.
RAW_BODY = frozenset("toctree autosummary math productionlist mermaid graphviz digraph graph plantuml plot".split())
CODE = frozenset("code code-block sourcecode code-tab ipython jupyter-execute code-cell prompt console".split()) | set(
    DOCTEST_LANGUAGES)
# Sphinx's object descriptions without a domain prefix (the default domain's, and std's)
DESCRIBES = frozenset("""function class method staticmethod classmethod attribute data exception decorator
decoratormethod property module object describe option cmdoption envvar program confval directive role type
fixture hook globalvar""".split())
VERSIONS = frozenset(VERSION_TITLES)
HIDDEN = frozenset("testsetup testcleanup index highlight highlightlang tabularcolumns sectionauthor moduleauthor "
                   "codeauthor currentmodule module program".split())
_SETTINGS = {"report_level": 2, "halt_level": 5, "doctitle_xform": False, "docinfo_xform": False,
             "sectsubtitle_xform": False, "file_insertion_enabled": False, "raw_enabled": True,
             "syntax_highlight": "none", "smart_quotes": False, "line_length_limit": 1_000_000}
_DIRECTIVE = re.compile(r"^[ \t]*\.\.[ \t]+(?:\|[^|]+\|[ \t]+)?([\w][\w:.+-]*)::", re.M)
_ROLE = re.compile(r"(?<![\w`]):([\w][\w:.+-]*):`")
_MESSAGE = re.compile(r"^.*?:(\d+): \((WARNING|ERROR|SEVERE)/\d\) (.*)$")
_OPTION_LINE = re.compile(r"^:[\w-]+:(?:\s|$)")
# A signature continued on the next line after a backslash (aiohttp's `.. class:: TCPConnector(*, ssl=True, \`):
# one signature, as Sphinx joins it
_CONTINUED = re.compile(r"(,?)([ \t]*)\\\n\s*")


class directive(nodes.Element):
    """A directive docutils does not know: name, argument, options, and a body read or `raw`."""


class role(nodes.Inline, nodes.TextElement):
    """A role docutils does not know, with its text as written (`title <target>`)."""


class highlight(nodes.Element):
    """Sphinx's `.. highlight:: lang`: the language of the literal blocks after it."""


# Known to docutils' generic visitors, as Sphinx registers its own nodes: `.. contents::` copies each section
# title with one (ContentsFilter), and stopped at a title holding a role it did not know (Celery's FAQ).
nodes._add_node_class_names([directive.__name__, role.__name__, highlight.__name__])


class _AnyOption(dict):
    """Any option a directive is given, kept as written (Sphinx's extensions have hundreds)."""

    def __missing__(self, key):
        return directives.unchanged

    def __bool__(self) -> bool:    # docutils reads options only when the directive has some
        return True


class _PassThrough(Directive):
    optional_arguments, final_argument_whitespace, has_content = 1, True, True
    option_spec = _AnyOption()

    def run(self):
        name = self.name.lower()
        argument, more = " ".join(self.arguments), []
        if _describes(name):
            # one signature a line, as Sphinx shows them (`.. function:: compile(source)` over `compile(source, mode)`)
            argument = _CONTINUED.sub(lambda m: ", " if m.group(1) else " " if m.group(2) else "", argument)
            # an option indented deeper than the body (aiohttp's `   :async:`) reaches the argument: not a signature
            argument, *more = [line.strip() for line in argument.split("\n")
                               if line.strip() and not _OPTION_LINE.match(line.strip())] or [""]
        node = directive(name=name, argument=argument, options=dict(self.options), signatures=more)
        node.source, node.line = self.state_machine.get_source_and_line(self.lineno)
        base = name.split(":")[-1]
        if base in VERSIONS and self.arguments and len(self.arguments[0].split(None, 1)) == 2:
            # `.. versionadded:: 2.1 The flag.`: Sphinx reads the words after the version as its text
            version, words = self.arguments[0].split(None, 1)
            node["argument"] = version
            paragraph = nodes.paragraph(words, "", *self.state.inline_text(words, self.lineno)[0])
            node += paragraph
        elif node["argument"] and base not in RAW_BODY | VERSIONS and not _describes(name):
            # a tab's or a card's title is words with inline markup (`.. tab:: ``pip```), not a signature
            node += nodes.title(node["argument"], "", *self.state.inline_text(node["argument"], self.lineno)[0])
        if base == "only" and not only_shown(node["argument"], self.state.document.settings.trigsight_tags):
            return []
        if base in ("highlight", "highlightlang"):
            return [highlight(language=" ".join(self.arguments))]
        if base in HIDDEN:
            return []
        if name not in ADMONITIONS and base not in RAW_BODY and (code := _code(self, name)) is not None:
            return [code]
        if base in RAW_BODY or base.startswith("auto") and not self.content:
            node["raw"] = "\n".join(self.content)
        elif self.content and (base in _TITLED or _describes(name)):
            _nested_with_titles(self, node)
        elif self.content and base in CARDS:
            for start, end in card_parts(list(self.content)):
                self.state.nested_parse(self.content[start:end], self.content_offset + start, node)
        elif self.content and base == "glossary":
            lines = StringList(glossaries.rst_terms_joined(list(self.content)), items=self.content.items)
            self.state.nested_parse(lines, self.content_offset, node)
        elif self.content:
            self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


# Sphinx reads section titles inside these and inside an object's description (Scrapy's `.. only:: html`
# and `.. class::` hold sections of their own)
_TITLED = frozenset("only ifconfig".split())


def _nested_with_titles(directive_: Directive, node: nodes.Element) -> None:
    """The directive's content read as Sphinx's `nested_parse_with_titles` reads it: its sections are
    sections under the one around it, not errors."""
    memo = directive_.state.memo
    styles, level = memo.title_styles, memo.section_level
    memo.title_styles, memo.section_level = [], 0
    try:
        directive_.state.nested_parse(directive_.content, directive_.content_offset, node, match_titles=True)
    finally:
        memo.title_styles, memo.section_level = styles, level


def _describes(name: str) -> bool:
    """A directive whose argument is a signature or a name (`py:function`, `confval`, `autoclass`)."""
    base = name.split(":")[-1]
    return ":" in name or base.startswith("auto") or base in DESCRIBES


class _Admonition(_PassThrough):
    """Sphinx's admonitions without a title (`seealso`, `todo`): words on the first line are the body."""
    optional_arguments = 0


class _ChangelogEntry(_PassThrough):
    """The `changelog` extension's `changelog` and `change`: their `:name: value` lines are read by the extension
    itself, the last of a name winning (SQLAlchemy gives some releases `:released:` twice), not by docutils."""
    optional_arguments, option_spec = 0, None

    def run(self):
        self.options, read = changelog_directives.leading_options(list(self.content))
        self.content, self.content_offset = self.content[read:], self.content_offset + read
        shown = super().run()
        imported = getattr(self.state.document, "trigsight_imported", {})
        if shown and self.name.lower() == "changelog" and imported:
            shown[0] = changelog_directives.with_imported(shown[0], imported)
        return shown


class _ChangelogImports(Directive):
    """`.. changelog_imports::`: the older changelogs it includes are read for their changes that name a release
    of this page (`changelog_directives.imported_changes`), and shown nowhere else; one level deep, as the
    extension reads them (the imports inside an imported changelog are not read again)."""
    has_content = True

    def run(self):
        document = self.state.document
        if getattr(document, "trigsight_importing", False):
            return []
        parsed = nodes.Element()
        document.trigsight_importing = True
        try:
            _nested_with_titles(self, parsed)
        finally:
            document.trigsight_importing = False
        imported = getattr(document, "trigsight_imported", {})
        for version, changes in changelog_directives.imported_changes(parsed).items():
            imported.setdefault(version, []).extend(changes)
        document.trigsight_imported = imported
        return []


class _CodeBlock(Directive):
    optional_arguments, final_argument_whitespace, has_content = 1, True, True
    option_spec = _AnyOption()

    def run(self):
        name = self.name.lower()
        if name in DOCTEST_LANGUAGES:       # `.. doctest:: group`: the group of tests, not a language
            language = DOCTEST_LANGUAGES[name]
        else:
            language = self.arguments[0].split()[0] if self.arguments else self.options.get("language", "")
        if not language:     # Django's `.. console::`: shell sessions
            language = {"ipython": "pycon", "console": "console"}.get(name, "")
        block = _literal(self, language)
        caption = self.options.get("caption")
        if not caption:
            return [block]
        words, messages = self.state.inline_text(caption, self.lineno)   # ``wsgi.py``: a file name in code
        return [nodes.rubric(caption, "", *words), *messages, block]


def _literal(directive_: Directive, language: str, text: str | None = None, line: int | None = None
             ) -> nodes.literal_block:
    """The directive's content (or `text`) as a code block in `language`, at the content's first line."""
    text = "\n".join(directive_.content) if text is None else text
    block = nodes.literal_block(text, text, language=language)
    block.source, block.line = directive_.state_machine.get_source_and_line(line or directive_.content_offset + 1)
    return block


def _code(directive_: Directive, name: str) -> nodes.literal_block | None:
    """An unknown directive's body as a code block when it is code, not words (Click's `click:example`).
    docutils reads a body that starts right under the directive, no blank line between, as its argument."""
    marker_line = directive_.block_text.split("\n", 1)[0]
    below = directive_.arguments and not marker_line.partition("::")[2].strip()
    argument = directive_.arguments[0] if below else ""
    text = "\n\n".join(part for part in (argument, "\n".join(directive_.content)) if part)
    language = code_language(text) if text else None
    if language is None or language == "console" and _describes(name):
        return None
    return _literal(directive_, language, text, directive_.lineno + 1 if argument else None)


class _Unreadable(Directive):
    """An include included_files.py would not read (missing, hidden, outside the project, too big)."""
    required_arguments, final_argument_whitespace, has_content = 1, True, True
    option_spec = _AnyOption()

    def run(self):
        message = (f'{self.name} of "{self.arguments[0]}" not read (no such file, or hidden, over 2 MB, outside '
                   'the project or including itself): shown as nothing')
        return [self.state.document.reporter.warning(message, line=self.lineno)]


def _without_sql_marks(doctree: nodes.document) -> None:
    """A zzzeeksphinx project's SQL code blocks (`pycon+sql`, as written or by `.. highlight::`) without the marks
    of where each statement's SQL starts and stops (`dialects.zzzeek_sql`)."""
    language = ""
    for node in doctree.findall(lambda n: isinstance(n, (highlight, nodes.literal_block))):
        if isinstance(node, highlight):
            language = node["language"]
        elif "sql" in (node.get("language") or language).lower() and all(isinstance(c, nodes.Text) for c in node.children):
            text = zzzeek_sql(node.astext())
            node.children = []
            node += nodes.Text(text)


def _role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [role(rawtext, utils.unescape(text), name=name.lower())], []


def _zzzeek_role(prefixes, name, rawtext, text, lineno, inliner, options=None, content=None):
    """A Python cross-reference of a zzzeeksphinx project, shown by its short name (`dialects.zzzeek_shown`)."""
    return _role(name, rawtext, zzzeek_shown(name.lower(), utils.unescape(text), prefixes), lineno, inliner)


def _named_role(named, name, rawtext, text, lineno, inliner, options=None, content=None):
    """The project's default role when docutils does not know it (`py:obj`, `any`)."""
    return _role(named, rawtext, text, lineno, inliner)


class _Reader(standalone.Reader):
    def get_transforms(self):
        return [*super().get_transforms(), DefaultSubstitutions]


def _standard(name, rawtext, text, lineno, inliner, options=None, content=None):
    """Sphinx's `:pep:` and `:rfc:`: `8`, `8#anchor`, `title <8#anchor>` (docutils' own take a number only)."""
    text = utils.unescape(text)
    standard = standard_reference(name, text)
    if standard is None:
        return [nodes.Text(text)], []
    title, shown, uri = standard
    return [nodes.reference(rawtext, title or shown, refuri=uri)], []


_KNOWN_DIRECTIVES = set(en.directives) | set(directives._directive_registry)
_KNOWN_ROLES = set(en.roles) | set(roles._role_registry)


@functools.cache
def _lenient(name: str) -> type[Directive] | None:
    """docutils' own directive `name`, taking any option as Sphinx's versions of it do (`.. note::`
    with `:collapsible:`): a known option is read as docutils reads it, any other is kept as written."""
    canonical = en.directives.get(name.lower(), name.lower())
    if canonical not in directives._directive_registry:
        return None
    module, class_name = directives._directive_registry[canonical]
    known = getattr(importlib.import_module(f"docutils.parsers.rst.directives.{module}"), class_name)
    if known.option_spec is None and known.has_content:    # `.. meta::`'s `:name: value` lines are its content
        return None
    return type(class_name, (known,), {"option_spec": _AnyOption(known.option_spec or {})})


def _register(text: str, project: RstProject | None) -> None:
    """Give docutils a reading of every directive and role the page uses that it does not know, and
    the project's default role (none but docutils' own when the project sets none)."""
    roles._roles.pop("", None)       # a page's `.. default-role::` is that page's alone
    if project and project.default_role:
        name = project.default_role
        known, _ = roles.role(name, en, 0, None) if name.lower() in _KNOWN_ROLES else (None, [])
        roles._roles[""] = known or functools.partial(_named_role, name)
    for name in set(_DIRECTIVE.findall(text)):
        if name.lower() in ("code", "code-block", "sourcecode") or name.lower().split(":")[-1] in CODE:
            directives.register_directive(name, _CodeBlock)
        elif name.lower() in ("include", "literalinclude"):
            directives.register_directive(name, _Unreadable)
        elif name.lower() in changelog_directives.DIRECTIVES:
            directives.register_directive(name, _ChangelogEntry)
        elif name.lower() == changelog_directives.IMPORTS:
            directives.register_directive(name, _ChangelogImports)
        elif name not in _KNOWN_DIRECTIVES or name.lower() == "class":    # Sphinx's is the Python class's
            base = name.lower().split(":")[-1]
            untitled = name.lower() in ADMONITIONS and base not in VERSIONS and base != "admonition"
            directives.register_directive(name, _Admonition if untitled else _PassThrough)
        elif (lenient := _lenient(name)) is not None:
            directives.register_directive(name, lenient)
    for name in set(_ROLE.findall(text)):
        if project and (link := project.role(name)):
            roles.register_local_role(name, link)
        elif project and project.module_prefixes is not None and name.lower() in ZZZEEK_ROLES:
            roles.register_local_role(name, functools.partial(_zzzeek_role, project.module_prefixes))
        elif name.lower() in ("pep", "rfc", "pep-reference", "rfc-reference"):
            roles.register_local_role(name, _standard)
        elif name not in _KNOWN_ROLES:
            roles.register_local_role(name, _role)


@dataclass
class RstSource:
    doctree: nodes.document
    origins: list[tuple[int, str, int]]     # (line index in the text docutils read, file, its line)
    problems: list[tuple[str, int, str]] = field(default_factory=list)   # (file, line, message)
    outside: set[str] = field(default_factory=set)   # included files read from outside the content folder

    def locate(self, line: int | None) -> tuple[str, int]:
        """(file, line) of docutils' 1-based `line` of the text it read."""
        return origin_of(self.origins, (line or 1) - 1, self.origins[0][1], 1)


def run(text: str, file: Path, files: IncludedFiles, project: RstProject | None = None) -> RstSource:
    """The page's doctree, its includes (and the project's prolog and epilog) in place; raise
    ContentError when docutils cannot read it."""
    label = files.label(file)
    expander = Expander(files)
    expanded, origins = expander.expand(text, file, 1, {label})
    origins = [(0, label, 1), *origins]
    if project:
        expanded, origins = project.framed(expanded, origins)
    _register(expanded, project)
    stream = io.StringIO()
    settings = {**_SETTINGS, "warning_stream": stream,
                "trigsight_substitutions": project.substitutions if project else {},
                "trigsight_tags": project.tags if project else (BUILDER_TAGS, frozenset())}
    try:
        doctree = publish_doctree(expanded, source_path=label, reader=_Reader(), settings_overrides=settings)
    except RecursionError:
        raise
    except Exception as error:   # docutils' own failures on text it cannot read: the page's error, not a crash
        raise ContentError(f"not readable as reStructuredText ({type(error).__name__}: {error})", label, 1) from None
    finally:
        roles._roles.pop("", None)
    if project and project.module_prefixes is not None:
        _without_sql_marks(doctree)
    source = RstSource(doctree, origins, outside=expander.outside)
    for line in stream.getvalue().splitlines():
        if (match := _MESSAGE.match(line)):
            source.problems.append((*source.locate(int(match.group(1))), match.group(3)))
    return source
