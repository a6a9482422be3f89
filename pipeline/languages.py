"""Which language a question, a model's sentence or a page is written in (pure).

A script tells most languages apart: Hangul is Korean, kana Japanese, Han without kana Chinese,
Cyrillic Russian (Ukrainian when it has і, ї, є or ґ), Arabic letters Arabic (Persian or Urdu
when their own letters outnumber Arabic's), Hebrew and Thai their own. Latin letters are shared
by English and the other languages the index's multilingual model reads (German, French,
Spanish, Portuguese, Italian, Dutch, Polish, Turkish), and a question needs no dictionary to say
which of them it is written in: its function words (articles, pronouns, question words,
auxiliaries) and a few letters only one of them uses (ß, ñ, ã, ł, ı) do. Words English shares
with another language ("in", "is", "a", "on", "die") are not counted for either, and English
wins every tie, so text with no telling word, a bare name or a code identifier, stays English as
before.
"""
from __future__ import annotations

import re

LATIN = ("en", "de", "fr", "es", "pt", "it", "nl", "pl", "tr")

_FUNCTION_WORDS = {
    "en": """the a an is are was were be been what how which why when where who does do did can could should
        would will of to and with for from this that these those it its my your there not i you we""",
    "de": """der die das den dem des ein eine einen einem einer eines und ist sind war wie was wann warum
        welche welcher welches wo wer ich wir ihr kann können muss müssen soll mit für von zum zur auf
        nicht kein keine bei oder wird werden gibt man sich auch noch nur über unter durch ob dass beim im vom zu
        jede jeder jedes jeden darf dürfen sollte hat haben wenn aber sie alle diese dieser dieses""",
    "fr": """le la les un une des du est sont comment pourquoi quel quelle quels quelles que qu quoi où
        de je nous vous il elle ils elles pour avec dans sur pas ne peut peux faut ce cette ces et ou au
        aux leur cela ça qui lors sans entre""",
    "es": """de el la los las un una unos unas es son cómo como qué que cuál cuáles cuándo cuánto cuántos dónde
        por para con en del al se puedo puede hay mi lo su está están esto este esta debo hace
        cuando sin sobre entre""",
    "pt": """de os as um uma umas é são como quê que qual quais quando quanto quantos onde por para com em
        na nos nas do da dos das ao se posso pode há não ou meu minha está isso este esta devo
        você eu sem sobre entre""",
    "it": """il lo la gli le un una è sono come che cosa quale quali quando quanto dove perché per con del
        della dei delle nel nella si posso può non mio questo questa devo ci sono senza tra
        di su al degli dello agli ai ogni anche più già viene sto ognuno tutto quante quanti quanta""",
    "nl": """de het een en zijn hoe wat welke wanneer waarom waar ik kan kun moet met voor van op niet bij
        wordt worden er ook je jij mijn dat deze dit naar zonder""",
    "pl": """jak co czy się nie jest są na dla od ten ta które który która jaki jaka jakie można mogę
        przez oraz gdy gdzie dlaczego kiedy jeśli także""",
    "tr": """bir ve bu ne nasıl nedir neden için ile mi mı mu mü da de olarak var yok hangi nerede
        kaç zaman gibi daha çok""",
}
# Letters of one Latin-script language (among those above), each counted as two function words
# (ö and ü, which German and Turkish share and names carry into English text, as one), and French
# elision (l'option, qu'est-ce, d'un) as one. One-letter words ("o", "e", "y", "w") are not
# counted: "I/O" and "x and y" are English.
_LETTERS = {"de": "ßä", "es": "ñ¿¡", "pt": "ãõ", "pl": "łąęśźżćń", "tr": "ışğ"}
_SHARED_LETTERS = {"de": "öü", "tr": "öüç"}
# Vietnamese (ơ ư đ and the tones above; not the dots below, which Yoruba writes too) and
# Azerbaijani (ə) write in Latin letters too and share ã/õ with Portuguese and ı/ş with Turkish:
# their own letters keep their pages from being tagged so. The index model does not read them,
# so no function words and no bridge.
_OTHER_LETTERS = {"vi": "ơưđảấầẩẫắằẳẵẻẽếềểễỉỏốồổỗớờởỡủứừửữỳỷỹ", "az": "ə"}
_ELISION = re.compile(r"\b(?:l|d|qu|j|n|c|s)['’][^\W\d_]")

FUNCTION_WORDS = {language: frozenset(words.split()) for language, words in _FUNCTION_WORDS.items()}
# Words English also uses ("in", "is", "on", "a", "come", "per", "no") count for no language but English.
_ENGLISH_TOO = frozenset("in is on to do of no a be an as at come per also man son".split())
_TELLING = {language: words - FUNCTION_WORDS["en"] - _ENGLISH_TOO
            for language, words in FUNCTION_WORDS.items() if language != "en"}

