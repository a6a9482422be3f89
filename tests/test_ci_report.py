"""CI reports: one case per page and gate as JUnit XML (schema-valid) and JSON, and GitHub annotations."""
from __future__ import annotations

import json

import pytest
from trigsight.errors import ContentError, GateFailed, Problem, UsageError
from trigsight.gates import annotations, ci_report

from conftest import write_files
from junit import by_suite, read_junit

PAGES = [("/", "content/index.md"), ("/notes", "content/notes.md")]


def fed(stages: list[tuple[str, Exception | None]], pages=PAGES, figures=None) -> ci_report.Report:
    """A release's report, fed stage by stage as release.run feeds it; a stage with an error raises it."""
    report = ci_report.Report("release")
    report.figures = figures or {}
    for name, error in stages:
        try:
            with report.stage(name):
                if error is not None:
                    raise error
                if name == "source":       # the build hands its pages over only when it succeeds
                    report.set_pages(pages)
        except Exception as raised:
            assert raised is error
            break
    return report.close()


def junit_of(report: ci_report.Report, tmp_path) -> list[dict]:
    file = tmp_path / "junit.xml"
    file.write_bytes(ci_report.to_junit(report))
    return read_junit(file)


CITATION = Problem("content/index.md", 7, 'citation of /notes "Cold water.": Chromium finds no match')
SCENARIOS = {
    "every gate passes": (
        [("source", None), ("browser", None), ("index", None), ("payload", None)],
        {"trigsight.source": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.browser": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.payload": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"}}),
    "the browser gate refuses a citation": (
        [("source", None), ("browser", GateFailed("browser", [CITATION]))],
        {"trigsight.source": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.browser": {"/ (content/index.md)": "failure", "/notes (content/notes.md)": "passed"},
         "trigsight.payload": {"/ (content/index.md)": "skipped", "/notes (content/notes.md)": "skipped"}}),
    "the payload gate names a URL path": (
        [("source", None), ("browser", None), ("index", None),
         ("payload", GateFailed("payload", [Problem("/notes", None, "9000 bytes of JavaScript > budget 8192 bytes")]))],
        {"trigsight.source": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.browser": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.payload": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "failure"}}),
    "a content error stops it before the pages are known": (
        [("source", ContentError("front matter opened with '---' is never closed", "content/notes.md", 1))],
        {"trigsight.source": {"content/notes.md": "failure"}}),     # browser and payload: suites of 0 tests
    "the index stage breaks": (
        [("source", None), ("browser", None), ("index", RuntimeError("disk full"))],
        {"trigsight.source": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.browser": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.payload": {"/ (content/index.md)": "skipped", "/notes (content/notes.md)": "skipped"},
         "trigsight.index": {"index": "error"}}),
    "the browser cannot be started": (
        [("source", None), ("browser", UsageError("no Chromium found", "chromium"))],
        {"trigsight.source": {"/ (content/index.md)": "passed", "/notes (content/notes.md)": "passed"},
         "trigsight.browser": {"/ (content/index.md)": "skipped", "/notes (content/notes.md)": "skipped",
                               "chromium": "error"},
         "trigsight.payload": {"/ (content/index.md)": "skipped", "/notes (content/notes.md)": "skipped"}}),
}


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_junit_has_one_valid_case_per_page_and_gate_with_the_right_outcome(tmp_path, scenario):
    stages, expected = SCENARIOS[scenario]
    report = fed(stages)
    assert by_suite(junit_of(report, tmp_path)) == expected


@pytest.mark.parametrize("first", ["index", "payload"])
def test_of_two_stages_run_at_once_the_earlier_in_stage_order_stopped_the_run(first):
    report = ci_report.Report("release")
    report.set_pages(PAGES)
    over = GateFailed("payload", [Problem("/", None, "/: 9000 bytes of JavaScript on the wire > budget 8192 bytes")])
    failures = {"index": UsageError("TRIGSIGHT_EMBEDDINGS=openai needs OPENAI_API_KEY", "OPENAI_API_KEY"),
                "payload": over}
    for name in (first, *{"index", "payload"} - {first}):     # the order they happened to end in
        with pytest.raises(type(failures[name])), report.stage(name):
            raise failures[name]
    assert ci_report.to_json(report.close())["stopped_by"] == "index"


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_json_counts_agree_with_the_cases_and_name_the_stage_that_stopped(scenario):
    stages, expected = SCENARIOS[scenario]
    body = json.loads(json.dumps(ci_report.to_json(fed(stages))))
    statuses = [case["status"] for case in body["cases"]]
    assert body["schema"] == "trigsight.ci-report/1" and body["command"] == "release"
    assert body["summary"] == {"tests": len(statuses), "passed": statuses.count("passed"),
                               "failures": statuses.count("failed"), "errors": statuses.count("error"),
                               "skipped": statuses.count("skipped")}
    failed_stage = next((name for name, error in stages if error is not None), None)
    assert body["stopped_by"] == failed_stage and body["ok"] is (failed_stage is None)
    assert [g["name"] for g in body["gates"]][:3] == ["source", "browser", "payload"]
    assert sum(g["tests"] for g in body["gates"]) == len(statuses)


def test_a_failure_carries_its_file_line_and_reason_into_junit_and_json(tmp_path):
    report = fed([("source", None), ("browser", GateFailed("browser", [CITATION]))])
    [failed] = [c for c in junit_of(report, tmp_path) if c["status"] == "failure"]
    assert failed["message"] == str(CITATION) and failed["text"] == str(CITATION)
    [case] = [c for c in ci_report.to_json(report)["cases"] if c["status"] == "failed"]
    assert case["file"] == "content/index.md" and case["name"] == "/"
    assert case["problems"] == [{"kind": "failure", "path": "content/index.md", "line": 7, "file": "content/index.md",
                                 "message": CITATION.message, "text": str(CITATION)}]


def test_source_gate_failure_lists_the_pages_it_checked(tmp_path):
    error = GateFailed("source", [Problem("content/index.md", 7, "cited passage is not on /notes")], subjects=PAGES)
    report = fed([("source", error)], pages=[])
    assert by_suite(junit_of(report, tmp_path))["trigsight.source"] == {
        "/ (content/index.md)": "failure", "/notes (content/notes.md)": "passed"}


def test_payload_figures_become_each_page_case_details(tmp_path):
    figures = {"payload": {"budget": 8192, "pages": [{"page": "/", "initial": 2432, "lazy": 2750, "total": 5182,
                                                      "runs": [5182], "error": "", "scripts": []}]}}
    report = fed([("source", None), ("browser", None), ("payload", None)], figures=figures)
    [home] = [c for c in ci_report.to_json(report)["cases"] if c["gate"] == "payload" and c["name"] == "/"]
    assert home["details"] == {"initial": 2432, "lazy": 2750, "total": 5182, "runs": [5182], "budget": 8192}
    [junit_home] = [c for c in junit_of(report, tmp_path) if c["suite"] == "trigsight.payload" and c["name"].startswith("/ ")]
    assert "total: 5182" in junit_home["out"]


def test_characters_xml_cannot_carry_are_replaced_and_the_rest_escaped(tmp_path):
    problem = Problem("content/index.md", 2, 'quote "a < b & c" then \x0b and \x1b end')
    report = fed([("source", ContentError("x", problems=[problem]))])
    [case] = junit_of(report, tmp_path)
    assert case["message"] == 'content/index.md:2: quote "a < b & c" then \ufffd and \ufffd end'


# ---- GitHub workflow annotations ---------------------------------------------------------


@pytest.mark.parametrize("function, given, expected", [
    (annotations.escape_data, "50% done", "50%25 done"),
    (annotations.escape_data, "one\r\ntwo\nthree", "one%0D%0Atwo%0Athree"),
    (annotations.escape_data, "a: b, c", "a: b, c"),
    (annotations.escape_property, "a: b, c", "a%3A b%2C c"),
    (annotations.escape_property, "100%,\n", "100%25%2C%0A"),
])
def test_annotation_text_is_escaped_by_githubs_rules(function, given, expected):
    assert function(given) == expected


def test_an_annotation_names_a_repository_file_and_line(tmp_path):
    write_files(tmp_path / "docs" / "content", {"index.md": "# x\n", "notes.md": "# y\n"})
    pages = [("/", "docs/content/index.md"), ("/notes", "docs/content/notes.md")]
    problem = Problem("docs/content/index.md", 7, 'cited passage "a, b: c" is not on /notes')
    report = fed([("source", GateFailed("source", [problem], subjects=pages))], pages=[])
    workspace = tmp_path
    # Seen from docs/, the path names no file: annotated on the run, the message says where.
    assert annotations.annotations(report, workspace, cwd=tmp_path / "docs") == [
        '::error title=trigsight source gate::docs/content/index.md:7: cited passage "a, b: c" is not on /notes']
    assert annotations.annotations(report, workspace, cwd=tmp_path) == [
        '::error file=docs/content/index.md,line=7,title=trigsight source gate::'
        'cited passage "a, b: c" is not on /notes']


def test_a_page_finding_is_annotated_on_its_file_and_a_url_on_the_run(tmp_path):
    write_files(tmp_path / "content", {"index.md": "# x\n", "notes.md": "# y\n"})
    report = fed([("source", None), ("browser", None),
                  ("payload", GateFailed("payload", [Problem("/notes", None, "9000 bytes > budget 8192 bytes")]))])
    assert annotations.annotations(report, tmp_path, tmp_path) == [
        "::error file=content/notes.md,title=trigsight payload gate::/notes: 9000 bytes > budget 8192 bytes"]
    outside = annotations.annotations(report, tmp_path / "elsewhere", tmp_path)
    assert outside == ["::error title=trigsight payload gate::/notes: 9000 bytes > budget 8192 bytes"]


# ---- the real command: reports written when the release is refused -----------------------

REFUSED = {
    "index.md": "---\ntitle: Home\n---\n\n# Home\n\nA short page. [[cite:notes|This sentence, 100% made up, is not there.]]\n",
    "notes.md": "# Notes\n\nThe notes page holds one sentence.\n",
}


def test_release_refused_by_the_source_gate_writes_reports_and_annotations(trigsight, tmp_path):
    write_files(tmp_path / "content", REFUSED)
    result = trigsight("release", "--content", "content", "--out", "release", "--report-junit", "out/ci/junit.xml",
                       "--report-json", "out/ci/report.json", cwd=tmp_path,
                       env={"GITHUB_ACTIONS": "true", "GITHUB_WORKSPACE": str(tmp_path),
                            "TRIGSIGHT_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 1, result.stderr
    expected = 'content/index.md:7: cited passage "This sentence, 100% made up, is not there." is not on /notes'
    assert expected in result.stderr
    assert result.stdout.splitlines() == [
        "::error file=content/index.md,line=7,title=trigsight source gate::"
        'cited passage "This sentence, 100%25 made up, is not there." is not on /notes']
    cases = read_junit(tmp_path / "out" / "ci" / "junit.xml")
    [failed] = [c for c in cases if c["status"] == "failure"]
    assert failed["message"] == expected and failed["name"] == "/ (content/index.md)"
    assert by_suite(cases)["trigsight.payload"] == {"/ (content/index.md)": "skipped",
                                                    "/notes (content/notes.md)": "skipped",
                                                    "/contents": "skipped"}   # generated: no file
    report = json.loads((tmp_path / "out" / "ci" / "report.json").read_text("utf-8"))
    assert report["stopped_by"] == "source" and report["summary"] == {
        "tests": 9, "passed": 2, "failures": 1, "errors": 0, "skipped": 6}
    assert not (tmp_path / "release").exists()


def test_a_content_error_before_any_gate_still_writes_the_junit_report(trigsight, tmp_path):
    write_files(tmp_path / "content", {**REFUSED, "notes.md": "---\ntitle: Notes\n\n# Notes\n"})
    result = trigsight("release", "--content", "content", "--out", "release", "--report-junit", "junit.xml",
                       cwd=tmp_path, env={"TRIGSIGHT_CACHE_DIR": str(tmp_path / "cache")})
    assert result.returncode == 1 and result.stdout == "", result.stderr
    [case] = read_junit(tmp_path / "junit.xml")
    assert case["status"] == "failure" and case["name"] == "content/notes.md"
    assert case["message"].startswith("content/notes.md:1: front matter")
