"""A rare code-style name the question asks about brings the passages writing it among the candidates."""
import pytest
from trigsight.answering.named_passages import MOST_PASSAGES, names_in, with_named

from indexed_site import indexed_site

FILLER = "\n\n".join(f"## Installing part {n}\n\nInstall pip during setup and install packages during builds, step {n}."
                     for n in range(30))


@pytest.mark.parametrize("text, names", [
    ("설치 중에 ResolutionTooDeepError가 나면서 멈춰요", {"ResolutionTooDeepError"}),
    ("How do I use --no-require-hashes with fs.readFileSync() and MAX_RETRIES?",
     {"--no-require-hashes", "fs.readFileSync", "MAX_RETRIES"}),
    ("What does pip install do during a build?", set()),          # plain words, and no initialism
])
def test_code_style_names_are_read_in_any_language(text, names):
    assert names_in(text) == names


def test_a_passage_writing_a_rare_asked_name_joins_the_candidates_after_the_retrieved_ones(tmp_path):
    release, retriever = indexed_site(tmp_path, {
        "install.md": "# Installing\n\n" + FILLER,
        "resolution.md": "# Resolution\n\n## Too deep\n\nThe resolver may stop with a ResolutionTooDeepError exception.",
    })
    question = "pip stops with a ResolutionTooDeepError during install"
    hits = [hit for hit in retriever.search(question, k=3) if hit.page != "/resolution"][:2]
    found = with_named(question, hits, retriever, release)
    assert found[:2] == hits and [hit.page for hit in found[2:]] == ["/resolution"]
    assert release.passage(found[2].best_passage).text == "The resolver may stop with a ResolutionTooDeepError exception."
    assert with_named("What is a ResolutionTooDeepError?", found, retriever, release) == found    # already there


def test_a_name_many_passages_write_adds_nothing(tmp_path):
    pages = {f"p{n}.md": f"# Page {n}\n\nThe SharedSetting value is {n}." for n in range(MOST_PASSAGES + 1)}
    release, retriever = indexed_site(tmp_path, pages)
    assert with_named("What is SharedSetting?", [], retriever, release) == []
