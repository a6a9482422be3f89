"""The four read-only MCP tools: schemas, argument checks and what each one answers.

Every link a tool calls proven is a passage URL from the allowlist, which the browser
gate proved lands on exactly one sentence. `verify_quote` can also build a link for a
quotation that is only part of a passage; that link is computed with the same matcher
model as the source gate but was never loaded in a browser, so it says `proven: false`.
"""
from __future__ import annotations

import json
import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable
from urllib.parse import unquote, urlsplit

from trigsight.answering import evidence as evidence_search
from trigsight.matching.directives import TextDirective
from trigsight.matching.textmodel import (
    Folded,
    collapse,
    find_matches,
    normalise,
    page_haystack,
    segments_from_html,
)
from trigsight.publishing.published import PublishedPage, PublishedPassage, Release

from . import current_settings

log = logging.getLogger(__name__)

try:
    VERSION = metadata.version("trigsight")
except metadata.PackageNotFoundError:  # running from a checkout without install
    VERSION = "0"

INSTRUCTIONS = (
    "Read-only tools for checking claims about this site's author against the published pages. "
    "find_evidence returns passages only when they share the claim's own words, numbers and names; "
    "treat supported=false as 'no evidence', not as a near match. verify_quote checks an exact quotation. "
    "Links marked proven=true were loaded in a real browser at release time and highlight exactly one sentence."
)


class ToolFailure(Exception):
    """A tool could not answer; the caller sees the message with isError: true."""


@dataclass(frozen=True)
class ToolContext:
    release: Release | None
    base_url: str            # what links start with: the public URL ("https://docs.example.org"), or "" (relative)
    app: Any = None
    retriever: Any = None    # the same release snapshot's retriever (None without an index)

    def link(self, path_and_fragment: str) -> str:
        return self.base_url.rstrip("/") + path_and_fragment

    def published(self) -> Release:
        if self.release is None:
            raise ToolFailure("No release is published yet, so there is nothing to check against.")
        return self.release


@dataclass(frozen=True)
class Tool:
    name: str
    title: str
    description: str
    input_schema: dict
    output_schema: dict
    run: Callable[[dict, ToolContext], dict]

    def definition(self) -> dict:
        return {"name": self.name, "title": self.title, "description": self.description,
                "inputSchema": self.input_schema, "outputSchema": self.output_schema,
                "annotations": {"title": self.title, "readOnlyHint": True, "destructiveHint": False,
                                "idempotentHint": True, "openWorldHint": False}}


def _object(properties: dict, required: tuple[str, ...] = ()) -> dict:
    return {"type": "object", "properties": properties, "required": list(required), "additionalProperties": False}


def _text(description: str, max_length: int = 2000) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": max_length, "description": description}


_PAGE_ARG = _text("The page: its slug (e.g. 'mcp'), its path ('/mcp') or its full URL.", 2048)
_PAGE_REF = _object({"slug": {"type": "string"}, "title": {"type": "string"}, "url": {"type": "string"}},
                    ("slug", "title", "url"))
_PASSAGE = _object({"id": {"type": "string"}, "text": {"type": "string"}, "start": {"type": "integer"},
                    "end": {"type": "integer"}, "url": {"type": "string"}, "proven": {"type": "boolean"}},
                   ("id", "text", "start", "end", "url", "proven"))


def check_arguments(schema: dict, arguments: dict) -> None:
    """Validate against the closed schemas above (objects of strings and integers)."""
    properties = schema["properties"]
    unknown = sorted(set(arguments) - set(properties))
    if unknown:
        raise ToolFailure(f"Unknown argument(s): {', '.join(unknown)}. Allowed: {', '.join(properties) or 'none'}.")
    for name in schema["required"]:
        if name not in arguments:
            raise ToolFailure(f"Missing required argument: {name}.")
    for name, value in arguments.items():
        spec = properties[name]
        if spec["type"] == "string":
            if not isinstance(value, str):
                raise ToolFailure(f"Argument {name} must be a string.")
            length = len(value) if value.strip() else 0  # blank counts as empty
            if not spec["minLength"] <= length <= spec["maxLength"]:
                raise ToolFailure(f"Argument {name} must be {spec['minLength']} to {spec['maxLength']} characters.")
        elif spec["type"] == "integer":
            if isinstance(value, bool) or not isinstance(value, int):
                raise ToolFailure(f"Argument {name} must be an integer.")
            if not spec["minimum"] <= value <= spec["maximum"]:
                raise ToolFailure(f"Argument {name} must be between {spec['minimum']} and {spec['maximum']}.")


