"""Write a small, real allowlist.json (the published release's format) for the pure chat tests."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from urllib.parse import quote

from trigsight.publishing.published import ALLOWLIST, SCHEMA


def write_allowlist(folder: Path, pages: dict[str, list[str]], language: str = "en",
                    cells: frozenset[str] = frozenset()) -> Path:
    """{page path: [sentence, ...]} → a release folder Release.load() accepts; returns the folder.

    Each sentence is a paragraph of its own, except those in `cells`: table cells (`td`)."""
    page_rows, passage_rows = [], []
    for path, sentences in pages.items():
        slug = path.strip("/") or "index"
        page_rows.append({"slug": slug, "path": path, "title": f"Page {slug}", "language": language,
                          "source": f"{slug}.md", "file": f"pages/{slug}.html", "sha256": "0" * 64,
                          "passage_count": len(sentences), "text": "\n".join(sentences)})
        for order, text in enumerate(sentences):
            directive = "text=" + quote(text, safe="")
            passage_rows.append({"id": "p" + hashlib.sha1(f"{path}\0{text}".encode()).hexdigest()[:10],
                                 "page": path, "text": text, "url": f"{path}#:~:{directive}",
                                 "directive": directive, "block": order + 1, "kind": "td" if text in cells else "p",
                                 "headings": [f"About {slug}"], "order": order, "start": 0, "end": len(text)})
    folder.mkdir(parents=True, exist_ok=True)
    (folder / ALLOWLIST).write_text(json.dumps({
        "schema": SCHEMA, "release_id": hashlib.sha1(json.dumps(pages).encode()).hexdigest()[:16],
        "site": {"title": "trigsight", "language": language}, "pages": page_rows,
        "passages": passage_rows, "citations": []}, ensure_ascii=False), "utf-8")
    return folder
