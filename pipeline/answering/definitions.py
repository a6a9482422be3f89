"""Definition questions ("What is a Buffer?", "ストリームとは何ですか？"): the sentence that says what it is.

The first thing a new reader asks is what something is, and the pages answer it where they
introduce it: "A stream is an abstract interface for working with streaming data in
Node.js." opens the Stream page. Retrieval ranks that sentence low: a short line such as
"stream {stream.Readable|ReadableStream}" is denser in the asked word than any definition,
and the relevance model, fitted on questions that ask for a fact, weighs a sentence by the
question's other words, of which a definition question has none.

So a definition question is read for its term, the term in the pages' words (a Japanese or
Russian term through the retriever's lexicon: ストリーム → stream; trigsight.answering.asked_terms), and the
pages' sentences that define that term are found by their shape (`Definitions`): one whose
subject is the term and whose verb defines ("A Blueprint is a way to…", "Buffer objects are
used to…", "X — это…", "Xは…です"), or the first sentence of a section or page headed by the
term. The best of them (`defining`) is put first among the retrieved chunks, so a model is
issued it, and the offline answer quotes it with the rest of its paragraph. A term no
sentence defines changes nothing: the question is answered, or refused, as any other.
"""
from __future__ import annotations

import functools
import re
import threading
from dataclasses import dataclass

from ..retrieval.chunks import HEADING_KINDS, TABLE_CELLS
from ..retrieval.search import Hit
from .asked_terms import ARTICLE, LEADING_ARTICLE, asked_term, key, last_part, plain, term_names
from .pointers import points_elsewhere
from .relevance import leads_in

# How strongly a sentence defines a name, strongest first: a sentence shaped like a definition on the
# page the name titles or in the section it heads, or a statement about the name its own section heads
# ("The util.inspect() method returns…"); one that says what the name is ("X is a…", "Xとは") anywhere;
# the first sentence of the section the name heads or of the page it titles, or a statement about the
# page's title; one that says what it does ("X provides…", "Xは…です") anywhere.
DEFINES_ON_ITS_PAGE, DEFINES_IN_ITS_SECTION, SAYS_WHAT, LEADS_ITS_SECTION, SAYS_WHAT_FOR = range(5)
MIN_LEAD_WORDS = 4        # a section's first sentence shorter than this says too little ("The flask.url_for() function.")
REMEMBERED_TERMS = 1024   # terms whose names a release's Definitions keeps
FOLLOWING = 2             # sentences of the defining one's paragraph quoted after it

