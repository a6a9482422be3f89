"""A passage as the index builder reads it, for tests that build an index without a site."""
from dataclasses import dataclass


@dataclass(frozen=True)
class IndexPassage:
    id: str
    page: str
    text: str
    block: int
    kind: str = "p"
    headings: tuple = ("Garden",)
