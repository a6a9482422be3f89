"""Settings are declared once and each one is documented in the README."""
import pytest
from trigsight.settings import SETTINGS

from conftest import ROOT

README = (ROOT / "README.md").read_text("utf-8")


@pytest.mark.parametrize("setting", SETTINGS, ids=lambda s: s.name)
def test_every_setting_is_documented_in_the_readme(setting):
    assert f"| `{setting.name}` |" in README


def test_readme_shows_the_two_setup_commands_first():
    first_block = README.split("```sh", 1)[1].split("```", 1)[0]
    assert "make run" in first_block and "make test" in first_block
