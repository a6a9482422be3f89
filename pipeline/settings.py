"""Every setting, declared once: environment name, default and what it does.

The README's settings table is checked against this list by the tests.
"""
from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Setting:
    name: str
    default: str
    help: str

    def get(self) -> str:
        return os.environ.get(self.name, self.default)


SETTINGS = [
    Setting("TRIGSIGHT_CONTENT_DIR", "content", "Markdown folder that `trigsight release` builds."),
    Setting("TRIGSIGHT_RELEASE_DIR", "release", "Published release folder that `trigsight serve` serves."),
    Setting("TRIGSIGHT_SITE_TITLE", "trigsight", "Site name shown in page titles and the header."),
    Setting("TRIGSIGHT_LANGUAGE", "en", "Language of pages whose front matter names none."),
    Setting("TRIGSIGHT_CHROMIUM", "", "Chromium executable for the browser gate; empty: /usr/bin/chromium "
            "when present, else Playwright's own browser."),
    Setting("TRIGSIGHT_CACHE_DIR", ".cache/trigsight", "Browser-gate proofs and embedding vectors kept between releases."),
    Setting("TRIGSIGHT_SITE_CSS", "", "Author stylesheet appended to the site's style.css; the browser gate proves every link with it."),
    Setting("TRIGSIGHT_DEV", "", "`1`: development server extras (gate reports at /reports/browser, linked from every page)."),
    Setting("TRIGSIGHT_JS_BUDGET", "8192", "Payload gate budget: brotli JavaScript bytes per page."),
    Setting("TRIGSIGHT_EMBEDDINGS", "auto", "Vector leg of the index: `auto` (OpenAI text-embedding-3-small when "
            "OPENAI_API_KEY is set, else offline), `offline` (multilingual Universal Sentence Encoder) or `openai`."),
    Setting("TRIGSIGHT_RRF_K", "60", "Reciprocal rank fusion constant k for the hybrid ranking (stored in the index)."),
    Setting("OPENAI_API_KEY", "", "Enables OpenAI embeddings and chat; empty keeps everything offline."),
    Setting("OPENAI_BASE_URL", "", "Any OpenAI-compatible server (llama.cpp, Ollama, vLLM) for chat."),
    Setting("TRIGSIGHT_MODEL", "gpt-4o-mini", "Chat model name sent to the OpenAI-compatible server."),
    Setting("TRIGSIGHT_CHAT_MODE", "strict", "`strict`: a chat sentence without a supporting citation is removed; "
            "`lenient`: it is shown marked unverified."),
    Setting("TRIGSIGHT_CHAT_TIMEOUT", "20", "Seconds the chat waits for the model to connect or send its next piece "
            "(a whole answer gets six times as long) before answering offline with a note."),
]

BY_NAME = {s.name: s for s in SETTINGS}


def setting(name: str) -> str:
    return BY_NAME[name].get()
