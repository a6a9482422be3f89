"""The pages' own words, each with its vector: a bridge for questions asked in another script.

BM25 and the answer's word overlap only see a Russian, Japanese or Korean question's words
when the pages use them. Over English pages they never do, so a cross-language question
had only the vector leg to go on. The lexicon is the pages' vocabulary (every word used at
least twice, in the units `words` cuts), embedded by the index's own multilingual model.
A question word in a script the pages barely use is replaced by the pages' words nearest
to it in that space ("сжатие" → compression, "圧縮" → compression, "터미널" → terminal)
when the nearest is close enough; the bridged question then feeds BM25 and the overlap
features like any question in the pages' language. A word in the pages' own script is
never replaced: an unknown English word ("pm2") must stay unknown, which is evidence
that the pages do not answer. A word in a script only some pages use (a site in English
with one Russian page) is searched as written and also bridged into the main script.
What the bridge leaves in a script the pages barely use is kept out of the keyword query
(`in_pages_script`): it can match no page.

Built at release time (index.py), stored as index.json "lexicon" and vectors-lexicon.npy.
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

import numpy as np

from .. import languages
from . import korean_verbs, loanwords
from .opposites import reversal
from .tokenize import STOPWORDS, tokenize
from .units import HIRAGANA, STANDALONE, script, words

LEXICON_VECTORS = "vectors-lexicon.npy"
MIN_COUNT = 2           # a word used once is as likely a typo or an identifier's part
MOST_WORDS = 30_000     # the most frequent; a question costs one product with this many rows
# Measured on the development split of bench/answers/questions.json (bench/answers/lexicon.py):
# below ~0.7 the nearest page word of a Korean or Japanese word is often unrelated.
NEAREST = 0.72
SPREAD = 0.04           # also take a second word this close to the first ("handler", "handlers")
PER_WORD = 2
LANGUAGE_WORDS = 300      # the pages' most used words that tell their language
FOREIGN_SHARE = 0.01    # a script with fewer of the vocabulary's words than this is not the pages'
# A loanword's page word (same sound, loanwords.py) must still be this near in meaning: a
# katakana word (ラップ "wrap" sounds like "leap" at 0.39), a Hangul word that also has the
# English word's vowels (워커 → worker at 0.39), a katakana compound cut in two (its two
# words together). Chosen on the Japanese and Korean words of the development questions
# that the nearest word alone does not bridge (bench/answers/loanword_probe.py).
KATAKANA_NEAREST = 0.42
HANGUL_NEAREST = 0.38
# A Cyrillic word must also be spelled like its page word (loanwords.SPELLED_ALIKE), which says more
# than a kana key: the page words it hears in the development questions are 0.33 near or more
# (резолвер: resolver 0.34, реквеста: request 0.37).
CYRILLIC_NEAREST = 0.3
COMPOUND_NEAREST = 0.55
# A word spelled like a page word (loanwords.BORROWED) is read as that word, before its nearest word in
# meaning, when it is no farther in meaning than this below the nearest one. On the Russian, Japanese
# and Korean words of the Node.js questions (development and holdout) and of git's docs, the borrowings
# so read were 0.23 (워커: anchor 0.62, worker 0.39) or less below; the false ones 0.31 (기반: based 0.86,
# given 0.55) or more (bench/answers/loanword_probe.py --borrowed).
BORROWED_GAP = 0.25
# What an English contraction leaves of a word ("didn't": didn, t) says nothing of its own, yet sits near
# any verb or negation in meaning (сделал: did, didn; дочерний: doesn; 않았다며: wasn).
CONTRACTION_STUBS = frozenset("don doesn didn isn aren wasn weren hasn haven hadn shouldn wouldn couldn mustn needn "
                              "won ain shan mightn".split())

# A verb's nearest page word must be nearer than a noun's: a short stem is read many ways (済み → "dot" 0.78
# on Python-Markdown's words; bench/answers/verb_probe.py).
VERB_NEAREST = 0.8
_VERB_ENDING = re.compile(f"[{HIRAGANA}]")    # only a verb unit has kana


def vocabulary(texts: Iterable[str], min_count: int = MIN_COUNT, most: int = MOST_WORDS) -> list[str]:
    """The words used at least `min_count` times, most frequent first (ties in first-seen order)."""
    counts = Counter(unit for text in texts for unit in words(text))
    return [word for word, count in counts.most_common(most) if count >= min_count]


@dataclass
class Lexicon:
    words: list[str]
    vectors: np.ndarray                  # float32 (len(words), dims), unit rows
    nearest: float = NEAREST

    def __post_init__(self):
        self._known = set(self.words)
        scripts = Counter(script(w) for w in self.words)
        total = max(1, len(self.words))
        self.scripts = {name for name, count in scripts.items() if count / total >= FOREIGN_SHARE}
        self.main = scripts.most_common(1)[0][0] if scripts else ""
        self._outside_main = np.array([script(w) != self.main for w in self.words], dtype=bool)
        self._stubs = np.array([w in CONTRACTION_STUBS for w in self.words], dtype=bool)
        # The pages' language when they are written in Latin letters, told by their most used words.
        self.language = languages.latin_language(" ".join(self.words[:LANGUAGE_WORDS])) if self.main == "latin" else ""

    def knows(self, unit: str) -> bool:
        """Is this unit (as `words` cuts it) one of the pages' words?"""
        return unit in self._known

    def asked_in(self, question: str) -> str:
        """The question's language when it is written in Latin letters like the pages but in another
        language (German asked of English pages), else ""."""
        if not self.language:
            return ""
        language = languages.language_of(question)
        return language if languages.is_latin(language) and language != self.language else ""

    def foreign(self, question: str) -> list[str]:
        """The question's words in a script the pages barely use, and not among the pages' words; in a
        question in another Latin-script language than the pages, also its words the pages never use,
        as written (a German noun embeds nearer its meaning capitalised: Datei → file 0.90, datei →
        date 0.80; bench/answers/language_probe.py), but for its function words and its names (MongoDB, Express inside a French sentence),
        which stay as they are."""
        found = [u for u in words(question) if u not in self._known and u not in STOPWORDS
                 and u not in STANDALONE and script(u) not in self.scripts]
        other = self.asked_in(question)
        if other:
            kept = languages.function_words(other) | _names(question, capitals=other != "de")
            found += [w for w in (m.group() for m in languages.WHOLE_WORD.finditer(question))
                      if len(w) >= 3 and script(w) == "latin" and (folded := w.casefold()) not in kept
                      and folded not in self._known and folded not in STOPWORDS]
        return list(dict.fromkeys(found))

    def words_to_embed(self, question: str) -> tuple[list[str], list[str]]:
        """The question's foreign words and its other words in a minority script, embedded in one
        batch with the question (`texts_to_embed`) before `read`."""
        foreign = self.foreign(question)
        return foreign, [u for u in self.minority(question) if u not in foreign]

    @staticmethod
    def texts_to_embed(foreign: Sequence[str], minority: Sequence[str]) -> list[str]:
        """What `read` needs embedded: the foreign words, the minority ones, then the dictionary
        forms of the foreign words that are conjugated Korean verbs (korean_verbs.py)."""
        return [*foreign, *minority, *_dictionary_forms(foreign).values()]

    def read(self, question: str, foreign: Sequence[str], minority: Sequence[str],
             vectors: np.ndarray) -> tuple[str, list[str]]:
        """The question as the keyword leg reads it: its bridged text and its BM25 tokens. `vectors`
        holds the rows of `texts_to_embed(foreign, minority)`."""
        # A word in the pages' own script (German asked of English pages) becomes only words of that
        # script: its language is not that of the site's pages in other scripts.
        own_script = np.array([script(u) == self.main for u in foreign], dtype=bool)
        translations = self.translations([u for u, own in zip(foreign, own_script) if not own],
                                         vectors[:len(foreign)][~own_script])
        translations.update(self.translations([u for u, own in zip(foreign, own_script) if own],
                                              vectors[:len(foreign)][own_script], main_only=True))
        translations.update(self.translations(minority, vectors[len(foreign):len(foreign) + len(minority)],
                                              main_only=True))
        # A conjugated Korean verb the bridge could not read as written is read by its dictionary form.
        forms = _dictionary_forms(foreign)
        unread = [n for n, unit in enumerate(forms) if unit not in translations]
        # A verb's dictionary form is no loanword: by sound, 지우다 ("remove") is "get".
        by_form = self.translations([form for n, form in enumerate(forms.values()) if n in unread],
                                    vectors[len(foreign) + len(minority):][unread], loanwords_too=False,
                                    nearest=VERB_NEAREST)
        translations.update({unit: by_form[form] for unit, form in forms.items() if form in by_form})
        bridged = bridge(question, translations)
        other = self.asked_in(question)
        if other:
            # Another Latin-script language's function words ("wie", "une", "los") are not the pages'
            # words, whatever the pages happen to spell alike ("die", "comment").
            bridged = languages.WHOLE_WORD.sub(
                lambda m: " " if m.group().casefold() in languages.function_words(other) else m.group(), bridged)
        # A bridged word of a minority script is searched as written too, for the pages in its language.
        tokens = tokenize(bridged) + tokenize(" ".join(u for u in minority if u in translations))
        if foreign:
            # What a bridge leaves in a script the pages barely use (particles, question words, a word
            # with no near page word), or of another Latin-script language's words, matches no page,
            # yet as unseen terms at the largest idf it held every chunk below the keyword leg's vote
            # share: Korean and Japanese questions had no keyword leg at all. It stays in the bridged
            # text, where it says the question asks about something the pages never name.
            left = {t for u in foreign if u not in translations and script(u) == "latin" for t in tokenize(u)}
            tokens = [t for t in tokens if self.in_pages_script(t) and t not in left]
        return bridged, tokens

    def in_pages_script(self, token: str) -> bool:
        """Is this BM25 token in a script the pages use (digits and symbols always are)?"""
        found = script(token)
        return found in self.scripts or found == "other" or token.isdigit()

    def minority(self, question: str) -> list[str]:
        """The question's words in a script some pages use but most do not (a Russian question on a
        mostly English site with one Russian page). They are searched as they are, for the pages in
        their language, and also bridged into the main script's words, for the rest."""
        return list(dict.fromkeys(u for u in words(question) if u not in STOPWORDS and u not in STANDALONE
                                  and script(u) in self.scripts and script(u) != self.main))

    def translations(self, units: Sequence[str], vectors: np.ndarray, main_only: bool = False,
                     loanwords_too: bool = True, nearest: float | None = None) -> dict[str, list[str]]:
        """For each foreign unit (its vector a row of `vectors`): the page word it is spelled like a
        borrowing of (`borrowed`), else the pages' nearest words, if near enough, else the page word it
        sounds like (`loanword`); the two by sound not with `loanwords_too` false. With `main_only`,
        only words in the pages' main script are candidates."""
        if not len(units) or not len(self.words):
            return {}
        similarity = np.asarray(vectors @ self.vectors.T)
        similarity[:, self._stubs] = -1.0
        if main_only:
            similarity[:, self._outside_main] = -1.0
        out: dict[str, list[str]] = {}
        for unit, vector, row in zip(units, vectors, similarity):
            # Antonyms share their contexts, so the nearest word may be the opposite one ("включить"
            # → disable): a word naming the opposite side of a concept pair is never a translation.
            order = [i for i in np.argsort(-row)[:PER_WORD + 2] if not reversal(unit, self.words[i])][:PER_WORD]
            best = float(row[order[0]]) if order else 0.0
            near = nearest or (VERB_NEAREST if _VERB_ENDING.search(unit) else self.nearest)
            nearest_words = [self.words[i] for i in order if row[i] >= max(near, best - SPREAD)]
            by_sound = loanwords_too and bool(loanwords.romanize(unit))
            borrowed = self.borrowed(unit, row) if by_sound else []
            if borrowed and borrowed[0] not in nearest_words:
                out[unit] = borrowed
            elif nearest_words:
                out[unit] = nearest_words
            elif by_sound:
                found = self.loanword(unit, vector, row)
                if found:
                    out[unit] = found
        return out

    @functools.cached_property
    def sounds(self) -> loanwords.Sounds:
        return loanwords.Sounds(self.words)

    def borrowed(self, unit: str, similarity: np.ndarray) -> list[str]:
        """The page word a katakana, Hangul or Cyrillic word is spelled nearly as, by sound, when it is also
        nearly as near in meaning as the nearest word: that reading comes first, since for a borrowed
        technical word the nearest in meaning is often another one (коммита: hunk 0.61, committee 0.59,
        commit 0.44; コミット: caveat 0.74, commit 0.56; команды: team 0.79, command 0.70)."""
        floor = max(loanword_floor(unit), float(similarity.max()) - BORROWED_GAP)
        alike = [(loanwords.sounds_alike(unit, self.words[n]), float(similarity[n]), n)
                 for n in self.sounds.candidates(unit) if similarity[n] >= floor]
        best = max(alike, default=None)
        return [self.words[best[2]]] if best and best[0] >= loanwords.BORROWED else []

    def loanword(self, unit: str, vector: np.ndarray, similarity: np.ndarray) -> list[str]:
        """The page word(s) a katakana, Hangul or Cyrillic word sounds like, kept only when also near in
        meaning."""
        heard = self.sounds.candidates(unit)
        if heard:
            best = max(heard, key=lambda n: similarity[n])
            if similarity[best] >= loanword_floor(unit):
                return [self.words[best]]
        if loanwords.is_hangul(unit) or loanwords.is_cyrillic(unit):
            return []         # only katakana writes a compound as one word (ログファイル)
        best_closeness, best_words = 0.0, []
        for parts in self.sounds.splits(unit):
            chosen = [max(part, key=lambda n: similarity[n]) for part in parts]
            joined = self.vectors[chosen].sum(axis=0)
            closeness = float(joined @ vector) / max(float(np.linalg.norm(joined)), 1e-9)
            if closeness > best_closeness:
                best_closeness, best_words = closeness, [self.words[n] for n in chosen]
        return best_words if best_closeness >= COMPOUND_NEAREST else []


