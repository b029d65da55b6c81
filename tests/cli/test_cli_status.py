"""`openloop status` on the release fixture, in every format, and its errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
RELEASE = str(ROOT / "fixtures" / "release")


def run_json(capsys, *args: str) -> dict:
    assert main(["status", *args, "--format", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def by_id(document: dict) -> dict:
    return {x["id"]: x for x in document["expectations"]}


def test_backup_obligation_open_at_the_cut(capsys):
    doc = run_json(capsys, RELEASE, "--at", "2024-08-23", "--reasons", "all")
    assert doc["standpoint"] == {"at": "2024-08-23T00:00:00Z", "known": "2024-08-23T00:00:00Z"}
    backup = by_id(doc)["intent-401"]
    assert backup["status"] == "OPEN"
    assert backup["confidence"] == "CORROBORATED_OPEN"
    assert backup["closed_by"] is None and backup["tier"] is None
    assert backup["opened_at"] == "2024-07-17T09:30:00Z"
    assert backup["bound"] == "2024-08-30T00:00:00Z"
    assert backup["task"] == "release-prep"
    assert backup["footprint"]["complete"] is True
    assert set(backup["footprint"]["channels"]) == {"commits", "decisions", "issues", "releases"}
    rejected = {r["event"]: r for r in backup["reasons"] if r["code"] == "candidate_rejected"}
    assert "commit-115" in rejected


def test_backup_obligation_satisfied_from_27_august(capsys):
    doc = run_json(capsys, RELEASE, "--at", "2024-08-28")
    backup = by_id(doc)["intent-401"]
    assert (backup["status"], backup["closed_by"], backup["tier"]) == (
        "SATISFIED",
        "commit-118",
        "state",
    )
    assert backup["closed_at"] == "2024-08-27T10:00:00Z"
    assert backup["confidence"] is None


@pytest.mark.parametrize(
    ("ident", "status", "closed_by", "tier"),
    [
        ("event-store-migration", "SATISFIED", "commit-116", "state"),
        ("docs-update", "SATISFIED", "commit-113", "semantic"),
        ("bench-fixtures", "SATISFIED", "commit-114", "state"),
        ("tune-041", "SUPERSEDED", "commit-116", None),
        ("staging-backups", "CANCELLED", "adr-008", None),
    ],
)
def test_the_other_five_expectations(capsys, ident, status, closed_by, tier):
    verdict = by_id(run_json(capsys, RELEASE, "--at", "2024-08-28"))[ident]
    assert (verdict["status"], verdict["closed_by"], verdict["tier"]) == (status, closed_by, tier)


def test_cleanup_commit_closes_nothing(capsys):
    doc = run_json(capsys, RELEASE, "--at", "2024-09-30")
    assert all(x["closed_by"] != "commit-115" for x in doc["expectations"])


def test_no_expectation_from_the_redis_suggestion(capsys):
    doc = run_json(capsys, RELEASE, "--at", "2024-09-30")
    assert not any("redis" in (x["title"] or "").lower() for x in doc["expectations"])


def test_task_and_false_completion(capsys):
    doc = run_json(capsys, RELEASE, "--at", "2024-08-23")
    (task,) = doc["tasks"]
    assert task["status"] == "INCOMPLETE" and task["outstanding"] == ["intent-401"]
    (finding,) = doc["findings"]
    assert finding == {
        "kind": "FALSE_COMPLETION",
        "event": "claim-9",
        "by": "bot-7",
        "target": "release-prep",
        "outstanding": ["intent-401"],
    }


def test_known_latest_prints_latest(capsys):
    doc = run_json(capsys, RELEASE, "--at", "2024-08-28", "--known", "latest")
    assert doc["standpoint"]["known"] == "latest"


def test_table_fits_80_columns(capsys):
    assert main(["status", RELEASE, "--at", "2024-08-23"]) == 0
    out = capsys.readouterr().out
    assert "intent-401" in out and "searched 4/4 channels" in out
    # The summary line (the second) counts every status on one line, however wide.
    lines = out.splitlines()
    assert max(len(line) for line in lines[:1] + lines[2:]) <= 80


def test_markdown(capsys):
    assert main(["status", RELEASE, "--at", "2024-08-28", "--format", "md", "--all"]) == 0
    out = capsys.readouterr().out
    assert "| intent-401 | Move backups to PostgreSQL before release | SATISFIED |" in out
    assert "| commit-118 | state |" in out


def test_output_file(tmp_path, capsys):
    target = tmp_path / "out.json"
    assert (
        main(["status", RELEASE, "--at", "2024-08-28", "--format", "json", "-o", str(target)]) == 0
    )
    assert json.loads(target.read_text())["expectations"]


# --- bad input -------------------------------------------------------------------------------


def _fails(capsys, args: list[str]) -> str:
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    return captured.err


def test_syntax_error_points_at_line_and_column(tmp_path, capsys):
    bad = tmp_path / "bad.ol"
    bad.write_text('expectation x {\n  title "t"\n  wnat k = "v"\n}\n')
    err = _fails(capsys, ["status", str(bad), "--at", "2024-01-01"])
    assert err.startswith(f"{bad}:3:3: error:")
    assert "wnat" in err


def test_bad_time(tmp_path, capsys):
    bad = tmp_path / "bad.ol"
    bad.write_text("expectation x { opened 2024-13-45 }\n")
    err = _fails(capsys, ["status", str(bad), "--at", "2024-01-01"])
    assert err.startswith(f"{bad}:1:24: error:")


def test_bad_json_line(tmp_path, capsys):
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "channel": "c", "at": "2024-01-01"}\n{"id": \n')
    err = _fails(capsys, ["status", str(bad), "--at", "2024-01-01"])
    assert err.startswith(f"{bad}:2: error:")


def test_conflicting_duplicate(tmp_path, capsys):
    bad = tmp_path / "dup.jsonl"
    bad.write_text(
        '{"id": "a", "channel": "c", "at": "2024-01-01"}\n'
        '{"id": "a", "channel": "c", "at": "2024-01-02"}\n'
    )
    err = _fails(capsys, ["status", str(bad), "--at", "2024-01-01"])
    assert err.startswith(f"{bad}:2: error:") and "conflicts" in err


def test_bad_at_option(capsys):
    err = _fails(capsys, ["status", RELEASE, "--at", "yesterday"])
    assert "--at" in err


def test_time_outside_supported_range(capsys):
    err = _fails(capsys, ["status", RELEASE, "--at", "2150-01-01"])
    assert "1970..2100" in err


def test_nothing_written_on_error(tmp_path, capsys):
    bad = tmp_path / "bad.ol"
    bad.write_text("expectation {\n")
    target = tmp_path / "out.json"
    _fails(capsys, ["status", str(bad), "--format", "json", "-o", str(target)])
    assert not target.exists()
