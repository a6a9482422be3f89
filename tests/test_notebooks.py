"""Jupyter notebooks: a page of their markdown, code and text outputs, errors named at the notebook's lines."""
import json

import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.errors import ContentError


def notebook(*cells, language="python") -> str:
    """A notebook as Jupyter writes one: one JSON line per line of each cell's source."""
    def cell(kind, text, outputs=()):
        lines = text.splitlines(keepends=True)
        made = {"cell_type": kind, "metadata": {}, "source": lines}
        return {**made, "execution_count": 1, "outputs": list(outputs)} if kind == "code" else made
    return json.dumps({"cells": [cell(*c) for c in cells], "nbformat": 4, "nbformat_minor": 5,
                       "metadata": {"kernelspec": {"name": "k", "language": language, "display_name": "K"}}}, indent=1)


TOUR = notebook(
    ("raw", "---\ntitle: A guided tour\norder: 2\n---"),
    ("markdown", "# Tour\n\nThe tour shows how a frame is loaded.\n\nSee [the guide](guide.md)."),
    ("code", "import math\nprint(math.pi)", [{"output_type": "stream", "name": "stdout", "text": ["3.141592653589793\n"]}]),
    ("code", "math.tau", [{"output_type": "execute_result", "execution_count": 2, "metadata": {},
                           "data": {"text/plain": ["6.283185307179586"]}}]),
    ("code", "show()", [{"output_type": "display_data", "metadata": {},
                         "data": {"image/png": "iVBORw0KGgo=", "text/plain": ["<Figure size 640x480>"]}},
                        {"output_type": "display_data", "metadata": {},
                         "data": {"text/markdown": ["The frame has **three** columns."]}},
                        {"output_type": "display_data", "metadata": {},
                         "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "m"},
                                  "text/plain": ["IntSlider(value=3)"]}}]),
    ("code", "frame", [{"output_type": "execute_result", "execution_count": 3, "metadata": {},
                        "data": {"text/html": ["<table><tr><td>1</td></tr></table>"],
                                 "text/plain": ["   city  trips\n0  Oslo     12"]}}]),
    ("raw", "\\begin{latex} only for PDF \\end{latex}"),
)


def test_a_notebook_is_a_page_of_its_markdown_code_and_text_outputs(write_content):
    built = run(BuildConfig(write_content({"tour.ipynb": TOUR, "guide.md": "# Guide\n\nSee [the tour](tour.ipynb)."})))
    page = next(p for p in built.pages if p.path == "/tour")
    html = page.body_html
    assert page.title == "A guided tour"
    assert "<p>The tour shows how a frame is loaded.</p>" in html and 'href="/guide"' in html
    assert '<code class="language-python">import math\nprint(math.pi)\n</code>' in html
    assert "3.141592653589793" in html and "6.283185307179586" in html
    assert "<p>The frame has <strong>three</strong> columns.</p>" in html
    assert "Figure size" not in html and "latex" not in html       # an image's text stand-in, a raw cell
    assert "IntSlider" not in html and "<table>" not in html and "Oslo     12" in html   # a widget; a table as text
    assert 'href="/tour"' in next(p for p in built.pages if p.path == "/guide").body_html
    assert "The tour shows how a frame is loaded." in [p.text for p in built.texts["/tour"].passages]


@pytest.mark.parametrize("text, line, message", [
    (notebook(("markdown", "# Title\n\nFine."), ("markdown", "One.\n\nTwo [[cite:broken]].")), 18,
     "malformed citation"),
    # YAML finds the unclosed bracket at the block's end, as in a markdown page
    (notebook(("raw", "---\ntitle: [unclosed\n---"), ("markdown", "# T")), 9, "malformed front matter"),
    ('{"cells": [\n  {"cell_type": "markdown",,}\n]}', 2, "not a readable notebook"),
    ('{"cells": ' + "[" * 100_000 + "]" * 100_000 + "}", 1, "nested too deep"),
])
def test_an_error_in_a_notebook_names_the_notebook_and_its_line(write_content, text, line, message):
    folder = write_content({"nb.ipynb": text})
    with pytest.raises(ContentError) as caught:
        run(BuildConfig(folder))
    problem = caught.value.problems[0]
    assert (problem.path, problem.line) == (str(folder / "nb.ipynb"), line) and message in problem.message
    assert text.split("\n")[line - 1].strip().startswith(('"Two', '"---', '{"cell_type', '{"cells"'))
