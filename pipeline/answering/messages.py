"""What the server itself says to a reader, in the language of the question (pure data).

The refusal, the two notes on why an answer quotes the pages, and the line that says the
quotes are in another language than the question. English, Russian, Japanese and Korean
name the pages' language inside the sentence, as each grammar wants; the other languages
the question may be asked in name it after a colon, by its own name (Deutsch, 中文), so no
language needs every other one's name declined. A question in a language not listed gets
English.
"""
from __future__ import annotations

from .. import languages

MESSAGES = {
    "en": {"refusal": "I can't find that in these pages.",
           "fallback": "The model did not answer ({reason}), so this answer quotes the pages instead.",
           "unverified": "No sentence of the model's answer could be checked against these pages, so this answer "
                         "quotes them instead."},
    "ru": {"refusal": "Я не нахожу ответа на этих страницах.",
           "fallback": "Модель не ответила ({reason}), поэтому ответ составлен из цитат страниц.",
           "unverified": "Ни одно предложение ответа модели не удалось сверить с этими страницами, поэтому ответ "
                         "составлен из их цитат."},
    "ja": {"refusal": "これらのページには、その答えが見つかりません。",
           "fallback": "モデルが応答しなかったため（{reason}）、ページの文をそのまま引用して答えます。",
           "unverified": "モデルの回答のどの文もこれらのページで確認できなかったため、ページの文をそのまま引用して答えます。"},
    "ko": {"refusal": "이 페이지들에서는 그 답을 찾을 수 없습니다.",
           "fallback": "모델이 응답하지 않아({reason}) 페이지의 문장을 그대로 인용해 답합니다.",
           "unverified": "모델의 답변 중 어느 문장도 이 페이지들로 확인할 수 없어 페이지의 문장을 그대로 인용해 답합니다."},
    "zh": {"refusal": "在这些页面中找不到答案。",
           "fallback": "模型没有回答（{reason}），因此本回答直接引用页面原文。",
           "unverified": "模型回答中的任何句子都无法在这些页面中得到核实，因此本回答直接引用页面原文。"},
    "uk": {"refusal": "Я не знаходжу відповіді на цих сторінках.",
           "fallback": "Модель не відповіла ({reason}), тому відповідь складено з цитат сторінок.",
           "unverified": "Жодне речення відповіді моделі не вдалося звірити з цими сторінками, тому відповідь "
                         "складено з їхніх цитат."},
    "de": {"refusal": "Auf diesen Seiten finde ich dazu keine Antwort.",
           "fallback": "Das Modell hat nicht geantwortet ({reason}), daher zitiert diese Antwort die Seiten.",
           "unverified": "Kein Satz der Antwort des Modells ließ sich anhand dieser Seiten prüfen, daher zitiert "
                         "diese Antwort die Seiten."},
    "fr": {"refusal": "Je ne trouve pas la réponse dans ces pages.",
           "fallback": "Le modèle n'a pas répondu ({reason}) ; cette réponse cite donc les pages.",
           "unverified": "Aucune phrase de la réponse du modèle n'a pu être vérifiée dans ces pages ; cette réponse "
                         "les cite donc."},
    "es": {"refusal": "No encuentro la respuesta en estas páginas.",
           "fallback": "El modelo no respondió ({reason}), así que esta respuesta cita las páginas.",
           "unverified": "Ninguna frase de la respuesta del modelo pudo comprobarse en estas páginas, así que esta "
                         "respuesta las cita."},
    "pt": {"refusal": "Não encontro a resposta nestas páginas.",
           "fallback": "O modelo não respondeu ({reason}), por isso esta resposta cita as páginas.",
           "unverified": "Nenhuma frase da resposta do modelo pôde ser verificada nestas páginas, por isso esta "
                         "resposta as cita."},
    "it": {"refusal": "Non trovo la risposta in queste pagine.",
           "fallback": "Il modello non ha risposto ({reason}), quindi questa risposta cita le pagine.",
           "unverified": "Nessuna frase della risposta del modello è stata verificata su queste pagine, quindi questa "
                         "risposta le cita."},
    "nl": {"refusal": "Ik vind het antwoord niet op deze pagina's.",
           "fallback": "Het model gaf geen antwoord ({reason}), dus dit antwoord citeert de pagina's.",
           "unverified": "Geen enkele zin uit het antwoord van het model kon op deze pagina's worden gecontroleerd, "
                         "dus dit antwoord citeert ze."},
    "pl": {"refusal": "Nie znajduję odpowiedzi na tych stronach.",
           "fallback": "Model nie odpowiedział ({reason}), więc ta odpowiedź cytuje strony.",
           "unverified": "Żadnego zdania z odpowiedzi modelu nie udało się sprawdzić na tych stronach, więc ta "
                         "odpowiedź je cytuje."},
    "tr": {"refusal": "Bu sayfalarda bunun yanıtını bulamıyorum.",
           "fallback": "Model yanıt vermedi ({reason}), bu yüzden bu yanıt sayfalardan alıntı yapıyor.",
           "unverified": "Modelin yanıtındaki hiçbir cümle bu sayfalarla doğrulanamadı, bu yüzden bu yanıt "
                         "sayfalardan alıntı yapıyor."},
    "ar": {"refusal": "لا أجد إجابة عن ذلك في هذه الصفحات.",
           "fallback": "لم يُجب النموذج ({reason})، لذا تقتبس هذه الإجابة من الصفحات.",
           "unverified": "لم يمكن التحقق من أي جملة في إجابة النموذج مقابل هذه الصفحات، لذا تقتبس هذه الإجابة منها."},
    "th": {"refusal": "ไม่พบคำตอบนี้ในหน้าเหล่านี้",
           "fallback": "โมเดลไม่ได้ตอบ ({reason}) คำตอบนี้จึงยกข้อความจากหน้าเอกสารแทน",
           "unverified": "ไม่มีประโยคใดในคำตอบของโมเดลที่ตรวจสอบกับหน้าเหล่านี้ได้ คำตอบนี้จึงยกข้อความจากหน้าเอกสารแทน"},
}

