"""docs/ci.md: its workflows are valid for GitHub Actions and GitLab CI, and call trigsight as it really parses."""
from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
import yaml
from trigsight.cli import main

from conftest import ROOT

DOC = (ROOT / "docs" / "ci.md").read_text("utf-8")
BLOCKS = re.findall(r"```yaml\n(.*?)```", DOC, re.DOTALL)
WORKFLOWS = {"github": BLOCKS[0], "gitlab": BLOCKS[1]}
# check-jsonschema ships SchemaStore's schemas for both, so the check runs offline.
SCHEMAS = {"github": "vendor.github-workflows", "gitlab": "vendor.gitlab-ci"}
CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")


def test_the_guide_holds_one_workflow_for_each_ci():
    assert len(BLOCKS) == 2
    assert "jobs" in yaml.safe_load(WORKFLOWS["github"]) and "stages" in yaml.safe_load(WORKFLOWS["gitlab"])


@pytest.mark.parametrize("ci", WORKFLOWS)
def test_the_workflow_is_valid_against_its_ci_schema(tmp_path, ci):
    file = tmp_path / f"{ci}.yml"
    file.write_text(WORKFLOWS[ci], "utf-8")
    done = subprocess.run([str(CHECK_JSONSCHEMA), "--builtin-schema", SCHEMAS[ci], str(file)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr


def commands(ci: str) -> list[str]:
    """Every `trigsight …` line the workflow runs."""
    data = yaml.safe_load(WORKFLOWS[ci])
    if ci == "github":
        lines = [line for job in data["jobs"].values() for step in job["steps"]
                 for line in step.get("run", "").splitlines()]
    else:
        lines = [line for job in data.values() if isinstance(job, dict)
                 for key in ("before_script", "script") for line in job.get(key, [])]
    return [line.strip() for line in lines if line.strip().startswith("trigsight ")]


@pytest.mark.parametrize("ci", WORKFLOWS)
def test_every_trigsight_command_in_the_workflow_parses_with_the_real_cli(ci):
    found = commands(ci)
    assert any(c.startswith("trigsight release ") and "--report-junit" in c for c in found)
    assert any(c.startswith("trigsight payload ") and "--junit" in c for c in found)
    for line in found:
        name, *args = shlex.split(line.replace("$PREVIEW_URL", "https://preview.example.com"))[1:]
        command = main.get_command(click.Context(main), name)
        assert command is not None, line
        try:
            command.make_context(name, args)
        except click.UsageError as error:
            pytest.fail(f"{line}: {error}")


@pytest.mark.parametrize("ci, deploy, needs", [("github", "deploy", "release"), ("gitlab", "deploy", "release")])
def test_deploy_runs_only_after_the_release_job(ci, deploy, needs):
    data = yaml.safe_load(WORKFLOWS[ci])
    job = data["jobs"][deploy] if ci == "github" else data[deploy]
    assert job["needs"] in (needs, [needs])
    if ci == "gitlab":
        stages = data["stages"]
        assert stages.index(job["stage"]) > stages.index(data[needs]["stage"])
