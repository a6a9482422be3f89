"""Questions, model sentences and pages in any language the index model reads, not only the bundled four."""
from __future__ import annotations

import json

import pytest
from trigsight.answering import negation
from trigsight.answering.attribution import judge
from trigsight.answering.conversation import ChatSettings, collect, run
from trigsight.answering.messages import LANGUAGE_NAMES, MESSAGES, QUOTED_IN, quoted_in
from trigsight.answering.model_client import ModelSettings
from trigsight.build.languages import page_language, written_in
from trigsight.gates.liveserver import serve_release
from trigsight.languages import ENGLISH_NAMES, OWN_NAMES, language_of
from trigsight.publishing.published import Release
from trigsight.retrieval.search import Retriever
from trigsight_site import create_app
from trigsight_site.mcp_tools import resolve_page

import small_site
from fake_llm import Script, serve

NO_MODEL = {"OPENAI_API_KEY": "", "OPENAI_BASE_URL": ""}


@pytest.mark.parametrize("text, language", [
    ("Wie lese ich eine Datei Zeile für Zeile?", "de"),
    ("Bei regulären Dateien verarbeitet jeder Lesevorgang 512 KiB an Daten.", "de"),
    ("Comment créer un serveur HTTP ?", "fr"),
    ("Qu'est-ce que l'event loop ?", "fr"),
    ("¿Cuál es el valor predeterminado de highWaterMark?", "es"),
    ("Como faço para ler um arquivo linha por linha?", "pt"),
    ("Come posso leggere un file riga per riga?", "it"),
    ("Con fs.watch su Windows, se la cartella viene spostata, ricevo comunque degli eventi?", "it"),
    ("Hoe lees ik een bestand regel voor regel?", "nl"),
    ("Jak odczytać plik linia po linii?", "pl"),
    ("Bir dosyayı satır satır nasıl okurum?", "tr"),
    ("如何逐行读取文件？", "zh"),
    ("ストリームとは何ですか", "ja"),
    ("이벤트 루프는 무엇입니까", "ko"),
    ("Как прочитать файл?", "ru"),
    ("Як прочитати файл і записати його?", "uk"),
    ("كيف أقرأ ملفا سطرا بسطر في Node.js؟", "ar"),
    ("จะอ่านไฟล์ทีละบรรทัดได้อย่างไร", "th"),
    ("ما هو گوگل كروم؟", "ar"),             # گ in a foreign name: still Arabic
    ("چگونه یک فایل را خط به خط بخوانم؟", "fa"),
    ("میں فائل لائن بہ لائن کیسے پڑھوں؟", "ur"),
    ("איך קוראים קובץ שורה אחרי שורה?", "he"),
    ("Làm thế nào để đọc một tệp?", "vi"),     # ã and õ are not only Portuguese
    ("Nguyễn wrote the tool and the docs.", "en"),
    # English stays English: shared words ("in", "a", "die", "come", "per"), letters of I/O and
    # O_APPEND, code and bare names tell nothing else.
    ("What is a Buffer?", "en"),
    ("Non-blocking I/O", "en"),
    ("Why does the worker die?", "en"),
    ("Does it also work with pipes?", "en"),
    ("Come back to the page per request.", "en"),
    ("On Windows, only O_APPEND, O_CREAT, O_EXCL and O_RDONLY are available.", "en"),
    ("fs.readFile()", "en"),
    ("Buffer", "en"),
])
def test_a_texts_language_is_told_by_its_script_or_its_function_words(text, language):
    assert language_of(text) == language


GERMAN_PAGE = """# Über das Projekt

Das Werkzeug ist eine Laufzeitumgebung für Skripte. Sie wird mit der Datei gestartet, und die
Ausgabe erscheint auf der Konsole. Wenn ein Fehler auftritt, wird der Prozess nicht beendet,
sondern die Meldung wird in das Protokoll geschrieben. Das ist für den Betrieb wichtig, weil die
Anwendung weiterläuft und man die Ursache später in Ruhe suchen kann.
"""
ENGLISH_PAGE = """# About

The tool is a runtime for scripts. It starts from a file, and its output appears on the console.
When an error occurs the process does not exit; the message is written to the log instead, die
hard as that habit may be, so that the application keeps running.
"""

