"""Settings: declared once with their types, and documented from the declaration."""
from __future__ import annotations

from pathlib import Path

import pytest
from conftest import ROOT
from trigsight.retrieval.embedders import MODES
from trigsight.settings import BY_NAME, SETTINGS, PathKind, Settings, SettingsError, Text, readme_table

README = (ROOT / "README.md").read_text("utf-8")
NAMES = [s.name for s in SETTINGS]

# One malformed value for every setting that can be malformed; the rest take any text or path.
BAD = {
    "TRIGSIGHT_SITE_TITLE": "   ",
    "TRIGSIGHT_LANGUAGE": "english",
    "TRIGSIGHT_DEV": "maybe",
    "TRIGSIGHT_JS_BUDGET": "abc",
    "TRIGSIGHT_EMBEDDINGS": "gpu",
    "TRIGSIGHT_RRF_K": "0",
    "OPENAI_BASE_URL": "localhost:8080/v1",
    "TRIGSIGHT_CHAT_MODE": "loose",
    "TRIGSIGHT_CHAT_TIMEOUT": "abc",
    "TRIGSIGHT_DEBUG": "verbose",
}
FREE = {"TRIGSIGHT_CONTENT_DIR", "TRIGSIGHT_RELEASE_DIR", "TRIGSIGHT_CHROMIUM", "TRIGSIGHT_CACHE_DIR",
        "TRIGSIGHT_SITE_CSS", "OPENAI_API_KEY", "TRIGSIGHT_MODEL"}


def readme_rows() -> dict[str, list[str]]:
    section = README.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split(" | ")]
        if line.startswith("| `"):
            rows[cells[0].strip("`")] = cells[1:]
    return rows


# --- the README table is the declaration --------------------------------------------------------


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_every_setting_is_in_the_readme_with_its_default_what_it_accepts_and_what_it_does(setting):
    default = f"`{setting.default}`" if setting.default else "(empty)"
    assert readme_rows().get(setting.name) == [default, setting.kind.expected, setting.help]


def test_the_readme_documents_no_setting_that_is_not_declared():
    assert list(readme_rows()) == NAMES


def test_the_readme_table_is_the_one_drawn_from_the_declaration():
    assert readme_table() in README, "paste the output of `python -m trigsight.settings` into the README"


def test_readme_shows_the_two_setup_commands_first():
    first_block = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in first_block and "make test" in first_block


# --- parsing ----------------------------------------------------------------------------------


def test_an_empty_environment_gives_every_declared_default_typed():
    settings = Settings.from_environ({})
    assert (settings.js_budget, settings.chat_timeout, settings.rrf_k) == (8192, 20.0, 60)
    assert (settings.dev, settings.debug) == (False, False)
    assert (settings.release_dir, settings.site_css) == (Path("release"), None)
    assert (settings.embeddings, settings.chat_mode, settings.language) == ("auto", "strict", "en")


def test_the_embedding_modes_a_setting_accepts_are_the_ones_the_embedders_know():
    assert BY_NAME["TRIGSIGHT_EMBEDDINGS"].kind.options == MODES


@pytest.mark.parametrize(("name", "raw", "value"), [
    ("TRIGSIGHT_JS_BUDGET", "0", 0),
    ("TRIGSIGHT_JS_BUDGET", " 12000 ", 12000),
    ("TRIGSIGHT_CHAT_TIMEOUT", "2.5", 2.5),
    ("TRIGSIGHT_DEV", "1", True),
    ("TRIGSIGHT_DEV", "Yes", True),
    ("TRIGSIGHT_DEV", "0", False),
    ("TRIGSIGHT_DEV", "", False),
    ("TRIGSIGHT_CHAT_MODE", "Lenient", "lenient"),
    ("TRIGSIGHT_LANGUAGE", "pt-BR", "pt-BR"),
    ("TRIGSIGHT_RELEASE_DIR", "", None),
    ("TRIGSIGHT_SITE_CSS", "theme.css", Path("theme.css")),
    ("OPENAI_BASE_URL", "http://127.0.0.1:8080/v1", "http://127.0.0.1:8080/v1"),
])
def test_a_well_formed_value_arrives_typed(name, raw, value):
    assert getattr(Settings.from_environ({name: raw}), BY_NAME[name].field) == value


def test_every_setting_either_refuses_a_malformed_value_or_takes_any_text():
    assert set(BAD) | FREE == set(NAMES) and not set(BAD) & FREE
    assert all(isinstance(BY_NAME[name].kind, (Text, PathKind)) and not getattr(BY_NAME[name].kind, "pattern", "")
               for name in FREE)


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_malformed_setting_is_refused_naming_the_variable_the_value_and_what_it_accepts(name):
    with pytest.raises(SettingsError) as raised:
        Settings.from_environ({name: BAD[name]})
    [problem] = raised.value.problems
    assert problem.path == name
    assert repr(BAD[name]) in problem.message and BY_NAME[name].kind.expected in problem.message
    assert raised.value.exit_code == 2


@pytest.mark.parametrize("raw", ["nan", "inf", "0", "-5"])
def test_a_chat_timeout_that_is_not_a_positive_finite_number_is_refused(raw):
    with pytest.raises(SettingsError, match="TRIGSIGHT_CHAT_TIMEOUT"):
        Settings.from_environ({"TRIGSIGHT_CHAT_TIMEOUT": raw})


def test_every_malformed_setting_is_reported_at_once():
    with pytest.raises(SettingsError) as raised:
        Settings.from_environ(BAD)
    assert [p.path for p in raised.value.problems] == [name for name in NAMES if name in BAD]