def loanword_floor(unit: str) -> float:
    """How near in meaning a page word must be to a word that sounds like it, by the word's script."""
    return (HANGUL_NEAREST if loanwords.is_hangul(unit) else CYRILLIC_NEAREST if loanwords.is_cyrillic(unit)
            else KATAKANA_NEAREST)


def _dictionary_forms(units: Sequence[str]) -> dict[str, str]:
    """Each Korean unit that looks like a conjugated verb, with its dictionary form (in order)."""
    return {unit: form for unit in units if (form := korean_verbs.dictionary_form(unit))}


def _names(question: str, capitals: bool) -> frozenset[str]:
    """The question's words written like names, folded: an inner capital (MongoDB, HTTP), or, when
    `capitals`, a capital inside the sentence (Express)."""
    found = set()
    for match in languages.WHOLE_WORD.finditer(question):
        word = match.group()
        before = question[:match.start()].rstrip()
        if any(c.isupper() for c in word[1:]) or (capitals and word[0].isupper() and before
                                                  and before[-1] not in ".!?¿¡:"):
            found.add(word.casefold())
    return frozenset(found)


def bridge(question: str, translations: dict[str, list[str]]) -> str:
    """The question with each translated unit replaced by the pages' words for it."""
    if not translations:
        return question
    pattern = re.compile("|".join(re.escape(u) for u in sorted(translations, key=len, reverse=True)), re.IGNORECASE)
    bridged = question
    for match in reversed(list(pattern.finditer(question))):
        key = next((u for u in translations if u.casefold() == match.group().casefold()), None)
        if key is not None:
            bridged = bridged[:match.start()] + " " + " ".join(translations[key]) + " " + bridged[match.end():]
    return bridged
