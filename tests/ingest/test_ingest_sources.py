"""``openloop ingest github`` and ``openloop ingest junit``: mappings, verdicts and bad input."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from resolver.cli.main import main

DATA = Path(__file__).parent / "data"


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def events(text: str) -> dict[str, dict]:
    return {e["id"]: e for e in (json.loads(line) for line in text.splitlines())}


def test_github_issues_and_pulls_map_to_events(capsys) -> None:
    code, out, _ = run(
        ["ingest", "github", str(DATA / "gh_issues.json"), str(DATA / "gh_prs.json")], capsys
    )
    assert code == 0
    got = events(out)
    assert list(got) == sorted(got, key=lambda i: (got[i]["at"], i))  # time order
    assert got["issue-12-opened"] == {
        "id": "issue-12-opened", "channel": "issues", "at": "2024-03-01T08:00:00Z",
        "recorded": "2024-03-01T08:00:00Z", "by": "alice", "kind": "issue",
        "text": "Crash on an empty file name\n\n"
                "Saving a file with an empty name crashes the editor.",
    }  # fmt: skip
    assert got["issue-12-closed"]["completes"] == ["issue-12"]
    assert got["issue-12-closed"]["at"] == "2024-03-04T09:30:00Z"
    assert got["issue-13-closed"]["cancels"] == ["issue-13"]
    assert got["issue-14-closed"]["supersedes"] == ["issue-14"]
    assert "issue-15-closed" not in got  # still open
    merged = got["pr-21-merged"]
    assert (merged["channel"], merged["kind"], merged["set"], merged["completes"]) == (
        "pulls", "merge", {"pr.21": "merged"}, ["issue-12"],
    )  # fmt: skip
    assert "pr-22-merged" not in got  # closed without merging


def test_github_verdicts_through_the_generated_declarations(tmp_path: Path, capsys) -> None:
    folder = tmp_path / "history"
    folder.mkdir()
    argv = ["ingest", "github", str(DATA / "gh_issues.json"), str(DATA / "gh_prs.json")]
    argv += ["--ol", str(folder / "issues.ol"), "-o", str(folder / "issues.jsonl")]
    assert run(argv, capsys)[0] == 0
    code, out, _ = run(
        ["status", str(folder), "--at", "2024-04-01", "--known", "latest", "--format", "json"],
        capsys,
    )
    assert code == 0
    verdicts = {e["id"]: e for e in json.loads(out)["expectations"]}
    assert (verdicts["issue-12"]["status"], verdicts["issue-12"]["closed_by"]) == (
        "SATISFIED", "pr-21-merged",
    )  # fmt: skip
    assert verdicts["issue-12"]["tier"] == "explicit"
    assert verdicts["issue-13"]["status"] == "CANCELLED"
    assert verdicts["issue-14"]["status"] == "SUPERSEDED"
    assert verdicts["issue-15"]["status"] == "OPEN"


def test_junit_suites_become_state_evidence(capsys) -> None:
    code, out, _ = run(["ingest", "junit", str(DATA / "junit.xml"), "--key", "ci"], capsys)
    assert code == 0
    got = list(events(out).values())
    assert [(e["id"], e["at"], e["set"]) for e in got] == [
        ("test-run-unit-20240304T090000Z", "2024-03-04T09:00:00Z", {"ci.unit": "passed"}),
        ("test-run-integration-20240304T100500Z", "2024-03-04T10:05:00Z",
         {"ci.integration": "failed"}),
    ]  # fmt: skip
    assert {(e["channel"], e["kind"]) for e in got} == {("ci", "test_run")}
    assert got[0]["text"] == "Test suite unit passed: 3 tests, 0 failed, 1 skipped"


def test_junit_rerun_appends_nothing_new(tmp_path: Path, capsys) -> None:
    log = tmp_path / "ci.jsonl"
    for _ in range(2):
        assert (
            run(["ingest", "junit", str(DATA / "junit.xml"), "--append", str(log)], capsys)[0] == 0
        )
    assert len(log.read_text().splitlines()) == 2


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bomb.xml", '<?xml version="1.0"?>\n<!DOCTYPE t [<!ENTITY a "aaaaaaaa">\n'
         '<!ENTITY b "&a;&a;&a;&a;">]>\n<testsuite name="t">&b;</testsuite>\n', "refused"),
        ("broken.xml", '<testsuites>\n  <testsuite name="t">\n</testsuites>\n', "{file}:3:"),
        ("other.xml", "<html><body/></html>\n", "expected <testsuites> or <testsuite>"),
        ("nostamp.xml", '<testsuite name="t" tests="1"/>\n', "has no timestamp"),
    ],
)  # fmt: skip
def test_junit_bad_input(tmp_path: Path, capsys, name: str, content: str, message: str) -> None:
    source = tmp_path / name
    source.write_text(content, encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, _, err = run(["ingest", "junit", str(source), "-o", str(out)], capsys)
    assert code == 2
    assert message.format(file=source) in err and ": error: " in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"number": 1}\n', "{file}:1: error: expected a JSON array"),
        ('[\n  {"number": 1, "title": "t"},\n  {"id": 2}\n]\n', "{file}:2: error: neither a gh"),
        ('[\n  {"number": 1, "title": "t", "state": "OPEN", "labels": []}\n]\n', "lacks createdAt"),
        ('[\n  {"number": 1,\n', "{file}:3: error: invalid JSON"),
        ('[{"number": "x", "title": "t", "state": "OPEN", "createdAt": "2024-01-01T00:00:00Z", '
         '"mergedAt": null}]', "positive integer"),
    ],
)  # fmt: skip
def test_github_bad_input(tmp_path: Path, capsys, content: str, message: str) -> None:
    source = tmp_path / "gh.json"
    source.write_text(content, encoding="utf-8")
    out, ol = tmp_path / "out.jsonl", tmp_path / "out.ol"
    code, _, err = run(["ingest", "github", str(source), "--ol", str(ol), "-o", str(out)], capsys)
    assert code == 2
    assert message.format(file=source) in err
    assert not out.exists() and not ol.exists()


def test_a_missing_file_is_reported(tmp_path: Path, capsys) -> None:
    code, _, err = run(["ingest", "github", str(tmp_path / "nope.json")], capsys)
    assert code == 2 and "no such file" in err
    code, _, err = run(["ingest", "junit", str(tmp_path / "nope.xml")], capsys)
    assert code == 2 and "no such file" in err


def test_fixture_copies_stay_parseable(tmp_path: Path, capsys) -> None:
    copy = tmp_path / "issues.json"
    shutil.copy(DATA / "gh_issues.json", copy)
    assert run(["ingest", "github", str(copy), "-o", str(tmp_path / "x.jsonl")], capsys)[0] == 0