PORTUGUESE_PAGE = """# Sobre

A ferramenta lê o arquivo de configuração e grava o resultado em uma pasta nova. Se houver um erro,
o processo não para: a mensagem é gravada no registro, e você pode executar o comando de novo
depois de corrigir o arquivo. Isso é importante para quem usa a ferramenta em produção.
"""


@pytest.mark.parametrize("body, site, language", [
    (PORTUGUESE_PAGE, "pt-BR", "pt-BR"),   # the site's own tag stands for its language
    (PORTUGUESE_PAGE, "en", "pt"),
    (GERMAN_PAGE, "en", "de"),
    (ENGLISH_PAGE, "de", "en"),          # an English page on a German site
    (ENGLISH_PAGE, "en-GB", "en-GB"),
    ("# API\n\nSee `fs.open()`.", "de", "de"),   # too little prose to tell: the site's
])
def test_a_page_is_served_in_the_language_its_prose_tells_else_in_the_sites(body, site, language):
    assert page_language(body, site) == language


@pytest.mark.parametrize("body, language", [
    (GERMAN_PAGE, "de"),
    ("Trình tải lên sẽ đọc tệp và ghi kết quả vào một thư mục mới. Nếu có lỗi, tiến trình sẽ dừng lại "
     "và thông báo được ghi vào nhật ký. Bạn có thể chạy lại lệnh sau khi sửa tệp cấu hình.", "vi"),
    (ENGLISH_PAGE, "en"),
    ("# API\n\nSee `fs.open()`.", ""),  # too little prose to tell
])
def test_a_page_in_latin_letters_takes_the_language_its_prose_is_written_in(body, language):
    assert written_in(body) == language


@pytest.mark.parametrize("body, language", [
    ("# حول الأداة\n\nتقرأ الأداة ملف الإعدادات وتكتب النتيجة في مجلد جديد. إذا حدث خطأ فلن تتوقف العملية، "
     "بل تُكتب الرسالة في السجل، ويمكنك تشغيل الأمر مرة أخرى بعد تصحيح الملف باستخدام `fs.readFile()`.", "ar"),
    ("# درباره\n\nابزار فایل تنظیمات را می‌خواند و نتیجه را در یک پوشه جدید می‌نویسد. اگر خطایی رخ دهد، "
     "پیام در گزارش نوشته می‌شود و می‌توانید پس از اصلاح فایل دوباره فرمان را اجرا کنید.", "fa"),
    ("# تعارف\n\nیہ ٹول ترتیبات کی فائل پڑھتا ہے اور نتیجہ ایک نئے فولڈر میں لکھتا ہے۔ اگر کوئی خرابی ہو تو "
     "پیغام لاگ میں لکھا جاتا ہے۔", "ur"),
    ("# אודות\n\nהכלי קורא את קובץ ההגדרות וכותב את התוצאה לתיקייה חדשה. אם מתרחשת שגיאה, ההודעה נכתבת "
     "ליומן ואפשר להריץ את הפקודה שוב אחרי תיקון הקובץ.", "he"),
    ("# เกี่ยวกับ\n\nเครื่องมือนี้อ่านไฟล์การตั้งค่าและเขียนผลลัพธ์ลงในโฟลเดอร์ใหม่ หากเกิดข้อผิดพลาด "
     "ข้อความจะถูกเขียนลงในบันทึก และคุณสามารถรันคำสั่งอีกครั้งหลังจากแก้ไขไฟล์", "th"),
])
def test_a_page_in_arabic_hebrew_or_thai_letters_is_tagged_by_its_script_on_an_english_site(body, language):
    assert written_in(body) == language and page_language(body, "en") == language


