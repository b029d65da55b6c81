"""``openloop audit``: each tracker's closes judged at their own standpoint and at now.

Each history is a tracker export (``data/``) imported as the command line imports it, with a
few commits beside it whose ``Completes:`` trailers are the evidence; the verdicts expected are
worked out by hand from the dates.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from resolver.cli.main import main

DATA = Path(__file__).parent / "data"
HISTORIES = {
    "beads": ([str(DATA / "beads_issues.jsonl")], "beads_commits.jsonl"),
    "taskmaster": (
        [str(DATA / "taskmaster_tasks.json"), "--by", "claude", "--agent", "claude"],
        "taskmaster_commits.jsonl",
    ),
    "backlog": ([str(DATA / "backlog"), "--agent", "claude"], "backlog_commits.jsonl"),
}
NOW = "2025-06-30"
SCHEMAS = Path(__file__).resolve().parents[2] / "schemas"


def valid(document: dict, schema: str) -> dict:
    """``document``, checked against ``schemas/SCHEMA.json``."""
    loaded = json.loads((SCHEMAS / f"{schema}.json").read_text(encoding="utf-8"))
    if schema.startswith("sarif"):
        jsonschema.Draft4Validator(loaded).validate(document)
    else:
        jsonschema.Draft202012Validator(loaded).validate(document)
    return document


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def history(tmp_path: Path, capsys, request) -> Path:
    """The tracker named by the test's ``source`` parameter, imported, with its commits."""
    source = request.param
    arguments, commits = HISTORIES[source]
    folder = tmp_path / source
    folder.mkdir()
    code, _, err = run(
        ["ingest", source, *arguments, "--ol", str(folder / "t.ol"), "-o", str(folder / "t.jsonl")],
        capsys,
    )
    assert code == 0, err
    shutil.copy(DATA / commits, folder / "commits.jsonl")
    return folder


def audit_json(folder: Path, capsys, *extra: str) -> tuple[int, dict]:
    code, out, err = run(["audit", str(folder), "--at", NOW, "--format", "json", *extra], capsys)
    assert code in (0, 1), err
    return code, valid(json.loads(out), "audit")


def verdicts(document: dict) -> dict[str, str]:
    return {c["target"]: c["verdict"] for c in document["closes"]}


@pytest.mark.parametrize("history", ["beads"], indirect=True)
def test_beads_each_verdict(history: Path, capsys) -> None:
    code, document = audit_json(history, capsys)
    assert document["schema_version"] == 1 and document["kind"] == "audit"
    assert verdicts(document) == {
        "bd-1": "complete_when_closed",  # c1 landed an hour before the close
        "bd-2": "landed_later",  # the agent closed it; c2 landed two days later
        "bd-3": "never_supported",  # nothing ever completed it
        "bd-5": "unknown",  # the deploy that would complete it has an unknown outcome
    }
    close = next(c for c in document["closes"] if c["target"] == "bd-2")
    assert close["agent"] and close["by"] == "session:a1b2c3"
    assert close["at_close"] == "INCOMPLETE" and close["now"] == "COMPLETE"
    assert "c2" in close["reason"]
    unknown = next(c for c in document["closes"] if c["target"] == "bd-5")
    assert "d1" in unknown["reason"] and "unknown" in unknown["reason"]
    summary = document["summary"]
    assert summary["closes"] == 4 and summary["unsupported"] == 2
    assert summary["by_role"]["agent"]["landed_later"] == 1
    assert summary["by_closer"]["bob"]["never_supported"] == 1
    assert [p["target"] for p in document["false_pending"]] == ["bd-4"], "open, yet satisfied"
    assert code == 1


@pytest.mark.parametrize("history", ["taskmaster"], indirect=True)
def test_taskmaster_a_parent_closed_with_a_subtask_open(history: Path, capsys) -> None:
    _, document = audit_json(history, capsys)
    assert verdicts(document) == {
        "tm-1": "complete_when_closed",
        "tm-2.1": "landed_later",
        "tm-2": "never_supported",  # tm-2.2 is still open
    }
    assert all(c["agent"] for c in document["closes"])
    parent = next(c for c in document["closes"] if c["target"] == "tm-2")
    assert "tm-2.2" in parent["reason"]


