"""The thing an occasion question asks about ("When is the 'drain' event emitted?" → 'drain').

"When does X happen?", "What causes X?", "Why do I get X?", "In what cases is X raised?", "Когда
возникает ошибка X?", "Xはどんなときに発生しますか？", "X 오류는 보통 어떤 상황에서 발생하나요?" each ask
when, or why, one named thing comes about: an event, an error code, a signal, a hook, a lint rule.
`occasion_of` reads the thing out of the question as a definition question's term is read
(trigsight.answering.asked_terms), without its role word ("the 'drain' event" → 'drain'), and with
the names the question gives around it: its owner ("When does a ChildProcess emit its 'close'
event?", "nodemon の 'restart' イベント", "husky's pre-commit hook"). A quoted or code name in a longer
phrase is the thing ("worker_threads의 Worker 객체에서 'exit' 이벤트"), and so it is for "this event", "it"
after a sentence that names it ("…выдаёт 'listening'… Когда срабатывает это событие?"). Left alone: a
"when" that asks for a date ("When was 3.0 released?") or for advice ("When should I use streams?").
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .asked_terms import QUOTES, key, term_of
from .overlap import NON_LATIN

# A clause before the question ("In my CLI tool, when is…"), and a joining word ("…, or when…").
_LEAD = r"(?:(?:(?!when\b)[^,:?？]){2,80}[,，、:]\s*)?(?:or\s+|and\s+|but\s+|so\s*,?\s*)?"
_ARTICLE = r"(?:(?:an?|the|its|their|my|our)\s+)?"
# Verbs of something coming about; the active ones take the thing as their object ("…emit its 'close' event").
_EN_PASSIVE = (r"(?:get\s+|be\s+|being\s+)?(?:emitted|fired|thrown|raised|triggered|called|invoked|run|executed|sent"
               r"|dispatched|reported|flagged|applied|shown|returned|logged|printed|produced|generated|used|notified)")
_EN_ACTIVE = (r"(?:emits?|fires?|throws?|raises?|triggers?|calls?|invokes?|runs?|executes?|sends?|reports?|flags?"
              r"|gets?|receives?|warns?\s+about|complains?\s+about)")
_EN_HAPPENS = (r"(?:happens?|occurs?|kicks?\s+in|appears?|shows?\s+up|comes?\s+up|fires?|runs?|triggers?|warns?"
               r"|complains?)")
_ADVERB = r"(?:\s+(?:actually|exactly|ever|really|usually|typically|normally|first))?"
_RU_VERBS = (r"(?:возника\w*|происход\w*|появля\w*|вызыва\w*|срабатыва\w*|генериру\w*|испуска\w*|броса\w*"
             r"|выбрасыва\w*|запуска\w*|выполня\w*|отправля\w*|посыла\w*|вылета\w*|выда[её]тся|выводится|бывает"
             r"|случается|сообщает\w*|руга\w*|жалу\w*)")
_JA_VERBS = (r"(?:発生|起き|起こ|発行|発火|呼ばれ|呼び出され|実行され|送られ|送信され|投げられ|スロー|出(?:る|ます|て)|報告|検出"
             r"|トリガ|走)")
_KO_VERBS = r"(?:발생|일어나|생기|생겨|호출|실행|발행|던져|트리거|보고|나타나|전송|보내|뜨|떠|출력)"
_WHEN_EN = (r"(?:when|in\s+what\s+(?:situations?|cases?|circumstances?)|under\s+what\s+(?:conditions?|circumstances?)"
            r"|at\s+what\s+point)\s+(?:exactly\s+)?(?:is|are|does|do|will|would|can|could|might|did)\s+")
_END = r"(?:\s+(?:exactly|actually|ever))?(?:\s*[?？!.。(,;].*|\s+(?:on|in|for|from|during|with|after|before|if|when|while"
_END += r"|of|by|under|inside|within|as\s+opposed\s+to|rather\s+than|instead\s+of)\b.*)?$"
_QUESTION = r"(?:\s*(?:[?？!。]|\.(?!\w)).*)?$"     # not the dot inside "http.Server"
_WHEN_RU = (r"(?:когда|в\s+каких\s+(?:случаях|ситуациях)|в\s+каком\s+случае|при\s+каких\s+условиях|в\s+какой\s+момент)"
            r"\s+(?:именно\s+|обычно\s+|вообще\s+|теперь\s+)?")
# Each pattern names the thing `t`, and maybe its owner `o` (the subject of an active verb).
_ASKED = [
    re.compile(r"(?i)^\s*" + _LEAD + _WHEN_EN + _ARTICLE + r"(?P<o>[^?？]+?)" + _ADVERB + r"\s+" + _EN_ACTIVE + r"\s+"
               + _ARTICLE + r"(?P<t>[^?？]+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + _WHEN_EN + _ARTICLE + r"(?P<t>[^?？]+?)" + _ADVERB + r"\s+(?:"
               + _EN_PASSIVE + "|" + _EN_HAPPENS + r")" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"what\s+(?:causes|triggers|raises|throws|emits|fires|produces|leads\s+to)\s+"
               + _ARTICLE + r"(?P<t>[^?？]+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"why\s+(?:do|does|did|am|is|are|would|might|could)\s+"
               r"(?:i|we|you|my\s+\w+|it|the\s+\w+)\s+(?:keep\s+)?(?:get|getting|see|seeing|receive|receiving"
               r"|hit|hitting|run\s+into|running\s+into|throw|throwing)\s+" + _ARTICLE + r"(?P<t>[^?？]+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"(?:" + _WHEN_RU + r"|(?:из-за\s+чего|почему|отчего)\s+(?:именно\s+|обычно\s+)?)"
               + _RU_VERBS + r"\s+(?P<t>[^?？]+?)" + _QUESTION),
    re.compile(r"(?i)^\s*" + _LEAD + _WHEN_RU + r"(?P<o>[^?？]+?)\s+" + _RU_VERBS
               + r"\s+(?P<t>(?:событи[ея]|ошибк[уи]|сигнал|хук|скрипт|правило|исключени[ея])\s+[^?？]+?)" + _QUESTION),
    re.compile(r"(?i)^\s*" + _LEAD + _WHEN_RU + r"(?P<t>[^?？]+?)\s+" + _RU_VERBS + r"\b.*$"),
    re.compile(r"(?i)^\s*" + _LEAD + r"что\s+(?:вызывает|приводит\s+к)\s+(?P<t>[^?？]+?)" + _QUESTION),
    re.compile(r"^\s*(?:.*[、,，]\s*)?(?P<t>[^、,，？?]+?)\s*(?:は|って|が)\s*"
               r"(?:いつ|どんな|どういう|どのような|どの|なぜ|どうして)\s*(?:とき|時|場合|状況|タイミング|ケース|条件)?\s*(?:に|で)?\s*"
               r"(?:[^、,，？?]{0,20}?を\s*)?" + _JA_VERBS),
    re.compile(r"^\s*(?P<t>)(?:どういう|どんな|どのような|どの)\s*(?:とき|時|場合|状況|タイミング|ケース)\s*"
               r"(?:に|で)?\s*" + _JA_VERBS),
    re.compile(r"^\s*(?:.*[、,，]\s*)?(?P<t>[^、,，？?]+?)\s*(?:が|は)\s*" + _JA_VERBS
               + r"[^、,，？?]*?(?:の|ん)は\s*(?:いつ|どんな|どういう|どのような|どの)"),
    re.compile(r"^\s*(?:.*[、,，]\s*)?(?P<t>[^、,，？?]+?)\s*(?:が|の)\s*(?:発生|出る|起きる|起こる)?\s*原因"),
    re.compile(r"^\s*(?:.*[,，]\s*)?(?P<t>[^,，?？]+?)\s*(?:은|는|이|가)\s*(?:보통|주로|일반적으로|정확히|대체)?\s*"
               r"(?:언제|어떤\s*(?:상황|경우|때|조건)|어느\s*(?:시점|때|경우)|무슨\s*(?:경우|상황)|왜)\s*(?:에|에서|에는)?\s*"
               r"(?:[^,，?？]{0,20}?(?:을|를)\s*)?" + _KO_VERBS),
    re.compile(r"^\s*(?:.*[,，]\s*)?(?P<t>[^,，?？]+?)\s*(?:의)\s*(?:발생\s*)?원인"),
    re.compile(r"^\s*(?:.*[,，]\s*)?(?:이건|그건|이거|그거)\s*(?P<t>)(?:보통|주로|일반적으로)?\s*"
               r"(?:언제|어떤\s*(?:상황|경우|때))"),
]
# A role word before or after the name ("the 'drain' event", "ошибка EMFILE", "'finish' イベント", "ECONNRESET 오류").
_ROLE = re.compile(r"(?i)^(?:the\s+)?(?:event|error|exception|signal|hook|script|rule|warning)\s+(?=\S)"
                   r"|^(?:событи[ея]|ошибк[аи]|исключени[ея]|сигнал|хук|скрипт|правило|предупреждени[ея])\s+"
                   r"|\s+(?:events?|errors?|exceptions?|signals?|hooks?|scripts?|rules?|warnings?|callbacks?|handlers?|methods?"
                   r"|functions?|options?|settings?|flags?|fields?|decorators?|commands?|middlewares?|parameters?"
                   r"|error\s+codes?|lifecycle\s+scripts?)$|\s+(?:событи[ея]|ошибк[аи]|сигнал|хук|скрипт|правило)$"
                   r"|\s*(?:イベント|エラー|例外|シグナル|フック|スクリプト|ルール|警告|ハンドラー?|コールバック|이벤트|오류|에러|예외|시그널|훅"
                   r"|스크립트|규칙|경고|핸들러|콜백)$")
# "this event", "that lifecycle script", "it", "это событие", "このイベント", "이 이벤트": named earlier in the question.
_BACK = re.compile(r"(?i)^(?:|it|this|that|these|those|this\s+one|это|этот|эта|эти|оно|она|он|この|その|それ|これ|이|그|이것"
                   r"|그것|이건|그건|이거|그거)$")
# A name as the question writes it: quoted, or shaped as code ("prepublishOnly", "fs.watch", "ERR_X", "MD013").
_QUOTED_NAME = re.compile(r"['`\"‘’“”「『]([^'`\"‘’“”」』\s][^'`\"‘’“”」』]{0,40}?)['`\"‘’“”」』]")
_CODE_SHAPED = re.compile(r"(?<![\w.-])(?:[a-z]+[A-Z]\w*|[\w-]+[._:/]\w[\w.:/-]*|[A-Z][A-Z0-9_]{2,}|[A-Z]{2,}\d+"
                          r"|[a-z0-9]+(?:-[a-z0-9]+){2,})(?![\w-])")
_MESSAGE_ROLE = re.compile(r"(?i)error|exception|warning|message|ошибк|исключени|предупреждени|エラー|例外|警告|오류|에러|예외|경고")
_ALIAS = re.compile(r"\s*\([^()]*\)$")         # "MD036 (no-emphasis-as-heading)"
_POSSESSIVE = re.compile(r"^(?P<o>[\w.@/-]+)(?:'s|’s)\s+(?P<t>.+)$")
# "the 'close' event of a ChildProcess"; not "the list of files"
_OWNER_OF = re.compile(r"^(?P<t>.+?)\s+of\s+(?:an?\s+|the\s+)?(?P<o>(?=[A-Z]|\w+[.:]\w)[\w.@/-]+)$")
# "событие close у http.Server", "ошибка EACCES в fs.open()"
_OWNER_RU = re.compile(r"^(?P<t>.+?)\s+(?:у|в|во|для|из|от)\s+(?P<o>[A-Za-z][\w.@/-]*(?:\(\))?)$")
_OWNER_PLACE = re.compile(r"^(?P<o>[A-Za-z0-9][\w.@/-]*)\s*(?:에서의|에서|での|における|で|の|의)\s*(?P<t>.+)$")
# "Когда Worker испускает событие exit?": in a question in another script, a Latin word its role word calls an
# event or an error is that event's name as much as a quoted one.
_LATIN_NAME = re.compile(r"[A-Za-z][\w-]*")
_WHEN_A_DATE = re.compile(r"(?i)\b(?:released?|come\s+out|came\s+out|published|deprecated|removed|added|introduced"
                          r"|dropped|end\s+of\s+life|eol)\b")


@dataclass(frozen=True)
class AskedThing:
    term: str                        # the thing asked about
    owners: tuple[str, ...] = ()     # the names the question gives it ("ChildProcess", "nodemon", "husky")
    named: bool = False              # quoted or shaped as code in the question ('close', MD013, prepublishOnly)
    role: str = ""                   # what the question calls it ("event", "lifecycle script", "오류")


def occasion_of(question: str) -> AskedThing | None:
    """The thing an occasion question asks about, with its owners ("What causes EADDRINUSE?" → EADDRINUSE),
    or None for any other question."""
    for sentence in _sentences(question):
        for pattern in _ASKED:
            match = pattern.match(sentence)
            if match is None:
                continue
            if _WHEN_A_DATE.search(sentence):
                return None
            found = thing_of(match.group("t"), question)
            owner = match.groupdict().get("o")
            if owner is None:
                if found is not None:
                    return found
                continue
            # "When does a ChildProcess emit its 'close' event?" asks about 'close'; "When does MD013 report a
            # line?" about MD013; "When does markdownlint call the rule's function?" names nothing to look up.
            if found is not None and (found.named or (found.role and _LATIN_NAME.fullmatch(found.term)
                                                      and NON_LATIN.search(question))):
                return AskedThing(found.term, found.owners + (owner.strip(),), True, found.role)
            subject = thing_of(owner, question)
            if subject is not None and subject.named:
                return subject
    return None


def _sentences(question: str) -> list[str]:
    """The question's sentences, last first: a question may follow what it is about ("It flags one bold
    line. When does MD036 fire?") or come first ("When does MD036 fire? It flags…")."""
    parts = [p.strip() for p in re.split(r"(?<=[?？!。])\s*|(?<=\.)\s+(?=[A-ZА-Я])", question) if p.strip()]
    return parts[::-1] if len(parts) > 1 else [question]