@pytest.mark.parametrize("body, language", [
    ("Το εργαλείο διαβάζει το αρχείο ρυθμίσεων και γράφει το αποτέλεσμα σε νέο φάκελο. Αν συμβεί σφάλμα, "
     "το μήνυμα γράφεται στο αρχείο καταγραφής.", "el"),
    ("Գործիքը կարդում է կարգավորումների ֆայլը և արդյունքը գրում նոր թղթապանակում։", "hy"),
    ("ინსტრუმენტი კითხულობს პარამეტრების ფაილს და შედეგს წერს ახალ საქაღალდეში.", "ka"),
    ("यह उपकरण सेटिंग्स फ़ाइल पढ़ता है और परिणाम एक नए फ़ोल्डर में लिखता है। अगर कोई त्रुटि होती है, "
     "तो संदेश लॉग में लिखा जाता है।", "hi"),
    ("हे साधन सेटिंग्जची फाइल वाचते आणि निकाल नवीन फोल्डरमध्ये लिहिते. त्रुटी आली तर संदेश लॉगमध्ये "
     "लिहिला जातो आणि प्रक्रिया थांबत नाही.", "mr"),
    ("यो उपकरणले सेटिङ फाइल पढ्छ र नतिजा नयाँ फोल्डरमा लेख्छ। त्रुटि भएमा सन्देश लगमा लेखिन्छ र "
     "प्रक्रिया रोकिँदैन।", "ne"),
    ("এই টুলটি সেটিংস ফাইল পড়ে এবং ফলাফল একটি নতুন ফোল্ডারে লেখে। কোনো ত্রুটি হলে বার্তাটি লগে লেখা হয়।", "bn"),
    ("এই সঁজুলিটোৱে ছেটিংছ ফাইল পঢ়ে আৰু ফলাফল এটা নতুন ফ'ল্ডাৰত লিখে।", "as"),
    ("இந்தக் கருவி அமைப்புகள் கோப்பைப் படித்து முடிவை ஒரு புதிய கோப்புறையில் எழுதுகிறது.", "ta"),
    ("ឧបករណ៍នេះអានឯកសារការកំណត់ ហើយសរសេរលទ្ធផលទៅក្នុងថតថ្មី។", "km"),
    ("መሣሪያው የቅንብሮች ፋይሉን ያነባል እና ውጤቱን በአዲስ አቃፊ ውስጥ ይጽፋል።", "am"),
    # Greek letters as symbols in an English page do not make it Greek.
    ("The area of a circle is π times the square of its radius, and the angle θ is measured in radians. "
     "These are the symbols used in the formulas on this page, and in the examples that follow it.", "en"),
])
def test_a_page_in_another_script_is_tagged_by_it_and_devanagari_by_its_commonest_words(body, language):
    assert page_language(body, "en") == language


@pytest.mark.parametrize("language, pages, line", [
    ("ru", ["en", "ja"], "Цитаты приведены на английском и японском языке, на языке страниц, откуда они взяты."),
    # A language the Russian table does not decline is named by its own name, after a colon.
    ("ru", ["fa", "en"], "Цитаты приведены на языке страниц, откуда они взяты: فارسی / English."),
    ("ja", ["he"], "引用は、引用元のページの言語のままです：עברית。"),
    ("en", ["fa", "he"], "The quotes are in Persian and Hebrew, the language of the pages they come from."),
    ("ar", ["en"], "الاقتباسات بلغة الصفحات التي أُخذت منها: English."),
    ("zh", ["en", "ru"], "引文保留其来源页面的语言：English、русский。"),   # each language's own joiner
    ("en", ["bn"], "The quotes are in Bengali, the language of the pages they come from."),
    ("ru", ["hi"], "Цитаты приведены на языке страниц, откуда они взяты: हिन्दी."),
])
def test_the_quotes_line_names_the_pages_languages_in_the_questions_grammar_or_by_their_own_names(
        language, pages, line):
    assert quoted_in(language, pages) == line


