"""Jupyter notebooks (`.ipynb`) read as the markdown a reader sees of them (pure).

Jupyter Book, MyST, nbsphinx and mkdocs-jupyter sites keep pages as notebooks. What their built
pages show is kept: markdown cells as written (a first cell's front matter is the page's), code
cells as code blocks in the notebook's language, and their text outputs — a stream, a result's
`text/markdown` (as markdown) or `text/plain` — as the plain blocks under them: a table drawn in
HTML (a pandas DataFrame) shows its plain-text form. Images and widgets show nothing, nor does
the `<Figure size …>` stand-in that comes with an image; raw cells show nothing (but a first raw cell of front matter, as
Jupytext and Jupyter Book write one, is the page's front matter).

A notebook's lines are JSON lines: the markdown keeps a map to them (`origins`, as included files
do), so a content error in a cell names the notebook and the line of that cell's source.
"""
from __future__ import annotations

import json
import re

from ..errors import ContentError

_SOURCE = re.compile(r'^\s*"source"\s*:')


def markdown(raw: str, shown: str) -> tuple[str, list[tuple[int, int]]]:
    """(the notebook as markdown, [(line index in it, the notebook's line)] where each cell starts)."""
    try:
        notebook = json.loads(raw)
    except RecursionError:
        raise ContentError("not a readable notebook (nested too deep)", shown, 1) from None
    except ValueError as error:
        raise ContentError(f"not a readable notebook ({error.msg if hasattr(error, 'msg') else error})", shown,
                           getattr(error, "lineno", 1)) from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise ContentError("not a readable notebook (no list of cells)", shown, 1)
    metadata = notebook.get("metadata") if isinstance(notebook.get("metadata"), dict) else {}
    language = str((metadata.get("kernelspec") or {}).get("language")
                   or (metadata.get("language_info") or {}).get("name") or "python")
    starts = [number for number, line in enumerate(raw.split("\n"), start=1) if _SOURCE.match(line)]
    out: list[str] = []
    origins: list[tuple[int, int]] = []
    for at, cell in enumerate(c for c in cells if isinstance(c, dict)):
        kind, source = cell.get("cell_type"), _text(cell.get("source"))
        line = starts[at] + (1 if isinstance(cell.get("source"), list) else 0) if at < len(starts) else 1
        if kind == "markdown" or (kind == "raw" and at == 0 and source.startswith("---\n")):
            origins.append((len(out), line))
            out += source.split("\n") + [""]
        elif kind == "code" and source.strip():
            out.append(f"```{language}")
            origins.append((len(out), line))
            out += source.split("\n") + ["```", ""]
            for shown_output in _outputs(cell.get("outputs")):
                out += shown_output.split("\n") + [""]
    return "\n".join(out), origins


def _text(value: object) -> str:
    text = "".join(value) if isinstance(value, list) else value if isinstance(value, str) else ""
    return text.replace("\r\n", "\n").rstrip("\n")


def _outputs(outputs: object) -> list[str]:
    """Each text output of a code cell as the reader sees it: markdown as is, other text as a plain block."""
    shown = []
    for output in outputs if isinstance(outputs, list) else []:
        if not isinstance(output, dict):
            continue
        data = output.get("data") if isinstance(output.get("data"), dict) else {}
        if output.get("output_type") == "stream":
            text = _text(output.get("text"))
        elif "text/markdown" in data:
            shown.append(_text(data["text/markdown"]))
            continue
        else:
            text = _text(data.get("text/plain"))
            rich = any(k.startswith("image/") or k == "text/html" for k in data)
            if any("widget" in k for k in data) or (rich and re.fullmatch(r"<[^\n]*>", text.strip())):
                text = ""    # only a stand-in for what a browser draws: <Figure size 640x480 with 1 Axes>
        if text.strip():
            fence = "`" * max(3, max((len(m) for m in re.findall(r"`{3,}", text)), default=0) + 1)
            shown.append(f"{fence}text\n{text}\n{fence}")
    return shown
