"""Does a sentence claim without exception what its passage says holds only mostly? (pure)

"On most platforms, 'rename' is emitted whenever a filename appears" does not support "どの
プラットフォームでも例外なく 'rename' が発行されます"; "The logging file is by default called
node_trace.${rotation}.log" does not support "Файл журнала всегда называется …"; "an attempt
will be made to send an RST_STREAM frame" does not support "RST_STREAM フレームが必ず送信されます".
Each pair shares every name, number and nearly all its meaning, so neither a word share nor
a multilingual vector tells them apart. What differs is a hedge the passage makes (by default,
most, usually, may, an attempt) and an absolute the sentence makes in its place (always,
every, must, 必ず, всегда, 반드시), with no hedge of its own.

A sentence that keeps the hedge ("デフォルトでは、すべてのインスタンスが…") still agrees, and so does
one whose absolute the passage makes too ("it is generally expected that the CLI will always be
used…"): only a kind of absolute claim (always, all, must) that a hedged passage does not make is
turned down. Words in each language are listed; a language without a list is never turned down.

A sentence that makes its claim hold "regardless of" something (независимо от, にかかわらず, 상관없이)
widens a passage that says nothing of the kind: "When creating a readline.Interface using stdin as
input, the program will not terminate until it receives an EOF" does not support "入力に何を使ったかに
かかわらず…終了しません". A passage that says "always", "whether", "even", "any" or "both" may mean it.
"""
from __future__ import annotations

import re
import unicodedata

_HEDGE = re.compile(
    # "most" as in "most platforms", not "the most recent" or "at most 10"
    r"(?i)\b(?:by default|defaults? to|(?<!the )(?<!at )most|mostly|usually|typically|generally|normally|often|sometimes"
    r"|in (?:most|many|some) cases|may|might|attempts?|attempted|tries to|try to|likely|out of the box"
    # "Some tests require …", "Many internal utilities …" (not "how many", not "many-to-one")
    r"|(?<!how )(?:some|many|several)(?![-‐])"
    r"|unless (?:\w+ )?(?:configured|set|told|specified|stated|noted) otherwise|unless otherwise)\b"
    r"|по умолчанию|большинств|обычно|как правило|часто|иногда|некотор|в основном|чаще всего|может|могут"
    r"|попытк|пытает|если не (?:указано|задано|настроено) (?:иное|иначе)"
    r"|デフォルト|既定|ほとんど|大部分|多くの|通常(?!の)|一般的に|たいてい|場合があ|ことがあ|かもしれ|試み|一部"
    r"|特に指定し|何も指定し"
    r"|기본적으로|기본값|기본으로|대부분|보통|일반적으로|흔히|경우가 있|일부|시도|따로 지정하지 않|별도로 (?:지정|설정)하지 않")
# A remark in parentheses ("(typically recommended for dial-up)") hedges itself, not the claim.
_ASIDE = re.compile(r"\([^()]*\)|（[^（）]*）")
# Absolute claims by kind, so that a sentence saying the "always" its passage says too is no overclaim
# ("it is generally expected that the CLI will always be used…"): each kind in every language.
_ABSOLUTES = {
    "always": r"(?i)\b(?:always|without exception|in (?:all|every) cases?)\b|всегда|без исключени"
              r"|во всех случаях|常に|いつも|例外なく|一切|항상|언제나|예외 없이",
    "all": r"(?i)\b(?:every|all)\b|кажд|любо[йеяму]|любых|\bвс(?:е|ех|ем|еми)\b(?!\s+(?:равно|ещё|еще))"
           r"|すべて|全て|全部|あらゆる|どの[^、。]{0,12}でも|모든|전부"
           r"|어떤 [^ ]+(?:이든|라도|든지)",
    "must": r"(?i)\b(?:must|guarantee[sd]?)\b|обязательно|гарантированно|必ず|確実に|반드시|무조건",
}
_ABSOLUTE = {kind: re.compile(forms) for kind, forms in _ABSOLUTES.items()}
_REGARDLESS = re.compile(r"(?i)\b(?:regardless|irrespective|no matter|even if|even when)\b|независимо|при любом|даже если|даже когда"
                         r"|にかかわらず|に関わらず|関係なく|問わず|상관없이|관계없이|무관하게")
# What a passage may say "regardless" with: its own word for it, a condition both ways, "even", "any".
_EITHER_WAY = re.compile(r"(?i)\b(?:regardless|irrespective|no matter|whether|even|although|though|still|either|any"
                         r"|whatever|whichever|both|always|independent(?:ly)?)\b|независимо|даже|\bли\b|всегда"
                         r"|にかかわらず|に関わらず|関係なく|問わず|かどうか|でも|常に|상관없이|관계없이|무관|여부|든지|더라도|항상")


def hedged(text: str) -> bool:
    """Does the text say something holds only by default, mostly, possibly or as an attempt?"""
    return bool(_HEDGE.search(unicodedata.normalize("NFKC", text)))


def absolutes(text: str) -> frozenset[str]:
    """The kinds of absolute claim the text makes: "always", "all", "must"."""
    folded = unicodedata.normalize("NFKC", text)
    return frozenset(kind for kind, pattern in _ABSOLUTE.items() if pattern.search(folded))


def overclaims(sentence: str, passage: str) -> bool:
    """Does the sentence make absolute what the passage hedges (see the module docstring): a kind of
    absolute the passage does not claim itself, with no hedge of its own?"""
    plain = _ASIDE.sub(" ", passage)
    return hedged(plain) and bool(absolutes(sentence) - absolutes(plain)) and not hedged(sentence)


def widens(sentence: str, passage: str) -> bool:
    """Does the sentence claim something holds "regardless" where the passage names no such case?"""
    return bool(_REGARDLESS.search(unicodedata.normalize("NFKC", sentence))
                and not _EITHER_WAY.search(unicodedata.normalize("NFKC", passage)))
