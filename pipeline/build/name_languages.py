"""Translations named by their file: Hugo's `about.fr.md` beside `about.md` is the French about page (pure).

Hugo can keep a page's translations side by side, each file named with its language before the suffix,
and serves them under the language's folder: `about.fr.md` at /fr/about, `docs/_index.de.md` at /de/docs,
the default language's own file at /about. Read as ordinary names, they were published at /about.fr, in
the site's language. A name counts as a translation only when its code is a language's (ISO 639-1, with a
region or script: "pt-br", "zh-hant") and the folder has the page in another language too (`about.md` or
`about.de.md`), or the site names several pages so: "socket.io.md" alone stays a page of its own name.
"""
from __future__ import annotations

import re
from collections import Counter

# Ido's "io" and Tsonga's "ts" are left out: "socket.io.md" and "engine.io.md" name packages, not translations.
CODES = frozenset(
    "aa ab af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en eo es "
    "et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik is it iu ja jv ka kg "
    "ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl "
    "nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv "
    "sw ta te tg th ti tk tl tn to tr tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu".split())
_CODED = re.compile(r"^(?P<base>.+)\.(?P<code>[a-z]{2}(?:-(?:[a-z]{2}|[a-z]{4}))?)(?P<suffix>\.[^./]+)$", re.IGNORECASE)


def translations(relatives: list[str], default_language: str) -> dict[str, tuple[str, str]]:
    """{file: (the path it is published as, its language)} for each file of `relatives` (paths in the
    content folder, "/"-separated) named as a translation. The site's own language keeps the page's path;
    another gets its folder in front ("fr/about.md")."""
    coded = {}
    for relative in relatives:
        folder, _, name = relative.rpartition("/")
        found = _CODED.match(name)
        if found and found["code"].split("-")[0].lower() in CODES:
            coded[relative] = (folder, found["base"], found["code"].lower(), found["suffix"])
    plain = {(folder, name.rpartition(".")[0]) for relative in relatives if relative not in coded
             for folder, _, name in [relative.rpartition("/")]}
    bases = Counter((folder, base) for folder, base, _, _ in coded.values())
    codes = Counter(code for _, _, code, _ in coded.values())
    out = {}
    for relative, (folder, base, code, suffix) in coded.items():
        if (folder, base) not in plain and bases[(folder, base)] < 2 and codes[code] < 2:
            continue
        path = f"{folder}/{base}{suffix}" if folder else f"{base}{suffix}"
        site = code in (default_language.lower(), default_language.lower().split("-")[0])
        out[relative] = (path if site else f"{code}/{path}", _tag(code))
    return out


def _tag(code: str) -> str:
    """The language tag as written elsewhere: "pt-br" → "pt-BR", "zh-hant" → "zh-Hant"."""
    language, _, rest = code.partition("-")
    return f"{language}-{rest.upper() if len(rest) == 2 else rest.title()}" if rest else language
