"""Carry a release across a tokenizer change that does not touch its texts, or say it cannot.

A release's index is refused by code whose tokenizer differs from the one that built it, and
rebuilding a large corpus's release means proving every page again in Chromium. When the change
only reads scripts the corpus does not use (Arabic and Thai, on English, Russian, Japanese or
Korean docs), the index the new code would build is the old one: BM25's arrays are a function of
the tokens, and the lexicon of the words. This harness checks that, text by text, with the code
of both versions (the old one from a worktree: `git worktree add /tmp/old REV`), and only then
writes a copy of the release (files hard-linked, index.json rewritten) stamped with the new
tokenizer, for before/after comparisons of the answering code (`outcomes.py`, `variants.py`).

    python bench/answers/retokenized.py RELEASE_DIR OUT_DIR --old /tmp/old/pipeline
"""
from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import shutil
import sys
import types
from pathlib import Path

from trigsight.retrieval import lexicon, tokenize


def load_old(pipeline: Path) -> types.ModuleType:
    """The old version's package, imported under another name so both versions live side by side."""
    spec = importlib.util.spec_from_file_location("trigsight_old", pipeline / "__init__.py",
                                                  submodule_search_locations=[str(pipeline)])
    module = importlib.util.module_from_spec(spec)
    sys.modules["trigsight_old"] = module
    spec.loader.exec_module(module)
    return module


def texts_of(release: Path) -> tuple[list[str], list[str]]:
    """Every text the index tokenized (chunks with their title and headings, passages) and the
    passage texts its vocabulary was read from."""
    meta = json.loads((release / "index" / "index.json").read_text("utf-8"))
    allowlist = json.loads((release / "allowlist.json").read_text("utf-8"))
    passages = [p["text"] for p in allowlist["passages"]]
    chunks = [" ".join([c.get("title", ""), *c.get("headings", []), c["text"]]) for c in meta["chunks"]]
    return chunks + passages, passages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("release", type=Path)
    parser.add_argument("out", type=Path)
    parser.add_argument("--old", type=Path, required=True, help="the old version's pipeline/ folder")
    args = parser.parse_args()
    old = load_old(args.old)
    old_lexicon = importlib.import_module(f"{old.__name__}.retrieval.lexicon")
    old_tokenize = importlib.import_module(f"{old.__name__}.retrieval.tokenize")

    texts, passages = texts_of(args.release)
    differ = [t for t in texts if old_tokenize.tokenize(t) != tokenize.tokenize(t)]
    same_words = old_lexicon.vocabulary(passages) == lexicon.vocabulary(passages)
    print(f"{args.release}: {len(texts)} texts, {len(differ)} tokenized differently; "
          f"vocabulary {'the same' if same_words else 'DIFFERENT'} ({len(passages)} passages)")
    print(f"tokenizer {old_tokenize.TOKENIZER!r} -> {tokenize.TOKENIZER!r}")
    if differ or not same_words:
        for text in differ[:5]:
            print("  differs:", text[:100])
        sys.exit("the new code would build another index: rebuild the release instead")
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(args.release, args.out, copy_function=os.link)
    index = args.out / "index" / "index.json"
    meta = json.loads(index.read_text("utf-8"))
    meta["tokenizer"] = tokenize.TOKENIZER
    index.unlink()                                  # a hard link: never rewrite the original
    index.write_text(json.dumps(meta, ensure_ascii=False), "utf-8")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
