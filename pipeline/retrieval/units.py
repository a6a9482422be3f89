"""Word-like units of a text in any script, as the lexicon reads them (pure).

BM25's tokens are stems and character pairs; the lexicon needs words a multilingual model can
place: words of spaced scripts, runs of katakana or kanji, a Japanese verb with its ending, a
Korean word without its particle. `script` names the script a unit is written in.
"""
from __future__ import annotations

import re

KATAKANA = "\u30a0-\u30ff\uff66-\uff9f"
KANJI = "\u3005\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
HANGUL = "\uac00-\ud7af"
HIRAGANA = "\u3041-\u3096"
# A Japanese verb or adjective: one kanji and its kana ending (変わりました, 開いて, 速い), a compound
# verb too (読み込む); not a noun and its particle (何が, 前に).
_PARTICLE_FIRST = "がをにはでとのもへや"
_JOINING = "いきぎしじちにひびみりえけげせぜねべめれ"   # the kana that joins a compound verb (読み込む, 受け取る)
_UNIT = re.compile(rf"(?P<kata>[{KATAKANA}]{{2,}})|(?P<kanji>[{KANJI}]{{2,}})"
                   rf"|(?P<verb>(?<![{KANJI}])[{KANJI}](?:[{_JOINING}][{KANJI}])?"
                   rf"(?![{_PARTICLE_FIRST}])[{HIRAGANA}]+)|(?P<ko>[{HANGUL}]{{2,}})"
                   rf"|(?P<word>[^\W\d_{KATAKANA}{KANJI}{HANGUL}\u3040-\u309f]{{3,}})")
# What follows a verb's stem and blurs it for the model: politeness, wishes, auxiliaries, a question's
# か, a particle after a plain form (止めるには, 閉じると), a clause's ので (置き換えられてしまうことはありませんか
# → 置き換えられて: replaces 0.61 → 0.89).
_VERB_TAIL = re.compile(r"(?:ま[しすせ]|たい|(?<=[てで])(?:[いおあも]|しま|くだ|ほし|もら)|ちゃ|こと|よう|ため|そう|でしょ"
                        r"|です|だろ|(?<=[うくぐすつぬぶむるただい])(?:[とにはのかがでもやをへ]|から|まで|より|なら|けど)"
                        r"|の[はがをにでか]|から|けれど|けど|[かとがねよなのはをにも]$).*$")
# Korean particles and endings glued to a word; the longest that leaves two syllables is cut.
_PARTICLES = sorted("""하나요 되나요 있나요 합니까 합니다 습니까 습니다 나요 니까 에서는 에서도 으로는 으로도 에게서 까지는 부터는 에서 으로 에게 까지 부터 처럼 보다 에는 에도 와는
과는 이나 이란 라는 이라 들은 들이 들을 들의 들에 와 과 의 에 를 을 이 가 은 는 로 도 만 들""".split(), key=len,
                    reverse=True)
# Korean words that name no topic on their own: particles, "when", "how", "and", "which"…
STANDALONE = frozenset(_PARTICLES) | frozenset("때 중 수 것 등 및 또는 그리고 하는 있는 없는 있을 들어 어떤 어떻게 무엇 언제 어디 "
                                               "어느 해야 하려면".split())


def script(unit: str) -> str:
    first = unit[0]
    if "\uac00" <= first <= "\ud7af":
        return "ko"
    if re.match(rf"[{KATAKANA}{KANJI}\u3040-\u309f]", first):
        return "ja"
    if "\u0400" <= first <= "\u04ff":
        return "cyrillic"
    if first.isascii() or "\u00c0" <= first <= "\u024f":
        return "latin"
    return "other"


def words(text: str) -> list[str]:
    """Word-like units of `text`: words of spaced scripts (3+ letters, case-folded), runs of
    katakana or of kanji (2+; an even run of 4+ kanji in pairs), a Japanese verb or adjective
    with its ending as written (the model reads 変わりました as "changed"), and Korean words
    without their trailing particle."""
    out = []
    for match in _UNIT.finditer(text):
        unit = match.group()
        if match.lastgroup == "ko":
            for particle in _PARTICLES:
                if unit.endswith(particle) and len(unit) - len(particle) >= 2:
                    unit = unit[:-len(particle)]
                    break
        elif match.lastgroup == "verb":
            unit = _VERB_TAIL.sub("", unit)
        elif match.lastgroup == "word":
            unit = unit.casefold()
        elif match.lastgroup == "kanji" and len(unit) >= 4 and len(unit) % 2 == 0:
            # Kanji compounds are mostly built of two-character words (環境変数: 環境 environment +
            # 変数 variable), each of which the model knows better than the whole.
            out.extend(unit[i:i + 2] for i in range(0, len(unit), 2))
            continue
        out.append(unit)
    return out