@pytest.mark.parametrize("sentence, passage, supported, why", [
    # German capitalises every noun: Datei and Rückruf are not names the passage must spell.
    ("Man sollte fs.writeFile() nicht mehrmals auf dieselbe Datei anwenden, ohne auf den Rückruf zu warten.",
     "It is unsafe to use fs.writeFile() multiple times on the same file without waiting for the callback.",
     True, "translation"),
    ("Ce n'est pas sûr de reprendre le fonctionnement normal après une 'uncaughtException'.",
     "It is not safe to resume normal operation after 'uncaughtException'.", True, "translation"),
    # The same claims with their negation dropped, and a figure changed.
    ("Es ist sicher, nach einer 'uncaughtException' den normalen Betrieb fortzusetzen.",
     "It is not safe to resume normal operation after 'uncaughtException'.", False, "negation"),
    ("Il est sûr de reprendre le fonctionnement normal après une 'uncaughtException'.",
     "It is not safe to resume normal operation after 'uncaughtException'.", False, "negation"),
    ("Por defecto, se pueden registrar como máximo 20 listeners para un mismo evento.",
     "By default, a maximum of 10 listeners can be registered for any single event.", False, "numbers"),
])
def test_a_sentence_in_another_latin_script_language_is_judged_across_languages(sentence, passage, supported, why):
    evidence = judge(sentence, passage, cosine=0.9)
    assert evidence.supported is supported
    assert evidence.how == why


@pytest.mark.parametrize("text, marks", [
    ("Es ist nicht sicher.", 1), ("Ce n'est pas sûr.", 1), ("No es seguro.", 1), ("Não é seguro.", 1),
    ("继续运行是不安全的。", 1), ("不要な設定です。", 0),   # 不要 is Japanese's word for "unneeded": lexical
    ("Use a sans-serif font with Math.sin() for non-blocking I/O.", 0),
    ("لا يمكن إعادة تشغيل الخادم.", 1), ("يعمل بدون تخزين مؤقت.", 1), ("هل يعمل أم لا؟", 0),
    ("الخادم غير متزامن.", 0),    # غير makes a word's opposite (asynchronous): lexical, as "non-blocking"
    ("ใช้ไม่ได้", 1), ("ไม่มีการบีบอัด", 1), ("ทำงานได้หรือไม่", 0), ("ใช้ไฟล์ใหม่", 0),   # ใหม่ (new) is not ไม่
])
def test_negation_is_read_in_the_other_languages_without_misreading_english(text, marks):
    assert negation.marks(text) == marks


@pytest.mark.parametrize("language", sorted(MESSAGES))
def test_every_language_the_server_speaks_has_its_words_written_in_it(language):
    assert set(MESSAGES[language]) == {"refusal", "fallback", "unverified"}
    assert all(language_of(text) == language for text in MESSAGES[language].values())
    other = "ru" if language == "en" else "en"
    line = quoted_in(language, [other])
    assert language_of(line.replace("English", "")) == language and language in QUOTED_IN
    assert all(language in names for names in LANGUAGE_NAMES.values())
    assert language in ENGLISH_NAMES and language in OWN_NAMES


@pytest.fixture(scope="module")
def client(bundled_release):
    return create_app({"RELEASE_DIR": str(bundled_release), "TESTING": True, **NO_MODEL}).test_client()


@pytest.mark.parametrize("question, language, page", [
    ("Wie viel JavaScript darf eine Seite laden?", "de", "/"),
    ("Que vérifie la porte du navigateur ?", "fr", "/gates/browser"),
    ("Quanto JavaScript uma página pode carregar?", "pt", "/"),
    ("Was passiert, wenn ein Satz auf der Seite zweimal vorkommt?", "de", "/gates/source"),
    ("ماذا يحدث إذا تكررت جملة مرتين في الصفحة؟", "ar", "/gates/source"),
])
def test_a_question_in_another_language_is_answered_from_the_english_pages(
        client, bundled_release, question, language, page):
    result = client.post("/api/chat", json={"question": question}).get_json()
    release = Release.load(bundled_release)
    assert result["language"] == language
    chips = [c for s in result["answer"] for c in s["citations"]]
    assert chips and chips[0]["page"] == page
    assert all(s["text"] == release.passage(s["citations"][0]["id"]).text for s in result["answer"])
    assert result["languages"].rstrip(".").endswith("English") and result["languages"].count(":") == 1


@pytest.mark.parametrize("question, language", [
    ("¿Cuánto cuesta la suscripción mensual del producto?", "es"),
])
def test_a_question_the_pages_do_not_answer_is_refused_in_its_own_language(client, question, language):
    result = client.post("/api/chat", json={"question": question}).get_json()
    [refusal] = result["answer"]
    assert refusal["status"] == "refusal" and refusal["text"] == MESSAGES[language]["refusal"]
    assert result["language"] == language


