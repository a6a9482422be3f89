"""AsciiDoc's preprocessor: includes, conditionals and the attributes they test (pure but for reading files).

Before an AsciiDoc page is read as blocks (asciidoc.py), as Asciidoctor does:
- `include::file.adoc[]` puts the file's lines in place, found beside the including file (or by
  its Antora resource ID, `partial$intro.adoc`: antora.py) and never outside the content folder, at most 5 deep and never in a cycle; `tag=`/`tags=` keep the
  lines between `tag::name[]` and `end::name[]`, `lines=3..8;12` the lines numbered, and
  `leveloffset=+1` deepens the included section titles; a file that is not there is named in
  a warning and its line dropped;
- `ifdef::name[]`, `ifndef::name[]` (`a,b` any of them, `a+b` all) and their one-line form
  `ifdef::name[text]` keep or drop lines by the attributes set so far (`:name: value` lines,
  also those set by an including page before its include, as git's manual does); `ifeval::[]`
  cannot be evaluated here and keeps its lines;
- attribute entries inside listing and literal blocks are text, not settings; includes and
  conditionals work there too (`include::example.py[]` inside a `[source]` block), not in comments.

Every line keeps the file and line it came from, for errors named where the author wrote them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from . import antora

MAX_DEPTH = 5
_INCLUDE = re.compile(r"^include::(\S+?)\[(.*)\]\s*$")
_CONDITION = re.compile(r"^(ifdef|ifndef|ifeval)::([^\[]*)\[(.*)\]\s*$")
_END = re.compile(r"^endif::[^\[]*\[\]\s*$")
ATTRIBUTE = re.compile(r"^:(!?)([\w][\w-]*)(!?):(?:[ \t]+(.*?))?\s*$")
_VERBATIM = re.compile(r"^(-{4,}|\.{4,}|`{3}.*|/{4,}|\+{4,})\s*$")
_TAG = re.compile(r"\b(tag|end)::([\w-]+)\[\]")
_SECTION = re.compile(r"^(=+)(\s+\S)")
UNDERLINE = "=-~^+"


@dataclass
class Expanded:
    lines: list[tuple[str, str, int]] = field(default_factory=list)   # (text, file relative name, line)
    attributes: dict[str, str] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)


def expand(text: str, file: Path, content_dir: Path, attributes: dict[str, str] | None = None) -> Expanded:
    """The page's lines after includes and conditionals, with where each came from."""
    found = Expanded(attributes=dict(attributes or {}))
    _expand(_lines(text), file, content_dir, found, (file.resolve(),), 0)
    return found


def _lines(text: str) -> list[tuple[int, str]]:
    return list(enumerate(text.replace("\r\n", "\n").split("\n"), start=1))


def relative_name(file: Path, content_dir: Path) -> str:
    try:
        return file.resolve().relative_to(content_dir.resolve()).as_posix()
    except ValueError:
        return file.name


def _expand(lines: list[tuple[int, str]], file: Path, content_dir: Path, found: Expanded, chain: tuple[Path, ...],
            offset: int) -> None:
    name = relative_name(file, content_dir)
    taken: list[bool] = []
    verbatim = previous = ""
    for number, line in lines:
        commented = verbatim.startswith("/")     # directives work inside listing blocks, not in comments
        if (condition := _CONDITION.match(line)) and not commented:
            kind, names, inline = condition.groups()
            keep = kind == "ifeval" or _holds(names, found.attributes) == (kind == "ifdef")
            if inline and kind != "ifeval":
                if keep and all(taken):
                    found.lines.append((inline, name, number))
                continue
            taken.append(keep)
            continue
        if _END.match(line) and not commented:
            if taken:
                taken.pop()
            continue
        if not all(taken):
            continue
        if (include := _INCLUDE.match(line)) and not commented:
            _include(include.group(1), include.group(2), file, content_dir, found, chain, offset, name, number)
            continue
        delimiter = _VERBATIM.match(line)
        if delimiter and not verbatim and underlines(line, previous):
            delimiter = None         # a two-line section title, not a listing block
        previous = line
        if delimiter:
            mark = delimiter.group(1).rstrip()
            verbatim = "" if verbatim and (mark == verbatim or (verbatim == "```" and mark == "```")) else \
                verbatim or ("```" if mark.startswith("```") else mark)
        elif not verbatim and (entry := ATTRIBUTE.match(line)):
            unset, key, unset_after, value = entry.groups()
            if unset or unset_after:
                found.attributes.pop(key, None)
            else:
                found.attributes[key] = value or ""
        if offset and not verbatim and (section := _SECTION.match(line)):
            line = "=" * min(6, len(section.group(1)) + offset) + line[len(section.group(1)):]
        found.lines.append((line, name, number))


