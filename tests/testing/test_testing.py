"""``openloop test``: test blocks run against their history, with readable failures and JUnit."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.testing.discovery import discover, run_paths
from resolver.testing.runner import TestRunner, format_block
from tests.helpers import PREAMBLE, prepare_text

HISTORY = """
expectation x {
  title "Move backups to PostgreSQL"
  opened_by open-1
  want backup.backend = "PostgreSQL"
}
task t { opened 2024-07-01 }
expectation y { title "Tidy the docs" part_of t }
event open-1 { channel sessions at 2024-07-17T09:00 text "backups still on sqlite" }
event c1 { channel commits at 2024-08-01 text "backup cleanup moved" }
event c2 { channel commits at 2024-08-10 recorded 2024-08-12 set backup.backend = "PostgreSQL" }
event claim { channel sessions at 2024-08-05 by bot text "all done" claims_complete t }
"""

PASSING = """
test "passes" {
  at 2024-08-05
  expect x open
  expect x confidence corroborated_open
  expect x lacks reopened
  expect task t incomplete
  expect finding false_completion claim
  at 2024-08-11 known latest
  expect x satisfied by c2 tier state
  at 2024-08-11
  expect x open
}
"""


def write(folder: Path, text: str, name: str = "history.ol") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(PREAMBLE + HISTORY + text, encoding="utf-8")
    return path


def test_passing_block_and_summary(tmp_path, capsys):
    write(tmp_path, PASSING)
    assert main(["test", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "7 passed, 0 failed (1 test block)"
    assert "ok   " in out and 'test "passes"' in out


def test_wrong_assertion_fails_with_expected_actual_and_reason(tmp_path, capsys):
    write(tmp_path, 'test "wrong" { at 2024-08-05 expect x satisfied by c2 }')
    assert main(["test", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAIL" in out and "history.ol" in out
    assert "expected: SATISFIED by c2" in out
    assert "actual:   OPEN" in out
    # the reason is the rules' own: what is missing, and the nearest candidate
    assert 'sets backup.backend = "PostgreSQL"' in out
    assert "nearest candidate: c1: rejected [value_not_named]" in out
    assert out.splitlines()[-1] == "0 passed, 1 failed (1 test block)"


@pytest.mark.parametrize(
    ("assertion", "message"),
    [
        ("expect nosuch open", "no expectation named 'nosuch'"),
        ("expect t open", "it is a task"),
        ("expect task x complete", "it is an expectation"),
        ("expect task nosuch complete", "no task named 'nosuch'"),
        ("expect finding false_completion nosuch", "no event named 'nosuch'"),
    ],
)
def test_unknown_names_fail_clearly(assertion, message):
    history = prepare_text(HISTORY + f'test "t" {{ at 2024-08-05 {assertion} }}')
    report = TestRunner(history).run()
    failure = report.blocks[0].failures[0]
    assert message in failure.actual


def test_each_assertion_kind_reports_actual_values():
    history = prepare_text(
        HISTORY
        + """
test "all wrong" {
  at 2024-08-05
  expect x confidence unknown
  expect x has blocked
  expect x lacks claimed_unverified
  expect task t complete
  expect finding false_pending claim
}"""
    )
    failures = TestRunner(history).run().blocks[0].failures
    actual = [f.actual for f in failures]
    assert actual[0] == "confidence CORROBORATED_OPEN"
    assert actual[1] == "flags: none"
    assert actual[2].startswith("task INCOMPLETE (outstanding: y)")
    assert actual[3].startswith("FALSE_COMPLETION about t")
    assert len(failures) == 4  # `lacks claimed_unverified` holds
    assert all(f.reason for f in failures)


def test_one_preparation_answers_every_standpoint(monkeypatch):
    history = prepare_text(HISTORY + PASSING + PASSING.replace('"passes"', '"again"'))
    runner = TestRunner(history)
    report = runner.run()
    assert report.failed == 0 and len(report.blocks) == 2
    assert len(runner._plain) == 3  # three distinct standpoints, each solved once


def test_malformed_assertion_is_bad_input(tmp_path, capsys):
    path = write(tmp_path, 'test "bad" { at 2024-08-05 expect x finished }')
    assert main(["test", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{path}:") and "error:" in err


def test_junit_xml_parses(tmp_path, capsys):
    write(tmp_path, PASSING + 'test "wrong" { at 2024-08-05 expect x satisfied }')
    report = tmp_path / "out" / "junit.xml"
    report.parent.mkdir()
    assert main(["test", str(tmp_path), "--junit", str(report)]) == 1
    root = ET.parse(report).getroot()
    assert root.tag == "testsuites" and root.get("tests") == "2" and root.get("failures") == "1"
    cases = root.findall("./testsuite/testcase")
    assert [c.get("name") for c in cases] == ["passes", "wrong"]
    failure = cases[1].find("failure")
    assert failure is not None and "expected SATISFIED" in failure.get("message")
    assert "why:" in failure.text


def test_folder_of_several_histories(tmp_path):
    # b records c2 at once, a five days later: loaded together the two c2 records would clash.
    write(tmp_path / "a", PASSING)
    b = tmp_path / "b"
    b.mkdir()
    (b / "other.ol").write_text(
        PREAMBLE
        + HISTORY.replace("recorded 2024-08-12 ", "")
        + 'test "known at once" { at 2024-08-11 expect x satisfied by c2 }',
        encoding="utf-8",
    )
    suites = discover([tmp_path])
    assert [Path(s.paths[0]).name for s in suites] == ["a", "b"]
    report = run_paths([tmp_path])
    assert [b.block.name for b in report.blocks] == ["passes", "known at once"]
    assert report.failed == 0


def test_select_by_name_and_quiet(tmp_path, capsys):
    write(tmp_path, PASSING + 'test "wrong" { at 2024-08-05 expect x satisfied }')
    assert main(["test", str(tmp_path), "-k", "pass", "-q"]) == 0
    assert capsys.readouterr().out == "7 passed, 0 failed (1 test block)\n"


def test_no_test_blocks(tmp_path, capsys):
    (tmp_path / "h.ol").write_text(PREAMBLE + HISTORY, encoding="utf-8")
    assert main(["test", str(tmp_path / "h.ol")]) == 0
    assert "no test blocks found" in capsys.readouterr().out


def test_release_fixture_passes_and_reads_well():
    report = run_paths(["fixtures/release"])
    assert report.failed == 0 and len(report.blocks) >= 5
    assert format_block(report.blocks[0]).startswith("ok   fixtures/release/release.ol:")