# The subject of a sentence that says what it is, and the role words after a name ("Buffer objects",
# "the node:stream module", "The Flask class"). A name may hold dots and colons (Node.js, node:vm).
_SUBJECT = r"(?P<s>(?:[^,;:.!?()]|[.:](?=\w)){1,60}?)"
# "Node-API (formerly N-API) is…", "Inline processors, previously called inline patterns, are…"
_ASIDE = r"(?P<aside>\s*\([^()]{1,40}\)|,\s[^,]{1,40},)?"
# What says what a thing is, in so many words: "X is a…", "X refers to…", "Xとは、…", "X란…", "X — это…".
_SAYS_WHAT = [
    # what the pages mean by a word: "The term process is…", "Термин процесс имеет…", "プロセスという言葉は…"
    re.compile(r"(?i)^(?:the\s+)?(?:term|word)\s+(?P<s>[^\s,.;:]{1,30}(?:\s[^\s,.;:]{1,30})??)\s+(?:is|are|refers?|means"
               r"|describes?|has|usually|generally|typically|commonly|covers|can)\b"),
    re.compile(r"(?i)^" + ARTICLE + _SUBJECT + _ASIDE + r"\s+(?:(?:is|are)\s+(?:an?|the|one|used\s+to|a\s+way)\b"
               r"|refers?\s+to|means|stands\s+for|is\s+short\s+for)"),
    # a glossary's or an option list's entry: "libuv: The C library that implements…", "permalink: Set to True…"
    re.compile(r"^(?P<s>[^:]{1,40}):\s+(?:The|A|An)\s|^(?P<s2>[a-z][\w.-]{1,39}):\s+[A-Z]"),
    re.compile(r"(?i)^" + _SUBJECT + _ASIDE + r"\s+(?:[—–-]\s+это\b|является\b|представляет\s+собой|означает\b)"),
    re.compile(r"^(?P<s>[^、。,]{1,30}?)\s*とは"),
    re.compile(r"^(?P<s>[^,.]{1,30}?)(?:이란|란)\s"),
    re.compile(r"(?i)^(?:термин(?:ом)?|слово(?:м)?)\s+(?P<s>[^\s,.;:]{1,30})\s"),
    re.compile(r"^(?P<s>[^、。,]{1,30}?)という(?:言葉|用語|単語)は"),
    re.compile(r"^(?P<s>[^,.]{1,30}?)(?:이라는|라는)\s*(?:용어|말|단어)(?:은|는)"),
]
# What says what a thing does or is for: "Buffer objects are used to…", "The node:fs module enables…",
# "Xは…です。", "X는 …입니다."
_SAYS_WHAT_FOR = [
    re.compile(r"(?i)^" + ARTICLE + _SUBJECT + _ASIDE + r"\s+(?:(?:is|are)\s+(?:responsible|designed|meant|intended"
               r"|essentially|basically|simply)\b|represents?|provides?|allows?|lets|enables?|implements?"
               r"|can\s+be\s+used|contains?|describes?|defines?|helps?|makes?)\b"),
    re.compile(r"(?i)^" + _SUBJECT + _ASIDE + r"\s+(?:позволяет|используется|предоставляет|служит|нужен|нужна|нужно)\b"),
    re.compile(r"^(?P<s>[^、。,]{1,30}?)\s*は(?=、?.*(?:です|である|ます|でした)[。.]?$)"),
    re.compile(r"^(?P<s>[^,.]{1,30}?)(?:은|는)(?=\s.*(?:입니다|이다|합니다|됩니다|있습니다)[.]?$)\s"),
]
# A word every pattern above needs within its first 100 characters (a cheap test before the patterns).
_ANY_DEFINING_WORD = re.compile(r"(?i)\s(?:is|are|refers?|means|stands|represents?|provides?|allows?|lets|enables?"
                                r"|implements?|can|contains?|describes?|defines?|helps?|makes?|является"
                                r"|представляет|означает|позволяет|используется|предоставляет|служит|нужн\w*)\b"
                                r"|\s[—–-]\s|:\s|とは|は|이란|란|은|는|^(?:the\s+)?(?:term|word)\s|^термин|^слово")
# "This command is similar to npm install, except…": what the page or section is about, by its role.
# "This defines an array of package names…" there too. ("This file contains…" is about a file of an example.)
_THIS_ROLE = re.compile(r"(?i)^this(?:\s+(?P<role>command|module|extension|function|method|option|setting|feature|tool"
                        r"|plugin|class|package|library|api|hook|directive|field|property|event|endpoint))?\s+\w")
# A name alone on its line, a definition list's term, or a configuration value's name: the passage after
# it says what it is ("SECRET_KEY_FALLBACKS" then "A list of old secret keys that…").
_NAME_ALONE = re.compile(r"^[`'\"]?[\w.:-]{2,60}(?:\(\))?[`'\"]?$")
# Any statement about a name, where the page or section it heads makes it: "The Sane Lists extension alters…"
_STATES = re.compile(r"(?i)\s+(?:is|are|can|will|was|has|have|does|do|\w{3,}s)\b")
# A subject that starts with "this", "it" or "each" says what something does there, not what it is; one
# that holds a verb ("Black will") is no name.
_NOT_A_NAME = re.compile(r"(?i)^(?:this|that|these|those|it|its|they|their|there|here|such|each|every|all|some|any"
                         r"|none|no|only|both|many|most|other|another|which|what|when|where|how|why|if|then|so"
                         r"|also|however|you|we|i|one|for|in|on|with|by|from|to|as|at|after|before|unless|while)\b"
                         r"|\b(?:will|can|may|must|should|would|could|does|do|did|is|are|was|were|has|have|had|not)\b")
# A sentence that ends as a sentence does: a banner ("Stability: 1.1 - Active development") does not.
_ENDS = re.compile(r"[.!?。！？][)\]\"'”’」』]?\s*$")
_HEADING_ROLE = re.compile(r"(?i)^\s*(?:(?:static|instance|class)\s+)?(?:class|event|module|interface|type|enum"
                           r"|namespace|function|method|command|option|setting|property|constructor|field)\s*:\s*")
