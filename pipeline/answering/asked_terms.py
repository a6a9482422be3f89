"""The term a definition question asks about, and the names it goes by (pure but for the lexicon).

"What is a stream?", "what's an http Agent", "Что такое поток?", "ストリームとは何ですか？",
"FastAPI에서 미들웨어란 무엇인가요?" each ask what one thing is. `asked_term` reads that thing out of
the question ("stream", "http Agent", "поток", "ストリーム", "미들웨어"), and leaves alone a question
that asks for something else ("What is the difference between…", "What is new in 3.12?", "What
is the default port?"). `key` is a name as tokens, the way a page's sentence or heading names
it too; `term_names` also reads a term in another script in the pages' words, through the
retriever's lexicon (trigsight.retrieval.lexicon).
"""
from __future__ import annotations

import functools
import itertools
import math
import re

from ..retrieval.tokenize import tokenize
from ..retrieval.units import words

MAX_TERM_WORDS = 4
MAX_TERM_CHARACTERS = 40
MAX_NAMES = 64            # readings of a term in the pages' words looked up, at most

_END = r"\s*[?？!.。]*\s*$"
ARTICLE = r"(?:(?:an?|the)\s+)?"            # an optional article before a name, in a pattern
LEADING_ARTICLE = re.compile(r"(?i)^(?:an?|the)\s+")
# "What is a stream?", "what's the event loop", "What is the purpose of package-lock.json?", "What is X used for?"
_ASKED = [
    re.compile(r"(?i)^\s*(?:so\s*,?\s*|and\s+)?(?:what(?:'s|’s|\s+is|\s+are)|whats)\s+" + ARTICLE +
               r"(?:(?:purpose|point|role|meaning|job)\s+of\s+" + ARTICLE + r")?(?P<t>.+?)"
               r"(?:\s+(?:used\s+for|good\s+for|for))?" + _END),
    re.compile(r"(?i)^\s*what\s+(?:does|do)\s+" + ARTICLE + r"(?P<t>.+?)\s+(?:do|mean|stand\s+for|refer\s+to)" + _END),
    re.compile(r"(?i)^\s*(?:define|explain)\s+" + ARTICLE + r"(?P<t>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:что\s+(?:такое|значит|означает|делает|это\s+за)|для\s+чего\s+(?:нуж\w*|служ\w*|использу\w*)"
               r"|зачем\s+нуж\w*)\s+(?P<t>.+?)" + _END),
    re.compile(r"^\s*(?P<t>.+?)\s*(?:とは|って)\s*(?:何|なに|なん|どういう|どんな)"),
    re.compile(r"^\s*(?P<t>.+?)\s*は\s*(?:何|なに|なん)(?:です|でしょう|のため|に使|をし|を行|の)"),
    re.compile(r"^\s*(?P<t>.+?)\s*とは" + _END),
    re.compile(r"^\s*(?P<t>.+?)\s*(?:이란|란|이라는\s*건|라는\s*건|이라는\s*것은|라는\s*것은|은|는|이|가)\s*"
               r"(?:무엇|뭔|뭐|어떤\s*것|무슨\s*(?:역할|뜻|의미|일)|어디에\s*(?:쓰|사용))"),
    re.compile(r"^\s*(?P<t>.+?)(?:이란|란)" + _END),
    re.compile(r"^\s*(?:什么是|何为)(?P<t>.+?)" + _END),
    re.compile(r"^\s*(?P<t>.+?)是(?:什么|做什么的|干什么的)" + _END),
    re.compile(r"(?i)^\s*(?:was\s+(?:ist|sind)|qu['’]est[- ]ce\s+qu(?:e\s+|['’])(?:c['’]est\s+)?|c['’]est\s+quoi"
               r"|qu[ée]\s+es|o\s+que\s+(?:é|são))\s+(?:(?:ein|eine|der|die|das|un|une|le|la|les|l['’]|el|los|las|um|uma|o|a|os|as)\s*)?"
               r"(?P<t>.+?)" + _END),
]
# Words that make "What is the X of…" ask for an attribute, not what something is.
_ATTRIBUTE = re.compile(r"(?i)^(?:difference|differences|default|maximum|minimum|max|min|size|limit|type|value|version"
                        r"|number|best|recommended|right|correct|proper|easiest|fastest|way|reason|cost|status|name"
                        r"|output|result|format|syntax|order|latest|current|first|last|point|benefit|advantage)s?\b")