def call(tool: Tool, arguments: dict, context: ToolContext) -> dict:
    """Run a tool; its failures become an isError result the agent can read and correct."""
    try:
        check_arguments(tool.input_schema, arguments)
        structured = tool.run(arguments, context)
    except ToolFailure as failure:
        return {"content": [{"type": "text", "text": str(failure)}], "isError": True}
    except Exception:
        log.exception("MCP tool %s failed", tool.name)
        return {"content": [{"type": "text", "text": f"{tool.name} failed on the server."}], "isError": True}
    text = json.dumps(structured, ensure_ascii=False, indent=1)
    return {"content": [{"type": "text", "text": text}], "structuredContent": structured, "isError": False}


# --- the tools -------------------------------------------------------------------------

def _page_ref(page: PublishedPage, context: ToolContext) -> dict:
    return {"slug": page.slug, "title": page.title, "url": context.link(page.path)}


def _passage(passage: PublishedPassage, context: ToolContext) -> dict:
    return {"id": passage.id, "text": passage.text, "start": passage.start, "end": passage.end,
            "url": context.link(passage.url), "proven": True}


def resolve_page(release: Release, reference: str) -> PublishedPage:
    """A page by slug, path or URL (query and fragment ignored)."""
    reference = reference.strip()
    path = unquote(urlsplit(reference).path) if "://" in reference or reference.startswith("/") else None
    if path is not None:
        path = path.rstrip("/") or "/"
        for candidate in (path, path.removesuffix(".html"), path.removesuffix("/index")):
            page = release.page(candidate or "/")
            moved = release.moved(candidate or "/") if page is None else None   # a page's old address
            page = release.page(moved.partition("#")[0]) if moved else page
            if page is not None:
                return page
    else:
        page = release.page_by_slug(reference.removesuffix(".md"))
        if page is not None:
            return page
    slugs = ", ".join(p.slug for p in release.pages)
    raise ToolFailure(f"No published page matches {reference!r}. Known slugs: {slugs}.")


def list_sources(arguments: dict, context: ToolContext) -> dict:
    release = context.published()
    return {"release_id": release.release_id,
            "pages": [{**_page_ref(page, context), "path": page.path, "language": page.language,
                       "passage_count": len(release.passages_of(page.path))}
                      for page in release.pages if page.source]}   # not the generated contents page


def read_page(arguments: dict, context: ToolContext) -> dict:
    release = context.published()
    page = resolve_page(release, arguments["page"])
    return {"release_id": release.release_id, **_page_ref(page, context), "path": page.path,
            "language": page.language, "text": page.text,
            "passages": [_passage(p, context) for p in release.passages_of(page.path)]}


def find_evidence(arguments: dict, context: ToolContext) -> dict:
    release = context.published()
    retriever = context.retriever
    site_title = (current_settings(context.app).site_title or release.site_title) if context.app else "trigsight"
    result = evidence_search.find_evidence(release, arguments["claim"], retriever,
                                           limit=arguments.get("max_results", 5), site_title=site_title)
    pages = {p.path: p for p in release.pages}
    return {"claim": result.claim, "supported": result.supported, "release_id": release.release_id,
            "threshold": result.threshold, "retrieval_backend": result.backend,
            "evidence": [{**_passage(e.passage, context), "page": _page_ref(pages[e.passage.page], context),
                          "score": e.score, "shared_words": list(e.matched)} for e in result.evidence]}


def verify_quote(arguments: dict, context: ToolContext) -> dict:
    release = context.published()
    page = resolve_page(release, arguments["page"])
    quote = collapse(arguments["quote"])
    needle = normalise(quote)
    text = _page_text(release, page)
    haystack = text.haystack
    hits = find_matches(haystack, needle)
    present = len(hits) == 1
    holder = next((p for p, normalised in text.passages if find_matches(normalised, needle)), None) if present else None
    exact = holder is not None and normalise(holder.text) == needle
    link = None
    if exact:
        link = {"url": context.link(holder.url), "proven": True}
    elif present:
        text = _original_text(text.lines, haystack, hits[0], len(needle)) or quote
        link = {"url": context.link(f"{page.path}#:~:{TextDirective(text)}"), "proven": False}
    return {"page": _page_ref(page, context), "quote": arguments["quote"], "present": present,
            "occurrences": len(hits), "exact_passage": exact,
            "passage": _passage(holder, context) if holder else None, "link": link}


@dataclass(frozen=True)
class _PageText:
    lines: tuple[str, ...]                            # each segment's text, as displayed
    haystack: Folded                                  # the page's text as the browser matches it
    passages: tuple[tuple[PublishedPassage, str], ...]  # each passage with its normalised text


