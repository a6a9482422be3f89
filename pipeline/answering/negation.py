"""Do a sentence and a passage agree on negation, in any of their languages? (pure)

Negation is read as marks of two kinds: a negated verb (not, never, не, ない, 않) and an
absence (no, without, без, なし, 없): "без выделения" agrees with "with no highlight".
Languages split the kinds differently, so kinds alone refuse faithful translations: "не
нужно" is a negated verb where English says "there is no need", 強制終了せずに a negated verb
for "without forcing", and Japanese ない and Russian нет say both.

Two texts agree when both say "not" an odd number of times, or both an even number,
counting the marks and the words that carry a negation in their meaning: "unnecessary",
"invalid", "unless", "fails", "regardless", 不要, 상관없이 (`LEXICAL`). So "не нужно" agrees
with "unnecessary" and "если только не" with "unless", and two negations cancel: "cannot run
without B" says B is needed and does not agree with "can run without B". They also agree
when they carry the same kinds of mark, as many of them: a word like "invalid" never makes
two texts disagree whose marks already agree. The same kinds of mark alone are not enough:
"존재하지 않더라도 …를 던지지 않습니다" (even if it does not exist, it does not throw) negates
twice where "if it does not exist, it throws" negates once.

Phrases that look negated and are not ("whether or not", "not only", 뿐만 아니라, and "unless
configured otherwise" or 特に指定しなければ, which say "by default") are read without their mark,
and so is the "не" Russian writes after "пока" (until): "не возвращает, пока процесс не
закроется" says "not … until" once, as English does.
"""
from __future__ import annotations

import re
import unicodedata

VERBAL = re.compile(
    r"\b(?:not|never|cannot|не|никогда|нельзя|нет)\b|n[’']t\b"
    # nicht, pas (not the "ne" it pairs with: one negation), nunca, não, non (not "non-blocking"), niet…
    r"|\b(?:nicht|nie|niemals|pas|jamais|nunca|não|mai|niet|nooit)\b|\bnon\b(?!-)"
    # Russian writes "не" into adjectives and participles (непригодный: not suitable), but not into
    # the words it has fused with (некоторый, несколько, необходимый, неделя …).
    r"|\bне(?!котор|скольк|обходим|дел|давн|мал|мног|редк|чт|кто|льз|уж|взира|смотр)[а-яё]{3,}"
    r"(?:ый|ий|ой|ая|яя|ое|ее|ые|ие|ых|их|ым|им|ую|юю|ом|ем|ого|его|ому|ему|ыми|ими|ен|на|но|ны)\b"
    # 할 수 없다 (cannot) is a negated verb; 인수 없이 (without arguments) is not: 수 must stand alone.
    r"|ない|ません|なかった|ず(?:に|、|。|$)|(?:では|で|じゃ)なく|않|(?<!잘)못|(?<![가-힣])수\s*없|(?<![가-힣])안(?![가-힣])"
    # Arabic: لا, ليس, لم, لن, also with و or ف before them; Thai ไม่, but not in ไม่มี, โดยไม่ (absences).
    r"|(?<![\u0600-\u06ff])[وف]?(?:لا|ليس|ليست|لم|لن)(?![\u0600-\u06ff])|(?<!โดย)ไม่(?!มี)")
ABSENCE = re.compile(r"\b(?:no|none|nothing|without|без|ни)\b|なし|(?<!(?<![가-힣])수)(?<!(?<![가-힣])수 )없(?!이\s*수)"
                     # The other Latin-script languages: kein, sans, sin, sem, senza, geen, bez… ("sans-serif"
                     # and Math.sin are not).
                     r"|\b(?:kein(?:e|en|em|er|es)?|ohne|sans(?!-)|aucun(?:e)?|rien|ningun[oa]?|ningún|nada|sem|nenhum"
                     r"|nenhuma|senza|nessun[oa]?|niente|geen|zonder|niets|żadn[aey]|żaden)\b"
                     r"|(?<![.\w])sin\b(?!\s*\()"
                     # Arabic بدون, دون, بلا (without), Thai ไม่มี (there is no), โดยไม่, ปราศจาก (without).
                     r"|(?<![\u0600-\u06ff])(?:ب|و)?(?:بدون|دون|بلا)(?![\u0600-\u06ff])|ไม่มี|โดยไม่|ปราศจาก")