@pytest.fixture(scope="module")
def fake():
    with serve() as running:
        yield running


@pytest.mark.parametrize("reply, shown, note", [
    # A German sentence without a handle gets the chip of the English passage that supports it …
    ("Jede Seite darf höchstens 8 KB brotli-komprimiertes JavaScript laden.", 1, ""),
    # … a wrong figure gets none, and the pages are quoted instead …
    ("Jede Seite darf höchstens 80 KB brotli-komprimiertes JavaScript laden.", 0, "unverified"),
])
def test_a_german_model_sentence_is_shown_only_with_a_chip_that_supports_it(bundled_release, fake, reply, shown,
                                                                            note):
    question = "Wie viel JavaScript darf eine Seite laden?"
    fake.add(Script(question, reply))
    release, retriever = Release.load(bundled_release), Retriever.load(bundled_release)
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    result = collect(run(question, (), retriever, release, settings))
    model_sentences = [s for s in result["answer"] if s["text"] == reply]
    assert len(model_sentences) == shown
    for sentence in model_sentences:
        assert "8 KB" in sentence["citations"][0]["quote"]
    assert result["note"] == (MESSAGES["de"][note] if note else "")


@pytest.mark.parametrize("question, reply, language", [
    ("Was kostet das Abonnement im Monat?", "Die bereitgestellten Quellen enthalten keine Informationen über die Kosten.",
     "de"),
    ("ما سعر الاشتراك الشهري؟", "لا تذكر المصادر المقدمة أي معلومات عن سعر الاشتراك.", "ar"),
    ("ค่าสมัครสมาชิกรายเดือนเท่าไร", "แหล่งข้อมูลที่ให้มาไม่ได้ระบุค่าสมัครสมาชิก", "th"),
])
def test_a_model_that_says_in_its_language_the_sources_do_not_answer_leaves_the_refusal(bundled_release, fake,
                                                                                       question, reply, language):
    fake.add(Script(question, reply))
    release, retriever = Release.load(bundled_release), Retriever.load(bundled_release)
    settings = ChatSettings(model=ModelSettings(base_url=fake.base_url, timeout=5))
    [refusal] = collect(run(question, (), retriever, release, settings))["answer"]
    assert refusal == {"text": MESSAGES[language]["refusal"], "citations": [], "status": "refusal", "item": False}


def test_in_chromium_an_arabic_answer_reads_right_to_left_and_its_english_chips_left_to_right(bundled_site, page):
    page.goto(f"{bundled_site}/chat")
    assert page.get_attribute("#chat-question", "dir") == "auto"
    page.fill("#chat-question", "ماذا يحدث إذا تكررت جملة مرتين في الصفحة؟")
    page.press("#chat-question", "Enter")
    page.wait_for_selector(".transcript[aria-busy=false] .answer a.chip", timeout=30_000)
    direction = "e => getComputedStyle(e).direction"
    assert page.locator(".transcript .asked").last.evaluate(direction) == "rtl"
    answer = page.locator(".transcript .answer").last
    assert answer.get_attribute("lang") == "ar" and answer.evaluate(direction) == "rtl"
    assert answer.locator("p.note.languages").evaluate(direction) == "rtl"
    chip = answer.locator("a.chip").first
    assert chip.get_attribute("lang") == "en" and chip.evaluate(direction) == "ltr"
    # An English page stays left to right.
    page.goto(f"{bundled_site}/gates/source")
    assert page.locator("main").evaluate(direction) == "ltr"


RIGHT_TO_LEFT_SITE = {
    "index.md": "# About the tool\n\nThe tool reads the settings file and writes the result to a new folder.\n",
    "ar.md": "# حول الأداة\n\nتقرأ الأداة ملف الإعدادات وتكتب النتيجة في مجلد جديد. إذا حدث خطأ فلن تتوقف العملية، "
             "بل تُكتب الرسالة في السجل.\n\nيمكنك تشغيل الأمر مرة أخرى بعد تصحيح الملف باستخدام `fs.readFile()`.\n",
    "he.md": "# אודות\n\nהכלי קורא את קובץ ההגדרות וכותב את התוצאה לתיקייה חדשה. אם מתרחשת שגיאה, ההודעה נכתבת "
             "ליומן.\n",
}


