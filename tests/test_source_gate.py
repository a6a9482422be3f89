"""The source gate: author citations must name text found exactly once, inside one block."""
import pytest
from trigsight.build.builder import BuildConfig, run
from trigsight.errors import TrigsightError

RESULTS = """# Results

The browser proved every link on the site.
It checked each one in Chromium.

The second paragraph starts here.

- Repeated line.
- Repeated line.
"""


def gate_problems(write_content, citation: str) -> list[str]:
    folder = write_content({"index.md": f"# Home\n\nA claim.\n{citation}\n", "results.md": RESULTS})
    try:
        run(BuildConfig(folder))
    except TrigsightError as failed:
        return [str(p) for p in failed.problems]
    return []


@pytest.mark.parametrize("citation", [
    "[[cite:results|The browser proved every link on the site.]]",
    "[[cite:results|the BROWSER proved   every link\non the site.]]",          # case, spaces, newline
    "[[cite:/results|It checked each one in Chromium.]]",
    "[[cite:results.md|every link on the site]]",                            # part of a sentence
    "[[cite:results.mdx|It checked each one in Chromium.]]",                  # a Docusaurus file name
    "[[cite:results|The browser proved every link on the site. It checked each one in Chromium.]]",
])
def test_citations_pass_despite_what_the_browser_ignores(write_content, citation):
    assert gate_problems(write_content, citation) == []


@pytest.mark.parametrize("citation, reason", [
    ("[[cite:results|The browser proved every claim on the site.]]", "is not on /results"),
    ("[[cite:results|in Chromium. The second paragraph]]", "runs across two blocks"),
    ("[[cite:results|Repeated line.]]", "appears 2 times on /results"),
    ("[[cite:nowhere|Anything.]]", "citation to unknown page 'nowhere'"),
    ("[[cite:results|proved every]]x [[cite:results]]", "malformed citation"),
    ("[[cite:results|Every sentence here is a passage a browser proved it can point to.]]", "only in the navigation"),
])
def test_citations_that_cannot_be_placed_fail_with_file_line_and_passage(write_content, citation, reason):
    problems = gate_problems(write_content, citation)
    assert problems, "the gate let a bad citation through"
    assert any(":4: " in p and reason in p for p in problems), problems


def test_missing_citation_suggests_the_closest_sentence(write_content):
    problems = gate_problems(write_content, "[[cite:results|The browser proves every link on the site.]]")
    assert 'closest sentence there: "The browser proved every link on the site."' in problems[0]
