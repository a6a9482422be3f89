"""Which model sentences are shown, with which chips: handle resolution and attribution (pure).

A sentence is shown with a chip only to a passage that was issued in this request, is in
the published allowlist, and supports it (`trigsight.answering.attribution`: its words, or
across languages its meaning, with numbers, names and negation agreeing). The model's
handle says where to look first; a sentence without one, or whose cited source does not
support it, gets the chip of the issued passage that does. Only a sentence that no issued
source supports is removed in strict mode; lenient mode shows it marked unverified. Chip
URLs come from the allowlist alone.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Callable, Sequence

from .answer import (
    LENIENT,
    STRICT,
    SUPPORTED,
    UNVERIFIED,
    AnswerSentence,
    Tally,
    citation_for,
    has_words,
    make_inert,
    tidy,
)
from .attribution import HELPER_SHARE, Evidence, judge, judge_together, language_of, word_share
from .evidence import block_contexts, table_rows
from .handles import HandleTable, parse_citations
from .roles import Embed
from .support import explain

# Uncited, the issued passages carrying most of a sentence's words that are tried two by two.
PAIR_POOL = 6

Similarity = Callable[[str, Sequence[str]], dict[str, float]]


@dataclass
class Resolver:
    """Resolve model sentences against one request's issued sources and the allowlist.

    `similarity(text, passage_ids)` gives the cosine of the sentence and each passage in the
    index's vector space (the retriever's); without it, only words can support a sentence,
    and only in its own language. `embed(texts)` (the retriever's too) matches clauses across
    languages when names may have swapped roles.
    """

    table: HandleTable
    release: object
    mode: str = STRICT
    ignore: tuple[str, ...] = ()        # tokens that are evidence of nothing (the site's name)
    similarity: Similarity | None = None
    question: str = ""                  # what the sentences answer: restating it is their frame, not a claim
    embed: Embed | None = None          # the index model's text embedder: clauses matched across languages
    tally: Tally = field(default_factory=Tally)

    def resolve(self, raw: str) -> AnswerSentence | None:
        """The sentence as shown, or None when it is dropped (or was only markup)."""
        inert, links, markup = make_inert(raw)
        self.tally.links += links
        self.tally.markup += markup
        cited = parse_citations(inert)
        text = tidy(cited.text)
        self.tally.emitted += len(cited.labels) + cited.stray
        groups = []                      # the allowlisted passages behind each distinct handle
        for label in dict.fromkeys(cited.labels):
            found = self._passages(self.table.get(label))
            if found:
                self.tally.resolved += cited.labels.count(label)
                groups.append(found)
        if not has_words(text):
            self.tally.unsupported += len(groups)   # handles with no sentence to back
            return None
        evidence = self._evidence(text)
        backing = self.supporting(text, groups, evidence)
        self.tally.unsupported += sum(not any(p in backing for p in group) for group in groups)
        if not backing:
            backing = self.supporting(text, [self._passages(source) for source in self.table], evidence,
                                      cited=False)
            if backing:
                if groups:
                    self.tally.reattributed += 1
                else:
                    self.tally.attributed += 1
        if backing:
            return AnswerSentence(text, tuple(citation_for(p, self.release) for p in backing), SUPPORTED)
        if self.mode == LENIENT:
            return AnswerSentence(text, (), UNVERIFIED)
        self.tally.sentences += 1
        return None

    def _passages(self, source) -> list:
        if source is None:
            return []
        return [p for p in (self.release.passage(pid) for pid in source.passage_ids) if p is not None]

    def _blocks(self, passages: list) -> str:
        found = block_contexts(self.release) if self.question else {}
        return " ".join(dict.fromkeys(found.get((p.page, p.block), "") for p in passages))

    def _evidence(self, text: str) -> Callable[[object], Evidence]:
        """What each issued passage offers this sentence, judged once per passage."""
        language = language_of(text)
        cosines: dict[str, float] | None = None
        judged: dict[str, Evidence] = {}

        def of(passage) -> Evidence:
            nonlocal cosines
            if passage.id not in judged:
                page = self.release.page(passage.page)
                cross = language != ((page.language if page and page.language else language_of(passage.text))
                                     .split("-")[0])
                if cosines is None:
                    issued = [pid for source in self.table for pid in source.passage_ids]
                    cosines = self.similarity(text, issued) if self.similarity else {}
                context = " ".join(passage.headings) + " " + (page.title if page else "")
                block = block_contexts(self.release).get((passage.page, passage.block), "") if self.question else ""
                # A table cell is judged with its row; its own words still rank it among the row's cells.
                row = table_rows(self.release).get(passage.id)
                found = judge(text, row or passage.text, cosine=cosines.get(passage.id), cross=cross,
                              ignore=self.ignore, context=context, question=self.question, block=block,
                              embed=self.embed)
                if row:
                    found = replace(found, share=word_share(text, passage.text, self.ignore))
                judged[passage.id] = found
            return judged[passage.id]
        return of

    def supporting(self, text: str, groups: list[list], evidence, cited: bool = True) -> list:
        """The passages that back the sentence, [] when it has no support.

        Each group is one source (a chunk of a few sentences); its best passage for this
        sentence is the one that supports it most, else the one carrying most of its words.
        A best passage that supports the sentence alone always counts. For cited sources,
        another cited source's best passage counts too when it carries a real share of the
        sentence (one sentence, two facts), and when none supports it alone, the cited
        passages carrying a real share may support it together (a model often folds two
        neighbouring sentences into one). Uncited, the server takes the single passage that
        supports the sentence best, or else the two carrying most of its words if together
        they carry every one of them (the model did not point at these two).
        """
        def key(p):   # a paragraph that supports the sentence quotes it better than a table cell
            found = evidence(p)
            return found.supported, p.kind != "td", found.strength, found.share

        best = list({p.id: p for p in (max(group, key=key) for group in groups if group)}.values())
        alone = sorted((p for p in best if evidence(p).supported), key=key, reverse=True)
        if alone and not cited:
            return alone[:1]
        if alone:
            return alone + [p for p in best if p not in alone and evidence(p).share >= HELPER_SHARE
                            and language_of(p.text) == language_of(text)]
        pool = list({p.id: p for group in groups for p in group if evidence(p).share >= HELPER_SHARE}.values())
        if not cited:
            return self._pair(text, sorted(pool, key=lambda p: evidence(p).share, reverse=True)[:PAIR_POOL])
        if len(pool) > 1 and judge_together(text, [p.text for p in pool], self.ignore, 0.8, self.question,
                                            self._blocks(pool)):
            return pool
        return []

    def _pair(self, text: str, pool: list) -> list:
        """Of the issued passages, two of one section that together carry every word of the sentence,
        [] when no two do. Pairs are tried by how many of its words they carry together: the two
        that each carry most of them often say the same half of it. Two sections never join: "This
        method is only implemented on macOS." and a passage naming fs.watch() elsewhere do not say
        that fs.watch is."""
        words = {p.id: set(explain(text, p.text, self.ignore).matched) for p in pool}
        pairs = sorted(((a, b) for a, b in combinations(pool, 2) if (a.page, a.headings) == (b.page, b.headings)),
                       key=lambda pair: -len(words[pair[0].id] | words[pair[1].id]))
        for pair in pairs:
            if judge_together(text, [p.text for p in pair], self.ignore, 1.0, self.question, self._blocks(pair)):
                return list(pair)
        return []
