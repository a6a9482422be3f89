"""Our passages against the HTML a package built from the same sources: how many appear there word for word.

Debian's git-doc ships git's AsciiDoc sources and the HTML git's own build made of them. This
builds the sources with trigsight (build and source gate, in process, no browser) and looks
for each passage of 20 characters or more in the text of the page's own HTML file, with
whitespace, no-break spaces, typographic quotes and dashes made plain on both sides. A
passage not found is a place where what trigsight shows differs from what the project
published. git builds in AsciiDoc's compat mode, where 'text' is emphasis; `--compat` also
reads our 'text' so.

    .venv/bin/python bench/corpora/vs_html.py git-doc [--compat] [--show 20]
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path, PurePosixPath

from bs4 import BeautifulSoup

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))

from fetch import CORPORA, DEFAULT_ROOT, _deb_data_tar, _debian_deb, _members, fetch  # noqa: E402
from trigsight.build.builder import BuildConfig, run  # noqa: E402

_PLAIN = str.maketrans({"\u00a0": " ", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2014": "--"})
_QUOTED = re.compile(r"(?<!\w)'([^'\n]+?)'(?!\w)")


def plain(text: str) -> str:
    return re.sub(r"\s+", " ", text.translate(_PLAIN)).strip()


def html_texts(name: str) -> dict[str, str]:
    """Page path (`/git-add`) → the plain text of the package's HTML file for it."""
    corpus = CORPORA[name]
    deb, _ = _debian_deb(corpus, DEFAULT_ROOT / "_downloads")
    with _deb_data_tar(deb) as tar:
        files = {rel: data for rel, data in _members(tar, corpus.subdir, strip_top=False) if rel.suffix == ".html"}
    texts = {}
    for rel, data in files.items():
        soup = BeautifulSoup(data.decode("utf-8", errors="replace"), "html.parser")
        for tag in soup(["script", "style"]):
            tag.decompose()
        texts["/" + str(PurePosixPath(rel).with_suffix(""))] = plain(soup.get_text(""))
    return texts


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("name", choices=[n for n, c in CORPORA.items() if c.registry == "debian"])
    parser.add_argument("--compat", action="store_true", help="read 'text' as AsciiDoc's compat mode does")
    parser.add_argument("--show", type=int, default=10, help="passages not found to print")
    args = parser.parse_args()
    texts = html_texts(args.name)
    built = run(BuildConfig(fetch(args.name)))
    found, missing, pages = 0, [], Counter()
    for passage in built.passages:
        page = texts.get(passage.page)
        text = plain(_QUOTED.sub(r"\1", passage.text) if args.compat else passage.text)
        if page is None or len(text) < 20:
            continue
        if text in page:
            found += 1
        else:
            missing.append((passage.page, passage.kind, text))
            pages[passage.page] += 1
    total = found + len(missing)
    print(f"{args.name}: {found}/{total} passages of 20 characters or more ({found / total:.1%}) appear word for word "
          f"in the package's own HTML of their page{' (compat mode quotes)' if args.compat else ''}; "
          f"{len(built.pages)} pages built")
    print("most passages not found: " + ", ".join(f"{page} {n}" for page, n in pages.most_common(8)))
    for page, kind, text in missing[:args.show]:
        print(f"  {page} {kind}: {text[:140]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
