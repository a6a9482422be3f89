"""bench/citations/verify.py: the source gate alone, and its fabricated-passage demo."""
import subprocess
import sys

from conftest import ROOT


def run_verify(*args):
    return subprocess.run([sys.executable, str(ROOT / "bench/citations/verify.py"), *args],
                          capture_output=True, text=True, timeout=120)


def test_verify_passes_on_the_bundled_content():
    result = run_verify()
    assert result.returncode == 0, result.stdout + result.stderr
    assert "source gate: passed" in result.stdout


def test_verify_demo_rejects_a_fabricated_passage_and_says_why():
    result = run_verify("--demo")
    assert result.returncode == 1
    assert "Turing Award" in result.stdout and "is not on /results" in result.stdout
    assert "source gate: REFUSED" in result.stdout
