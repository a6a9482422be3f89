"""The function a return-value question asks about ("What does fs.readFileSync() return?").

"What does X return?", "What is the return value of X?", "What is returned by X?", "What do I get
back from X?", "Does X return a promise?", "What does X resolve to?", "Что возвращает X?",
"X は何を返しますか？", "X の戻り値は？", "X의 반환값은 무엇인가요?" each ask what one named function,
method or getter gives back. `returned_of` reads the function out of the question: the name written
as code ("fs.readFileSync()", "os.cpus", "readable.read") nearest the word for "return", with the
other names it gives as owners. Left alone: a question that names no code ("What does a view function
return?"), asks how to return something ("How do I return JSON from a view?") or what happens when
something returns ("What happens if my listener returns false?").
"""
from __future__ import annotations

import re

from .occasion_terms import AskedThing

# The question asks what a function returns, each language in its own words: "What does X return?", "Does X return
# a promise?", "Что возвращает X?", "X は何を返しますか", "X의 반환값은". A rule's name ("explicit-function-return-type")
# is no return word, nor is a clause about returning ("данные, которые возвращает мой path operation").
_W = r"(?<![\w-])"
_ASKED = re.compile(
    r"(?i)\b(?:what|which)\b.*?" + _W + r"(?:return(?:s|ed|ing)?(?![\w-])|gets?\s+back|gives?\s+back|resolves?\s+(?:to|with)"
    r"|(?:do|will|would)\s+(?:i|we|you)\s+get\s+(?:from|by|when|if)\b"
    r"|(?:is\s+)?fulfil+(?:s|ed)?\s+with)"
    r"|^\s*(?:and\s+|so\s+)?(?:does|do|did|will|would|can|could|is|are)\s.*?" + _W + r"return(?:s|ed)?(?![\w-])"
    r"|(?:\bчто|\bкак\w+\s+(?:значени\w+|тип\w*|объект\w*|результат\w*)|\bчем)\s+(?:\S+\s+){0,2}?(?:возвраща\w*|верн[её]т)"
    r"|\bвозвращает\s+ли\b|\bвозвращаем\w+\s+(?:значени|тип)\w*\s+(?:у|функции|метода)"
    r"|(?:何|なに|どんな\S{0,4}?|どの\S{0,4}?|どういう\S{0,4}?)(?:を|が)\s*(?:返|戻)|(?:戻り値|返り値|返却値)(?:は|って|の型|の種類|として|とは|には)"
    r"|を返しますか|を返すのですか|が返されますか|が返りますか|が返ってきますか|(?:戻り値|返り値)を(?:教えて|知りたい)"
    r"|(?:무엇|뭐|무슨\s*\S{0,4}|어떤\s*\S{0,4}|어느\s*\S{0,4})\s*(?:을|를|이|가)?\s*(?:반환|리턴|돌려)"
    r"|(?:반환|리턴)\s*(?:값|타입|형)\s*(?:은|는|이|가|의|을\s*알려)|반환(?:하나요|합니까|되나요|됩니까|하는지|해요)|돌려주나요")
_RETURN = re.compile(r"(?i)" + _W + r"return(?:s|ed|ing)?(?![\w-])|\bget\s+(?:back|from|by)\b|\bgives?\s+back\b|\bresolves?\s+(?:to|with)\b"
                     r"|\bfulfil+(?:s|ed)?\s+with\b|возвра\w*|верн[её]т\w*|返(?:す|し|さ|る|り値|却)|戻り値|반환|리턴|돌려")
# Words after which the function is named (after the return word): "the return value of X", "returned by X",
# "get back from X", and Russian, which puts the verb first ("Что возвращает X?").
_NAME_AFTER = re.compile(r"(?i)\breturn(?:ed)?\s+(?:value|type)s?\s+(?:of|from|for)\b|\breturned\s+(?:by|from)\b"
                         r"|\b(?:back|get)\s+(?:from|by)\b|\bresolves?\s+(?:to|with)\b.*\bfrom\b|возвра\w*|верн[её]т\w*")
# "How do I return JSON…?", "What happens if X returns false?", "Which exit codes can black --check return?": not this.
_NOT_ASKED = re.compile(r"(?i)^\s*how\b|\bhow\s+(?:do|can|should|to)\s+(?:i|we|you)?\s*return\b|\bshould\b.*\breturn\b"
                        r"|\bhappens?\b|\bif\b[^?]*\breturns?\b|\bwhen\b[^?]*\breturns?\b|как\s+вернуть|как\s+возвра"
                        r"|\b(?:exit|status|return|error)\s+(?:codes?|status)\b|\bкод\w*\s+(?:выхода|возврата|завершения)"
                        r"|終了コード|종료\s*코드|どうすれば|方法|어떻게|방법")
# A function as code: dotted ("fs.readFileSync", "process.hrtime.bigint"), called ("format()", with its arguments
# "url.format(urlObject)", which name no other function) or camel-cased ("readFileSync").
_FUNCTION = re.compile(r"(?<![\w.$@/-])(?P<name>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)(?P<call>\([^()]*\))?"
                       r"(?P<owns>['’]s\b)?(?![\w$-])", re.ASCII)
_INITIALS = re.compile(r"(?:[A-Za-z]\.)+[A-Za-z]?")    # "U.S.", "e.g." is no function
_CAMEL = re.compile(r"[a-z][A-Z]|[a-z0-9]_[a-z]")       # "readFileSync", "parse_snippet_target"
_CJK = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]")


def returned_of(question: str) -> AskedThing | None:
    """The function a return-value question asks about, with its owners ("What does fs.readFileSync() return?" →
    fs.readFileSync), or None for any other question."""
    text = question.strip()
    said = _RETURN.search(text)
    if said is None or _NOT_ASKED.search(text) or not _ASKED.search(text):
        return None
    found = [m for m in _FUNCTION.finditer(text)
             if m.group("call") or "." in m.group("name").strip(".") or _CAMEL.search(m.group("name"))]
    # "an InlineProcessor's handleMatch method": the function is the name a possessive owns, the owner an owner
    owning = {m.start() for m, then in zip(found, found[1:]) if m.group("owns") and not text[m.end():then.start()].strip()}
    every = [(m.start(), m.group("name")) for m in found if not _INITIALS.fullmatch(m.group("name"))]
    names = [(at, name) for at, name in every if at not in owning]
    if not names:
        return None
    before = [name for at, name in names if at < said.start()]
    after = [name for at, name in names if at > said.start()]
    if _NAME_AFTER.search(text) and after and not _CJK.search(text):
        term = after[0]
    else:
        term = before[-1] if before else after[0]
    owners = tuple(dict.fromkeys(name for _, name in every if name != term))
    return AskedThing(term, owners, True, "")
