"""Settings: declared once, documented from the declaration, parsed once at each edge."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from trigsight.gates.liveserver import free_port
from trigsight.retrieval.embedders import MODES
from trigsight.settings import BY_NAME, SETTINGS, PathKind, Settings, SettingsError, Text, readme_table
from trigsight_site import create_app, current_settings

from conftest import ROOT

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
    "GITHUB_ACTIONS": "maybe",
    "TRIGSIGHT_PUBLIC_URL": "docs.example.org",
    "TRIGSIGHT_KEEP_RELEASES": "0",
    "TRIGSIGHT_BROWSERS": "ws://a:3000/,localhost:9222",
    "TRIGSIGHT_BROWSER_TABS": "-1",
}
FREE = {"TRIGSIGHT_CONTENT_DIR", "TRIGSIGHT_RELEASE_DIR", "TRIGSIGHT_CHROMIUM", "TRIGSIGHT_CACHE_DIR",
        "TRIGSIGHT_SITE_CSS", "OPENAI_API_KEY", "TRIGSIGHT_MODEL",
        "GITHUB_WORKSPACE"}


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
    assert (settings.js_budget, settings.chat_timeout, settings.rrf_k) == (8192, 60.0, 60)
    assert (settings.dev, settings.debug) == (False, False)
    assert (settings.release_dir, settings.site_css) == (Path("release"), None)
    assert (settings.embeddings, settings.chat_mode, settings.language) == ("auto", "strict", "")   # "": the folder's
    assert settings.site_title == ""


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
    ("TRIGSIGHT_PUBLIC_URL", "https://docs.example.org/", "https://docs.example.org/"),
    ("TRIGSIGHT_PUBLIC_URL", "", ""),
    ("TRIGSIGHT_KEEP_RELEASES", "2", 2),
    ("TRIGSIGHT_BROWSERS", "", ()),
    ("TRIGSIGHT_BROWSERS", " ws://pool:3000/chromium , http://10.0.0.5:9222",
     ("ws://pool:3000/chromium", "http://10.0.0.5:9222")),
    ("TRIGSIGHT_BROWSER_TABS", "4", 4),
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


# --- the command line: parsed once by the group, exit 2 without a traceback -----------------------


@pytest.mark.parametrize(("command", "name"), [
    (["release"], "TRIGSIGHT_JS_BUDGET"),
    (["release", "--budget", "100"], "TRIGSIGHT_CHAT_TIMEOUT"),
    (["verify"], "TRIGSIGHT_LANGUAGE"),
    (["eval"], "TRIGSIGHT_EMBEDDINGS"),
    (["browser"], "TRIGSIGHT_DEV"),
    (["release"], "TRIGSIGHT_BROWSERS"),
])
def test_a_command_with_a_malformed_setting_exits_2_naming_it_without_a_traceback(trigsight, tmp_path, command, name):
    result = trigsight(*command, cwd=tmp_path, env={name: BAD[name]})
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"{name}: {BAD[name]!r} is not "), result.stderr
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "release").exists()


def test_serve_with_a_malformed_chat_timeout_refuses_to_start_a_real_release(trigsight, bundled_release):
    result = trigsight("serve", "--release", str(bundled_release), "--port", str(free_port()),
                       env={"TRIGSIGHT_CHAT_TIMEOUT": "abc"}, timeout=60)
    assert result.returncode == 2, result.stderr
    assert "TRIGSIGHT_CHAT_TIMEOUT: 'abc' is not a number" in result.stderr
    assert "serving" not in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("how", ["option", "setting"])
def test_the_content_option_overrides_its_setting(trigsight, write_content, tmp_path, how):
    content = write_content({"index.md": "# Home\n\nOne sentence here."})
    if how == "option":
        result = trigsight("verify", "--content", str(content), env={"TRIGSIGHT_CONTENT_DIR": str(tmp_path / "nowhere")})
    else:
        result = trigsight("verify", env={"TRIGSIGHT_CONTENT_DIR": str(content)})
    assert result.returncode == 0, result.stderr
    assert "source gate passed: 0 citations, 1 pages" in result.stdout


def test_an_empty_folder_setting_without_its_option_is_a_usage_error(trigsight):
    result = trigsight("verify", env={"TRIGSIGHT_CONTENT_DIR": ""})
    assert result.returncode == 2
    assert "pass --content or set TRIGSIGHT_CONTENT_DIR" in result.stderr


# --- the app factory: parsed once, a malformed value never reaches a request ----------------------


@pytest.mark.parametrize("how", ["environment", "config"])
def test_a_malformed_chat_timeout_stops_the_app_factory_before_any_request(bundled_release, monkeypatch, how):
    config = {"RELEASE_DIR": str(bundled_release), "TESTING": True}
    if how == "environment":
        monkeypatch.setenv("TRIGSIGHT_CHAT_TIMEOUT", "abc")
    else:
        config["CHAT_TIMEOUT"] = "abc"
    with pytest.raises(SettingsError, match=r"TRIGSIGHT_CHAT_TIMEOUT: 'abc' is not a number of seconds"):
        create_app(config)


def test_the_app_keeps_the_settings_it_is_given_and_checks_typed_overrides(tmp_path):
    given = Settings.from_environ({"TRIGSIGHT_SITE_TITLE": "Garden", "TRIGSIGHT_RELEASE_DIR": str(tmp_path)})
    app = create_app({"SETTINGS": given, "CHAT_TIMEOUT": 3, "DEV": True})
    settings = current_settings(app)
    assert (settings.site_title, settings.release_dir) == ("Garden", tmp_path)
    assert (settings.chat_timeout, settings.dev) == (3.0, True)


def test_gunicorn_started_directly_with_a_malformed_chat_timeout_refuses_to_start(bundled_release):
    environment = {**os.environ, "TRIGSIGHT_RELEASE_DIR": str(bundled_release), "TRIGSIGHT_CHAT_TIMEOUT": "abc"}
    result = subprocess.run(
        [sys.executable, "-m", "gunicorn", "--bind", f"127.0.0.1:{free_port()}", "--workers", "1",
         "trigsight_site:create_app()"], env=environment, capture_output=True, text=True, timeout=60)
    assert result.returncode != 0
    assert "TRIGSIGHT_CHAT_TIMEOUT: 'abc' is not a number of seconds" in result.stderr
    assert "Booting worker" in result.stderr   # it was the worker's app factory that refused


# --- below the edges, modules receive values -----------------------------------------------------

EDGES = {  # the only modules that touch the environment, and why
    "pipeline/cli.py": "the command parses it once",
    "site/__init__.py": "the app factory parses it once",
    "pipeline/gates/liveserver.py": "hands it to the gunicorn it starts",
    "pipeline/gates/chromium.py": "hands it to apt-get",
    "site/gunicorn_conf.py": "a gunicorn hook, given no arguments: the PID of the trigsight that started it",
}


@pytest.mark.parametrize("module", sorted(str(p.relative_to(ROOT)) for folder in ("pipeline", "site")
                                          for p in (ROOT / folder).rglob("*.py")))
def test_only_the_edges_touch_the_environment(module):
    source = (ROOT / module).read_text("utf-8")
    touches = re.search(r"os\.environ|getenv|from_prefixed_env", source.split('"""', 2)[-1])
    assert (touches is None) or module in EDGES, f"{module} reads the environment: take the value as an argument"
