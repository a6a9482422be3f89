"""Which page word does each Japanese, Korean or Russian question word reach by sound, and how near in meaning?

    .venv/bin/python bench/answers/loanword_probe.py --release NODE_RELEASE
    .venv/bin/python bench/answers/loanword_probe.py --language ru --set RELEASE:QUESTIONS[:SPLIT] ...

For every katakana or Hangul word of the development questions (bench/answers/questions.json)
that the lexicon's nearest word does not bridge (cosine below lexicon.NEAREST), prints its
romanisation, the nearest page word, the two page words of the same sound
(loanwords.Sounds.candidates) with their cosines, the best cut of a katakana compound, and
what the lexicon now does with it. The loanword thresholds in lexicon.py were read off this.

With --language ru, the same for the Cyrillic words of the Russian questions of each --set (a
release and a question file, split "dev" unless named): the page words that share the word's
key as a kana word is heard (l with r, f with p, j with s), each with how alike the two are
spelled (loanwords.spelled_alike) and its cosine, then the words the Cyrillic rules hear
(loanwords.MIN_CYRILLIC_KEY, SPELLED_ALIKE) and what the lexicon does. Those two thresholds
were read off this on the development questions of the Node.js, Python-Markdown and Black
docs and the first-look sets of eslint-plugin-import and Hatch.

With --read RELEASE:QUESTIONS (repeatable): every Russian, Japanese and Korean word of the set's
questions with how the lexicon reads it, one per line, to diff between two versions of the code
(run once with a worktree of the other on PYTHONPATH).

With --words "W W …" and --release: how the lexicon reads each word, and the page words it sounds
like (loanwords.Sounds.candidates) with their cosines and how alike they are spelled.

With --borrowed, for the Russian, Japanese and Korean questions of each --set (all splits unless
one is named): every word that is spelled like a page word it sounds like (loanwords.BORROWED)
and near enough in meaning for a loanword, with the nearest word in meaning, how far below it the
borrowed word is, and what the lexicon reads. lexicon.BORROWED_GAP was read off this on
questions.json, dev-extra.json and holdout.json (Node.js) and git-doc.json (git).
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np
from trigsight.retrieval import lexicon, loanwords
from trigsight.retrieval.search import Retriever

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--release", type=Path, help="a published release of the Node.js API docs")
    parser.add_argument("--language", choices=("ja-ko", "ru"), default="ja-ko")
    parser.add_argument("--set", action="append", default=[], metavar="RELEASE:QUESTIONS[:SPLIT]",
                        help="with --language ru: a release and a question file (repeatable)")
    parser.add_argument("--borrowed", action="store_true",
                        help="with --set: the words read as borrowings, and how far below the nearest word")
    parser.add_argument("--words", help="with --release: words to read, separated by spaces")
    parser.add_argument("--read", action="append", default=[], metavar="RELEASE:QUESTIONS",
                        help="print how every Russian, Japanese and Korean question word is read")
    args = parser.parse_args()
    for spec in args.read:
        read_all(*spec.split(":")[:2])
    if args.read:
        return
    if args.words and args.release:
        readings(Retriever.load(args.release), args.words.split())
        return
    if args.borrowed:
        for spec in args.set:
            borrowed(*spec.split(":"))
        return
    if args.language == "ru":
        for spec in args.set:
            russian(*spec.split(":"))
        return
    if args.release is None:
        parser.error("--release is required")
    retriever = Retriever.load(args.release)
    words = retriever.lexicon
    questions = [q for q in json.loads((ROOT / "bench/answers/questions.json").read_text("utf-8"))["questions"]
                 if q["split"] == "dev" and q["language"] in ("ja", "ko")]
    units = list(dict.fromkeys(u for q in questions for u in words.foreign(q["question"]) if loanwords.romanize(u)))
    print(f"release {args.release}: {len(words.words)} lexicon words, {len(units)} katakana "
          f"or Hangul words in the dev questions; those the nearest word does not bridge:")
    for unit, vector, similarity, nearest in unbridged(retriever, units):
        heard = sorted(words.sounds.candidates(unit), key=lambda n: -similarity[n])[:2]
        cuts = []
        for parts in words.sounds.splits(unit):
            chosen = [max(part, key=lambda n: similarity[n]) for part in parts]
            joined = words.vectors[chosen].sum(axis=0)
            cuts.append((float(joined @ vector) / float(np.linalg.norm(joined)), [words.words[n] for n in chosen]))
        cut = max(cuts, default=None)
        print(f"  {unit} ({loanwords.romanize(unit)}): nearest {words.words[nearest]} {similarity[nearest]:.2f}"
              f" | same sound " + (", ".join(f"{words.words[n]} {similarity[n]:.2f}" for n in heard) or "none")
              + (f" | cut {' + '.join(cut[1])} {cut[0]:.2f}" if cut else "")
              + f" | bridged: {words.loanword(unit, vector, similarity) or '-'}")


def unbridged(retriever, units: list[str]):
    """(unit, its vector, its cosine to every lexicon word, the nearest word's number) for each unit the
    nearest word does not bridge."""
    words = retriever.lexicon
    for unit, vector in zip(units, retriever.embedder.embed(units) if units else []):
        similarity = np.asarray(words.vectors @ vector)
        nearest = int(similarity.argmax())
        if similarity[nearest] < lexicon.NEAREST:
            yield unit, vector, similarity, nearest


def russian(release: str, questions_file: str, split: str = "dev") -> None:
    """The Cyrillic words of one set's Russian questions that the nearest word does not bridge."""
    retriever = Retriever.load(Path(release))
    words = retriever.lexicon
    questions = [q for q in json.loads(Path(questions_file).read_text("utf-8"))["questions"]
                 if (split == "all" or q["split"] == split) and q["language"] == "ru"]
    units = list(dict.fromkeys(u for q in questions for u in words.foreign(q["question"])
                               if loanwords.is_cyrillic(u)))
    print(f"{questions_file} ({split}) on {release}: {len(units)} Cyrillic words; those the nearest word does "
          f"not bridge and that share a page word's key:")
    for unit, vector, similarity, nearest in unbridged(retriever, units):
        keyed = {n for latin in loanwords.heard_as(unit) for n in words.sounds.same_key(latin)}
        if not keyed:
            continue
        shown = sorted(keyed, key=lambda n: -loanwords.spelled_alike(unit, words.words[n]))[:3]
        print(f"  {unit} ({', '.join(loanwords.heard_as(unit))}): nearest {words.words[nearest]} "
              f"{similarity[nearest]:.2f} | same key " + ", ".join(
                  f"{words.words[n]} spelled {loanwords.spelled_alike(unit, words.words[n]):.2f} "
                  f"cosine {similarity[n]:.2f}" for n in shown)
              + f" | heard: {', '.join(words.words[n] for n in words.sounds.candidates(unit)) or '-'}"
              + f" | bridged: {words.loanword(unit, vector, similarity) or '-'}")


def read_all(release: str, questions_file: str) -> None:
    """Each Russian, Japanese or Korean word of the set's questions and the page words it is read as."""
    retriever = Retriever.load(Path(release))
    words = retriever.lexicon
    units = list(dict.fromkeys(u for q in json.loads(Path(questions_file).read_text("utf-8"))["questions"]
                               if q["language"] in ("ru", "ja", "ko") for u in words.foreign(q["question"])))
    read = words.translations(units, retriever.embedder.embed(units)) if units else {}
    for unit in units:
        print(f"{Path(questions_file).name}\t{unit}\t{', '.join(read.get(unit, [])) or '-'}")


def readings(retriever, units: list[str]) -> None:
    """Each word as the lexicon reads it, with the page words it sounds like."""
    words = retriever.lexicon
    vectors = retriever.embedder.embed(units)
    read = words.translations(units, vectors)
    alike = getattr(loanwords, "sounds_alike", None)      # absent from code before 2026-12-06 (a worktree)
    for unit, vector in zip(units, vectors):
        similarity = np.asarray(words.vectors @ vector)
        nearest = int(similarity.argmax())
        heard = sorted(words.sounds.candidates(unit), key=lambda n: -similarity[n])[:3]
        print(f"  {unit} ({'/'.join(loanwords.heard_as(unit))}): read {', '.join(read.get(unit, [])) or '-'}"
              f" | nearest {words.words[nearest]} {similarity[nearest]:.2f} | sounds like "
              + (", ".join(f"{words.words[n]} {similarity[n]:.2f}"
                           + (f" (spelled {alike(unit, words.words[n]):.2f})" if alike else "") for n in heard) or "-"))


def borrowed(release: str, questions_file: str, split: str = "all") -> None:
    """The words of one set's Russian, Japanese and Korean questions spelled like a page word they sound
    like, sorted by how far below the nearest word in meaning that page word is."""
    retriever = Retriever.load(Path(release))
    words = retriever.lexicon
    questions = [q for q in json.loads(Path(questions_file).read_text("utf-8"))["questions"]
                 if (split == "all" or q["split"] == split) and q["language"] in ("ru", "ja", "ko")]
    units = list(dict.fromkeys(u for q in questions for u in words.foreign(q["question"]) if loanwords.romanize(u)))
    rows = []
    for unit, vector in zip(units, retriever.embedder.embed(units) if units else []):
        similarity = np.asarray(words.vectors @ vector)
        heard = [(loanwords.sounds_alike(unit, words.words[n]), n) for n in words.sounds.candidates(unit)
                 if similarity[n] >= lexicon.loanword_floor(unit)]
        alike, number = max(heard, default=(0.0, -1))
        if alike >= loanwords.BORROWED:
            nearest = int(similarity.argmax())
            rows.append((float(similarity[nearest] - similarity[number]), unit, nearest, number, vector, similarity))
    print(f"{questions_file} ({split}) on {release}: {len(units)} katakana, Hangul or Cyrillic words, "
          f"{len(rows)} spelled like a page word (gap: how far below the nearest word in meaning; "
          f"read as borrowed up to {lexicon.BORROWED_GAP}):")
    for gap, unit, nearest, number, vector, similarity in sorted(rows, key=lambda row: row[0]):
        read = words.translations([unit], vector[None, :]).get(unit, [])
        print(f"  gap {gap:.2f}  {unit} ({loanwords.romanize(unit)}): nearest {words.words[nearest]} "
              f"{similarity[nearest]:.2f} | spelled like {words.words[number]} {similarity[number]:.2f} | read: {read}")


if __name__ == "__main__":
    main()
