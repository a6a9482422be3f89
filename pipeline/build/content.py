"""Stage 1: read a folder of markdown into page sources (front matter optional)."""
from __future__ import annotations

import dataclasses
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from ..errors import ContentError, Problem, UsageError
from . import moved_pages, name_languages, notebooks, page_addresses, pandoc_divs, sphinx_conf, vitepress_rewrites
from .asciidoc_pages import AsciidocPages
from .front_matter import decode, key_line, split_front_matter
from .included_files import origin_of
from .languages import page_language
from .page_source import PageSource, default_slug, without_suffix
from .slugs import is_slug

if TYPE_CHECKING:
    from .rst_pages import RstPages

# Pages other generators read that trigsight does not: named in a warning, never lost silently.
OTHER_PAGE_SUFFIXES = frozenset(".org .textile".split())

# Front matter keys that mean the same thing across the common generators (README's table).
# Each canonical key lists the names it is written under, first match wins.
KEYS = {
    "title": ("title",),
    "description": ("description",),
    "slug": ("slug", "id", "permalink"),
    "language": ("language", "lang"),
    "nav_label": ("nav_label", "sidebar_label", "sidebar.label", "sidebarTitle", "nav_title", "linkTitle",
                  "short_title"),
    "order": ("order", "sidebar_position", "sidebar.order", "weight", "nav_order"),
    "draft": ("draft",),
    "published": ("published",),
    "unlisted": ("unlisted", "orphan", "nav_exclude", "sidebar.hidden"),
    "toc": ("toc", "hide-toc", "hide"),
}
KNOWN_KEYS = frozenset([*(name for names in KEYS.values() for name in names), *moved_pages.MOVED_KEYS,
                        *moved_pages.ALIAS_KEYS])
NESTED = "sidebar"    # Starlight: `sidebar: {label, order, hidden}`, read as `sidebar.label` and so on
JEKYLL_FOLDERS = frozenset({"_posts", "_drafts"})


# The files left out, each list's warning line: ContentResult's attribute, what the line says of them
_LEFT_OUT = (("partials", "partials not published as pages (names or folders starting with _)"),
             ("included", "AsciiDoc files other pages include, or an Antora component does not publish "
                          "(outside its modules' pages/), not published as pages of their own"),
             ("readmes", "README files beside an index page, not published (the index is the folder's page)"),
             ("shadowed", "pages at the address of their folder's own page, not published (the folder's page wins)"),
             ("sphinx_excluded", "left out as conf.py's exclude_patterns says"),
             ("sphinx_unread", "pages Sphinx does not read, as conf.py's source_suffix and extensions say, "
                               "not published"))


@dataclass
class ContentResult:
    pages: list[PageSource] = field(default_factory=list)
    excluded: list[str] = field(default_factory=list)           # draft / unpublished files
    ignored_keys: dict[str, list[str]] = field(default_factory=dict)   # front matter key → files
    partials: list[str] = field(default_factory=list)           # `_name.md`: included, never a page
    included: list[str] = field(default_factory=list)           # AsciiDoc files included, or no Antora page
    unread: list[str] = field(default_factory=list)             # pages in other formats (.org, .textile, ...)
    readmes: list[str] = field(default_factory=list)            # README.md beside an index.md: not published
    shadowed: list[str] = field(default_factory=list)           # x.md beside x/index.md: not published
    rst: RstPages | None = None                                 # what reading the .rst pages found
    asciidoc: AsciidocPages | None = None                       # what reading the .adoc pages found
    sphinx: sphinx_conf.SphinxConf | None = None                # the folder's Sphinx conf.py, read
    sphinx_excluded: list[str] = field(default_factory=list)    # left out by its exclude_patterns
    sphinx_unread: list[str] = field(default_factory=list)      # pages of suffixes its Sphinx does not read
    sphinx_nested: str = ""                                     # `source/conf.py`: the Sphinx project is inside
    moved: moved_pages.MovedPages = field(default_factory=moved_pages.MovedPages)   # served as redirects

    @property
    def warnings(self) -> list[str]:
        """One line naming the front matter keys ignored, and where; one naming each kind of file left out."""
        lines = []
        if self.ignored_keys:
            parts = [f"{key} ({shorten(files)})" for key, files in sorted(self.ignored_keys.items())]
            lines.append("front matter keys ignored: " + "; ".join(parts))
        if self.unread:
            lines.append(f"pages in formats trigsight does not read, not published: {_formats(self.unread)}")
        lines += [f"{what}: {shorten(getattr(self, name))}" for name, what in _LEFT_OUT if getattr(self, name)]
        lines += self.moved.warnings
        if self.sphinx_nested:
            folder = self.sphinx_nested.rsplit("/", 1)[0]
            lines.append(f"{self.sphinx_nested} found: Sphinx reads this project's pages from {folder}/; give that "
                         f"folder as the content folder to publish them as Sphinx does (its conf.py is read only there)")
        return lines + (self.sphinx.warnings if self.sphinx else []) + (self.rst.warnings if self.rst else []) \
            + (self.asciidoc.warnings if self.asciidoc else [])


