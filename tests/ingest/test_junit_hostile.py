"""``openloop ingest junit`` over hostile reports (issue 29): every refusal is ``FILE:LINE: error:``
at the suite's line, exit 2, nothing written; whatever imports reads back; and a run that ran no
test is no evidence that tests pass."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main
from tests.fuzz.roundtrip import import_problem

SUITE = '<testsuite name="{name}" tests="{tests}" failures="{failures}" skipped="{skipped}" '
SUITE += 'timestamp="{stamp}">{cases}</testsuite>'


def report(tmp_path: Path, **fields: str) -> Path:
    """A report whose one suite starts on line 3."""
    values = {"name": "unit", "tests": "2", "failures": "0", "skipped": "0"}
    values |= {"stamp": "2024-03-04T10:00:00", "cases": ""} | fields
    source = tmp_path / "r.xml"
    source.write_text(
        f'<?xml version="1.0"?>\n<testsuites>\n{SUITE.format(**values)}\n</testsuites>\n',
        encoding="utf-8",
    )
    return source


def ingest(tmp_path: Path, source: Path, capsys, *extra: str) -> tuple[int, str, list[dict]]:
    out = tmp_path / "out.jsonl"
    out.unlink(missing_ok=True)
    capsys.readouterr()
    code = main(["ingest", "junit", str(source), "-o", str(out), *extra])
    err = capsys.readouterr().err
    if code != 0:
        assert not out.exists()
        return code, err, []
    return code, err, [json.loads(line) for line in out.read_text().splitlines()]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"name": "a&#10;b"}, "testsuite name 'a\\nb' holds a control character"),
        ({"name": "a&#133;b"}, "testsuite name 'a\\x85b' holds a control character"),
        ({"name": "a\u2028b"}, "testsuite name 'a\\u2028b' holds a control character"),
        ({"tests": "inf"}, "attribute tests='inf' is not a count"),
        ({"tests": "NaN"}, "attribute tests='NaN' is not a count"),
        ({"tests": "-1"}, "attribute tests='-1' is not a count"),
        ({"tests": "1e300"}, "attribute tests='1e300' is not a count"),
        ({"tests": "2147483648"}, "attribute tests='2147483648' is not a count"),
        ({"tests": "2.5"}, "attribute tests='2.5' is not a count"),
        ({"failures": "-inf"}, "attribute failures='-inf' is not a count"),
        ({"skipped": "many"}, "attribute skipped='many' is not a count"),
        ({"stamp": "1969-12-31T23:59:59"}, "is outside 1970..2100"),
        ({"stamp": "2101-01-01T00:00:00"}, "is outside 1970..2100"),
        ({"stamp": "0001-01-01T00:00:00+14:00"}, "is outside 1970..2100"),
        ({"stamp": "9999-12-31T23:59:59-23:59"}, "is outside 1970..2100"),
        ({"stamp": "2024-02-30T00:00:00"}, "is not an ISO-8601 time"),
        ({"stamp": "yesterday"}, "is not an ISO-8601 time"),
    ],
)
def test_bad_suites_are_refused_at_their_line(tmp_path: Path, capsys, fields, message) -> None:
    source = report(tmp_path, **fields)
    code, err, _ = ingest(tmp_path, source, capsys)
    assert code == 2
    assert err.startswith(f"{source}:3: error: ") and message in err, err
    assert err.count("\n") == 1


def test_a_control_character_reference_is_malformed_xml_at_its_position(tmp_path, capsys) -> None:
    source = report(tmp_path, name="a&#27;b")  # XML 1.0 allows no ESC, not even as a reference
    code, err, _ = ingest(tmp_path, source, capsys)
    assert code == 2 and err.startswith(f"{source}:3:") and "malformed XML" in err


@pytest.mark.parametrize(("option", "value"), [("--key", "ci\nx"), ("--channel", "c i")])
def test_bad_options_are_refused_before_writing(tmp_path: Path, capsys, option, value) -> None:
    code, err, _ = ingest(tmp_path, report(tmp_path), capsys, option, value)
    assert code == 2 and option in err


@pytest.mark.parametrize(
    ("fields", "verdict"),
    [
        ({"tests": "0"}, "empty"),  # pytest's report when it collected nothing
        ({"tests": ""}, "empty"),
        ({"tests": "3", "skipped": "3"}, "empty"),  # every test skipped: none ran
        ({"tests": "0", "failures": "1"}, "failed"),  # e.g. a collection error
        ({"tests": "2.0"}, "passed"),
        ({"cases": '<testcase name="a"><skipped/></testcase>'}, "empty"),
        ({"cases": '<testcase name="a"/><testcase name="b"><skipped/></testcase>'}, "passed"),
    ],
)
def test_a_run_that_ran_no_test_is_not_passed(tmp_path: Path, capsys, fields, verdict) -> None:
    code, _, events = ingest(tmp_path, report(tmp_path, **fields), capsys)
    assert code == 0
    assert [e["set"] for e in events] == [{"tests.unit": verdict}]
    if verdict == "empty":
        assert "ran no test" in events[0]["text"]


def test_an_empty_run_leaves_the_expectation_open(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "history"
    folder.mkdir()
    (folder / "want.ol").write_text(
        'expectation green {\n  title "unit tests pass"\n  opened 2024-01-01\n'
        '  want tests.unit = "passed"\n  verify state\n}\n',
        encoding="utf-8",
    )
    states = {}
    for tests in ("0", "2"):
        source = report(tmp_path, tests=tests)
        assert main(["ingest", "junit", str(source), "-o", str(folder / "ci.jsonl")]) == 0
        capsys.readouterr()
        argv = ["status", str(folder), "--at", "2024-04-01", "--format", "json"]
        assert main(argv) == 0
        states[tests] = json.loads(capsys.readouterr().out)["expectations"][0]["status"]
    assert states == {"0": "OPEN", "2": "SATISFIED"}


@pytest.mark.parametrize(
    "fields",
    [
        {"name": "a\u00a0b \\ &quot;quoted&quot; ::error file=x::y"},
        {"name": "&lt;script&gt;"},
        {"name": ""},
        {"name": "\u202eevil"},
        {"name": "x" * 5000},
        {"tests": "2147483647"},
        {"stamp": "2100-12-31T23:59:59"},
        {"stamp": "1970-01-01T00:00:00Z"},
        {"stamp": "2024-03-04T10:00:00.999999-12:00"},
    ],
)
def test_odd_but_valid_suites_import_and_read_back(tmp_path: Path, fields) -> None:
    source = report(tmp_path, **fields)
    out = tmp_path / "out.jsonl"
    assert import_problem(["ingest", "junit", str(source), "-o", str(out)], source, [out]) is None
    assert out.exists()
