"""A page's URL path: its slug percent-encoded, as a browser sends it and `location.pathname` reads it.

A slug may be written in any script ("入門", "установка", "über": build/content.py); links, the
allowlist and the browser gate all carry its path in ASCII ("/%E5%85%A5%E9%96%80"). The site
and the MCP tools also take a path as a person writes it ("/入門"), which is how Flask hands a
request's path on.
"""
from __future__ import annotations

import unicodedata
from urllib.parse import quote, unquote

# The site's own endpoints: a page cannot be served at these paths (content.py refuses it).
RESERVED = frozenset({"/api/chat", "/api/mcp"})


def url_path(slug: str) -> str:
    """The URL path of a page's slug: "入門" → "/%E5%85%A5%E9%96%80", "guide/setup" → "/guide/setup"."""
    return "/" + quote(unicodedata.normalize("NFC", slug), safe="/")


def published_path(path: str) -> str:
    """A URL path as pages are published at it: "/入門" and "/%e5%85%a5%e9%96%80" → "/%E5%85%A5%E9%96%80"."""
    return url_path(unquote(path).removeprefix("/"))