def _formats(files: list[str]) -> str:
    """`3 .rst (a.rst, b.rst, c.rst), 1 .ipynb (n.ipynb)`: the files by suffix."""
    by_suffix: dict[str, list[str]] = {}
    for file in files:
        by_suffix.setdefault(Path(file).suffix.lower(), []).append(file)
    return ", ".join(f"{len(names)} {suffix} ({shorten(names)})" for suffix, names in sorted(by_suffix.items()))


def shorten(files: list[str], shown: int = 3) -> str:
    more = len(files) - shown
    return ", ".join(files[:shown]) + (f" and {more} more" if more > 0 else "")


def run(content_dir: Path, default_language: str = "en", sphinx=sphinx_conf.NOT_READ) -> ContentResult:
    """Read every markdown file under `content_dir`; raise ContentError naming file and line."""
    content_dir = Path(content_dir)
    if not content_dir.is_dir():
        raise UsageError(f"content folder not found: {content_dir}", str(content_dir))
    found = sorted(p for p in content_dir.rglob("*")
                   if p.is_file() and not any(part.startswith(".") or part == "node_modules"
                                              for part in p.relative_to(content_dir).parts))
    conf = sphinx_conf.read(content_dir) if sphinx is sphinx_conf.NOT_READ else sphinx   # read once per build
    kinds = sphinx_conf.page_kinds(conf)
    files = [p for p in found if p.suffix.lower() in kinds]
    result = ContentResult(sphinx=conf, sphinx_nested=sphinx_conf.nested(content_dir))
    if conf is not None:
        kept, result.sphinx_excluded, result.sphinx_unread = \
            conf.select([f.relative_to(content_dir).as_posix() for f in files])
        files = [content_dir / name for name in kept]
    if any(kinds[f.suffix.lower()] == "rst" for f in files):
        result.rst = _rst_pages(content_dir, conf)
    if any(kinds[f.suffix.lower()] == "asciidoc" for f in files):
        result.asciidoc = AsciidocPages(content_dir)
        included = result.asciidoc.included(files)
        result.included = [f.relative_to(content_dir).as_posix() for f in files if f in included]
        files = [f for f in files if f not in included]
    result.unread = [p.relative_to(content_dir).as_posix() for p in found if p.suffix.lower() in OTHER_PAGE_SUFFIXES]
    if not files:
        others = f"; found {_formats(result.unread)}, which trigsight does not read" if result.unread else ""
        others += f"; conf.py's Sphinx reads none of {shorten(result.sphinx_unread)} (its source_suffix and " \
                  "extensions)" if result.sphinx_unread else ""
        raise ContentError(f"no markdown files (*.md, *.markdown, *.mdx), notebooks (*.ipynb), reStructuredText "
                           f"(*.rst) or AsciiDoc files (*.adoc) in the content folder{others}",
                           str(content_dir))

    problems: list[Problem] = []
    # Docusaurus, Astro and Jekyll never publish `_name.md`: it is a partial other pages
    # include. Hugo's `_index.md` is a section's own page.
    relative_of = {f: f.relative_to(content_dir).as_posix() for f in files}
    translated = name_languages.translations(list(relative_of.values()), default_language)
    partial = {f for f in files if _is_partial(translated.get(relative_of[f], (relative_of[f],))[0])}
    result.partials = [relative_of[f] for f in files if f in partial]
    for file in (f for f in files if f not in partial):
        if "_drafts" in relative_of[file].split("/")[:-1]:     # Jekyll's drafts
            result.excluded.append(relative_of[file])
            continue
        try:
            named = translated.get(relative_of[file]) or (result.asciidoc and result.asciidoc.named(file))
            page, ignored = read_page(file, content_dir, default_language, result.rst, kinds[file.suffix.lower()],
                                      named or None, result.asciidoc)
        except ContentError as error:
            problems.extend(error.problems)
            continue
        relative = file.relative_to(content_dir).as_posix()
        for key in ignored:
            result.ignored_keys.setdefault(key, []).append(relative)
        if page is None:
            result.excluded.append(relative)
        else:
            result.pages.append(page)
    if conf is not None:
        result.pages = page_addresses.root_doc_as_home(result.pages, conf.root_doc)
    if result.asciidoc is not None:
        result.pages = result.asciidoc.start_page_as_home(result.pages)
    result.pages = vitepress_rewrites.run(content_dir, result.pages)
    result.pages, result.readmes, result.shadowed = page_addresses.without_shadowed(result.pages)
    result.moved = moved_pages.run([(page, page.moved_to) for page in result.pages if page.moved_to],
                                   [page for page in result.pages if not page.moved_to],
                                   moved_pages.mkdocs_renames(content_dir) + moved_pages.sphinx_renames(conf))
    moved = result.moved.moved_sources
    result.pages = [page for page in result.pages if page.source not in moved]
    problems.extend(page_addresses.duplicate_slugs(result.pages, content_dir))
    if problems:
        raise ContentError("content errors", problems=problems)
    if not result.pages:
        raise ContentError("every markdown file is a draft, unpublished or a partial: nothing to release",
                           str(content_dir))
    return result


