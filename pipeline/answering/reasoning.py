"""A thinking model's reasoning, kept out of its answer (pure over a stream of text pieces).

Servers hand a thinking model's reasoning over in one of three ways:

- apart from the answer (`reasoning_content` or `reasoning` in each delta: llama.cpp, vLLM
  with a reasoning parser, Ollama, LM Studio): the chat never reads it;
- in the content, between tags the model writes (`<think>…</think>`, gpt-oss's harmony
  channels): `without_reasoning` cuts it, across pieces, unclosed at the end included;
- in the content with the opening tag written by the chat template into the prompt
  (DeepSeek-R1, QwQ, Qwen3's *Thinking* models, on a server without a reasoning parser): the
  answer starts inside the reasoning, and only a `</think>` with no opening says so. For a
  model of those families (`OPENED_BY_TEMPLATE`, by its name) `held_until_reasoning_ends`
  holds every piece back until the first tag or until the server sends reasoning apart; a
  reply that never closes one is handed on whole at its end. For any other model, a `</think>`
  with no opening drops what came before it, as far as it was not handed on yet.
"""
from __future__ import annotations

import re
from typing import Iterator

# Reasoning opens (`<think>`, harmony's analysis channel), closes (`</think>`, `<|end|>`), or a
# harmony marker around the final answer only goes.
_REASONING = re.compile(
    r"<(?P<close>/)?(?P<tag>think|thinking|reasoning)>"
    r"|(?P<opens><\|channel\|>(?:analysis|commentary)\b[^<\n]*<\|message\|>)"
    r"|(?P<ends><\|end\|>)"
    r"|(?:<\|start\|>assistant)?<\|channel\|>final\b[^<\n]*<\|message\|>|<\|return\|>|<\|start\|>assistant", re.I)
_TAG_START = re.compile(r"<(?:/?[A-Za-z]{0,9}|\|[^\n]{0,60})?$")     # a piece may end inside a tag or marker


def without_reasoning(pieces: Iterator[str]) -> Iterator[str]:
    """The answer without the reasoning a thinking model writes into it: `<think>…</think>` (Qwen3,
    DeepSeek-R1 and the like, when the server leaves it in the content) or gpt-oss's harmony
    channels (`<|channel|>analysis<|message|>…<|end|>`, then the final channel's text), across
    pieces, unclosed at the end included. A `</think>` with no opening (the chat template opened
    it) drops what came before it, as far as it was not handed on yet."""
    pending, inside = "", False
    for piece in pieces:
        pending += piece
        out = []
        while (tag := _REASONING.search(pending)) is not None:
            closing = bool(tag.group("close") or tag.group("ends"))
            opening = bool(tag.group("opens") or tag.group("tag") and not closing)
            if not inside and not closing:
                out.append(pending[:tag.start()])
            if opening or closing:
                inside = opening
            pending = pending[tag.end():]
        held = _TAG_START.search(pending)
        cut = held.start() if held else len(pending)
        if not inside:
            out.append(pending[:cut])
        pending = pending[cut:]
        if text := "".join(out):
            yield text
    if pending and not inside:
        yield pending


# Families whose chat template opens the reasoning in the prompt, so that the reply starts inside it.
OPENED_BY_TEMPLATE = re.compile(r"deepseek[-_.]?r1|(?<![a-z0-9])r1(?![0-9])|qwq|thinking", re.I)


class ReasoningApart(str):
    """Yielded by a stream, once, when the server sends reasoning apart from the answer."""


REASONING_APART = ReasoningApart("")


def held_until_reasoning_ends(pieces: Iterator[str]) -> Iterator[str]:
    """`pieces` with everything before the first reasoning tag held back: dropped when that tag is a
    closing one (the template opened the reasoning), handed on when it opens or when no tag comes.
    Once the server has sent reasoning apart, the content is the answer and flows as it comes."""
    held = ""
    for piece in pieces:
        if piece is REASONING_APART:
            break
        held += piece
        tag = _REASONING.search(held)
        if tag is not None:
            held = held[tag.end():] if tag.group("close") or tag.group("ends") else held
            break
    else:
        if held:
            yield held
        return
    if held:
        yield held
    yield from pieces
