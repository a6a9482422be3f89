"""Does a sentence claim without exception what its passage says holds only mostly? (pure)

"On most platforms, 'rename' is emitted whenever a filename appears" does not support "どの
プラットフォームでも例外なく 'rename' が発行されます"; "The logging file is by default called
node_trace.${rotation}.log" does not support "Файл журнала всегда называется …"; "an attempt
will be made to send an RST_STREAM frame" does not support "RST_STREAM フレームが必ず送信されます".
Each pair shares every name, number and nearly all its meaning, so neither a word share nor
a multilingual vector tells them apart. What differs is a hedge the passage makes (by default,
most, usually, may, an attempt) and an absolute the sentence makes in its place (always,
every, must, 必ず, всегда, 반드시), with no hedge of its own.

A sentence that keeps the hedge ("デフォルトでは、すべてのインスタンスが…") still agrees: only an
absolute claim over a hedged passage is turned down. Words in each language are listed; a
language without a list is never turned down.
"""
from __future__ import annotations

import re
import unicodedata

_HEDGE = re.compile(
    # "most" as in "most platforms", not "the most recent" or "at most 10"
    r"(?i)\b(?:by default|defaults? to|(?<!the )(?<!at )most|mostly|usually|typically|generally|normally|often|sometimes"
    r"|in (?:most|many|some) cases|may|might|attempts?|attempted|tries to|try to|likely|out of the box"
    r"|unless (?:\w+ )?(?:configured|set|told|specified|stated|noted) otherwise|unless otherwise)\b"
    r"|по умолчанию|большинств|обычно|как правило|часто|иногда|некотор|в основном|чаще всего|может|могут"
    r"|попытк|пытает|если не (?:указано|задано|настроено) (?:иное|иначе)"
    r"|デフォルト|既定|ほとんど|大部分|多くの|通常(?!の)|一般的に|たいてい|場合があ|ことがあ|かもしれ|試み|一部"
    r"|特に指定し|何も指定し"
    r"|기본적으로|기본값|기본으로|대부분|보통|일반적으로|흔히|경우가 있|일부|시도|따로 지정하지 않|별도로 (?:지정|설정)하지 않")
# A remark in parentheses ("(typically recommended for dial-up)") hedges itself, not the claim.
_ASIDE = re.compile(r"\([^()]*\)|（[^（）]*）")
_ABSOLUTE = re.compile(
    r"(?i)\b(?:always|every|all|must|without exception|in (?:all|every) cases?|guarantee[sd]?)\b"
    r"|всегда|кажд|любо[йеяму]|любых|обязательно|без исключени|во всех случаях|гарантированно"
    r"|常に|必ず|すべて|全て|例外なく|一切|いつも|確実に|どの[^、。]{0,12}でも"
    r"|항상|언제나|반드시|모든|예외 없이|무조건|어떤 [^ ]+(?:이든|라도|든지)")


def hedged(text: str) -> bool:
    """Does the text say something holds only by default, mostly, possibly or as an attempt?"""
    return bool(_HEDGE.search(unicodedata.normalize("NFKC", text)))


def absolute(text: str) -> bool:
    """Does the text say something holds always, everywhere or without exception?"""
    return bool(_ABSOLUTE.search(unicodedata.normalize("NFKC", text)))


def overclaims(sentence: str, passage: str) -> bool:
    """Does the sentence make absolute what the passage hedges (see the module docstring)?"""
    return hedged(_ASIDE.sub(" ", passage)) and absolute(sentence) and not hedged(sentence)