# A line that labels ("Stability: 3 - Legacy: Use queueMicrotask() instead.", "Default: false.") or gives
# a parameter's type ("object {any} Any JavaScript primitive or Object.") does not open a section's account.
# Nor does a badge that a symbol opens ("💼 This rule is enabled in the following configs: ❗ errors.", "❌ This rule is
# deprecated.").
_LABEL = re.compile(r"^[A-Z][\w ]{0,24}:\s|^\S+\s+\{[^}]*\}|^[\u2190-\u2bff\U0001f000-\U0001faff]")
_ITEM_SAYS = re.compile(r"^(?![A-Z][\w ]{0,24}:\s)(?:\S+\s+){5,}\S")    # six words or more, not a label
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")       # kana and ideographs
_ARGUMENTS = re.compile(r"\s*[(\[].*$")
# A heading that gives an identifier, then a title ("MD013 - Line length", "E501: line too long").
_IDENTIFIED = re.compile(r"^[`'\"]?(?P<id>(?=[\w.-]*\d)[A-Za-z][\w.-]*)[`'\"]?(?:\s*:|\s+[-–—])\s+\S")
_PARENTHESES = re.compile(r"\s*\(([^()]{1,40})\)")
_OTHER_NAME = re.compile(r"(?i),\s+(?:or|also\s+(?:called|known\s+as)|aka|previously\s+called|formerly)\s+([^,]{1,40}),")
_LOCK = threading.Lock()
_CACHE: dict[str, "Definitions"] = {}


def heading_key(heading: str) -> frozenset[str]:
    """A heading as a name: "Class: `stream.Readable`" = "stream.Readable", "fs.watch(filename[, options])" =
    "fs.watch", "What is a Container Image?" = "Container Image"."""
    heading = _ARGUMENTS.sub("", _HEADING_ROLE.sub("", heading))
    return key(asked_term(heading) or heading)


@functools.lru_cache(maxsize=65536)
def heading_names(heading: str) -> frozenset[frozenset[str]]:
    """The names a heading gives: itself as a name, and a dotted name's last part ("Class: http.Agent")."""
    name = _ARGUMENTS.sub("", _HEADING_ROLE.sub("", heading))
    names = {heading_key(heading), *last_part(name), *plain(name)}
    if identifier := _IDENTIFIED.match(heading):
        names.add(key(identifier.group("id")))     # "MD013 - Line length" is MD013's
    return frozenset(found for found in names if found)


def defined_subject(text: str) -> tuple[str, bool] | None:
    """The subject of a sentence shaped like a definition, and whether it says what the subject is
    ("A stream is an…" → ("stream", True)) or what it does or is for ("Buffer objects are used to…"
    → ("Buffer objects", False)); None for any other sentence."""
    if not _ANY_DEFINING_WORD.search(text, 0, 100):
        return None
    for patterns, what in ((_SAYS_WHAT, True), (_SAYS_WHAT_FOR, False)):
        for pattern in patterns:
            match = pattern.match(text)
            subject = match and (match.group("s") or match.groupdict().get("s2"))
            if subject and not _NOT_A_NAME.search(subject):
                return subject + (match.groupdict().get("aside") or ""), what
    return None


def names_of(subject: str) -> set[frozenset[str]]:
    """The names a subject gives: as written, without its aside, the aside itself ("New-Line-to-Break
    (nl2br) Extension" is also "nl2br"; "A source distribution, or sdist," is also "sdist"), and a dotted
    name's last part (markdown.util.Registry)."""
    bare = _PARENTHESES.sub("", subject.split(",")[0])
    names = {key(subject), key(bare), *(key(inner) for inner in _PARENTHESES.findall(subject)), *plain(bare),
             *(key(other) for other in _OTHER_NAME.findall(subject))}
    return {name for name in names | last_part(bare) if name}


def stated_subjects(text: str) -> list[str]:
    """Every start of the sentence that a verb could follow and that is only a name ("The Sane Lists
    extension" of "The Sane Lists extension alters…"; not "For an HTTP agent, this")."""
    found = []
    for match in _STATES.finditer(text[:80]):
        start = text[:match.start()]
        name = LEADING_ARTICLE.sub("", start).lstrip("`'\"")
        if name and "," not in start and not _NOT_A_NAME.search(name):
            found.append(start)
    return found