def _is_partial(relative: str) -> bool:
    """A file other pages include, never a page: `_name.md`, or any file in a folder named `_like_this`
    (Jekyll's _includes and _layouts, Docusaurus's and Astro's partial folders); not Hugo's `_index.md`,
    Jekyll's `_posts` (pages, at posts/…) or its `_drafts` (drafts)."""
    *folders, name = relative.split("/")
    if any(folder.startswith("_") and folder not in JEKYLL_FOLDERS for folder in folders):
        return True
    return name.startswith("_") and without_suffix(name).lower() != "_index"


def read_page(file: Path, content_dir: Path, default_language: str, rst: RstPages | None = None,
              kind: str = "", named: tuple[str, str] | None = None,
              asciidoc: AsciidocPages | None = None) -> tuple[PageSource | None, list[str]]:
    """The page (None when it is a draft or unpublished) and the front matter keys ignored; `kind` is how
    it is read ("markdown", "notebook", "rst", "asciidoc"; by default as its suffix says); `named`, the path
    and language its file's name gives a translation (name_languages), or the path Antora serves a page at
    (with no language: the page's own is found as any page's)."""
    relative = file.relative_to(content_dir).as_posix()
    shown = str(file)
    text = decode(file.read_bytes(), shown)
    kind = kind or sphinx_conf.KINDS.get(file.suffix.lower(), "markdown")
    if kind == "markdown":
        return _read_text(text, relative, shown, default_language, named)
    if kind == "notebook":
        text, cells = notebooks.markdown(text, shown)
        lines = [(start, relative, line) for start, line in cells]
    elif kind == "asciidoc":
        text, lines = (asciidoc or AsciidocPages(content_dir)).markdown(text, file)
    else:
        text, lines = (rst or _rst_pages(content_dir)).markdown(text, file, relative)
    try:
        page, ignored = _read_text(text, relative, shown, default_language, named)
    except ContentError as error:     # named at the lines of the file as written
        raise ContentError(str(error), problems=[Problem(*_located(lines, (p.line or 1) - 1, shown, content_dir),
                                                         p.message) for p in error.problems]) from None
    if page is None:
        return page, ignored
    offset, origins = page.body_line - 1, []
    for start, name, line in lines:
        origins = [(0, name, line + offset - start)] if start <= offset else origins + [(start - offset, name, line)]
    return dataclasses.replace(page, origins=tuple(origins)), ignored


