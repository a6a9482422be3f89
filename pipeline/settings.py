"""Every setting, declared once: environment name, type, default and what it does.

`Settings.from_environ(os.environ)` parses and checks all of them at once; only the edges
call it (the CLI group, the app factory, a bench's `main`). Everything below an edge
receives typed values as arguments. The README's configuration table is this
declaration, drawn by `readme_table()` and compared by the tests.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from .errors import Problem, UsageError
from .setting_kinds import Choice, Endpoints, Flag, Integer, Number, PathKind, Text


class SettingsError(UsageError):
    """A setting has a value its type does not accept; each problem names the variable."""


# --- the declaration ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Setting:
    name: str          # the environment variable
    kind: Any
    default: str       # as it would be written in the environment
    help: str

    @property
    def field(self) -> str:
        """The attribute on `Settings`: TRIGSIGHT_JS_BUDGET → js_budget."""
        return self.name.removeprefix("TRIGSIGHT_").lower()

    @property
    def key(self) -> str:
        """The app-factory config key a test may pass instead: TRIGSIGHT_JS_BUDGET → JS_BUDGET."""
        return self.name.removeprefix("TRIGSIGHT_")

    def parse(self, raw: str):
        try:
            return self.kind.parse(raw)
        except ValueError:
            default = f"the default is {self.default}" if self.default else "empty by default"
            raise SettingsError(f"{raw!r} is not {self.kind.expected} ({default})", self.name) from None


SETTINGS = [
    Setting("TRIGSIGHT_CONTENT_DIR", PathKind(), "content", "Markdown folder that `trigsight release` builds."),
    Setting("TRIGSIGHT_RELEASE_DIR", PathKind(), "release",
            "Where `trigsight release` publishes, and the release `trigsight serve` and `trigsight eval` read."),
    Setting("TRIGSIGHT_SITE_TITLE", Text(r"(.*\S.*)?", "a title, or empty"), "",
            "Site name shown in page titles and the header; empty: the name the docs folder's generator gives "
            "it (mkdocs.yml `site_name`, conf.py `project`, …), else trigsight."),
    Setting("TRIGSIGHT_LANGUAGE", Text(r"([A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*)?", "a language tag such as en or pt-BR"),
            "", "Language of pages whose front matter names none and whose script or function words tell none; "
            "empty: the one the docs folder's generator states (conf.py `language`, mkdocs.yml `theme.language`, "
            "…), else en."),
    Setting("TRIGSIGHT_CHROMIUM", Text(expected="an executable name or path; empty for the default"), "",
            "Chromium executable for the browser gate; empty: /usr/bin/chromium when present, "
            "else Playwright's own browser."),
    Setting("TRIGSIGHT_BROWSERS", Endpoints(), "",
            "Browsers the browser gate spreads pages over instead of launching Chromium: each a Playwright "
            "browser server (`ws://host:port/…`) or a Chromium DevTools endpoint (`http://host:port`); pages are "
            "delivered to them from this machine, no port is opened. All must run the same Chromium version."),
    Setting("TRIGSIGHT_BROWSER_TABS", Integer(low=0, unit="tabs"), "0",
            "Pages in flight per browser in the browser gate; 0: one per core (at least 2) for the local Chromium, "
            "2 per browser in TRIGSIGHT_BROWSERS."),
    Setting("TRIGSIGHT_CACHE_DIR", PathKind(), ".cache/trigsight",
            "Pages' readings (source gate), browser-gate proofs, payload figures, embedding vectors and the last index, kept between releases."),
    Setting("TRIGSIGHT_SITE_CSS", PathKind(), "",
            "Author stylesheet appended to the site's style.css; the browser gate proves every link with it."),
    Setting("TRIGSIGHT_DEV", Flag(), "",
            "On: development server extras (gate reports at /reports/browser, linked from every page)."),
    Setting("TRIGSIGHT_JS_BUDGET", Integer(low=0, unit="bytes"), "8192",
            "Payload gate budget: brotli JavaScript bytes per page (`--budget` overrides it)."),
    Setting("TRIGSIGHT_EMBEDDINGS", Choice(("auto", "offline", "openai")), "auto",
            "Vector leg of the index: `auto` (OpenAI text-embedding-3-small when OPENAI_API_KEY is set, else "
            "offline), `offline` (multilingual Universal Sentence Encoder) or `openai`."),
    Setting("TRIGSIGHT_RRF_K", Integer(low=1), "60",
            "Reciprocal rank fusion constant k for the hybrid ranking (stored in the index)."),
    Setting("OPENAI_API_KEY", Text(), "", "Enables OpenAI embeddings and chat; empty keeps everything offline."),
    Setting("OPENAI_BASE_URL", Text(r"(https?://\S+)?", "an http:// or https:// URL, or empty"), "",
            "Any OpenAI-compatible server (llama.cpp, Ollama, vLLM) for chat, and for embeddings when "
            "OPENAI_API_KEY is set."),
    Setting("TRIGSIGHT_MODEL", Text(), "",
            "Chat model name sent to the OpenAI-compatible server; empty: gpt-4o-mini on the hosted API, and "
            "on a server of one's own (OPENAI_BASE_URL) the first chat model it lists."),
    Setting("TRIGSIGHT_CHAT_MODE", Choice(("strict", "lenient")), "strict",
            "`strict`: a chat sentence without a supporting citation is removed; "
            "`lenient`: it is shown marked unverified."),
    Setting("TRIGSIGHT_CHAT_TIMEOUT", Number(low=0.1, unit="seconds"), "60",
            "Seconds the chat waits for the model to connect or send its next piece "
            "(a whole answer gets three times as long) before answering offline with a note; a small model on a "
            "laptop's CPU may take most of a minute to read the prompt."),
    Setting("TRIGSIGHT_PUBLIC_URL", Text(r"(https?://[^\s/?#]+(/[^\s?#]*)?)?", "an http:// or https:// URL without "
                                         "query or fragment, or empty"), "",
            "Public base URL of the site (e.g. https://docs.example.org): MCP links start with it and only its "
            "origin may call /api/mcp; empty: links are relative and only loopback origins may call."),
    Setting("TRIGSIGHT_KEEP_RELEASES", Integer(low=1, unit="releases"), "5",
            "How many published releases `trigsight release` keeps in releases/ (the live one included), "
            "for rollback."),
    Setting("TRIGSIGHT_DEBUG", Flag(), "",
            "On: a `trigsight` command that fails unexpectedly prints the traceback instead of one line."),
    Setting("GITHUB_ACTIONS", Flag(), "",
            "Set to true by GitHub Actions: `trigsight release` and `trigsight payload` also print each failure "
            "as an `::error` workflow annotation, shown on the pull request's diff."),
    Setting("GITHUB_WORKSPACE", PathKind(), "",
            "Set by GitHub Actions: the repository root that annotation paths are made relative to "
            "(empty: the current folder)."),
]

BY_NAME = {s.name: s for s in SETTINGS}


@dataclass(frozen=True)
class Settings:
    """Every setting, typed and checked. Build it with `from_environ`, at an edge only."""

    content_dir: Path | None
    release_dir: Path | None
    site_title: str
    language: str
    chromium: str
    browsers: tuple[str, ...]
    browser_tabs: int
    cache_dir: Path | None
    site_css: Path | None
    dev: bool
    js_budget: int
    embeddings: str
    rrf_k: int
    openai_api_key: str
    openai_base_url: str
    model: str
    chat_mode: str
    chat_timeout: float
    public_url: str
    keep_releases: int
    debug: bool
    github_actions: bool
    github_workspace: Path | None

    @classmethod
    def from_environ(cls, environ: Mapping[str, str]) -> "Settings":
        """Parse every declared variable (unset: its default); one SettingsError lists every bad one."""
        values, problems = {}, []
        for setting in SETTINGS:
            raw = environ.get(setting.name)
            try:
                values[setting.field] = setting.parse(setting.default if raw is None else raw)
            except SettingsError as error:
                problems.extend(error.problems)
        if problems:
            raise _error(problems)
        return cls(**values)

    def override(self, values: Mapping[str, Any]) -> "Settings":
        """A copy with some settings replaced, by environment name or config key; checked the same way.

        Values may be typed (a test's `CHAT_TIMEOUT=3`) or text; both go through the declared parser.
        """
        changes, problems = {}, []
        for given, value in values.items():
            setting = BY_NAME.get(given) or BY_NAME.get(f"TRIGSIGHT_{given}")
            if setting is None:
                raise KeyError(f"{given} is not a declared setting")
            try:
                changes[setting.field] = setting.parse("" if value is None else str(value))
            except SettingsError as error:
                problems.extend(error.problems)
        if problems:
            raise _error(problems)
        return dataclasses.replace(self, **changes)


def _error(problems: list[Problem]) -> SettingsError:
    names = ", ".join(p.path for p in problems)
    return SettingsError(f"malformed setting: {names}", problems=problems)


def readme_table() -> str:
    """The README's configuration table, drawn from the declaration."""
    rows = ["| setting | default | accepts | what it does |", "|---|---|---|---|"]
    for s in SETTINGS:
        default = f"`{s.default}`" if s.default else "(empty)"
        rows.append(f"| `{s.name}` | {default} | {s.kind.expected} | {s.help} |")
    return "\n".join(rows)


if __name__ == "__main__":
    print(readme_table())