def thing_of(raw: str, question: str) -> AskedThing | None:
    """The thing a pattern's words name, with the owners they give it, or None."""
    raw = _ALIAS.sub("", raw.strip())
    owners: tuple[str, ...] = ()
    for pattern in (_POSSESSIVE, _OWNER_PLACE, _OWNER_OF, _OWNER_RU):
        if (parts := pattern.match(raw)) and not QUOTES.search(parts.group("o")):
            owners, raw = owners + (parts.group("o"),), parts.group("t")
    roles = []
    while (bare := _ROLE.sub("", raw.strip())) != raw.strip() and bare:
        roles += _ROLE.findall(raw.strip())
        raw = bare
    quoted = _QUOTED_NAME.findall(raw)
    if len(quoted) == 1 and len(raw.split()) > 1:
        raw = quoted[0]                 # "worker_threads의 Worker 객체에서 'exit'" is about 'exit'
    named = bool(quoted) or bool(_CODE_SHAPED.fullmatch(raw.strip()))
    if _BACK.match(QUOTES.sub("", raw).strip()):
        # a name, quoted or as code; a quoted snippet of code ("import foo from './foo'") is none, and "that error"
        # after a quoted message is the message, which names no one thing
        quoted = _QUOTED_NAME.findall(question)
        if quoted and " " in quoted[0].strip() and _MESSAGE_ROLE.search(" ".join(roles)):
            return None
        earlier = [q for q in quoted if " " not in q.strip()] or _CODE_SHAPED.findall(question)
        if not earlier:
            return None
        raw, named = earlier[0], True
    term = term_of(raw)
    return AskedThing(term, owners, named, " ".join(r.strip() for r in roles)) if term and key(term) else None
