"""How near a conjugated Korean verb, and its dictionary form, sit to the English word (the offline model).

    .venv/bin/python bench/answers/korean_verb_probe.py [--release DIR --answers FILE ...]

Prints the cosine of each conjugated form and of its dictionary form (trigsight.retrieval.korean_verbs)
with the English verb a reader means, in the index model's space. With --release and --answers,
also lists, for every Korean question of those sets, the words the bridge reads by their dictionary
form on that release, and the page words it reads them as.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from trigsight.retrieval import embedders, korean_verbs, lexicon  # noqa: E402
from trigsight.retrieval.lexicon import VERB_NEAREST  # noqa: E402
from trigsight.retrieval.search import Retriever  # noqa: E402

# (as a question writes it, the English verb it means)
PAIRS = [("실행하면", "run"), ("바꾸려면", "change"), ("사용할", "use"), ("설치됐는지", "installed"),
         ("넘기면", "pass"), ("들어와", "come"), ("확인하는", "check"), ("정리할", "clean"), ("지우고", "remove"),
         ("막으려면", "prevent"), ("전달되나요", "passed")]


def cosines() -> list[str]:
    model = embedders.offline()
    lines = ["| as written | dictionary form | English | cosine as written | cosine of the form |", "|---|---|---|---|---|"]
    for written, english in PAIRS:
        form = korean_verbs.dictionary_form(lexicon.words(written)[0]) or "—"    # particles cut first
        texts = [written, english] + ([form] if form != "—" else [])
        vectors = model.embed(texts)
        by_form = f"{float(vectors[2] @ vectors[1]):.3f}" if form != "—" else "—"
        lines.append(f"| {written} | {form} | {english} | {float(vectors[0] @ vectors[1]):.3f} | {by_form} |")
    return lines


# Native verbs, which keep their conjugated form: (as written, its dictionary form, what it means)
NATIVE = [("지우고", "지우다", "remove"), ("넘기면", "넘기다", "pass"), ("쓰려면", "쓰다", "write")]


def native_nearest(retriever: Retriever) -> list[str]:
    """The release's nearest page words to each native verb's dictionary form: generic verbs."""
    lines = []
    vectors = retriever.embed([form for _, form, _ in NATIVE])
    for (written, form, meaning), vector in zip(NATIVE, vectors):
        similarity = retriever.lexicon.vectors @ vector
        nearest = sorted(range(len(similarity)), key=lambda n: -similarity[n])[:3]
        found = ", ".join(f"{retriever.lexicon.words[n]} {similarity[n]:.3f}" for n in nearest)
        lines.append(f"- {written} → {form} (\"{meaning}\"): {found}")
    return lines


def read_by_form(release: Path, answers: list[Path]) -> list[str]:
    retriever = Retriever.load(release)
    pages = retriever.lexicon
    lines = []
    for path in answers:
        for q in json.loads(path.read_text("utf-8"))["questions"]:
            if q["language"] != "ko":
                continue
            foreign, _ = pages.words_to_embed(q["question"])
            as_written = pages.translations(foreign, retriever.embed(foreign)) if foreign else {}
            forms = {u: f for u in foreign if u not in as_written and (f := korean_verbs.dictionary_form(u))}
            if not forms:
                continue
            by_form = pages.translations(list(forms.values()), retriever.embed(list(forms.values())),
                                           loanwords_too=False, nearest=VERB_NEAREST)
            read = [f"{u} → {f} → {' '.join(by_form[f])}" for u, f in forms.items() if f in by_form]
            if read:
                lines.append(f"- `{q['id']}` ({path.name}): {', '.join(read)}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", type=Path)
    parser.add_argument("--answers", type=Path, action="append", default=[])
    args = parser.parse_args()
    print(f"use-multilingual-v3 (offline), Python {platform.python_version()}\n")
    print("\n".join(cosines()))
    if args.release:
        print(f"\nKorean words read by their dictionary form on {args.release.name}'s release:")
        print("\n".join(read_by_form(args.release, args.answers)) or "(none)")
        print("\nNative verbs' dictionary forms (not read by the bridge), nearest page words:")
        print("\n".join(native_nearest(Retriever.load(args.release))))


if __name__ == "__main__":
    main()
