"""Stage 1: read a folder of markdown into page sources (front matter optional)."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from ..errors import ContentError, Problem, UsageError

MARKDOWN_SUFFIXES = (".md", ".markdown")
SLUG_PATTERN = re.compile(r"^[a-z0-9][a-z0-9._~-]*(/[a-z0-9][a-z0-9._~-]*)*$")
KNOWN_KEYS = {"title", "slug", "language", "lang", "description"}


@dataclass(frozen=True)
class PageSource:
    """One markdown file, parsed just enough to know where it will live."""

    source: str            # path relative to the content folder, with "/" separators
    slug: str              # "index" for the home page
    title: str | None      # None until the renderer finds the first heading
    language: str
    body: str              # markdown after the front matter
    body_line: int         # 1-based line in the file where `body` starts
    description: str = ""

    @property
    def path(self) -> str:
        """The URL path the page is served at."""
        return "/" if self.slug == "index" else f"/{self.slug}"


@dataclass
class ContentResult:
    pages: list[PageSource] = field(default_factory=list)


def run(content_dir: Path, default_language: str = "en") -> ContentResult:
    """Read every markdown file under `content_dir`; raise ContentError naming file and line."""
    content_dir = Path(content_dir)
    if not content_dir.is_dir():
        raise UsageError(f"content folder not found: {content_dir}", str(content_dir))
    files = sorted(p for p in content_dir.rglob("*")
                   if p.is_file() and p.suffix.lower() in MARKDOWN_SUFFIXES
                   and not any(part.startswith(".") for part in p.relative_to(content_dir).parts))
    if not files:
        raise ContentError("no markdown files (*.md) in the content folder", str(content_dir))

    problems: list[Problem] = []
    pages: list[PageSource] = []
    for file in files:
        try:
            pages.append(read_page(file, content_dir, default_language))
        except ContentError as error:
            problems.extend(error.problems)
    problems.extend(_duplicate_slugs(pages, content_dir))
    if problems:
        raise ContentError("content errors", problems=problems)
    return ContentResult(pages)


def read_page(file: Path, content_dir: Path, default_language: str) -> PageSource:
    relative = file.relative_to(content_dir).as_posix()
    shown = str(file)
    text = _decode(file.read_bytes(), shown)
    meta, body, body_line = split_front_matter(text, shown)
    unknown = sorted(set(meta) - KNOWN_KEYS)
    if unknown:
        raise ContentError(f"unknown front matter key(s): {', '.join(unknown)} "
                           f"(known: {', '.join(sorted(KNOWN_KEYS))})", shown, 2)
    for key in ("title", "slug", "language", "lang", "description"):
        if key in meta and not isinstance(meta[key], (str, int, float)):
            raise ContentError(f"front matter `{key}` must be a text value", shown,
                               _key_line(text, key))
    slug = str(meta.get("slug", "")).strip().strip("/") or default_slug(relative)
    if not SLUG_PATTERN.match(slug):
        raise ContentError(f"slug {slug!r} must be lowercase letters, digits, '-', '_', '.', "
                           "separated by '/'", shown, _key_line(text, "slug"))
    language = str(meta.get("language", meta.get("lang", default_language))).strip() or default_language
    title = str(meta["title"]).strip() if meta.get("title") not in (None, "") else None
    return PageSource(relative, slug, title, language, body, body_line,
                      str(meta.get("description", "")).strip())


def default_slug(relative: str) -> str:
    stem = re.sub(r"\.(md|markdown)$", "", relative, flags=re.I)
    parts = [re.sub(r"[^a-z0-9._~-]+", "-", p.lower()).strip("-") or "page" for p in stem.split("/")]
    if parts[-1] in ("index", "readme") and len(parts) > 1:
        parts.pop()
    if parts == ["readme"]:
        parts = ["index"]
    return "/".join(parts)


def split_front_matter(text: str, shown: str) -> tuple[dict, str, int]:
    """Return (metadata, body, 1-based line where the body starts)."""
    lines = text.splitlines(keepends=True)
    if not lines or lines[0].rstrip("\r\n").rstrip() != "---":
        return {}, text, 1
    for index in range(1, len(lines)):
        if lines[index].rstrip("\r\n").rstrip() in ("---", "..."):
            block = "".join(lines[1:index])
            try:
                meta = yaml.safe_load(block) if block.strip() else {}
            except yaml.YAMLError as error:
                mark = getattr(error, "problem_mark", None)
                line = mark.line + 2 if mark is not None else 2
                reason = getattr(error, "problem", None) or "invalid YAML"
                raise ContentError(f"malformed front matter: {reason}", shown, line) from None
            if not isinstance(meta, dict):
                raise ContentError("front matter must be a mapping of `key: value` lines", shown, 2)
            return meta, "".join(lines[index + 1:]), index + 2
    raise ContentError("front matter opened with '---' is never closed", shown, 1)


def _decode(raw: bytes, shown: str) -> str:
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line = raw[:error.start].count(b"\n") + 1
        raise ContentError(f"not valid UTF-8 (byte 0x{raw[error.start]:02x}); "
                           "save the file as UTF-8", shown, line) from None
    return text.removeprefix("\ufeff")


def _key_line(text: str, key: str) -> int:
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(f"{key}:"):
            return number
    return 1


def _duplicate_slugs(pages: list[PageSource], content_dir: Path) -> list[Problem]:
    seen: dict[str, PageSource] = {}
    problems = []
    for page in pages:
        if page.slug in seen:
            first = seen[page.slug]
            problems.append(Problem(str(content_dir / page.source), 1,
                                    f"duplicate slug {page.slug!r} (also used by {first.source})"))
        else:
            seen[page.slug] = page
    return problems