# "What is new in 3.12?", "What is wrong with it?" ask about a state, not a thing.
_STATE = re.compile(r"(?i)^(?:new|changed|different|wrong|possible|supported|required|deprecated|missing|available"
                    r"|better|worse|faster|slower|needed|next|left|happening|broken|fixed|removed|added|planned"
                    r"|coming|stable|up|going\s+on|the\s+case|it|this|that|there)$")
_CLAUSE = re.compile(r"(?i)\s(?:between|when|if|after|before|while|that|which|should|would|can|could|to|vs\.?|versus)\s")
_TRAILING_PLACE = re.compile(r"(?i)\s+(?:in|on|within|inside|under|в|во|на|для|при|из|от)\s+[^\s].*$")
# "FastAPI에서 미들웨어", "FastAPIでのミドルウェア", "md_in_html で markdown=block", "Blackの--preview": the place
# or owner comes first.
_LEADING_PLACE = re.compile(r"^[\w.-]+\s*(?:에서의|에서|での|における|で(?=\s)|(?<=[A-Za-z0-9\s])の|(?<=[A-Za-z0-9\s])의)\s*")
# "the permalink option of the toc extension" asks about the option; "the list of…" would not.
_OWNED = re.compile(r"(?i)^(?P<t>.+?\s(?:option|setting|flag|method|property|field|class|function|parameter|argument"
                    r"|attribute|key|hook|event|command)s?)\s+of\s+.+$")
QUOTES = re.compile(r"[`'\"“”‘’«»「」『』]")
_PARTICLE = re.compile(r"(?:って|とは|は|은|는|이|가)$")
_TERM_ROLE = re.compile(r"(?i)^(?:модул[ьяе]|объект[а]?|класс|метод|функци[яи]|опци[яи]|команд[аы]|параметр|пакет|плагин"
                        r"|расширени[ея])\s+|\s*(?:クラス|モジュール|メソッド|関数|オプション|コマンド|パッケージ|プラグイン"
                        r"|拡張(?:機能)?|클래스|모듈|메서드|메소드|함수|옵션|명령어?|패키지|플러그인|확장)$")

_ROLE = re.compile(r"(?i)\s+(?:objects?|instances?|class(?:es)?|modules?|apis?|methods?|functions?|commands?"
                   r"|options?|settings?|flags?|keywords?|property|properties|fields?|plugins?|extensions?"
                   r"|packages?|hooks?|interfaces?|type|directive|feature|signals?)$")
# "the TRUSTED_HOSTS config value", "the NODE_OPTIONS variable" ask about the setting's name; an "API key"
# or a "primary key" is a thing of its own, and a page's "Build configuration" is no role.
_SETTING = re.compile(r"(?i)^(?P<name>\S+)\s+(?:config(?:uration)?\s+)?(?:config(?:uration)?|value|key|variable"
                      r"|option|setting)$")
_SETTING_NAME = re.compile(r"^(?:\S*_\S*|-\S+)$")
_PREFIX = re.compile(r"(?i)\b(?:node|npm):(?=\w)")
_FOR = re.compile(r"(?i)\s+(?:used\s+|good\s+)?for$")
_CODE = re.compile(r"^[A-Za-z_][\w.:]*[._][\w.:]*(?:\(\))?$")
_CODE_PARTS = re.compile(r"[^\W_]+")
_FLAG = re.compile(r"^-{1,2}[^\W_][\w-]*$")    # a command-line flag, named as written
_JOINERS = re.compile(r"[・･]")           # コンテナ・イメージ is コンテナイメージ


def asked_term(question: str) -> str | None:
    """The term a definition question asks about ("What is a stream?" → "stream"), or None."""
    for pattern in _ASKED:
        match = pattern.match(question)
        if match:
            return term_of(match.group("t"))
    return None


