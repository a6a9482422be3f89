"""One chat turn as a stream of events: retrieve, issue handles, answer, resolve, sentence by sentence.

Events, in order: `start` {mode, filter, language}; `context` {sources}; one `sentence`
{text, citations, status} per shown sentence, each sent as soon as it is complete and
resolved; `done` {mode, filter, dropped, resolution, note, languages, backend, retrieval}. The JSON route, the
server-sent events route and the no-JavaScript form all consume the same events.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterator

from ..retrieval.tokenize import tokenize
from . import follow_up, messages, model_client, offline, small_talk, spelling
from .answer import REFUSAL, STRICT, AnswerSentence, distinct_sentences
from .attribution import language_of
from .handles import HandleTable
from .refusals import is_refusal
from .resolver import Resolver

MODEL, OFFLINE = "model", "offline"
CONTEXT_CHUNKS = offline.CONTEXT_CHUNKS

def detect_language(text: str) -> str:
    """The language of a question (trigsight.languages)."""
    return language_of(text)


def languages_line(language: str, shown: list[AnswerSentence]) -> str:
    """In the question's language: which language the quotes are in, when the pages' differs."""
    quoted = list(dict.fromkeys(c.language.split("-")[0] for s in shown for c in s.citations if c.language))
    other = [q for q in quoted if q != language]
    if not other:
        return ""
    return messages.quoted_in(language, other)


def refusal(language: str) -> AnswerSentence:
    return AnswerSentence(messages.message(language, "refusal"), (), REFUSAL)


@dataclass(frozen=True)
class Turn:
    role: str          # "user" or "assistant"
    content: str


@dataclass(frozen=True)
class ChatSettings:
    filter: str = STRICT
    model: model_client.ModelSettings = field(default_factory=model_client.ModelSettings)
    site_title: str = "trigsight"
    chunks: int = CONTEXT_CHUNKS


@dataclass(frozen=True)
class Event:
    kind: str          # start | context | sentence | done
    data: dict


def context_of(table: HandleTable, release) -> list[dict]:
    """The raw retrieved context, as the model saw it, with each passage's allowlisted link."""
    return [{"handle": s.label, "page": s.page, "title": s.title, "section": s.section,
             "passages": [{"id": p.id, "text": p.text, "url": p.url}
                          for p in (release.passage(pid) for pid in s.passage_ids) if p is not None]}
            for s in table]


def run(question: str, history: tuple[Turn, ...], retriever, release, settings: ChatSettings,
        stream: Callable[..., Iterator[str]] = model_client.stream) -> Iterator[Event]:
    """Answer one question; yields events as soon as each is known."""
    asked = small_talk.strip(question) or question     # "Hi! How do I…? Thanks" is "How do I…?"
    language = detect_language(asked)
    if not small_talk.only(asked):
        asked = follow_up.query(asked, history)         # "And on macOS?" after "How does fs.watch…?"
    asked = spelling.corrected(asked, retriever)        # "fs.readfle()" is fs.readFile()
    depth = max(settings.chunks, offline.CANDIDATE_CHUNKS)
    hits, scores = offline.retrieve(asked, retriever, release, k=depth)
    table = HandleTable.issue(hits[:settings.chunks], release)
    ignore = tuple(tokenize(settings.site_title))
    resolver = Resolver(table, release, settings.filter, ignore, retriever.similarity, question,
                        embed=retriever.embed)
    mode = MODEL if settings.model.enabled else OFFLINE
    note = ""
    yield Event("start", {"mode": mode, "filter": settings.filter, "language": language})
    yield Event("context", {"sources": context_of(table, release)})

    shown: list[AnswerSentence] = []
    model = settings.model
    declined = 0       # removed model sentences that only say the sources do not answer
    # A greeting or "Thanks!" alone asks the pages nothing: no sentence a model writes to it could carry a chip.
    if mode == MODEL and len(table) and offline.asks_anything(asked):
        chat = model_client.messages(question, history, table, language)
        try:
            model = model_client.served(settings.model)
            for raw in distinct_sentences(stream(model, chat)):
                if (sentence := resolver.resolve(raw)) is not None:
                    shown.append(sentence)
                    yield Event("sentence", sentence.to_json())
                else:
                    declined += is_refusal(raw)
        except model_client.UpstreamError as error:
            mode = OFFLINE
            note = messages.message(language, "fallback").format(reason=error.reason)
    quoting = mode == OFFLINE
    if mode == MODEL and not shown and resolver.tally.sentences > declined:
        # Every sentence the model wrote was removed: the pages may still answer in their own words.
        # When all it wrote was that the sources do not answer, it read them and the refusal stands.
        quoting = True
        note = messages.message(language, "unverified")
    if quoting:
        cited = {c.id for s in shown for c in s.citations}
        quotes = offline.quoting(asked, hits, scores, retriever, release, language, depth)
        if not quotes and mode == MODEL:
            note = ""
        for sentence in offline.sentences(quotes, release):
            if sentence.citations[0].id not in cited:
                shown.append(sentence)
                yield Event("sentence", sentence.to_json())
    if not shown:
        yield Event("sentence", refusal(language).to_json())
    yield Event("done", {"mode": mode, "filter": settings.filter, "dropped": resolver.tally.dropped(),
                         "resolution": resolver.tally.resolution(), "note": note,
                         "languages": languages_line(language, shown),
                         "backend": model.describe() if mode == MODEL else "extractive (offline)",
                         "retrieval": getattr(retriever, "backend", "")})


def collect(events: Iterator[Event]) -> dict:
    """The whole answer as one JSON-ready document (the `Accept: application/json` shape)."""
    answer, context, result, language = [], [], {}, ""
    for event in events:
        if event.kind == "start":
            language = event.data["language"]
        elif event.kind == "sentence":
            answer.append(event.data)
        elif event.kind == "context":
            context = event.data["sources"]
        elif event.kind == "done":
            result = event.data
    return {"mode": result.get("mode"), "filter": result.get("filter"), "language": language, "answer": answer,
            "dropped": result.get("dropped", {}), "resolution": result.get("resolution", {}),
            "note": result.get("note", ""), "languages": result.get("languages", ""),
            "backend": result.get("backend", ""),
            "retrieval": result.get("retrieval", ""), "context": context}