# Chinese: 不 and 没 negate a verb, 无 is an absence. Only in a text with no kana: in Japanese, 不 and
# 無 begin compounds (不要, 無効) that LEXICAL counts.
CHINESE_VERBAL = re.compile(r"不|没|未|别|勿")
CHINESE_ABSENCE = re.compile(r"无")
_KANA = re.compile(r"[\u3040-\u30ff]")
NEUTRAL = re.compile(r"\bwhether or not\b|\bor not\b|\bnot only\b|\bне только\b|だけ(?:では|で)なく|뿐(?:만)?\s*아니라"
                     r"|\bno matter\b"      # "no matter" carries its negation in its meaning: LEXICAL
                     r"|أم لا|أو لا|หรือไม่|หรือเปล่า|ไม่ว่า")
LEXICAL = re.compile(
    r"\b(?:un(?!der|til|it|ion|iq|iv|ix|ico|less)[a-z]{4,}|non-?[a-z]{3,}"
    r"|in(?:valid|active|activity|dependent(?:ly)?|sensitive|correct(?:ly)?|complete|consistent|secure|sufficient"
    r"|accessible|visible|appropriate|compatible|capable|finite)"
    r"|im(?:possible|mutable|proper|practical)|il(?:legal|logical)|ir(?:relevant|respective|reversible|regular)"
    r"|fail(?:s|ed|ing|ure|ures)?|missing|absent|lacks?|lacking|unless|regardless|optional(?:ly)?"
    r"|neither|nor|rather than|instead of|no matter"
    r"|отсутств[а-яё]*|кроме|вместо|независимо|необязательн[а-яё]*)\b"
    # 無視 and 무시 (ignore) negate no more than "ignored" does.
    r"|不[要可正明足備能]|無[効し]|失敗|以外|かかわらず|代わりに"
    r"|불(?:가|필요)|무효|실패|제외|대신|비활성"
    # Arabic غير (non-, un-: غير متزامن is asynchronous), بدلا من (instead of), إلا (except), فشل (failure);
    # Thai ล้มเหลว (fail), แทน (instead), ยกเว้น (except), ไม่ว่า (regardless).
    r"|(?<![\u0600-\u06ff])(?:غير|بدلا|إلا|فشل)(?![\u0600-\u06ff])|ล้มเหลว|แทนที่|ยกเว้น|ไม่ว่า")


# "пока процесс не закроется" (until the process closes): the "не" negates nothing.
_UNTIL = re.compile(r"\b(пока(?:\s+[^\s,.;:!?]+){0,5}?\s+)не\b")
# "Unless configured otherwise", "если не указано иное", "特に指定しなければ", "따로 지정하지 않으면" say
# "by default": neither a mark nor a word of negation (hedges.py reads them as the hedge they are).
DEFAULT_IDIOM = re.compile(r"\bunless (?:\w+ )?(?:configured|set|told|specified|stated|noted) otherwise\b"
                           r"|\bunless otherwise\b|\bесли не (?:указано|задано|настроено) (?:иное|иначе)\b"
                           r"|(?:特に|何も)指定し(?:ない(?:限り|場合)|なければ)"
                           r"|(?:따로|별도로) (?:지정|설정)하지 않(?:으면|는 한)")


def _folded(text: str, neutral: bool = True) -> str:
    folded = DEFAULT_IDIOM.sub(" ", unicodedata.normalize("NFKC", text).casefold())
    return _UNTIL.sub(r"\1", NEUTRAL.sub(" ", folded)) if neutral else folded


def polarity(text: str) -> tuple[bool, bool]:
    """(has a negated verb, has an absence word)."""
    folded = _folded(text)
    chinese = not _KANA.search(folded)
    return (bool(VERBAL.search(folded) or (chinese and CHINESE_VERBAL.search(folded))),
            bool(ABSENCE.search(folded) or (chinese and CHINESE_ABSENCE.search(folded))))


def marks(text: str) -> int:
    """How many negation marks of either kind `text` writes out."""
    folded = _folded(text)
    chinese = 0 if _KANA.search(folded) else len(CHINESE_VERBAL.findall(folded)) + len(CHINESE_ABSENCE.findall(folded))
    return len(VERBAL.findall(folded)) + len(ABSENCE.findall(folded)) + chinese


def lexical(text: str) -> int:
    """How many words of `text` carry a negation in their meaning ("unnecessary", "unless", 不要)."""
    return len(LEXICAL.findall(_folded(text, neutral=False)))


def agree(sentence: str, passage: str) -> bool:
    """Do the two say "not" alike: an even number of negations on both sides or an odd number on
    both, counting marks and words that carry a negation alike (two negations cancel: "cannot run
    without B" says B is needed, "can run without B" does not), or as many marks of the same kinds."""
    if (marks(sentence) + lexical(sentence)) % 2 == (marks(passage) + lexical(passage)) % 2:
        return True
    return polarity(sentence) == polarity(passage) and marks(sentence) == marks(passage)
