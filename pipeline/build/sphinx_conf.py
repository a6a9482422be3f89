"""A Sphinx project's `conf.py`, read as data and never run (pure reading).

Sphinx runs `conf.py`; trigsight only reads the values its top level writes out (conf_values.py).
A value computed when Sphinx runs (`release = get_version("flask")`) is not known, and whatever
depends on it keeps Sphinx's default. What is read:
- `source_suffix`, with the suffixes its extensions add (myst_parser: .md; nbsphinx, myst_nb:
  .ipynb; their custom formats: .md through jupytext): the pages are the files Sphinx reads, so a
  Django folder's `.txt` files are pages, and a stray README.md that Sphinx never reads is left out;
- `exclude_patterns` and `include_patterns`, matched as Sphinx matches them;
- `root_doc` (`master_doc`): where the toctrees are followed from; the home page when there is no index;
- `project` and `language`: the site's name and language (site_name.py);
- `rst_prolog` and `rst_epilog`; `version`, `release` and `today` (the |version| substitutions);
  `default_role`; `extlinks` and sphinx-issues' `issues_github_path` (roles that make links);
  `tags.add(...)` (what `.. only::` tests): rst_project.py gives them to the reStructuredText reader.
"""
from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from . import conf_values

NAME = "conf.py"
LARGEST = 1_000_000
# How trigsight reads each page suffix: .mdx (mdx.py), .ipynb (notebooks.py), .rst (rst_pages.py), .adoc
# (asciidoc.py); Quarto's
# .qmd and R Markdown's .Rmd are Pandoc's markdown (pandoc_divs.py)
KINDS = {".md": "markdown", ".markdown": "markdown", ".mdx": "markdown", ".qmd": "markdown", ".rmd": "markdown",
         ".ipynb": "notebook", ".rst": "rst", ".adoc": "asciidoc", ".asciidoc": "asciidoc"}
# Suffixes a conf.py may make pages of besides those trigsight reads anyway (Django writes `.txt`).
OTHER_SUFFIXES = (".txt", ".rest", ".myst")
# What extensions add to source_suffix (Sphinx's default is .rst alone)
EXTENSION_SUFFIXES = {"myst_parser": (".md",), "myst_nb": (".md", ".ipynb"), "nbsphinx": (".ipynb",),
                      "recommonmark": (".md",), "sphinx_markdown_parser": (".md",), "jupytext": (".md",)}
_READ = frozenset("""source_suffix exclude_patterns include_patterns root_doc master_doc rst_prolog rst_epilog
project language version release today today_fmt default_role extlinks issues_github_path extensions
nbsphinx_custom_formats nb_custom_formats redirects zzzeeksphinx_module_prefixes""".split())
# Notebooks written as other files, read as notebooks by nbsphinx and myst_nb (`.md` through jupytext)
_CUSTOM_FORMATS = ("nbsphinx_custom_formats", "nb_custom_formats")


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


NOT_READ = object()     # a caller that has not read the folder's conf.py yet


def page_kinds(conf: SphinxConf | None) -> dict[str, str]:
    """Page suffix → how it is read: trigsight's own, and those the folder's conf.py adds."""
    added = (conf.suffixes or {}) if conf else {}
    return {**KINDS, **{suffix: kind for suffix, kind in added.items() if suffix not in KINDS}}


def nested(content_dir: Path) -> str:
    """`source/conf.py` when the folder is a Sphinx project laid out by sphinx-quickstart with its
    sources apart (`docs/source/`, `docs/build/`), whose pages Sphinx reads from that folder; else ""."""
    found = sorted(name for name in ("source", "src") if (Path(content_dir) / name / NAME).is_file())
    return f"{found[0]}/{NAME}" if found and not (Path(content_dir) / NAME).is_file() else ""


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
    try:
        known = conf_values.run(module, conf.lines)
    except RecursionError:
        conf.warnings.append(f"{NAME} not read (nested too deeply): Sphinx's defaults apply")
        return conf
    conf.tags = (known.get(conf_values.TAGS, frozenset()), known.get(conf_values.MAYBE_TAGS, frozenset()))
    written = known.get("source_suffix")
    written = [written] if isinstance(written, str) else written if isinstance(written, (list, tuple, dict)) else []
    unread = sorted(str(s) for s in written if str(s).lower() not in KINDS and str(s).lower() not in OTHER_SUFFIXES)
    if unread:
        conf.warnings.append(f"{NAME}'s source_suffix names {', '.join(unread)}: files trigsight does not read "
                             "as pages, not published")
    conf.values = {name: value for name, value in known.items() if name in _READ and value is not conf_values.UNKNOWN}
    conf.unknown = {name for name, value in known.items() if name in _READ and value is conf_values.UNKNOWN}
    return conf


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