@dataclass(frozen=True)
class Defining:
    passage_id: str
    strength: int         # DEFINES_ON_ITS_PAGE … SAYS_WHAT_FOR


class Definitions:
    """For one release: the sentences that define each name, by the name's tokens."""

    def __init__(self, release):
        # name -> (strength, order on its page, passage id, page) of each sentence defining it
        self.by_key: dict[frozenset[str], list[tuple[int, int, str, str]]] = {}
        led: set[tuple[str, tuple[str, ...]]] = set()
        opened: set[str] = set()      # pages whose first sentence was read as their title's account
        titles = {page.path: heading_key(page.title) for page in release.pages}
        self._pages = release.pages
        self._names: dict[str, tuple[frozenset[str], ...]] = {}
        self._common: dict[str, bool] = {}
        for passage in release.passages:
            # a sentence that only points elsewhere ("setImmediate is described in the timers section.") defines
            # nothing, and does not open its section's account
            if passage.kind not in HEADING_KINDS and passage.kind not in TABLE_CELLS and not points_elsewhere(passage):
                section = (passage.page, passage.headings)
                self._read(passage, titles.get(passage.page), release, section not in led)
                # a list item is one of the section's details (a parameter, an option), not its account
                if section not in led and passage.headings and passage.kind != "li" and says_something(passage.text):
                    led.add(section)
                    for name in heading_names(passage.headings[-1]):
                        self._add(name, LEADS_ITS_SECTION, passage)
                    # A page that opens with "Synopsis" and "Description" sections (npm's command pages)
                    # says what its title is in the first sentence it has.
                    if passage.page not in opened and (title := titles.get(passage.page)):
                        opened.add(passage.page)
                        self._add(title, LEADS_ITS_SECTION, passage)

    def _read(self, passage, title: frozenset[str] | None, release, leads: bool) -> None:
        """Add what `passage` defines, by its shape and by where it stands."""
        headings = {name for h in passage.headings for name in heading_names(h)}
        defined = defined_subject(passage.text)
        # A definition that only opens a list ("Black is a well-behaved Unix-style command-line tool:")
        # gives way to one that says it in a sentence.
        opens = leads_in(passage.text)
        for name in names_of(defined[0]) if defined else ():
            strength = (DEFINES_ON_ITS_PAGE if name == title else DEFINES_IN_ITS_SECTION if name in headings
                        else SAYS_WHAT if defined[1] else SAYS_WHAT_FOR)
            self._add(name, strength + opens, passage)
        own = heading_names(passage.headings[-1]) if passage.headings else frozenset()
        if not defined:
            # A statement about the name its own section heads ("The util.inspect() method returns…") is that
            # entry's description; one about the page's title ("Diagnostic report has an associated
            # version number") is one of its details, after the page's opening sentence.
            for start in stated_subjects(passage.text):
                names = names_of(start)
                strength = (DEFINES_IN_ITS_SECTION if names & (own - {title}) else LEADS_ITS_SECTION
                            if title in names else None)
                for name in names if strength is not None else ():
                    self._add(name, strength + opens, passage)
        if (this := _THIS_ROLE.match(passage.text)) and passage.headings:
            # about its section's name; said as a definition ("This field defines…") or as any statement. A bare
            # "This" after the section's first sentence may be about that sentence ("This is an excellent place to…").
            says = defined_subject("X " + passage.text[this.end() - 1:]) and (this.group("role") or leads)
            for name in heading_names(passage.headings[-1]):
                self._add(name, (DEFINES_IN_ITS_SECTION if says else LEADS_ITS_SECTION) + opens, passage)
        if (passage.kind == "dt" or _NAME_ALONE.match(passage.text)) and (name := key(passage.text)):
            described = release.passage_at(passage.page, passage.order + 1)
            # a list item says it without a full stop too ("Runs AFTER the tarball has been generated… (if at all…)")
            if (described is not None and described.block != passage.block and described.kind not in HEADING_KINDS
                    and (says_something(described.text) or described.kind == "li" and _ITEM_SAYS.match(described.text))):
                self._add(name, LEADS_ITS_SECTION, described)

    def _add(self, name: frozenset[str], strength: int, passage) -> None:
        self.by_key.setdefault(name, []).append((strength, passage.order, passage.id, passage.page))

    @classmethod
    def of(cls, release) -> "Definitions":
        with _LOCK:
            found = _CACHE.get(release.release_id)
            if found is None:
                _CACHE.clear()
                found = _CACHE[release.release_id] = cls(release)
            return found

    def names(self, term: str, retriever) -> tuple[frozenset[str], ...]:
        """`term_names`, remembered: a chat turn looks the term up for retrieval and again for the answer."""
        if term not in self._names:
            if len(self._names) >= REMEMBERED_TERMS:
                self._names.clear()
            self._names[term] = term_names(term, retriever)
        return self._names[term]

    def common(self, word: str) -> bool:
        """Is `word` on half the pages or more (the site's own name: "npm", "Node.js", "FastAPI")?"""
        folded = word.casefold()
        if folded not in self._common:
            if len(self._common) >= REMEMBERED_TERMS:
                self._common.clear()
            on = sum(folded in page.text.casefold() for page in self._pages)
            self._common[folded] = on * 2 >= max(1, len(self._pages))
        return self._common[folded]

    def defining(self, names: list[frozenset[str]], pages: list[str]) -> Defining | None:
        """The best definition of any of `names`: the strongest, then on the earliest of `pages` (the
        retrieved pages, in order), then the first on its page."""
        rank = {page: n for n, page in enumerate(pages)}
        found = [entry for name in names for entry in self.by_key.get(name, ())]
        if not found:
            return None
        strength, _, passage_id, _ = min(found, key=lambda e: (e[0], rank.get(e[3], len(rank)), e[1]))
        return Defining(passage_id, strength)