# Language names as each of the first four languages' sentence needs them (Russian: prepositional).
LANGUAGE_NAMES = {
    "en": languages.ENGLISH_NAMES,
    "ru": {"en": "английском", "ru": "русском", "ja": "японском", "ko": "корейском", "zh": "китайском",
           "uk": "украинском", "de": "немецком", "fr": "французском", "es": "испанском", "pt": "португальском",
           "it": "итальянском", "nl": "нидерландском", "pl": "польском", "tr": "турецком", "ar": "арабском",
           "th": "тайском"},
    "ja": {"en": "英語", "ru": "ロシア語", "ja": "日本語", "ko": "韓国語", "zh": "中国語", "uk": "ウクライナ語",
           "de": "ドイツ語", "fr": "フランス語", "es": "スペイン語", "pt": "ポルトガル語", "it": "イタリア語",
           "nl": "オランダ語", "pl": "ポーランド語", "tr": "トルコ語", "ar": "アラビア語", "th": "タイ語"},
    "ko": {"en": "영어", "ru": "러시아어", "ja": "일본어", "ko": "한국어", "zh": "중국어", "uk": "우크라이나어",
           "de": "독일어", "fr": "프랑스어", "es": "스페인어", "pt": "포르투갈어", "it": "이탈리아어",
           "nl": "네덜란드어", "pl": "폴란드어", "tr": "터키어", "ar": "아랍어", "th": "태국어"},
}
QUOTED_IN = {
    "en": "The quotes are in {names}, the language of the pages they come from.",
    "ru": "Цитаты приведены на {names} языке, на языке страниц, откуда они взяты.",
    "ja": "引用は、引用元のページの言語である{names}のままです。",
    "ko": "인용문은 원래 페이지의 언어인 {names}로 되어 있습니다.",
    # The pages' languages by their own names, after a colon.
    "zh": "引文保留其来源页面的语言：{names}。",
    "uk": "Цитати наведено мовою сторінок, з яких їх узято: {names}.",
    "de": "Die Zitate stehen in der Sprache der Seiten, aus denen sie stammen: {names}.",
    "fr": "Les citations sont dans la langue des pages dont elles proviennent : {names}.",
    "es": "Las citas están en el idioma de las páginas de las que proceden: {names}.",
    "pt": "As citações estão no idioma das páginas de onde vêm: {names}.",
    "it": "Le citazioni sono nella lingua delle pagine da cui provengono: {names}.",
    "nl": "De citaten staan in de taal van de pagina's waar ze vandaan komen: {names}.",
    "pl": "Cytaty są w języku stron, z których pochodzą: {names}.",
    "tr": "Alıntılar, alındıkları sayfaların dilindedir: {names}.",
    "ar": "الاقتباسات بلغة الصفحات التي أُخذت منها: {names}.",
    "th": "ข้อความที่ยกมาเป็นภาษาของหน้าที่มา: {names}",
}
_JOINERS = {"en": " and ", "ja": "と", "ko": "와 ", "zh": "、", "ru": " и ", "uk": " і "}   # else " / "


def message(language: str, kind: str) -> str:
    """The server's `kind` message (refusal, fallback, unverified) in `language`, else in English."""
    return MESSAGES.get(language, MESSAGES["en"])[kind]


# For Russian, Japanese and Korean pages in a language their table does not decline: its own name
# after a colon, as the other languages always write it.
QUOTED_IN_OWN_NAMES = {
    "ru": "Цитаты приведены на языке страниц, откуда они взяты: {names}.",
    "ja": "引用は、引用元のページの言語のままです：{names}。",
    "ko": "인용문은 원래 페이지의 언어로 되어 있습니다: {names}.",
}


def quoted_in(language: str, others: list[str]) -> str:
    """In `language`: the quotes are in `others`, the languages of their pages."""
    if language not in QUOTED_IN:
        language = "en"
    names = LANGUAGE_NAMES.get(language, languages.OWN_NAMES)
    template, joiner = QUOTED_IN[language], _JOINERS.get(language, " / ")
    if language in QUOTED_IN_OWN_NAMES and not all(other in names for other in others):
        names, template, joiner = languages.OWN_NAMES, QUOTED_IN_OWN_NAMES[language], " / "
    said = [names.get(other, languages.OWN_NAMES.get(other, other)) for other in others]
    return template.format(names=joiner.join(said))