@pytest.mark.parametrize("history", ["backlog"], indirect=True)
def test_backlog_and_since(history: Path, capsys) -> None:
    _, document = audit_json(history, capsys)
    assert verdicts(document) == {"task-1": "landed_later", "task-2": "complete_when_closed"}
    assert [p["target"] for p in document["false_pending"]] == ["task-3"]
    _, later = audit_json(history, capsys, "--since", "2025-05-03")
    assert verdicts(later) == {"task-1": "landed_later"}
    assert later["since"] == "2025-05-03T00:00:00Z"


@pytest.mark.parametrize("history", ["beads"], indirect=True)
def test_the_close_is_judged_with_what_was_known_then(history: Path, capsys) -> None:
    """c1 happened before bd-1's close but was recorded after it: at the close it was not
    known, so the close was not supported when made; it landed (as far as anyone knew) later."""
    commits = history / "commits.jsonl"
    lines = commits.read_text().splitlines()
    first = json.loads(lines[0]) | {"recorded": "2025-03-02T12:00:00Z"}
    commits.write_text("\n".join([json.dumps(first), *lines[1:]]) + "\n")
    _, document = audit_json(history, capsys)
    assert verdicts(document)["bd-1"] == "landed_later"


@pytest.mark.parametrize("history", ["beads"], indirect=True)
def test_text_markdown_and_sarif(history: Path, capsys) -> None:
    code, text, _ = run(["audit", str(history), "--at", NOW], capsys)
    assert code == 1
    first = text.splitlines()[1]
    assert first.startswith("4 closes: 1 complete when closed, 1 landed later, 1 never supported")
    assert "50% not supported when made" in first
    assert text.index("BY CLOSER") < text.index("CLOSES (4)") < text.index("FALSE PENDING")
    _, md, _ = run(["audit", str(history), "--at", NOW, "--format", "md"], capsys)
    assert md.startswith("## openloop audit") and "| *agents* | 1 |" in md
    _, sarif, _ = run(["audit", str(history), "--at", NOW, "--format", "sarif"], capsys)
    log = valid(json.loads(sarif), "sarif-2.1.0")
    assert log["version"] == "2.1.0"
    rules = {r["ruleId"] for r in log["runs"][0]["results"]}
    assert rules == {"landed_later", "never_supported", "unknown", "false_pending"}


def test_a_history_without_closes_passes(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.ol").write_text('expectation x { title "Do x" opened 2025-01-01 }\n')
    code, out, _ = run(["audit", str(tmp_path), "--at", NOW], capsys)
    assert code == 0 and "0 closes" in out


def test_bad_input_exits_2(tmp_path: Path, capsys) -> None:
    (tmp_path / "a.jsonl").write_text('{"id": "e1", "channel": "c"}\n')
    code, out, err = run(["audit", str(tmp_path)], capsys)
    assert code == 2 and err.startswith(f"{tmp_path / 'a.jsonl'}:1: error:") and out == ""
    code, _, err = run(["audit", str(tmp_path), "--since", "soon"], capsys)
    assert code == 2 and err.startswith("error: --since:")


def test_hostile_titles_stay_text(tmp_path: Path, capsys) -> None:
    """A title with an escape sequence and HTML, and an id with colons and a comma-free
    ``::``, cannot move the cursor, render as HTML or start a workflow command."""
    title = "\x1b[2J<img src=x onerror=alert(1)>\n::error::forged"
    issue = {"id": "bd-1::x", "title": title, "status": "closed", "assignee": "alice",
             "created_at": "2025-01-01T00:00:00Z", "closed_at": "2025-01-02T00:00:00Z"}  # fmt: skip
    (tmp_path / "issues.jsonl").write_text(json.dumps(issue) + "\n")
    folder = tmp_path / "h"
    folder.mkdir()
    argv = ["ingest", "beads", str(tmp_path / "issues.jsonl"), "--ol", str(folder / "b.ol")]
    assert run([*argv, "-o", str(folder / "b.jsonl")], capsys)[0] == 0
    _, text, _ = run(["audit", str(folder), "--at", NOW], capsys)
    assert "\x1b" not in text and "\\x1b" in text
    assert not any(line.lstrip().startswith("::") for line in text.splitlines())
    _, md, _ = run(["audit", str(folder), "--at", NOW, "--format", "md"], capsys)
    assert "<img" not in md and "&lt;img" in md
    _, gh, _ = run(["audit", str(folder), "--close", "bd-1::x", "--format", "github"], capsys)
    assert gh.count("\n") == 1 and "title=openloop audit --close bd-1%3A%3Ax::" in gh
    assert "\x1b" not in gh
