"""The setting a default-value question asks about ("What is the default highWaterMark for streams?").

"What does X default to?", "Is X enabled by default?", "If I don't set X, what is used?", "Какое
значение по умолчанию у X?", "Xのデフォルト値は？", "X의 기본값은 무엇인가요?" each ask what one named
option, setting, parameter, flag or property is when nobody sets it. `default_of` reads the setting
out of the question as an occasion question's thing is read (trigsight.answering.occasion_terms),
without its role word ("the keepAlive option" → keepAlive), and with the names the question gives
around it: its owner ("the keepAlive option of http.Agent", "Black's line length", "MD013의
line_length"). Left alone: a question that names no setting ("What is the default?", "Which
formatter is used by default?").
"""
from __future__ import annotations

import re

from .asked_terms import LEADING_ARTICLE
from .occasion_terms import AskedThing, thing_of
from .overlap import NON_LATIN

# "option", "config key", "опция", "オプション", "옵션": what the question calls the setting, before or after its name.
_ROLE = re.compile(r"(?i)^(?:the\s+)?(?:option|setting|flag|parameter|argument|property|field|key|config(?:uration)?"
                   r"|environment\s+variable|variable)\s+(?=\S)"
                   r"|^(?:опци[яиюей]|параметр[аеу]?|настройк[аиу]|флаг[аеу]?|свойств[оау]|пол[еяю]|аргумент[аеу]?"
                   r"|ключ[аеу]?|переменн\w+(?:\s+окружения)?)\s+(?=\S)"
                   r"|\s+(?:options?|settings?|flags?|parameters?|arguments?|propert(?:y|ies)|fields?|keys?|values?"
                   r"|config(?:uration)?(?:\s+(?:key|value|option|setting))?|environment\s+variables?|variables?|params?)$"
                   r"|\s+(?:опци[яиюей]|параметр[аеу]?|настройк[аиу]|флаг[аеу]?|свойств[оау]|пол[еяю]|аргумент[аеу]?)$"
                   r"|\s*(?:オプション|設定値?|パラメータ[ー]?|引数|フラグ|プロパティ|フィールド|キー|項目|옵션|설정값?|매개\s*변수"
                   r"|파라미터|인자|인수|플래그|속성|필드|키|항목)$")
_OWNER_AFTER = re.compile(r"(?i)^(?P<t>.+?)\s+(?:of|for|in|on|inside|within|used\s+by|when\s+using|with|у|в|во|для|из)\s+"
                          r"(?:an?\s+|the\s+|my\s+)?(?P<o>[^\s].*)$")