_HANGUL = re.compile(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")
UKRAINIAN = re.compile(r"[іїєґІЇЄҐ]")
_ARABIC = re.compile(r"[\u0600-\u06ff]")
_HEBREW = re.compile(r"[\u0590-\u05ff]")
_THAI = re.compile(r"[\u0e00-\u0e7f]")
# Persian and Urdu write in Arabic letters, and spell every k and y with ک and ی where Arabic writes
# ك and ي (and has its ة); the more of either decides. گ, پ and چ do not: Arabic writes them in
# foreign names (گوگل). Urdu alone has ٹ ڈ ڑ ں ے.
_URDU = re.compile(r"[\u0679\u0688\u0691\u06ba\u06d2]")
_PERSIAN = re.compile(r"[\u06a9\u06cc]")
_ARABIC_ONLY = re.compile(r"[\u0629\u0643\u064a]")
# Whole words of letters only: not the parts of O_APPEND, fs.open() or pm2.
WHOLE_WORD = re.compile(r"(?<![\w.])[^\W\d_]+(?![\w(])")


def language_of(text: str) -> str:
    """The language of a short text (a question, a sentence): a tag of `LATIN` or ko, ja, zh, ru,
    uk, ar, fa, ur, he, th. English when nothing tells otherwise."""
    if _HANGUL.search(text):
        return "ko"
    if KANA.search(text):
        return "ja"
    if _HAN.search(text):
        return "zh"
    if _CYRILLIC.search(text):
        return "uk" if UKRAINIAN.search(text) else "ru"
    if _ARABIC.search(text):
        return arabic_script_language(text)
    if _HEBREW.search(text):
        return "he"
    if _THAI.search(text):
        return "th"
    return latin_language(text)


def arabic_script_language(text: str) -> str:
    """Arabic, Persian or Urdu, for a text in Arabic letters."""
    if _URDU.search(text):
        return "ur"
    return "fa" if len(_PERSIAN.findall(text)) > len(_ARABIC_ONLY.findall(text)) else "ar"


def latin_language(text: str, margin: float = 1.0) -> str:
    """The language of `LATIN` whose function words and letters `text` uses most; English unless
    another scores more than `margin` times English's count."""
    counts = latin_counts(text)
    english = counts.pop("en")
    best = max(counts, key=lambda language: counts[language])
    return best if counts[best] > margin * english and counts[best] > 0 else "en"


def latin_counts(text: str) -> dict[str, int]:
    """Per language of `LATIN` (and Vietnamese and Azerbaijani, by letters alone): how many of the
    text's words are its telling function words, plus two for each of its own letters."""
    folded = text.casefold()
    words = WHOLE_WORD.findall(folded)
    counts = {"en": sum(word in FUNCTION_WORDS["en"] for word in words)}
    for language, telling in _TELLING.items():
        counts[language] = (sum(word in telling for word in words)
                            + 2 * sum(folded.count(letter) for letter in _LETTERS.get(language, ""))
                            + sum(folded.count(letter) for letter in _SHARED_LETTERS.get(language, "")))
    counts["fr"] += len(_ELISION.findall(folded))
    for language, letters in _OTHER_LETTERS.items():
        counts[language] = 2 * sum(folded.count(letter) for letter in letters)
    return counts


def is_latin(language: str) -> bool:
    return language.split("-")[0] in LATIN


def function_words(language: str) -> frozenset[str]:
    """The function words of a Latin-script language (empty for any other)."""
    return FUNCTION_WORDS.get(language.split("-")[0], frozenset())


# Each language's English name (for a model's instructions) and its own name (Deutsch, 中文).
ENGLISH_NAMES = {"en": "English", "ru": "Russian", "uk": "Ukrainian", "ja": "Japanese", "ko": "Korean",
                 "zh": "Chinese", "de": "German", "fr": "French", "es": "Spanish", "pt": "Portuguese",
                 "it": "Italian", "nl": "Dutch", "pl": "Polish", "tr": "Turkish", "ar": "Arabic", "th": "Thai",
                 "fa": "Persian", "ur": "Urdu", "he": "Hebrew", "el": "Greek", "hy": "Armenian",
                 "ka": "Georgian", "hi": "Hindi", "mr": "Marathi", "ne": "Nepali", "bn": "Bengali",
                 "as": "Assamese", "pa": "Punjabi", "gu": "Gujarati", "or": "Odia", "ta": "Tamil",
                 "te": "Telugu", "kn": "Kannada", "ml": "Malayalam", "si": "Sinhala", "lo": "Lao",
                 "my": "Burmese", "km": "Khmer", "am": "Amharic"}
OWN_NAMES = {"en": "English", "ru": "русский", "uk": "українська", "ja": "日本語", "ko": "한국어", "zh": "中文",
             "de": "Deutsch", "fr": "français", "es": "español", "pt": "português", "it": "italiano",
             "nl": "Nederlands", "pl": "polski", "tr": "Türkçe", "ar": "العربية", "th": "ไทย",
             "fa": "فارسی", "ur": "اردو", "he": "עברית", "el": "Ελληνικά", "hy": "Հայերեն",
             "ka": "ქართული", "hi": "हिन्दी", "mr": "मराठी", "ne": "नेपाली", "bn": "বাংলা", "as": "অসমীয়া",
             "pa": "ਪੰਜਾਬੀ", "gu": "ગુજરાતી", "or": "ଓଡ଼ିଆ", "ta": "தமிழ்", "te": "తెలుగు", "kn": "ಕನ್ನಡ",
             "ml": "മലയാളം", "si": "සිංහල", "lo": "ລາວ", "my": "မြန်မာ", "km": "ខ្មែរ", "am": "አማርኛ"}
