"""Per-request source handles, and reading them back out of model text (pure).

The model never sees a URL and never writes one. Each retrieved chunk is shown to it
under a handle the server invents for this one request, `[S1]` … `[S8]` in retrieval
order: two or three characters, nothing to re-type. The original asked the model to
copy a whole sentence into `[[cite:doc|sentence]]` and half of those tokens never
resolved; a handle is either copied or not.

Reading is tolerant of how models actually write handles (`[s1]`, `【S1】`, `(S1)`,
`[S1, S3]`, `[S1][S2]`, full-width digits) but a handle only means something when it
was issued in this request; anything else that looks like a citation (`[3]`, a passage
id, an old `[[cite:…]]` token, `[S1-S3]`) is cut out and counted as dropped.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

MAX_HANDLES = 8

_OPEN = r"[\[【〔［(（]"
_CLOSE = r"[\]】〕］)）]"
_LABEL = r"[SsＳｓ]\s*(\d{1,3})"
HANDLE_GROUP = re.compile(
    rf"{_OPEN}\s*{_LABEL}((?:\s*[,;，、；]\s*(?:[SsＳｓ]\s*)?\d{{1,3}})*)\s*{_CLOSE}")
_GROUP_NUMBER = re.compile(r"\d{1,3}")
# Things that look like citations but name nothing issued here.
STRAY_CITATION = re.compile(
    r"\[\[\s*cite\s*:[^\]]*\]\]"                       # the original's token format
    r"|[\[【［]\s*(?:[SsＳｓ]\s*)?\d{1,3}(?:[^\]】］\n]{0,24})[\]】］]"  # [3], [S1-S3], [S1 p.2]
    r"|[\[【［]\s*[SsＳｓ]\s*\d{0,3}\s*$"                   # a handle cut off by the end of the answer
    r"|\bp[0-9a-f]{10}(?:-\d+)?\b")                    # a raw passage id
# A prefix of a handle group cut off by the end of the stream so far: wait for more.
PARTIAL_HANDLE = re.compile(rf"{_OPEN}\s*(?:[SsＳｓ]\s*\d{{0,3}}(?:\s*[,;，、；]\s*(?:[SsＳｓ]\s*)?\d{{0,3}})*\s*)?$")
LEADING_HANDLES = re.compile(rf"^(?:\s*{HANDLE_GROUP.pattern})+")


@dataclass(frozen=True)
class Source:
    """One retrieved chunk as the model sees it, behind its handle."""

    label: str                      # "S1"
    passage_ids: tuple[str, ...]    # allowlisted passages of the chunk, page order
    page: str
    title: str
    text: str                       # the passages' text joined by spaces
    section: str = ""               # the headings that name its section, as its chips do

    @property
    def heading(self) -> str:
        """What the model reads above the text: "Changelog › 7.8.1 (2023-04-26) › Bug Fixes"."""
        return f"{self.title} › {self.section}" if self.section else self.title


@dataclass
class HandleTable:
    """The handles issued for one request; nothing outside it resolves."""

    sources: dict[str, Source] = field(default_factory=dict)

    @classmethod
    def issue(cls, hits, release, limit: int = MAX_HANDLES) -> "HandleTable":
        """Handles S1… for `hits` in order, keeping only passages still in the allowlist."""
        table = cls()
        for hit in hits:
            if len(table.sources) >= limit:
                break
            passages = [p for p in (release.passage(pid) for pid in hit.passage_ids) if p is not None]
            if not passages:
                continue
            label = f"S{len(table.sources) + 1}"
            page = release.page(passages[0].page)
            # Items under "Bug Fixes" say which release only through their headings.
            table.sources[label] = Source(label, tuple(p.id for p in passages), passages[0].page,
                                          page.title if page else passages[0].page,
                                          " ".join(p.text for p in passages), release.section_of(passages[0]))
        return table

    def get(self, label: str) -> Source | None:
        return self.sources.get(label)

    def __len__(self) -> int:
        return len(self.sources)

    def __iter__(self):
        return iter(self.sources.values())


@dataclass(frozen=True)
class Cited:
    """Model text with its citation tokens taken out."""

    text: str                      # what is left, citation tokens removed
    labels: tuple[str, ...]        # handle labels in order of appearance ("S1", "S3", …)
    stray: int                     # citation-like tokens that are not handles


def canonical_label(number: str) -> str:
    return f"S{int(number)}"


def parse_citations(text: str) -> Cited:
    """Take every handle and citation-like token out of `text`."""
    labels: list[str] = []

    def take(match: re.Match) -> str:
        labels.append(canonical_label(match.group(1)))
        labels.extend(canonical_label(n) for n in _GROUP_NUMBER.findall(match.group(2) or ""))
        return " "

    stripped = HANDLE_GROUP.sub(take, text)
    stray = 0

    def drop(_: re.Match) -> str:
        nonlocal stray
        stray += 1
        return " "

    stripped = STRAY_CITATION.sub(drop, stripped)
    return Cited(stripped, tuple(labels), stray)


def split_leading_handles(text: str) -> tuple[str, str]:
    """("[S1] [S2]", "rest") for text that opens with handles; ("", text) otherwise."""
    match = LEADING_HANDLES.match(text)
    return (match.group(0), text[match.end():]) if match else ("", text)


def strip_handles(text: str) -> str:
    """Text of an earlier turn without its handles: they meant something only in that request."""
    return re.sub(r"\s{2,}", " ", STRAY_CITATION.sub(" ", HANDLE_GROUP.sub(" ", text))).strip()
