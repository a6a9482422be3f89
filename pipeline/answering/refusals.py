"""Does a model sentence say that the sources do not answer? (pure)

The system prompt asks the model to say so when the sources do not answer the question. Such
a sentence makes no claim about the pages, so no passage supports it and the resolver removes
it; when it was all the model wrote, the model has read the sources and found nothing, and the
reader gets the refusal, not quotes of passages the model has just judged beside the point.

A sentence counts only when it says that about the sources, the pages or the information
("I cannot find that in these pages", "The sources do not mention…", "この情報はページに記載
されていません"): a claim of the docs such as "require() cannot find the module" or
"モジュールが見つかりません" names no source and stays a claim.
"""
from __future__ import annotations

import re

MAX_CHARS = 240      # a refusal is one short sentence; a long one carries claims of its own

_ABOUT_SOURCES = re.compile(
    r"(?i)\b(?:sources?|provided|given|context|information|these (?:pages|documents|passages|texts)|"
    r"this (?:page|documentation|text))\b|источник|предоставленн|(?:этих|этой|данных|приведённых) страниц|"
    r"информаци|сведени|контекст|提供された|これらのページ|このページ|ソース|出典|情報|資料|記載|"
    r"제공된|이 페이지|출처|자료|정보"
    r"|\b(?:quellen?|bereitgestellt\w*|informationen|kontext|(?:diese[nr]?|der) (?:seiten?|dokumentation|texte?)"
    r"|fournie?s?|informations?|contexte|(?:ces|cette) (?:pages?|documentation)"
    r"|fuentes?|proporcionad[ao]s?|información|contexto|(?:estas|esta) (?:páginas?|documentación)"
    r"|fontes?|fornecid[ao]s?|informaç(?:ão|ões)|(?:estas|esta) (?:páginas?|documentação))\b"
    r"|来源|提供的|资料|信息|这些页面|该页面|上下文|文档"
    r"|المصادر|المصدر|السياق|المعلومات|معلومات|الصفحات|الصفحة|الوثائق|المستندات|المقدمة"
    r"|แหล่งข้อมูล|ข้อมูล|เอกสาร|หน้าเหล่านี้|หน้านี้|บริบท|ที่ให้มา")
_SAYS_NOTHING = re.compile(
    r"(?i)^\W*(?:(?:sorry|unfortunately|however)\W+)?(?:i|we)\b[^.!?]{0,24}?"
    r"\b(?:can ?not|can't|could not|couldn't|am unable to|was unable to|did not|didn't|do not|don't)"
    r"\s+(?:find|locate|see|answer|tell)\b"
    r"|\b(?:do(?:es)?n't|do(?:es)? not|did not|didn't)\s+(?:mention|say|contain|answer|provide|include|cover|"
    r"specify|state|discuss|address|describe|explain)\b"
    r"|\bno (?:information|mention|details?|answer|data)\b|\bnot (?:mentioned|specified|covered|stated|provided|"
    r"found|addressed|described|available)\b"
    r"|не (?:нахожу|могу найти|удалось найти|нашёл|нашел|найден[аоы]?|указан[аоы]?|упоминается|упомянут[аоы]?|"
    r"сказано|содержится|содержат|говорится|описан[аоы]?)|\bнет (?:информации|сведений|данных|ответа|упоминани)"
    r"|見つかりません|見つけられません|見当たりません|(?:ありません|されていません|書かれていません|"
    r"触れられていません|含まれていません|わかりません|分かりません)"
    r"|찾을 수 없|찾지 못|없습니다|없어요|나와 있지 않|언급(?:되어 있지|하지) 않|알 수 없|포함되어 있지 않"
    # German, French, Spanish, Portuguese, Chinese.
    r"|\b(?:kann|konnte) (?:ich )?(?:keine|nichts|das nicht|dies nicht)\b|\benthalten keine\b"
    r"|\bnicht (?:erwähnt|angegeben|beschrieben|enthalten|genannt|finden|entnehmen|beantworten)\b|\bkeine (?:informationen|angaben|hinweise)\b"
    r"|\bn(?:e |')\s*(?:trouve|peux|mentionnent|mentionne|contiennent|contient|précisent|précise|indiquent|indique)\b"
    r"|\baucune (?:information|mention|indication)\b|\bpas (?:mentionnée?s?|précisée?s?|indiquée?s?)\b"
    r"|\bno (?:encuentro|puedo encontrar|pude encontrar|(?:se )?mencionan?|contienen?|especifican?|indican?)\b"
    r"|\bno hay (?:información|mención|datos)\b"
    r"|\bnão (?:encontro|consigo encontrar|encontrei|mencionam?|contêm|contém|especificam?|indicam?)\b"
    r"|\bnão há (?:informaç|menção|dados)|\bnenhuma (?:informação|menção)\b"
    r"|没有(?:提到|提及|说明|相关|找到|包含)|未(?:提及|提到|说明|找到)|找不到|无法(?:找到|确定|回答)"
    # Arabic and Thai.
    r"|(?:لا|لم) (?:أجد|أستطيع|يمكنني|تذكر|يذكر|تتضمن|يتضمن|تحتوي|يحتوي|تشير|يشير|توضح|يوضح|تحدد|يحدد|تتناول|يرد|ترد)"
    r"|لا (?:توجد|يوجد) (?:أي )?(?:معلومات|إشارة|ذكر)|ليس(?:ت)? (?:هناك|لدي) (?:أي )?معلومات|غير (?:مذكور|متوفر|موجود)"
    r"|ไม่(?:พบ|ได้(?:ระบุ|กล่าวถึง|พูดถึง|อธิบาย|ให้ข้อมูล)|มีข้อมูล|มีการ(?:ระบุ|กล่าวถึง)|สามารถ(?:หา|ตอบ|ระบุ))|หาไม่พบ")


def is_refusal(sentence: str) -> bool:
    """Does `sentence` say the sources (pages, information) do not answer, and nothing more?"""
    text = sentence.strip()
    return len(text) <= MAX_CHARS and bool(_SAYS_NOTHING.search(text)) and bool(_ABOUT_SOURCES.search(text))