def says_something(text: str) -> bool:
    """Is the sentence one that can open a section's account: a whole sentence, not a banner or a lead-in?"""
    # Japanese and Chinese put no spaces between words: such a sentence is told by its length instead.
    return (bool(_ENDS.search(text)) and not _LABEL.match(text)
            and (len(text.split()) >= MIN_LEAD_WORDS or len(text) >= 24 and bool(_UNSPACED.search(text))))


def defining(question: str, hits, retriever, release) -> Defining | None:
    """The sentence defining what a definition question asks about, or None (see the module docstring)."""
    term = asked_term(question)
    return None if term is None else defining_term(term, list(dict.fromkeys(hit.page for hit in hits)), retriever,
                                                   release)


def defining_term(term: str, pages: list[str], retriever, release) -> Defining | None:
    """The sentence defining `term`, preferring the earliest of `pages` on a tie, or None."""
    found = Definitions.of(release)
    defined = found.defining(found.names(term, retriever), pages)
    if defined is None and plain(term):
        # "--legacy-peer-deps" where the page's heading is "legacy-peer-deps"
        defined = found.defining(list(plain(term)), pages)
    first, _, rest = term.partition(" ")
    if defined is None and not rest and "." in term.strip(".") and found.common(term.split(".")[0]):
        # "flask.abort()", "flask.g": the site's own name as the owner of what is asked about
        defined = found.defining(found.names(term.split(".", 1)[1], retriever), pages)
    if defined is None and rest and found.common(first):
        # "npm scope", "Node.js Permission Model": the site's own name before what is asked about
        defined = found.defining(found.names(rest, retriever), pages)
    return defined


def first(hits, defined: Defining | None, retriever) -> list:
    """The retrieved hits with the defining sentence's chunk first (added when it was not retrieved)."""
    if defined is None:
        return list(hits)
    chunk = retriever.chunk_of_passage(defined.passage_id)
    if chunk is None:
        return list(hits)
    found = retriever.chunks[chunk]
    score = hits[0].score if hits else 1.0
    hit = Hit(found.id, found.passage_ids, found.page, score, defined.passage_id)
    return [hit, *(h for h in hits if h.chunk_id != found.id)]


def paragraph(defined: Defining, release) -> list:
    """The defining sentence and the next `FOLLOWING` sentences of its paragraph, which go on to say
    what it is ("… Many Node.js APIs support Buffers.")."""
    passage = release.passage(defined.passage_id)
    shown = [passage]
    while len(shown) <= FOLLOWING:
        after = release.passage_at(passage.page, shown[-1].order + 1)
        if after is None or after.block != passage.block:
            break
        shown.append(after)
    return shown