def _page_text(release: Release, page: PublishedPage) -> _PageText:
    """A page's text, read once per page of a release and kept for the next quotes: parsing the
    HTML of a large reference page takes half a second (Node.js's /n-api: 290 KB, 1,796 passages).
    Only what a quote is checked against is kept, not the parsed segments."""
    key = (release.release_id, str(release.page_file(page)))
    with _PAGES_LOCK:
        if key in _PAGES:
            _PAGES.move_to_end(key)
            return _PAGES[key]
    with open(key[1], encoding="utf-8") as html:
        segments = segments_from_html(html.read())
    text = _PageText(tuple(segment.text for segment in segments), page_haystack(segments),
                     tuple((p, normalise(p.text)) for p in release.passages_of(page.path)))
    with _PAGES_LOCK:
        _PAGES[key] = text
        while len(_PAGES) > PAGES_KEPT:
            _PAGES.popitem(last=False)
    return text


PAGES_KEPT = 16          # pages whose text verify_quote keeps (Node.js's 16 largest: 29 MB, bench/mcp/latency.py)
_PAGES: OrderedDict[tuple[str, str], _PageText] = OrderedDict()
_PAGES_LOCK = threading.Lock()


def _original_text(lines: tuple[str, ...], haystack: str, offset: int, length: int) -> str | None:
    """The page's own spelling of a match, when normalising kept the segment's length."""
    line = haystack.count("\n", 0, offset)
    start = offset - (haystack.rfind("\n", 0, offset) + 1)
    original = lines[line]
    if len(normalise(original)) != len(original):
        return None
    text = original[start:start + length]
    return text if normalise(text) == haystack[offset:offset + length] else None


TOOLS = {tool.name: tool for tool in [
    Tool("list_sources", "List published sources",
         "List the pages this site published: slug, title, URL, language and passage count, "
         "with the release id. Start here to see what can be checked.",
         _object({}),
         _object({"release_id": {"type": "string"},
                  "pages": {"type": "array", "items": _object({
                      **_PAGE_REF["properties"], "path": {"type": "string"}, "language": {"type": "string"},
                      "passage_count": {"type": "integer"}}, ("slug", "title", "url", "path", "language",
                                                              "passage_count"))}},
                 ("release_id", "pages")),
         list_sources),
    Tool("read_page", "Read a published page",
         "Return one published page's text and its citable passages, each with character offsets "
         "into the text and a text-fragment deep link that highlights exactly that sentence.",
         _object({"page": _PAGE_ARG}, ("page",)),
         _object({"release_id": {"type": "string"}, **_PAGE_REF["properties"], "path": {"type": "string"},
                  "language": {"type": "string"}, "text": {"type": "string"},
                  "passages": {"type": "array", "items": _PASSAGE}},
                 ("release_id", "slug", "title", "url", "path", "language", "text", "passages")),
         read_page),
    Tool("find_evidence", "Find evidence for a claim",
         "Given a claim about the author or their work, return the published passages that support it: "
         "each passage shares the claim's words, and every number and name in the claim. Returns "
         "supported=false and no evidence when no passage does; similarity alone never counts.",
         _object({"claim": _text("The claim to check, in any language the site is written in."),
                  "max_results": {"type": "integer", "minimum": 1, "maximum": 20,
                                  "description": "At most this many passages (default 5)."}}, ("claim",)),
         _object({"claim": {"type": "string"}, "supported": {"type": "boolean"},
                  "release_id": {"type": "string"}, "threshold": {"type": "number"},
                  "retrieval_backend": {"type": "string"},
                  "evidence": {"type": "array", "items": _object({
                      **_PASSAGE["properties"], "page": _PAGE_REF, "score": {"type": "number"},
                      "shared_words": {"type": "array", "items": {"type": "string"}}},
                      (*_PASSAGE["required"], "page", "score", "shared_words"))}},
                 ("claim", "supported", "release_id", "threshold", "retrieval_backend", "evidence")),
         find_evidence),
    Tool("verify_quote", "Verify a quotation",
         "Check that a quotation occurs exactly once on a published page, compared the way the browser "
         "matches text (case, accents and whitespace folded). Returns its deep link when it does.",
         _object({"page": _PAGE_ARG, "quote": _text("The exact words to look for.")}, ("page", "quote")),
         _object({"page": _PAGE_REF, "quote": {"type": "string"}, "present": {"type": "boolean"},
                  "occurrences": {"type": "integer"}, "exact_passage": {"type": "boolean"},
                  "passage": {"anyOf": [_PASSAGE, {"type": "null"}]},
                  "link": {"anyOf": [_object({"url": {"type": "string"}, "proven": {"type": "boolean"}},
                                             ("url", "proven")), {"type": "null"}]}},
                 ("page", "quote", "present", "occurrences", "exact_passage", "passage", "link")),
         verify_quote),
]}


def tool_definitions() -> list[dict]:
    return [tool.definition() for tool in TOOLS.values()]