_END = r"\s*(?:[?？!。，,.](?=\s|$).*)?$"      # not the dot of "fs.readFile"
_NAME = r"(?P<t>[^?？,，]+?)"
# Each pattern names the setting `t`, with its owner inside or after it ("the keepAlive option of http.Agent").
_ASKED = [
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?(?:and\s+|so\s*,?\s*)?(?:what(?:'s|’s|\s+is|\s+are|\s+was)|whats|which\s+is)\s+"
               r"(?:the\s+)?default(?:\s+values?|\s+settings?)?\s+(?:of|for)\s+" + _NAME + _END),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?(?:and\s+|so\s*,?\s*)?(?:what(?:'s|’s|\s+is|\s+are|\s+was)|whats)\s+"
               r"(?:the\s+|(?P<o>[\w.@/-]+)(?:'s|’s)\s+)?default\s+" + _NAME + r"(?:\s+set\s+to|\s+value)?" + _END),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?(?:what(?:'s|’s|\s+is|\s+are)|whats)\s+" + _NAME + r"(?:'s|’s)?\s+(?:by\s+)?default"
               r"(?:\s+values?|\s+settings?)?" + _END),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?what(?:\s+values?)?\s+(?:does|do|will|would)\s+" + _NAME
               + r"\s+default\s+to\b.*$"),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?(?:is|are)\s+.+?\s+the\s+default\s+(?:value\s+(?:of|for)\s+)?" + _NAME + _END),
    # "What shell does child_process.exec use by default?": the setting, then its owner
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?(?:what|which)\s+(?!values?\b|kind\b|sort\b|type\b)" + _NAME
               + r"\s+(?:does|do|will|would)\s+(?:the\s+)?(?P<o>[\w.@/$-]+(?:\(\))?)\s+"
               r"(?:use|pick|choose|take|have|send|set|apply)\s+(?:by\s+default|out\s+of\s+the\s+box)\b.*$"),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?what(?:'s|’s|\s+values?)?\s*(?:is|are|does|do)?\s+" + _NAME
               + r"\s+(?:set\s+to|have|take|use|hold|equal)\s+(?:by\s+default|out\s+of\s+the\s+box|initially)\b.*$"),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?(?:is|are|does|do)\s+" + _NAME + r"\s+(?:(?:enabled|disabled|on|off|true|false"
               r"|turned\s+on|turned\s+off|set|used|required|allowed|active|applied|checked|included|respected|honou?red)"
               r"\s+)?(?:by\s+default|out\s+of\s+the\s+box|default\s+to\s+\S+)\b.*$"),
    re.compile(r"(?i)^\s*(?:.*?[,:]\s*)?by\s+default\s*,?\s+(?:what(?:'s|’s|\s+is|\s+are)|how\s+\w+\s+is)\s+" + _NAME + _END),
    re.compile(r"(?i)^\s*(?:if|when)\s+(?:i|you|we)\s+(?:don't|do\s+not|never|didn't|leave\s+out|omit|skip)\s+"
               r"(?:(?:set|pass|specify|provide|give|configure|supply|define|include|add|use|change)\s+)?"
               + _NAME + r"(?:\s+(?:at\s+all|explicitly))?\s*[,，]?\s*(?:then\s+)?(?:what|which|how)\b.*$"),
    re.compile(r"(?i)^\s*(?:if|when)\s+" + _NAME + r"\s+(?:is|are)\s+(?:not|never)\s+(?:set|given|passed|specified"
               r"|provided|configured|supplied|defined)\b.*\b(?:what|which|how)\b.*$"),
    re.compile(r"(?i)^\s*(?:if|when)\s+" + _NAME + r"\s+(?:is|are)\s+(?:omitted|unset|left\s+out|missing|absent)\b.*$"),
]
# Elsewhere a question asks for a default with a word wherever it stands; its setting is then the name it
# gives, by the rules of `_named_setting`.
_SAYS_DEFAULT = re.compile(r"(?i)\bby\s+default\b|\bdefault\s+(?:value|setting)s?\b|\bdefaults?\s+to\b|\bout\s+of\s+the\s+box\b"
                           r"|\bwithout\s+(?:an?|the|any)\s+\S+\s+option\b|\b(?:isn't|is\s+not|aren't|are\s+not)\s+"
                           r"(?:set|configured|specified|given|passed|provided)\b"
                           r"|\b(?:if|when)\s+(?:i|you|we)\s+(?:don't|do\s+not|never|didn't)\s+"
                           r"(?:set|pass|specify|configure|provide)\s+(?!up\b)|\b(?:leave|left)\s+(?:it|them)\s+out\b"
                           r"|значени\w+\s+по\s+умолчанию|по\s+умолчанию|дефолт\w*|\bне\s+(?:указ|зада|переда|устан|настр)\w*"
                           r"|デフォルト|既定|初期値|省略(?:した|する|時)|指定し(?:ない|なかった|なけ)|設定し(?:ない|なかった|なけ)"
                           r"|기본값|기본\s*설정|기본적으로|기본으로|디폴트|지정하지\s*않|설정하지\s*않|생략하")
# …and asks for a value, or whether it is on: "what", "how many", "какой", "ли", "何", "有効", "무엇", "활성화" (not
# "…if I never set up a model API key?").
_ASKS_VALUE = re.compile(r"(?i)\b(?:what|which|where|how\s+(?:many|much|long|big|large|deep))\b"
                         r"|\b(?:как\w+|чему|сколько|что|ли|где|куда)\b"
                         r"|何|なに|いくつ|どれ|どちら|どの|どんな|どこ|有効|無効|무엇|뭐|무슨|어떤|어느|얼마|몇|어디|활성화|비활성화|켜져|꺼져")
# "default value", "デフォルト値", "기본값" ask for the value themselves.
_ASKS_DEFAULT = re.compile(r"(?i)\bdefault\s+value|значени\w+\s+по\s+умолчанию|デフォルト値|既定値|初期値|기본값")
_CODE = r"[A-Za-z0-9_.$:/@-]+"          # a name in Latin letters, without the particle after it ("backlog를")
# The setting a question calls so: "the scheduling option", "опция save-exact", "install-strategy の設定", "prefix 설정".
_CALLED = [
    re.compile(r"(?i)(?:^|[\s(])(?:the\s+|a\s+|an\s+|its\s+)?[`'\"]?(?P<t>" + _CODE + r")[`'\"]?\s+(?:option|setting|field|parameter"
               r"|flag|property|argument)s?\b(?!\s+(?:of|for)\s+(?:the\s+)?default)"),
    re.compile(r"(?i)(?:опци\w*|параметр\w*|настройк\w*|пол[еяю]|флаг\w*|свойств\w*|аргумент\w*)\s+[`'\"«]?"
               r"(?P<t>" + _CODE + r")"),
    re.compile(r"[`'\"「]?(?P<t>" + _CODE + r")[`'\"」]?\s*(?:オプション|パラメータ[ー]?|フィールド|設定|引数|プロパティ|옵션|설정|매개\s*변수"
               r"|파라미터|필드|인자|인수|속성)"),
]
# The name just before a default word ("X のデフォルト", "X의 기본값"), the setting coming after it if anywhere; and
# just after or before one in Russian ("по умолчанию у X", "у X по умолчанию"), the setting coming before it.
_BESIDE_THEN = re.compile(r"(?P<t>[A-Za-z]" + _CODE + r")[`'\"」]?\s*(?:の|의)?\s*(?:デフォルト|既定|初期値|기본값|기본\s*설정"
                          r"|디폴트)")
_BESIDE_RU = [
    re.compile(r"(?i)по\s+умолчанию\s+(?:у|для)\s+[`'\"«]?(?P<t>[A-Za-z]" + _CODE + r")"),
    re.compile(r"(?i)(?:у|для)\s+[`'\"«]?(?P<t>[A-Za-z]" + _CODE + r")[`'\"»]?\s+по\s+умолчанию"),
]
# The setting a question leaves unset ("if I don't set X", "не указывать X", "X를 지정하지 않으면"). It is the setting
# asked about even beside a name the question calls a setting: "CACHES 설정에서 TIMEOUT을 따로 지정하지 않으면" leaves
# TIMEOUT unset in the CACHES setting, its owner.
_UNSET = [
    re.compile(r"(?i)\b(?:if|when)\s+(?:i|you|we)\s+(?:don't|do\s+not|never|didn't)\s+(?:set|configure|pass|specify"
               r"|provide|give|change|supply|define)\s+(?:the\s+|a\s+|an\s+|any\s+)?[`'\"]?(?P<t>" + _CODE + r")"),
    re.compile(r"(?i)\bне\s+(?:указ|зада|переда|устан|настр)\w*\s+[`'\"«]?(?P<t>" + _CODE + r")"),
    re.compile(r"(?P<t>" + _CODE + r")[`'\"」]?\s*(?:を|를|을)\s*(?:따로\s*)?(?:指定|設定|省略|지정|설정|생략)"),
]
# …or names beside its default word.
_BESIDE = [_BESIDE_THEN, *_BESIDE_RU]
# Beside its default word a name may be the setting's owner, the setting being named around it: in the question's own
# words ("Какая длина строки по умолчанию у Black?", "fs.readFile のデフォルトのエンコーディングは？") or as code
# ("Какой highWaterMark по умолчанию у Readable?", "Readable のデフォルトの highWaterMark は？").
_ASKING_WORDS = re.compile(r"(?i)\b(?:как\w*|что|чему|равн\w*|значени\w*|величин\w*|будет|бывает|использу\w*|стоит"
                           r"|ли|у|для)\b")
_CYRILLIC_WORD = re.compile(r"[\u0400-\u04ff]{3,}")
_THEN_NAMED = re.compile(r"^\s*[の의]\s*(?P<n>\S+?)\s*(?:[はがをも은는이가]|$)")
_LATIN_LOWER = re.compile(r"(?<![\w.@/$-])[a-z][a-z0-9]{2,}(?![\w.@/$(-])", re.ASCII)
_GENERIC_AFTER = re.compile(r"^(?:値|設定値?|値は|ふるまい|動作|挙動|振る舞い|값|설정값?)")


def _owned(text: str, found: re.Match, after: bool) -> str | None:
    """For a name read beside a default word: None when it is the setting itself; the setting's name when the
    question names the setting as code around it; "" when the question names it only in its own words. The
    setting comes after the default word in Japanese and Korean (`after`), before it in Russian."""
    if after:
        then = _THEN_NAMED.match(text[found.end():])
        if then is None or _GENERIC_AFTER.match(then.group("n")):
            return None
        named = NAMED.fullmatch(then.group("n"))
        return (named.group(1) or named.group(2)).removesuffix("()") if named else ""
    before = text[:found.start()]
    names = _names_in(before)
    # "Какая версия TLS…": an acronym or a product names what a setting belongs to, not the setting
    named = sorted([(at, name) for at, name in names if not NO_SETTING.match(name)] + _plain_names(before, names))
    if named:
        return named[-1][1]
    return "" if _CYRILLIC_WORD.search(_ASKING_WORDS.sub(" ", before)) else None


def _names_in(text: str) -> list[tuple[int, str]]:
    """(offset, name) of each name in `text` quoted or shaped as code."""
    return [(m.start(), (m.group(1) or m.group(2)).removesuffix("()")) for m in NAMED.finditer(text)]


def _plain_names(text: str, names: list[tuple[int, str]]) -> list[tuple[int, str]]:
    """(offset, word) of each lower-case word in Latin letters of `text` outside its `names`."""
    taken = [range(at, at + len(name)) for at, name in names]
    return [(m.start(), m.group()) for m in _LATIN_LOWER.finditer(text) if not any(m.start() in span for span in taken)]


# A name glossing the question's words ("…by default (fetch-retries)?"), unless it glosses a name ("MD007 (ul-indent)").
_GLOSS = re.compile(r"(?P<before>\S*)\s*[(（]\s*[`'\"]?(?P<t>" + _CODE + r")[`'\"]?\s*[)）]")
NAMED = re.compile(r"['`\"‘’“”「『«]([^'`\"‘’“”」』»\s]{1,40})['`\"‘’“”」』»]"
                    r"|(?<![\w.-])((?:--?)?[a-z]+[A-Z]\w*|(?:--?)?[\w-]+[._:/]\w[\w.:/-]*(?:\(\))?|[A-Z][A-Z0-9_]{2,}"
                    r"|--?[a-z][\w-]*|[a-z0-9]+(?:[-_][a-z0-9]+)+)(?![\w-])", re.ASCII)
# An acronym ("HTTP", "TLS", "ICU") or a product ("Node.js") names what a setting belongs to, not a setting.
NO_SETTING = re.compile(r"^(?:[A-Z]{2,5}|[A-Z][a-z]+\.js)$")
# A name followed by a particle of means or place ("as_json でシリアライズすると", "Windows では", "as_json으로 직렬화하면",
# "CLI에서") is what the question does something with or where, not the setting whose default it asks for.
_MEANS = re.compile(r"\s*(?:で(?!の)|을\s*사용|를\s*사용|으로(?!의)|로(?!의)|에서(?!의))")
_BACK = {"it", "this", "that", "they", "them", "this one", "that one", "one", "any", "anything", "the", "a", "an"}
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")
_CLAUSE = re.compile(r"(?i)\s+(?:when|if|while|because|so|and|but|in\s+order|i\.e\.|e\.g\.|если|когда)\b.*$")
_ASIDE = re.compile(r"[（(][^()（）]*[\s\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af][^()（）]*[)）]")   # "（id の空白を置き換える文字）"


def asks_default(question: str) -> bool:
    """Does the question ask what holds by default ("Which categories are enabled by default?")?"""
    return bool(_SAYS_DEFAULT.search(question) and _ASKS_VALUE.search(question))


def default_of(question: str) -> AskedThing | None:
    """The setting a default-value question asks about, with its owners ("What is the default value of
    maxHeaderSize?" → maxHeaderSize), or None for any other question."""
    text = _ASIDE.sub(" ", question).strip()
    for pattern in _ASKED:
        if (match := pattern.match(text)) and (found := _setting(match.group("t"), question)):
            owner = match.groupdict().get("o")
            return AskedThing(found.term, found.owners + (owner,), found.named, found.role) if owner else found
    if not (_ASKS_DEFAULT.search(text) or (_SAYS_DEFAULT.search(text) and _ASKS_VALUE.search(text))):
        return None
    return _named_setting(text)


def _named_setting(text: str) -> AskedThing | None:
    """The setting a question asks the default of, named anywhere in it: a name glossing its words ("(fetch-retries)"),
    one it calls a setting or leaves unset ("the timeout option", "backlog를 지정하지 않으면"), else the last name
    before the default (Japanese, Korean: "MD040의 allowed_languages 기본값") or the first (other languages)."""
    names = _names_in(text)
    ends = {m.start(): m.end() for m in NAMED.finditer(text)}      # after its quotes or its "()"
    settings = [(at, name) for at, name in names if not NO_SETTING.match(name) and not _MEANS.match(text, ends[at])]
    if any("." in name for _, name in names) and NON_LATIN.search(text):
        # "Какое значение по умолчанию имеет timeout у http.request?", "child_process.exec はデフォルトでどの shell
        # を使いますか？": beside a dotted name (a module's function, a class: the owner), a lower-case Latin word of a
        # question in another script is a name too, and the setting ("wikilinks 拡張の…html_class" names no owner so)
        plain = _plain_names(text, names)
        if plain:
            settings = sorted([(at, name) for at, name in settings if "." not in name] + plain)
    glosses = [found.group("t") for found in _GLOSS.finditer(text) if not NAMED.fullmatch(found.group("before"))
               or re.fullmatch(r"[A-Z]{2,5}", found.group("before"))]
    term = glosses[0] if glosses else None     # not "MD007 (ul-indent)", a name's other name
    for pattern in _UNSET + _CALLED + _BESIDE if term is None else ():
        if (found := pattern.search(text)) and not _ROLE.fullmatch(" " + found.group("t")) \
                and found.group("t").casefold() not in _BACK:
            term = found.group("t").removesuffix("()")
            if pattern is _BESIDE_THEN or pattern in _BESIDE_RU:
                owned = _owned(text, found, after=pattern is _BESIDE_THEN)
                if owned == "":
                    return None     # the setting is named in the question's own words, which no page uses
                if owned is not None:
                    return AskedThing(owned, (term,), bool(NAMED.fullmatch(owned)), "")
            break
    if term is None and settings:
        marker = _SAYS_DEFAULT.search(text).start()
        before = [name for at, name in settings if at < marker] or [name for _, name in settings]
        term = before[-1] if _CJK.search(text) else before[0]
    if term is None:
        return None
    owners = tuple(dict.fromkeys(name for _, name in names if name != term))
    return AskedThing(term, owners, bool(NAMED.fullmatch(term)), "")


def _setting(raw: str, question: str) -> AskedThing | None:
    """The setting a pattern's words name, with its owners, or None."""
    raw = LEADING_ARTICLE.sub("", raw.strip(" 　?？!.。、,"))
    if raw.casefold() in _BACK:
        return None                 # "If I leave out the main field, what does it default to?": read from the whole
    called = next((found for pattern in _CALLED if (found := pattern.search(raw))), None)
    parts = _OWNER_AFTER.match(raw)
    if called is not None and parts and called.start("t") >= parts.start("o"):
        called = None               # "TIMEOUT in the CACHES setting": the setting called so owns the one asked
    if called is not None and " " in raw.strip():
        # "the scheduling option to new http.Agent()" is about scheduling; the names beside it are its owners
        term = called.group("t").removesuffix("()")
        owners = tuple(n for n in (a or b for a, b in NAMED.findall(raw)) if n.removesuffix("()") != term)
        return AskedThing(term, tuple(o.removesuffix("()") for o in owners), bool(NAMED.fullmatch(term)), "")
    owners: tuple[str, ...] = ()
    if parts and not _ROLE.fullmatch(" " + parts.group("o")):
        owner = _CLAUSE.sub("", parts.group("o"))
        raw, owners = parts.group("t"), (_ROLE.sub("", owner).strip() or owner,)
    while (bare := _ROLE.sub("", raw).strip()) != raw and bare:
        raw = bare
    names = [a or b for a, b in NAMED.findall(raw)]
    if len(names) > 1 or (names and len(raw.split()) > 1 and not raw.startswith(names[0])):
        owners += tuple(n for n in names[:-1] if n not in owners)   # "MD013의 line_length", "Black の --line-length"
        raw = names[-1]
    # "max", "size", "format" name settings too, though they ask for an attribute of a thing in a definition question
    found = thing_of(raw, question) or (AskedThing(raw, (), bool(NAMED.fullmatch(raw)))
                                        if re.fullmatch(r"[\w.$-]+", raw, re.ASCII) and raw.casefold() not in _BACK else None)
    if found is None:
        return None
    owners = tuple(o.strip(" 　'`\"").removesuffix("()") for o in found.owners + owners if o.strip(" 　'`\""))
    named = found.named or bool(NAMED.fullmatch(found.term))
    return AskedThing(found.term, owners, named, found.role)
