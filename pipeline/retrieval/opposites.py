"""Words whose swap reverses a claim, told apart in English, Russian, Japanese and Korean (pure).

A multilingual sentence encoder places "loads modules synchronously" and "非同期に読み込み"
close together: antonyms share nearly all their contexts, so no cosine threshold keeps
them apart. Across languages no word can be compared either. What can be compared is the
*concept* a word names: each concept below lists its forms in the four languages (stems
and affixed forms, as regular expressions over case-folded NFKC text), paired with its
opposite. A sentence that says one side of a pair where its passage says only the other
does not agree with it (`reversal`). Forms are chosen to avoid each other: "synchronous"
is not found inside "asynchronous", 同期 not inside 非同期, 활성 not inside 비활성.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_PAIRS: tuple[tuple[str, str, str, str], ...] = (
    # (concept, its forms, opposite concept, its forms)
    ("sync", r"(?<![a-z])synchronous|(?<![a-z])sync\b|(?<![а-я])синхрон|(?<!非)同期|(?<!비)동기",
     "async", r"asynchronous|\basync\b|асинхрон|非同期|비동기"),
    ("read", r"\bread(?:s|ing|able|er)?\b|\b(?:про|с)?чита(?:ет|ть|ют|ние|ния|ем)|\bсчитыва|\bчтени|読|읽",
     "write", r"\bwrit(?:e|es|ing|ten|able|er)\b|\bwrote\b|\b(?:за|на)?пис(?:ать|ывает|ывать|ыва|ь)|\bзапис|書き|書く|書け|쓰기|쓰고|씁|써"),
    ("before", r"\bbefore\b|\bearlier\b|\bprior to\b|\bперед\b|\bраньше\b|より前|前に|より先|先に|전에|먼저",
     "after", r"\bafter\b|\blater\b|\bsubsequent(?:ly)?\b|\bпосле\b|\bпозже\b|後に|の後|あとで|후에|뒤에|다음에"),
    ("more", r"\bmore\b|\bhigher\b|\bgreater\b|\blarger\b|\bбольше\b|\bболее\b|以上|より多|超え|초과|이상",
     "less", r"\bless\b|\bfewer\b|\blower\b|\bsmaller\b|\bменьше\b|\bменее\b|以下|未満|より少|미만|이하"),
    ("enabled", r"\benabled?\b|\bвключ|(?<!無)有効|(?<!비)활성",
     "disabled", r"\bdisabled?\b|\bотключ|\bвыключ|無効|비활성"),
    ("allow", r"\ballow|\bpermit|\bпозволя|\bразреш|許可|許す|허용",
     "prevent", r"\bprevent|\bforbid|\bdisallow|\bblock|\bзапрещ|\bпрепятств|\bзакрыва|禁止|防|막|금지|방지"),
    ("same", r"\bsame\b|\bidentical|\bтот же\b|\bта же\b|\bто же\b|\bте же\b|\bодинаков|同じ|같은",
     "different", r"\bdifferent\b|\bdiffer|\bразн(?:ый|ая|ое|ые|ых)\b|\bдругой\b|異なる|違う|別の|다른"),
    ("all", r"\ball\b|\bevery\b|\bany\b|\bentire\b|\bвсе\b|\bвсех\b|\bвсё\b|\bвесь\b|\bкажд|\bлюб(?:ой|ые|ое|ая)\b"
            r"|\bregardless\b|\bнезависимо\b|すべて|全て|全部|かかわらず|関係なく|모든|모두|전체|상관없이|관계없이"
            # "not only" says more than the one thing: the other side of "only"
            r"|\bnot only\b|\bне только\b|だけ(?:では|で)?なく|のみならず|뿐(?:만)?\s*아니라",
     "only", r"(?<!not )\bonly\b|\bjust\b|(?<!не )\bтолько\b|\bлишь\b|だけ(?!(?:では|で)?なく)|のみ|뿐(?!(?:만)?\s*아니라)"
             r"|에서만|에만|때만"),
    # "bypasses the Permission Model" and "is checked by the permission model" share every word but one.
    ("enforced", r"\benforc|\bsubject to\b|\bпроверя(?:ет|ют|ется|ются)\b|\bподчиня|\bконтролиру"
                 r"|適用され|チェックされ|検査され|強制され|적용(?:되|받)|검사(?:되|받)|통제",
     "bypassed", r"\bbypass|\bcircumvent|\bв обход\b|\bобход(?:ит|ят|ить|я)\b|\bминуя\b"
                 r"|回避|迂回|バイパス|すり抜け|우회"),
    # "в порядке, обратном тому, …" is Russian for "in the reverse of the order …"
    ("in order", r"\bin (?:the )?order\b|\bв (?:том )?порядке\b(?!,? обратн)|\bпо порядку\b|順番に|順に|順序どおり"
                 r"|순서대로|순서로",
     "in reverse", r"\breverse order\b|\bin reverse\b|\bв обратном порядке\b|\bв порядке,? обратном\b"
                   r"|\bобратн(?:ом|ый|ого) порядк|逆順|逆の順|역순|반대 순서|순서의 반대|거꾸로"),
    ("beginning", r"\bbeginning\b|\bprepend(?:s|ed)?\b|\bв начал[оеа]\b|\bначало\b|先頭|맨 앞|앞부분|시작 부분",
     "end", r"\bthe end of\b|\bappend(?:s|ed)? (?:to|at)\b|\bв кон(?:ец|це)\b|末尾|맨 끝|맨 뒤|끝부분|끝에"),
    ("left", r"\bleft to right\b|\bleft\b(?= side| end| of)|слева|налево|左から|左側|왼쪽",
     "right", r"\bright to left\b|\bright\b(?= side| end| of)|справа|направо|右から|右側|오른쪽"),
    ("input", r"\binputs?\b|\bвход(?:ной|ного|ные|ных|ному|ным|ная|ное|ную)\b|\bввод(?:а|е|ом)?\b|入力|입력",
     "output", r"\boutputs?\b|\bвыход(?:ной|ного|ные|ных|ному|ным|ная|ное|ную)\b|\bвывод(?:а|е|ом)?\b|出力|출력"),
    ("incoming", r"\bincoming\b|\binbound\b|\bвходящ|受信接続|着信|들어오는 연결|수신 연결",
     "outgoing", r"\boutgoing\b|\boutbound\b|\bисходящ|送信接続|発信|나가는 연결|송신 연결"),
    ("success", r"\bsucceed|\bsuccess|\bуспешн|(?<!не )\bудаст|成功|성공",
     "failure", r"\bfail|\bнеудач|\bне удаст|\bпровал|失敗|실패"),
    ("encode", r"(?<![a-z])encod|(?<!де)кодир|エンコード|符号化|인코딩|인코드",
     "decode", r"\bdecod|декодир|デコード|復号|디코딩|디코드"),
    ("uppercase", r"\bupper[- ]?case|\bверхн\w* регистр|\bпрописн|\bзаглавн|大文字(?!と小文字)|대문자",
     "lowercase", r"\blower[- ]?case|\bнижн\w* регистр|\bстрочн|(?<!大文字と)小文字|소문자"),
    ("parent", r"\bparent|\bродительск|親プロセス|부모",
     "child", r"\bchild(?!_)|\bchildren\b|\bдочерн|子プロセス|자식"),
    ("start", r"\bstart(?:s|ed|ing)?\b(?!-)|\bbegins?\b|\bначина|\bнача(?:ть|л[аои]?\b)|\bначн[её]т|\bзапуска"
              r"|開始|始め|시작",
     "stop", r"\bstop(?:s|ped|ping)?\b|\bhalts?\b|\bпрекра(?:ща|ти)|\bостанав|\bостанов(?:ит|ить)|停止|止め|止ま|중지|멈추|멈춥|멈춘"),
    ("both", r"\bboth\b|\bоба\b|\bобе\b|\bобоих\b|両方|双方|둘 다|양쪽",
     "either", r"\beither\b|\bлибо\b|いずれか|どちらか|둘 중 하나"),
    # The boolean literals an option is set to, in any language's sentence.
    ("true", r"(?<![\w.])true\b", "false", r"(?<![\w.])false\b"),
    ("big-endian", r"\bbig[- ]endian\b|ビッグエンディアン|빅\s?엔디[언안]|\bс порядком от старшего",
     "little-endian", r"\blittle[- ]endian\b|リトルエンディアン|리틀\s?엔디[언안]|\bс порядком от младшего"),
)


@lru_cache(maxsize=1)
def _compiled() -> tuple[tuple[str, re.Pattern, str, re.Pattern], ...]:
    return tuple((a, re.compile(fa), b, re.compile(fb)) for a, fa, b, fb in _PAIRS)


# Japanese and Chinese write no spaces between words; one left between two of their characters by
# markup ("送信された 後 に", from "*後*") is not a word break.
_CJK_GAP = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u9fff])\s+(?=[\u3040-\u30ff\u3400-\u9fff])")


@lru_cache(maxsize=16384)
def concepts(text: str) -> frozenset[str]:
    """The concepts of the pairs that `text` names."""
    folded = _CJK_GAP.sub("", unicodedata.normalize("NFKC", text).casefold())
    found = set()
    for a, pattern_a, b, pattern_b in _compiled():
        if pattern_a.search(folded):
            found.add(a)
        if pattern_b.search(folded):
            found.add(b)
    return frozenset(found)


def reversal(sentence: str, passage: str) -> str:
    """The concept the sentence says where the passage says only its opposite ("async" for a
    passage saying "synchronously"), or "" when none."""
    said, written = concepts(sentence), concepts(passage)
    for a, _, b, _ in _compiled():
        for mine, theirs in ((a, b), (b, a)):
            if mine in said and theirs not in said and theirs in written and mine not in written:
                return mine
    return ""