def underlines(underline: str, title: str) -> bool:
    """Is `underline` a two-line section title's (one of =-~^+ repeated, as long as the title give or take two)?"""
    mark = underline.strip()
    return (len(mark) >= 2 and mark[0] in UNDERLINE and set(mark) == {mark[0]} and underline == underline.rstrip()
            and bool(title.strip()) and abs(len(mark) - len(title.strip())) <= 2 and title[:1] not in " \t.[/:*-")


def _holds(names: str, attributes: dict[str, str]) -> bool:
    if "+" in names:
        return all(n.strip() in attributes for n in names.split("+"))
    return any(n.strip() in attributes for n in names.split(","))


def _include(target: str, options: str, file: Path, content_dir: Path, found: Expanded,
             chain: tuple[Path, ...], offset: int, name: str, number: int) -> None:
    target = re.sub(r"\{([\w-]+)\}", lambda m: found.attributes.get(m.group(1), m.group()), target)
    path = (antora.resolve(target, file) or file.parent / target).resolve()
    inside = path.is_relative_to(content_dir.resolve())
    if "://" in target or not inside or not path.is_file() or path in chain or len(chain) > MAX_DEPTH:
        why = "not in the content folder" if "://" in target or not inside else \
            "included again inside itself" if path in chain else "more than 5 includes deep" \
            if len(chain) > MAX_DEPTH else "not found"
        found.warnings.append(f"{name}:{number}: include::{target}[] {why}, left out")
        return
    settings = dict(re.findall(r"(\w+)=\"?([^,\"]*)\"?", options))
    lines = _lines(path.read_text("utf-8", errors="replace"))
    if "lines" in settings:
        lines = _numbered(lines, settings["lines"])
    if "tag" in settings or "tags" in settings:
        lines = _tagged(lines, (settings.get("tag") or settings.get("tags", "")).split(";"))
    shift = settings.get("leveloffset", "")
    deeper = offset + (int(shift) if re.fullmatch(r"[+-]?\d+", shift) else 0)
    _expand(lines, path, content_dir, found, (*chain, path), deeper)


def _numbered(lines: list[tuple[int, str]], wanted: str) -> list[tuple[int, str]]:
    """`lines=3..8;12` (1-based, inclusive; `..-1` to the end): the lines kept."""
    keep: set[int] = set()
    for part in re.split(r"[;,]", wanted):
        start, _, end = part.strip().partition("..")
        if not start.isdigit():
            continue
        last = (lines[-1][0] if lines else 0) if end in ("-1", "") and _ else int(end) if end.isdigit() else int(start)
        keep.update(range(int(start), last + 1))
    return [(number, line) for number, line in lines if number in keep]


def _tagged(lines: list[tuple[int, str]], tags: list[str]) -> list[tuple[int, str]]:
    """Only the lines between `tag::name[]` and `end::name[]` of the wanted tags (tag lines dropped)."""
    wanted, open_tags, kept = {t.strip() for t in tags if t.strip()}, set(), []
    for number, line in lines:
        marks = _TAG.findall(line)
        for kind, tag in marks:
            (open_tags.add if kind == "tag" else open_tags.discard)(tag)
        if not marks and open_tags & wanted:
            kept.append((number, line))
    return kept
