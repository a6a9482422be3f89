"""A conjugated Korean verb's dictionary form, which the index model knows far better (pure).

A Korean question's verbs carry their endings: 실행하면 ("if … run"), 사용할 ("will use"),
설치됐는지 ("whether … was installed"). The multilingual model places the conjugated form
away from the English word (실행하면 → run 0.68, 설치됐는지 → installed 0.77), and the bridge
(lexicon.py) keeps a page word only at 0.72 or more, so a Korean question lost its verbs. The
dictionary form sits near it (실행하다 0.90, 설치되다 0.87; bench/answers/korean_verb_probe.py).

Only verbs made with 하다 or 되다 get a form: 실행하다, 사용되다, most verbs of technical prose, whose
noun part carries the meaning. A native verb's dictionary form sits near a generic English verb
instead (지우다 "remove" → get 0.73, 넘기다 "pass" → get 0.82, 쓰다 "write" → put), so it stays as
written. The question's endings are cut, then the last syllable of 하다 or 되다 is restored (할, 한,
했, 됐 …). A noun that ends like one (권한 "permission", 제한 "limit") gets a form too, so the
bridge reads a word by its form only when the word as written has no near page word.
"""
from __future__ import annotations

# What follows a verb's stem in a question, longest first: "in order to", "if", "and", "whether",
# "while", "so that", "but", "although".
_ENDINGS = sorted("으려면 려면 으려고 려고 으면서 면서 으면 면 고 는지 은지 는데 은데 도록 지만 더라도 어도 아도".split(),
                  key=len, reverse=True)
_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
# 하다 and 되다 in the forms their last syllable takes: 할 한 함 합 했 해 / 될 된 됨 됩 됐 돼.
_LIGHT_VERBS = {"할": "하", "한": "하", "함": "하", "합": "하", "했": "하", "해": "하",
                "될": "되", "된": "되", "됨": "되", "됩": "되", "됐": "되", "돼": "되"}


def _all_hangul(text: str) -> bool:
    return bool(text) and all(_HANGUL_FIRST <= ord(c) <= _HANGUL_LAST for c in text)


def dictionary_form(unit: str) -> str | None:
    """The dictionary form (stem + 다) of a Korean word that looks conjugated, else None."""
    if not _all_hangul(unit) or len(unit) < 2 or unit.endswith("다"):
        return None
    stem = unit
    for ending in _ENDINGS:
        if stem.endswith(ending) and len(stem) > len(ending):
            stem = stem[:-len(ending)]
            break
    stem = stem[:-1] + _LIGHT_VERBS.get(stem[-1], stem[-1])
    return stem + "다" if stem[-1] in "하되" and len(stem) >= 2 else None
