"""JUnit XML as CI tools read it: validated against Jenkins' junit-10.xsd (vendored, MIT), counts checked."""
from __future__ import annotations

from pathlib import Path

from lxml import etree

SCHEMA = etree.XMLSchema(etree.parse(str(Path(__file__).parent / "schemas" / "junit-10.xsd")))
OUTCOMES = ("failure", "error", "skipped")


def read_junit(path: Path) -> list[dict]:
    """Validate the file against the schema and its counts against its cases; return the cases."""
    tree = etree.parse(str(path))
    SCHEMA.assertValid(tree)
    root = tree.getroot()
    assert root.tag == "testsuites"
    cases = []
    for suite in root.iter("testsuite"):
        rows = [_case(suite.get("name"), case) for case in suite.iter("testcase")]
        assert int(suite.get("tests")) == len(rows), suite.get("name")
        for attribute, outcome in (("failures", "failure"), ("errors", "error"), ("skipped", "skipped")):
            assert int(suite.get(attribute)) == sum(r["status"] == outcome for r in rows), (suite.get("name"), attribute)
        cases += rows
    assert int(root.get("tests")) == len(cases)
    assert int(root.get("failures")) == sum(c["status"] == "failure" for c in cases)
    assert int(root.get("errors")) == sum(c["status"] == "error" for c in cases)
    return cases


def _case(suite: str, case) -> dict:
    outcomes = [child for child in case if child.tag in OUTCOMES]
    assert len(outcomes) <= 1, etree.tostring(case)
    outcome = outcomes[0] if outcomes else None
    out = case.find("system-out")
    return {"suite": suite, "classname": case.get("classname"), "name": case.get("name"),
            "status": outcome.tag if outcome is not None else "passed",
            "message": outcome.get("message") if outcome is not None else "",
            "text": (outcome.text or "") if outcome is not None else "",
            "out": out.text if out is not None else ""}


def by_suite(cases: list[dict]) -> dict[str, dict[str, str]]:
    """suite → case name → status."""
    table: dict[str, dict[str, str]] = {}
    for case in cases:
        table.setdefault(case["suite"], {})[case["name"]] = case["status"]
    return table
