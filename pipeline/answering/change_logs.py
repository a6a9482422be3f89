"""Pages that tell what changed, quoted after pages that tell how things are (pure).

"Will Scrapy wait for the Crawl-delay of robots.txt?" is answered on the page about politeness
("Scrapy does not act on its Crawl-delay…"); the release notes' "Added a crawl_delay() method to
RobotParser" is near it in every leg, and was quoted first. A change log says what a release did
at the time, the rest of the site what holds now: among the quotes chosen for a question that
names no version, those from a change log's pages come after the others, in their own order.

Versioned docs keep an older version's pages beside the current ones: FastMCP's `/v3/servers/progress`
beside `/servers/progress`, both saying "If no progress token is provided, progress calls have no
effect". Quoted from the copy, the chip takes the reader to the docs of a version they may not use. So,
for a question that names no version, a quote from a page whose path, without a version folder ("v3",
"2.0", "version-2.x"), is another page of the site is taken from that page when it says the same
sentence (`on_current_pages`).
"""
from __future__ import annotations

import dataclasses
import re

# a change log's file or folder names: /changelog, /news, /changes/1.7, /change_log/release-2.5,
# /about/releases/9.0, /history/hatch, /versionhistory (AnyIO), /release-notes, /whatsnew/3.12
_NAME = re.compile(r"(?i)^(?:change[-_]?log|changes|news|(?:version[-_]?|release[-_]?)?history|release[-_]?notes|releases"
                   r"|what'?s[-_]?new)$")
# "2.5", "v7", "rxjs@7", "RxJS 7", "Python 3" (not "Crawl-delay: 10", "wait 10 seconds")
_VERSION = re.compile(r"\d+\.\d+|[@vV]\d|[A-Z][\w.-]*\s+\d+(?!\d)")
_VERSION_FOLDER = re.compile(r"(?i)^(?:v|version-)?\d+(?:\.(?:\d+|x))*$")
_TITLE = re.compile(r"(?i)^(?:change[ -]?log|changes|news|release notes|release history|version history|history"
                    r"|what'?s new)\b")
# "In which version…?", "Which release first shipped…?", "since when", "В какой версии…?", "どのバージョンで…?",
# "몇 버전부터…?": what a change log's version headings answer
_RELEASE_ASKED = re.compile(
    r"(?i)\b(?:which|what)\s+(?:\S+\s+){0,2}?(?:version|release)s?\b|\bsince when\b|\bfirst (?:shipped|released)\b"
    r"|\b(?:в|с|начиная с|до) (?:какой|которой) (?:версии|версией)|какой (?:версии|релиз)|в каком релизе"
    r"|(?:どの|何)バージョン|バージョン(?:から|で|は)いつ|いつのバージョン"
    r"|(?:어느|몇|어떤) 버전|버전부터|버전에서")


# "What changed…", "after upgrading", "is it deprecated", "no longer", "Зачем это поменяли?", "以前は", "바뀌었나요":
# a question about a change, which a change log answers even when it names no version
_CHANGE_ASKED = re.compile(
    r"(?i)\b(?:chang(?:e|ed|es|ing)|upgrad\w*|updat(?:e|ed|es|ing)|new in|deprecat\w*|removed|no longer|used to"
    r"|anymore|migrat\w*|regression|breaking)\b"
    r"|обновлени|обновил|обновля|поменял|изменил|изменени|измени|раньше|больше не|устарел|удален|удалил|миграц"
    r"|変更|変わ|更新|アップデート|アップグレード|以前は|廃止|非推奨|移行"
    r"|변경|바뀌|바뀐|업데이트|업그레이드|이전에는|예전에는|더 이상|폐지|지원 중단|마이그레이션")
# How many more chunks are retrieved for a question change logs are set aside for, to still have as many
WIDER = 3


def asks_which_release(question: str) -> bool:
    """Does the question ask in which version or release something came?"""
    return bool(_RELEASE_ASKED.search(question))


def is_change_log(path: str, title: str = "") -> bool:
    """Is the page at `path` (titled `title`) a change log or one release's notes?"""
    return any(_NAME.match(part) for part in path.strip("/").split("/")) or bool(_TITLE.match(title.strip()))


def asks_of_changes(question: str) -> bool:
    """Does the question name a version, ask in which release something came, or ask about a change?"""
    return bool(_VERSION.search(question) or asks_which_release(question) or _CHANGE_ASKED.search(question))


_LOGGED_RELEASES: dict[str, bool] = {}


def sets_change_logs_aside(question: str, release) -> bool:
    """Should the chunks of change logs give way for `question`: it does not ask of changes (`asks_of_changes`)
    and the release has a change log at all (a site without one keeps its retrieval as it was)?"""
    if asks_of_changes(question):
        return False
    if release.release_id not in _LOGGED_RELEASES:
        _LOGGED_RELEASES[release.release_id] = any(is_change_log(page.path, page.title or "") for page in release.pages)
    return _LOGGED_RELEASES[release.release_id]


def current_hits(question: str, hits: list, release, k: int) -> list:
    """The first `k` retrieved chunks (of `hits`, retrieved WIDER times as many), those of change log pages
    after the others, when they should give way (`sets_change_logs_aside`).

    On a site whose change logs are half its text (SQLAlchemy's 17 changelog pages hold half its 30,000
    passages), their chunks took 439 of the 960 places of 48 questions, pushing the page that answers out of the
    candidates (bench/answers/change_log_places.py); a change log still answers where no other page is retrieved."""
    if not sets_change_logs_aside(question, release):
        return hits[:k]
    logged = {hit.page: is_change_log(hit.page, getattr(release.page(hit.page), "title", "") or "") for hit in hits}
    return sorted(hits, key=lambda hit: logged[hit.page])[:k]


def present_first(question: str, chosen: list, release) -> list:
    """The quotes (each with a `passage_id`), those of change log pages moved after the others, unless
    the question names a version ("rxjs@7", "RxJS 7", "since 2.5") or asks in which one something
    came, which a change log tells."""
    if _VERSION.search(question) or asks_which_release(question):
        return chosen
    def logged(quoted) -> bool:
        passage = release.passage(quoted.passage_id)
        page = release.page(passage.page) if passage is not None else None
        return page is not None and is_change_log(page.path, page.title or "")
    return sorted(chosen, key=logged)


def on_current_pages(question: str, chosen: list, release) -> list:
    """The quotes (each with a `passage_id`), each from an older version's copy of a page taken from the current
    page when it says the same sentence, unless the question names a version; a passage is quoted once."""
    if _VERSION.search(question):
        return chosen
    out: dict[str, object] = {}
    for quoted in chosen:
        current = current_copy(release.passage(quoted.passage_id), release)
        found = dataclasses.replace(quoted, passage_id=current.id) if current is not None else quoted
        out.setdefault(found.passage_id, found)
    return list(out.values())


def current_copy(passage, release):
    """The same sentence on the current page of which `passage`'s page is an older version's copy, or None."""
    parts = passage.page.strip("/").split("/")
    for number, part in enumerate(parts[:-1]):
        if _VERSION_FOLDER.match(part):
            current = "/" + "/".join(parts[:number] + parts[number + 1:])
            return next((p for p in release.passages_of(current) if p.text == passage.text), None)
    return None
