"""Stage 4: every author citation must name text found exactly once, inside one block."""
from __future__ import annotations

import difflib
import posixpath
from dataclasses import dataclass, field

from ..build.page_source import without_suffix
from ..build.passages import PageText
from ..build.render import AuthorCitation, CitationLink
from ..errors import Problem
from ..matching.directives import TextDirective
from ..matching.textmodel import collapse, find_matches, normalise, segment_at


@dataclass(frozen=True)
class ResolvedCitation:
    citation: AuthorCitation
    target: str            # URL path of the cited page
    url: str               # deep link the chip points at
    passage: str | None    # id of the passage when the citation quotes a whole one

    def to_json(self) -> dict:
        c = self.citation
        return {"source": c.source, "line": c.line, "page": c.page, "target": self.target,
                "text": collapse(c.text), "url": self.url, "passage": self.passage}


@dataclass
class SourceGateResult:
    resolved: list[ResolvedCitation] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def links(self, titles: dict[str, str]) -> dict[str, CitationLink]:
        return {r.citation.key: CitationLink(r.url, titles[r.target], collapse(r.citation.text))
                for r in self.resolved}


def run(citations: list[AuthorCitation], pages: dict[str, PageText], slugs: dict[str, str],
        content_label: str) -> SourceGateResult:
    """Resolve each citation against the rendered text of its target page.

    `pages` maps URL path → PageText; `slugs` maps slug → URL path.
    """
    result = SourceGateResult()
    for citation in citations:
        shown = posixpath.join(content_label, citation.source)
        target = target_path(citation, slugs)
        if target is None:
            known = ", ".join(sorted(slugs)[:12])
            result.problems.append(Problem(shown, citation.line,
                                           f"citation to unknown page {citation.target!r} (pages: {known})"))
            continue
        resolved, reason = resolve(citation, pages[target])
        if resolved is None:
            result.problems.append(Problem(shown, citation.line, f'cited passage "{collapse(citation.text)}" {reason}'))
        else:
            result.resolved.append(resolved)
    return result


def target_path(citation: AuthorCitation, slugs: dict[str, str]) -> str | None:
    target = citation.target.strip()
    if not target:
        return citation.page
    target = without_suffix(target).strip("/") or "index"
    return slugs.get(target)


def resolve(citation: AuthorCitation, page: PageText) -> tuple[ResolvedCitation | None, str]:
    needle = normalise(citation.text)
    hits = find_matches(page.haystack, needle)
    if len(hits) > 1:
        return None, (f"appears {len(hits)} times on {page.path}; quote more of the sentence "
                      "so that it names one place")
    if not hits:
        return None, _why_missing(needle, page)
    segment = page.segments[segment_at(page.haystack, hits[0])]
    if not segment.in_main:
        return None, f"is only in the navigation or a chip of {page.path}, not in its content"
    passage = next((p for p in page.passages
                    if p.block == segment.block and normalise(p.text) == needle), None)
    url = passage.url if passage else f"{page.path}#:~:{TextDirective(collapse(citation.text))}"
    return ResolvedCitation(citation, page.path, url, passage.id if passage else None), ""


def _why_missing(needle: str, page: PageText) -> str:
    flat = page.haystack.replace("\n", " ")
    if find_matches(flat, needle):
        return (f"runs across two blocks on {page.path} (a paragraph, list item, heading or "
                "cell each end a passage); cite the part inside one block")
    closest = difflib.get_close_matches(needle, [normalise(p.text) for p in page.passages], n=1, cutoff=0.6)
    hint = f'; closest sentence there: "{_original(closest[0], page)}"' if closest else ""
    return f"is not on {page.path}{hint}"


def _original(normalised: str, page: PageText) -> str:
    return next((p.text for p in page.passages if normalise(p.text) == normalised), normalised)
