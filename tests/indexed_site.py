"""A site built from markdown by the real builder, with its real index: a release and its retriever."""
from __future__ import annotations

from pathlib import Path

from trigsight.answering import offline
from trigsight.build.builder import BuildConfig
from trigsight.build.builder import run as build
from trigsight.publishing.publish import allowlist, write_json
from trigsight.publishing.published import ALLOWLIST, Release
from trigsight.retrieval import embedders, index
from trigsight.retrieval.search import Retriever


def indexed_site(root: Path, pages: dict[str, str]) -> tuple[Release, Retriever]:
    """{file name: markdown} written to `root`/content, built, published to `root`/release and indexed."""
    content = root / "content"
    for name, text in pages.items():
        (content / name).parent.mkdir(parents=True, exist_ok=True)
        (content / name).write_text(text, "utf-8")
    write_json(root / "release" / ALLOWLIST, allowlist(build(BuildConfig(content))))
    release = Release.load(root / "release")
    titles = {page.path: page.title for page in release.pages}
    index.build(release.passages, root / "release" / "index", embedders.offline(), None, titles=titles)
    return release, Retriever.load(root / "release")


def quoted_texts(question: str, release: Release, retriever: Retriever) -> list[str]:
    """The texts the offline answer quotes for `question`, in their order ([] for the refusal)."""
    quotes, _ = offline.respond(question, retriever, release)
    return [release.passage(q.passage_id).text for q in quotes]
