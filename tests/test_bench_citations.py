"""bench/citations/verify.py: `trigsight verify` on the bundled content, and its fabricated-passage demo."""
import subprocess
import sys

from conftest import ROOT


def run_verify(*args):
    return subprocess.run([sys.executable, str(ROOT / "bench/citations/verify.py"), *args],
                          capture_output=True, text=True, timeout=120)


def test_verify_passes_on_the_bundled_content():
    result = run_verify()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "source gate passed" in result.stdout


def test_verify_demo_rejects_a_fabricated_passage_and_says_why():
    result = run_verify("--demo")
    assert result.returncode == 1
    planted_line = len((ROOT / "content/index.md").read_text("utf-8").splitlines()) + 3
    assert f'index.md:{planted_line}: cited passage "trigsight won the 2025 Turing Award' in result.stderr
    assert "is not on /results" in result.stderr
    assert "source gate REFUSED (exit 1)" in result.stdout
