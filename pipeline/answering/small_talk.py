"""Greetings, thanks and farewells: words a reader says to the chat, not about the pages (pure).

Many readers open a chat with "Hello", "Привет" or "안녕하세요", or close it with "Thanks!". Each is
a word the tokenizer keeps, so the offline answer looked it up and quoted the nearest passage: the
"Hello world" addon example of the Node.js docs for "Hello" and for "Привет". Around a real
question the same words cost the answer: "Thanks, how do I read a file line by line?" quoted the
readline sentence at 0.43 where the question alone gets it at 0.94, since "thanks" is a word the
pages never use.

`without` takes every such phrase out (what is left says whether the input asks anything,
`offline.asks_anything`); `strip` takes out only those that open or close the question, which is
what retrieval and the answer read. A phrase is taken out only as a whole word ("Hello world" keeps
"world"), and words that are also the pages' terms are not listed ("nice" is a Unix command, "dag"
a graph, "sup" an HTML element).
"""
from __future__ import annotations

import re
import unicodedata

# Case-folded NFKC, "_" between the words of a phrase; in the sixteen languages the server's own
# messages speak, and a few more. Thanks apart from greetings: only thanks may close a question
# without a mark before them ("… set up a key thanks"), since "How do I print hello" asks about hello.
_GREETINGS = """
hello hi hey hiya howdy hi_there hello_there hey_there hello_everyone hi_all greetings good_morning
good_afternoon good_evening good_day bye goodbye good_bye see_you ok okay how_are_you how_is_it_going
how's_it_going what's_up
привет приветствую здравствуй здравствуйте добрый_день добрый_вечер доброе_утро доброй_ночи пока
до_свидания как_дела ок окей ладно
привіт вітаю до_побачення
hallo guten_tag guten_morgen guten_abend tschüss moin servus
bonjour bonsoir salut coucou au_revoir
hola buenos_días buenas_tardes buenas_noches adiós
olá ola oi bom_dia boa_tarde boa_noite tchau
ciao buongiorno buonasera arrivederci
hoi goedemorgen goedemiddag goedenavond
cześć dzień_dobry do_widzenia
merhaba selam günaydın
""".split()
_THANKS = """
thanks thank_you thank_you_very_much thanks_a_lot many_thanks thanks_in_advance thx cheers
спасибо спасибо_большое большое_спасибо благодарю дякую danke danke_schön vielen_dank merci merci_beaucoup
gracias muchas_gracias obrigado obrigada grazie grazie_mille bedankt dank_je dank_je_wel dank_u dziękuję
dzięki teşekkürler teşekkür_ederim
""".split()
_SCRIPT_GREETINGS = """
こんにちは こんばんは おはよう おはようございます よろしく よろしくお願いします よろしくお願いいたします はじめまして
さようなら お疲れ様です お疲れさまです お疲れ様 お元気ですか
안녕하세요 안녕하십니까 안녕 반갑습니다 반가워요 수고하세요 수고하셨습니다 잘_지내세요
你好 您好 再见 再見 早上好 下午好 晚上好 哈喽 嗨
مرحبا مرحباً أهلا اهلا السلام_عليكم سلام
สวัสดีครับ สวัสดีค่ะ สวัสดี
שלום नमस्ते
""".split()
_SCRIPT_THANKS = """
ありがとう ありがとうございます ありがとうございました どうもありがとう どうも
감사합니다 감사해요 고맙습니다 고마워요 고마워 谢谢 謝謝 多谢 شكرا شكراً ممنون ขอบคุณครับ ขอบคุณค่ะ ขอบคุณ
תודה धन्यवाद
""".split()


def _alternatives(phrases: list[str]) -> str:
    return "|".join(re.escape(p).replace("_", r"\s+") for p in sorted(phrases, key=len, reverse=True))


def _whole(phrases: list[str]) -> str:
    return rf"(?<![\w'])(?:{_alternatives(phrases)})(?![\w'])"


_IN_LETTERS = _whole(_GREETINGS + _THANKS)
_IN_SCRIPTS = _alternatives(_SCRIPT_GREETINGS + _SCRIPT_THANKS)
_LETTERS, _OTHERS = re.compile(_IN_LETTERS), re.compile(_IN_SCRIPTS)
_MARK = "[,.!?;:~…、。！？，¡¿()—]"    # no hyphen: "Hi! --env-file …" keeps its option
_MARKS = r"[\s,.!?;:~…、。！？，¡¿()—]*"
# A greeting in letters opens the question only before a mark ("Hello, …", not "Hello world"); one in
# another script also before a space ("안녕하세요 파일은…"). What closes it follows a mark ("…? Thanks"),
# or is thanks: after a space, or glued on in a script without spaces ("…起きますかありがとうございます").
_OPENING = re.compile(rf"^(?:\s*(?:(?:{_IN_LETTERS})\s*{_MARK}|(?:{_IN_SCRIPTS})(?:\s|{_MARK})){_MARKS})+",
                      re.IGNORECASE)
_CLOSING = re.compile(rf"(?:(?<={_MARK})\s*(?:{_IN_LETTERS}|{_IN_SCRIPTS})|\s+(?:{_whole(_THANKS)})"
                      rf"|\s*(?:{_alternatives(_SCRIPT_THANKS)}))(?:{_MARKS}(?:{_IN_LETTERS}|{_IN_SCRIPTS}))*{_MARKS}$",
                      re.IGNORECASE)


def without(question: str) -> str:
    """The question with every greeting, thanks and farewell taken out (case-folded)."""
    text = unicodedata.normalize("NFKC", question).casefold()
    return _OTHERS.sub(" ", _LETTERS.sub(" ", text))


def strip(question: str) -> str:
    """The question without the greetings and thanks that open or close it ("Hi! How do I…? Thanks"
    → "How do I…?"), as written otherwise; "" when nothing else is left."""
    text = unicodedata.normalize("NFKC", question)
    kept = _CLOSING.sub("", _OPENING.sub("", text))
    return question.strip() if kept == text else kept.strip()


def only(question: str) -> bool:
    """Is the input nothing but greetings, thanks, marks and emoji ("Thanks!", "🙏")?"""
    return not re.search(r"[^\W_]", without(question))
