"""The two terms a comparison question asks about ("What is the difference between X and Y?" → X, Y).

"X vs Y?", "How does X differ from Y?", "Should I use X or Y?", "Is X the same as Y?", "Чем X отличается
от Y?", "XとYの違いは？", "X와 Y의 차이점은?", "X和Y有什么区别？" and the German, French, Spanish and
Portuguese forms each name two things. `compared_terms` reads them out of the question as a definition
question's term is read (trigsight.answering.asked_terms), and leaves alone a question that asks which
one is the case ("出力は xhtml と html のどちらの形式になりますか？"), which asks for a fact.
"""
from __future__ import annotations

import re

from .asked_terms import QUOTES, key, term_of

_END = r"\s*[?？!.。]*\s*$"
_ARTICLE = r"(?:(?:an?|the)\s+)?"
_PURPOSE = re.compile(r"(?i)\s+(?:for|when|if|so\s+that)\s+.+$")     # "…the details extension for collapsible notes"
_ARTICLES = re.compile(r"(?i)^(?:(?:an?|the|une?|des|les?|la|der|die|das|dem|den|eine?n?|el|los|las|um|uma|os?|as)\s+"
                       r"|l['’]\s*)")
_LEAD = r"(?:[^,?]{2,60},\s*)?"
_WHAT_IS_THE = r"(?:(?:so\s*,?\s*)?(?:what(?:'s|’s|\s+is|\s+are)|whats)\s+(?:the|a)\s+)?(?:main\s+|key\s+|real\s+|big\s+)?"
# Each pattern names the two terms `a` and `b`.
_PAIR = [
    # English forms may follow a clause that places them: "In the toc extension, should I use…"
    re.compile(r"(?i)^\s*" + _LEAD + _WHAT_IS_THE + r"differences?\s+between\s+" + _ARTICLE + r"(?P<a>.+?)\s+and\s+" + _ARTICLE
               + r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"how\s+(?:is|are|does|do)\s+" + _ARTICLE + r"(?P<a>.+?)\s+(?:differ(?:ent)?|compared?)\s+"
               r"(?:from|to|with|than)\s+" + _ARTICLE + r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"(?:is|are)\s+" + _ARTICLE + r"(?P<a>.+?)\s+(?:the\s+same\s+(?:thing\s+)?as|different\s+from"
               r"|any\s+different\s+from)\s+" + _ARTICLE + r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"(?:should|do|can|would)\s+(?:i|we|you)\s+(?:use|pick|choose)\s+" + _ARTICLE
               + r"(?P<a>.+?)\s+or\s+" + _ARTICLE + r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"when\s+(?:should|would|do|to)\s+(?:i\s+|we\s+|you\s+)?use\s+" + _ARTICLE
               + r"(?P<a>.+?)\s+(?:instead\s+of|rather\s+than|over|vs\.?|versus|or|and\s+when\s+" + _ARTICLE
               + r")\s*" + _ARTICLE + r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*" + _LEAD + r"(?:compare|comparing)\s+" + _ARTICLE + r"(?P<a>.+?)\s+(?:and|with|to)\s+" + _ARTICLE
               + r"(?P<b>.+?)" + _END),
    # "X vs Y", "X vs Y: which should I pick?", "flask run vs app.run() — is there any difference…?"
    # ("VS Code" is an editor.)
    re.compile(r"(?i)^\s*(?P<a>(?:(?!\.\s)[^,:;?])+?)\s+(?:(?-i:vs|Vs|VS(?!\s+Code))\.?|versus|compared\s+to)\s+"
               r"(?P<b>(?:(?!\.\s)[^,:;?？—–])+?)(?:\s*(?:[?？:,—–]|\s-\s|\.\s).*)?$"),
    re.compile(r"(?i)^\s*(?P<a>[^,:;?]+?)\s+or\s+(?P<b>[^,:;?—–]+?)\s*(?:[?:,—–]|\s-\s)\s*which\b.*" + _END),
    re.compile(r"(?i)^\s*(?:в\s+)?ч[её]м\s+(?:разница|различие|отличие|отличия|различия)\s+(?:между\s+)?(?P<a>.+?)\s+и\s+"
               r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:какая|какие|какова)\s+(?:разница|различия?|отличия?)\s+(?:между\s+|у\s+)?(?P<a>.+?)\s+и\s+"
               r"(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:разница|различия?|отличия?)\s+между\s+(?P<a>.+?)\s+и\s+(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:и\s+)?чем\s+(?P<a>.+?)\s+отлича\w*\s+от\s+(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:что\s+(?:лучше\s+)?(?:использовать|выбрать)|использовать|выбрать)\s*[:,]?\s+(?P<a>.+?)\s+или\s+"
               r"(?P<b>.+?)" + _END),
    # "…、XとYの違いは？", "出力は XとYの…": a clause or a topic before the pair; "どちらを使う" asks which to use,
    # "どちらの形式になりますか" which one is the case (a fact, not a comparison).
    re.compile(r"^\s*(?:.*[、,]\s*)?(?:[^、,]*?は\s*)?(?P<a>[^、,とは]+?)\s*と\s*(?P<b>[^、,]+?)\s*(?:の|は|って)?\s*"
               r"(?:違い|差異|相違|差|どう違|何が違|なにが違|どこが違|使い分け|(?:どちら|どっち)(?:を|が)\s*(?:使|選|いい|良|よい|おすすめ))"),
    re.compile(r"^\s*(?:.*[、,]\s*)?(?P<a>[^、,]+?)\s*は\s*(?P<b>[^、,]+?)\s*と\s*(?:どう|何が|なにが|どこが)?\s*(?:違|異な)"),
    re.compile(r"^\s*(?P<a>.+?)\s*(?:와|과|랑|이랑|하고)\s+(?P<b>.+?)\s*(?:의|은|는|이|가)?\s*(?:차이|다른\s*점|어떻게\s*(?:다|달)"
               r"|뭐가\s*(?:다|달)|무엇이\s*(?:다|달)|어떤\s*점이\s*(?:다|달)"
               r"|중\s*(?:어떤|무엇|뭘|어느|무얼)\s*(?:것을|걸|쪽을|쪽이|게|것이)?\s*(?:써|쓰|사용|선택|골|고르|나아|낫|좋))"),
    re.compile(r"^\s*(?P<a>.+?)\s*(?:은|는)\s+(?P<b>.+?)\s*(?:와|과|랑|이랑|하고)\s*(?:어떻게|뭐가|무엇이|어떤\s*점이)?\s*(?:다른|다르|달라|다릅)"),
    re.compile(r"^\s*(?P<a>.+?)\s*(?:和|与|跟)\s*(?P<b>.+?)\s*(?:之间)?(?:有)?(?:什么|啥)?(?:的)?(?:区别|不同|差别|差异)"),
    re.compile(r"(?i)^\s*(?:was\s+ist\s+)?(?:der\s+)?unterschied\s+zwischen\s+(?:(?:der|die|das|dem|den)\s+)?(?P<a>.+?)\s+und\s+"
               r"(?:(?:der|die|das|dem|den)\s+)?(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:quelle\s+est\s+)?la\s+différence\s+entre\s+(?:(?:le|la|les|l['’])\s*)?(?P<a>.+?)\s+et\s+"
               r"(?:(?:le|la|les|l['’])\s*)?(?P<b>.+?)" + _END),
    re.compile(r"(?i)^\s*(?:¿\s*)?(?:cu[áa]l\s+es\s+|qual\s+(?:é\s+)?)?(?:la\s+|a\s+)?diferen[cç]a?i?a?\s+entre\s+"
               r"(?:(?:el|la|los|las|o|a|os|as)\s+)?(?P<a>.+?)\s+(?:y|e)\s+(?:(?:el|la|los|las|o|a|os|as)\s+)?(?P<b>.+?)" + _END),
]
_QUOTED = re.compile(r"[「『“«]([^」』”»]{1,40})[」』”»]")     # ASCII quotes are often part of code: markdown="block"