def term_of(raw: str) -> str | None:
    """The name a question's words give ("the Sane Lists extension?" → "Sane Lists extension"), or None when
    they ask about an attribute, a state or a clause rather than a thing."""
    term = QUOTES.sub("", raw).strip(" 　?？!.。、,")
    term = _TRAILING_PLACE.sub("", _OWNED.sub(r"\g<t>", term)) if " " in term else term
    term = _FOR.sub("", term)      # "what's --force-exclude for in black?"
    if (setting := _SETTING.match(term)) and _SETTING_NAME.match(setting.group("name")):
        term = setting.group("name")
    term = _TERM_ROLE.sub("", _PARTICLE.sub("", _LEADING_PLACE.sub("", term)).strip()).strip()
    if (not term or len(term) > MAX_TERM_CHARACTERS or len(term.split()) > MAX_TERM_WORDS
            or _ATTRIBUTE.match(term) or _STATE.match(term) or _CLAUSE.search(f" {term} ")):
        return None
    return term


@functools.lru_cache(maxsize=65536)
def key(text: str) -> frozenset[str]:
    """A name as tokens, with its role words and a module prefix left out ("the node:stream module" = "stream")."""
    name = _without_roles(_JOINERS.sub("", _PREFIX.sub("", text)))
    if _FLAG.match(name):
        return frozenset({name.casefold()})   # "--inspect" is not util.inspect's "inspect"
    tokens = tokenize(name)
    if _CODE.match(name) and len(tokens) < len(_CODE_PARTS.findall(name)):
        # a code name that loses a word to the stop list ("url_for" would be "url") is named whole
        return frozenset({name.casefold().removesuffix("()")})
    return frozenset(tokens)


def phrase(text: str) -> tuple[str, ...]:
    """A name's tokens in their order, as `key` reads them ("the source gate" → ("sourc", "gate"))."""
    return tuple(tokenize(_without_roles(_JOINERS.sub("", _PREFIX.sub("", text)))))


def plain(name: str) -> set[frozenset[str]]:
    """A command-line flag's words without its dashes ("--legacy-peer-deps" is also "legacy-peer-deps");
    nothing for any other name."""
    name = _without_roles(name)
    return {frozenset(tokenize(name))} if _FLAG.match(name) else set()


def last_part(name: str) -> set[frozenset[str]]:
    """A dotted name's last part, role words left out ("markdown.util.Registry class" → "Registry")."""
    name = LEADING_ARTICLE.sub("", _without_roles(name))
    return {key(name.rsplit(".", 1)[-1])} if "." in name and " " not in name else set()


def _without_roles(name: str) -> str:
    name = QUOTES.sub("", name).strip()
    while (shorter := _ROLE.sub("", name)) != name and shorter:
        name = shorter
    return name.strip()


def term_names(term: str, retriever) -> tuple[frozenset[str], ...]:
    """The term as the pages would name it: as written, and, when it has words in a script the pages
    barely use, through the lexicon (ストリーム → stream). A word the lexicon reads as several page
    words names each of them when every one is near it in meaning ("поток": flow 0.83, stream 0.83),
    and all of them together when they are a compound heard in it (イベントループ: event 0.62, loop 0.58)."""
    names = [key(term)]
    lexicon = getattr(retriever, "lexicon", None)
    foreign = lexicon.foreign(term) if lexicon is not None and retriever.embedder is not None else []
    vectors = retriever.embed(foreign) if foreign else None
    if vectors is not None:
        read = lexicon.translations(foreign, vectors)
        parts = []
        for unit in words(term):
            if unit in read:
                parts.append(_choices(read[unit], vectors[foreign.index(unit)], lexicon))
            elif unit in foreign:
                parts = []       # a word the pages have no word for: the term cannot be named in theirs
                break
            elif tokens := tokenize(unit):
                parts.append([tokens])
        if math.prod(len(part) for part in parts) > MAX_NAMES:
            parts = [part[-1:] for part in parts]     # each word read whole: a long term has too many readings
        names += [frozenset(t for part in chosen for t in part) for chosen in itertools.product(*parts)] if parts else []
    return tuple(name for name in dict.fromkeys(names) if name)


def _choices(translated: list[str], vector, lexicon) -> list[list[str]]:
    together = [t for word in translated for t in tokenize(word)]
    near = [float(vector @ lexicon.vectors[lexicon.words.index(word)]) for word in translated]
    if len(translated) > 1 and min(near) >= lexicon.nearest:
        return [tokenize(word) for word in translated] + [together]
    return [together]