def test_in_chromium_arabic_and_hebrew_pages_without_front_matter_read_right_to_left_and_are_proven(
        tmp_path, trigsight, page):
    content = small_site.write(tmp_path / "content", RIGHT_TO_LEFT_SITE)
    result = small_site.release(trigsight, content, tmp_path / "release", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    proven = {p["page"] for p in json.loads((tmp_path / "release" / "allowlist.json").read_text())["passages"]}
    assert {"/ar", "/he"} <= proven
    direction = "e => getComputedStyle(e).direction"
    with serve_release(tmp_path / "release") as base:
        for path, language, expected in [("/ar", "ar", "rtl"), ("/he", "he", "rtl"), ("/", "en", "ltr")]:
            page.goto(base + path)
            assert page.get_attribute("main", "lang") == language
            assert page.locator("main").evaluate(direction) == expected
            assert page.locator("main p").first.evaluate(direction) == expected


SITE_NAMED_IN_OTHER_SCRIPTS = {
    "index.md": "# Home\n\nStart with [the introduction](入門.md) or [the setup](<руководство/установка.md>).\n",
    "入門.md": "# 入門\n\nこのページは最初に読むべき内容を説明しています。\n\n詳しくは[概要](概要.md)を読んでください。\n",
    "概要.md": "# 概要\n\n全体の構成は三つの部分に分かれています。\n",
    "руководство/установка.md": "# Установка\n\nПрограмму устанавливают одной командой из терминала.\n",
}


def test_in_chromium_pages_named_in_other_scripts_get_their_own_addresses_links_and_proven_passages(
        tmp_path, trigsight, page):
    """Before, each of these file names became the slug "page" and the release was refused as duplicates."""
    content = small_site.write(tmp_path / "content", SITE_NAMED_IN_OTHER_SCRIPTS)
    result = small_site.release(trigsight, content, tmp_path / "release", tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert "/入門 " in result.stderr or "/入門\n" in result.stderr     # the payload report reads as written
    allowlist = json.loads((tmp_path / "release" / "allowlist.json").read_text())
    introduction = "/%E5%85%A5%E9%96%80"
    setup = "/%D1%80%D1%83%D0%BA%D0%BE%D0%B2%D0%BE%D0%B4%D1%81%D1%82%D0%B2%D0%BE/%D1%83%D1%81%D1%82%D0%B0%D0%BD%D0%BE%D0%B2%D0%BA%D0%B0"
    proven = {p["text"]: p for p in allowlist["passages"]}
    claim = proven["このページは最初に読むべき内容を説明しています。"]
    assert claim["page"] == introduction and claim["url"].startswith(introduction + "#:~:text=")
    assert proven["Программу устанавливают одной командой из терминала."]["page"] == setup
    release = Release.load(tmp_path / "release")
    for written in ("/入門", introduction, introduction.lower(), "入門"):     # a path, any case of hex, a slug
        found = release.page(written) if written.startswith("/") else release.page_by_slug(written)
        assert found is not None and found.path == introduction, written
        assert resolve_page(release, f"http://example.org{written}" if written.startswith("/") else written) == found
    with serve_release(tmp_path / "release") as base:
        page.goto(base + "/")
        page.click("main a:text('the introduction')")
        page.wait_for_url(base + introduction)
        assert page.inner_text("main h1") == "入門"
        page.click("main a:text('概要')")
        page.wait_for_url(base + "/%E6%A6%82%E8%A6%81")
        # the address as a person types it reaches the same page; the passage's link lands on its sentence
        page.goto(base + "/руководство/установка")
        assert page.inner_text("main h1") == "Установка"
        page.goto(base + claim["url"])
        page.wait_for_function("document.querySelector(':target') !== null")
        assert page.evaluate("document.querySelector(':target').textContent") == claim["text"]
