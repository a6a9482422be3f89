"""VitePress's `rewrites`: pages served at other addresses than their files' (pure reading).

A VitePress site may serve its pages somewhere else than their files say, in
`.vitepress/config.{mts,ts,js,mjs}`:

    rewrites: {
      'zh/:rest*': ':rest*',                          // the Chinese pages are the site's root
      'packages/:pkg/src/index.md': ':pkg/index.md',  // one page moved by name
    },

Each key is a file's path in the docs folder with `:name` standing for one folder or file name,
`:name*` for any number of them (`:name+` at least one); its value is where the page is served,
with the same names filled in. The config is read as text, never run: a `rewrites` that is a
function, or a key with other pattern syntax, is passed over. A page whose front matter gives
its own address keeps it. The site's links and sidebar use the new addresses, so without this
they led nowhere (AstrBot's docs: 110 Chinese pages under `zh/`, linked as `/deploy/…`).
"""
from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from .page_source import PageSource, default_slug

VITEPRESS = tuple(f".vitepress/config.{suffix}" for suffix in ("mts", "ts", "js", "mjs"))

_REWRITES = re.compile(r"\brewrites\s*:\s*\{([^{}]*)\}")
_PAIR = re.compile(r"""(["'])([^"'\n]+)\1\s*:\s*(["'])([^"'\n]*)\3""")
_PARAMETER = re.compile(r":(\w+)([*+]?)")
_PLAIN = re.compile(r"[\w./@-]*")
_MOST_BYTES = 1_000_000


def rules(content_dir: Path) -> list[tuple[re.Pattern, str]]:
    """The rewrites the folder's VitePress config states, as (pattern of a file's path, address)."""
    config = next((Path(content_dir) / name for name in VITEPRESS if (Path(content_dir) / name).is_file()), None)
    if config is None:
        return []
    try:
        text = config.read_bytes()[:_MOST_BYTES].decode("utf-8", errors="replace")
    except OSError:
        return []
    written = _REWRITES.search(text)
    found = []
    for _, key, _, value in _PAIR.findall(written.group(1)) if written else ():
        pattern = _pattern(key.lstrip("/"))
        if pattern is not None:
            found.append((pattern, value.lstrip("/")))
    return found


def _pattern(key: str) -> re.Pattern | None:
    parts, position = [], 0
    for parameter in _PARAMETER.finditer(key):
        literal = key[position:parameter.start()]
        if not _PLAIN.fullmatch(literal):
            return None
        name, repeat = parameter.groups()
        if repeat == "*" and literal.endswith("/"):        # 'zh/:rest*' matches 'zh/x.md' and 'zh' alike
            parts.append(re.escape(literal[:-1]) + f"(?:/(?P<{name}>.*))?")
        else:
            parts.append(re.escape(literal) + f"(?P<{name}>{'.+' if repeat == '+' else '.*' if repeat else '[^/]+'})")
        position = parameter.end()
    if not _PLAIN.fullmatch(key[position:]):
        return None
    return re.compile("".join(parts) + re.escape(key[position:]))


def run(content_dir: Path, pages: list[PageSource]) -> list[PageSource]:
    """`pages` with the addresses the folder's VitePress rewrites give them."""
    found = rules(content_dir)
    return [_rewritten(page, found) for page in pages] if found else pages


def _rewritten(page: PageSource, found: list[tuple[re.Pattern, str]]) -> PageSource:
    if page.slug != default_slug(page.source):
        return page          # its front matter names its address
    for pattern, value in found:
        matched = pattern.fullmatch(page.source)
        if matched:
            target = _PARAMETER.sub(lambda m: matched.group(m.group(1)) or "", value).strip("/")
            target = target if target.endswith(".md") else (target + "/index.md" if target else "index.md")
            return dataclasses.replace(page, slug=default_slug(target))
    return page