def _rst_pages(content_dir: Path, conf: sphinx_conf.SphinxConf | None = None) -> RstPages:
    from .rst_pages import RstPages  # docutils takes a tenth of a second to import: only for .rst pages
    return RstPages(content_dir, conf)


def _located(lines: list[tuple[int, str, int]], index: int, shown: str, content_dir: Path) -> tuple[str, int]:
    """(file, line) as written of the converted text's line `index` (0-based)."""
    name, line = origin_of(lines, index, "", 1)
    return (str(content_dir / name) if name else shown), line


def _read_text(text: str, relative: str, shown: str, default_language: str,
               named: tuple[str, str] | None = None) -> tuple[PageSource | None, list[str]]:
    meta, body, body_line = split_front_matter(text, shown)
    if isinstance(meta.get(NESTED), dict):
        meta = {**{k: v for k, v in meta.items() if k != NESTED},
                **{f"{NESTED}.{key}": value for key, value in meta[NESTED].items()}}
    ignored = sorted(str(key) for key in meta if key not in KNOWN_KEYS)
    found = {canonical: (name, meta[name]) for canonical, names in reversed(KEYS.items())
             for name in reversed(names) if name in meta}
    for canonical in ("title", "slug", "language", "description", "nav_label"):
        if canonical in found and not isinstance(found[canonical][1], (str, int, float, type(None))):
            name = found[canonical][0]
            raise ContentError(f"front matter `{name}` must be a text value", shown, key_line(text, name))
    if _flag(found, "draft") is True or _flag(found, "published") is False:
        return None, ignored
    slug = _slug(found, named[0] if named else relative, text, shown)
    language = _text(found, "language") or (named[1] if named and named[1] else page_language(body, default_language))
    order = found.get("order", (None, None))[1]
    if order is not None and (isinstance(order, bool) or not isinstance(order, (int, float))):
        ignored.append(found["order"][0])   # not a number: no order rather than a refused release
        order = None
    toc_name, toc_value = found.get("toc", ("toc", True))
    toc = not (toc_value is False or (toc_name == "hide-toc" and toc_value is True)
               or (toc_name == "hide" and isinstance(toc_value, list) and "toc" in toc_value))
    title = _text(found, "title")
    if relative.lower().endswith((".qmd", ".rmd")):
        title = pandoc_divs.plain_title(title)
    page = PageSource(relative, slug, title or None, language, body, body_line,
                      _text(found, "description"), _text(found, "nav_label"), order,
                      _flag(found, "unlisted") is True, toc, moved_to=moved_pages.target_of(meta, body),
                      aliases=moved_pages.aliases_of(meta))
    return page, ignored


def _text(found: dict, canonical: str) -> str:
    value = found.get(canonical, (None, None))[1]
    return "" if value is None else str(value).strip()


def _flag(found: dict, canonical: str) -> bool | None:
    value = found.get(canonical, (None, None))[1]
    if isinstance(value, str):
        return {"true": True, "yes": True, "false": False, "no": False}.get(value.strip().lower())
    return value if isinstance(value, bool) else None


def _slug(found: dict, relative: str, text: str, shown: str) -> str:
    name, value = found.get("slug", ("slug", None))
    written = "" if value is None else str(value).strip().strip("/")
    if name == "id" and written:       # Docusaurus: the id replaces the file's name in its folder
        folder = default_slug(relative).rpartition("/")[0] if "/" in relative else ""
        written = f"{folder}/{written}" if folder else written
    if name in ("id", "permalink"):    # other generators' values, made into our slugs
        written = "" if ":" in written else default_slug(written.removesuffix(".html") + ".md") if written else ""
    slug = unicodedata.normalize("NFC", written) or default_slug(relative)
    if not is_slug(slug):
        raise ContentError(f"slug {slug!r} must be lowercase letters (any script), digits, '-', '_', '.', "
                           "separated by '/'", shown, key_line(text, name))
    return slug