def _quoted(side: str, which: str) -> str:
    """What a side of the pair quotes, when it quotes ("デプロイの話で出てくる「プログラム」" → "プログラム"): the last
    quote before the joining word, the first after it."""
    found = _QUOTED.findall(side)
    return (found[-1] if which == "a" else found[0]) if found else side


def _side(words: str, which: str) -> str | None:
    """One side's term. A side that says more than a term holds it at its end for the first side ("파일 업로드를
    받을 때 bytes") and at its start for the second ("npm deprecate, и чем они отличаются")."""
    words = _quoted(words, which)
    words = words.split(",")[0] if which == "b" else words
    whole = words.split()
    tries = [whole, whole[-1:], whole[-2:]] if which == "a" else [whole, whole[:1], whole[:2]]
    for part in tries:
        term = term_of(_PURPOSE.sub("", _ARTICLES.sub("", QUOTES.sub("", " ".join(part)).strip())))
        if term:
            return term
    return None


# A call's arguments ("setTimeout(fn, 0)", "fs.readFile(path, cb)") are no part of the name it compares, and their
# comma would split the pair.
_ARGUMENTS = re.compile(r"(?P<name>[A-Za-z_$][\w$.]*)\([^()]*\)")


def compared_terms(question: str) -> tuple[str, str] | None:
    """The two terms a comparison question asks about ("X vs Y?" → ("X", "Y")), or None."""
    question = _ARGUMENTS.sub(r"\g<name>()", question)
    for pattern in _PAIR:
        match = pattern.match(question)
        if match:
            pair = tuple(_side(match.group(side), side) for side in "ab")
            if all(pair) and key(pair[0]) and key(pair[1]) and key(pair[0]) != key(pair[1]):
                return pair
            return None
    return None
