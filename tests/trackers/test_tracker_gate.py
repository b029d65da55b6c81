"""The gate at a tracker's close (docs/guide/trackers.md): the commands the documentation shows.

``openloop audit PATH... --close ID`` judges a close of ID made now (exit 0 supported, 1
refused, 3 UNKNOWN; one line first, then the key reason, at most 10,000 characters), and
``openloop check --task ID`` gates a tracker item that has sub-items (a task). The beads hook
script of the documentation is run as beads runs it: the issue id and the event as arguments,
the issue's JSON on standard input.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.faces.audit_text import REFUSAL_LIMIT
from tests.trackers.test_tracker_audit import valid

DATA = Path(__file__).parent / "data"
DOCS = Path(__file__).resolve().parents[2] / "docs" / "guide" / "trackers.md"
NOW = "2025-06-30"


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def beads(tmp_path: Path, capsys) -> Path:
    folder = tmp_path / "history"
    folder.mkdir()
    source = str(DATA / "beads_issues.jsonl")
    argv = ["ingest", "beads", source, "--ol", str(folder / "b.ol"), "-o", str(folder / "b.jsonl")]
    assert run(argv, capsys)[0] == 0
    shutil.copy(DATA / "beads_commits.jsonl", folder / "commits.jsonl")
    return folder


def test_close_gate_exits_and_first_line(beads: Path, capsys) -> None:
    expected = {"bd-1": (0, "supported: "), "bd-3": (1, "REFUSED: "), "bd-5": (3, "UNKNOWN: ")}
    for ident, (exit_code, first) in expected.items():
        code, out, _ = run(["audit", str(beads), "--close", ident, "--at", NOW], capsys)
        assert code == exit_code, out
        lines = out.splitlines()
        assert lines[0].startswith(first + f"closing {ident} ") and len(lines) == 2
        assert len(out) <= REFUSAL_LIMIT
    code, out, _ = run(["audit", str(beads), "--close", "bd-3", "--at", NOW], capsys)
    assert "claim_only" in out, "the key reason: the close itself is only a claim"


def test_close_gate_json_github_and_bad_ids(beads: Path, capsys) -> None:
    code, out, _ = run(["audit", str(beads), "--close", "bd-3", "--format", "json"], capsys)
    document = valid(json.loads(out), "audit_close")
    assert code == 1 and document["kind"] == "audit_close" and document["schema_version"] == 1
    assert document["state"] == "INCOMPLETE" and document["exit"] == 1
    code, out, _ = run(["audit", str(beads), "--close", "bd-3", "--format", "github"], capsys)
    assert code == 1 and re.match(r"::error title=openloop audit --close bd-3::REFUSED: ", out)
    assert out.count("\n") == 1, "one annotation line"
    code, _, err = run(["audit", str(beads), "--close", "bd-99"], capsys)
    assert code == 2 and "no expectation or task named 'bd-99'" in err
    code, _, err = run(["audit", str(beads), "--close", "bd-3", "--format", "md"], capsys)
    assert code == 2 and "--close" in err


def test_a_long_reason_is_cut_to_the_limit(tmp_path: Path, capsys) -> None:
    title = "word " * 3000
    (tmp_path / "a.ol").write_text(f'expectation x {{ title "{title}" opened 2025-01-01 }}\n')
    code, out, _ = run(["audit", str(tmp_path), "--close", "x", "--at", NOW], capsys)
    assert code == 1 and len(out.rstrip("\n")) <= REFUSAL_LIMIT and out.startswith("REFUSED:")


def test_taskmaster_parent_gates_with_check_task(tmp_path: Path, capsys) -> None:
    argv = ["ingest", "taskmaster", str(DATA / "taskmaster_tasks.json"), "--by", "claude"]
    argv += ["--ol", str(tmp_path / "t.ol"), "-o", str(tmp_path / "t.jsonl")]
    assert run(argv, capsys)[0] == 0
    shutil.copy(DATA / "taskmaster_commits.jsonl", tmp_path / "commits.jsonl")
    code, out, _ = run(["check", str(tmp_path), "--task", "tm-2", "--at", NOW], capsys)
    assert code == 1 and "tm-2.2" in out and "tm-2.1" not in out.split("tm-2.2")[0][-200:]
    code, out, _ = run(["audit", str(tmp_path), "--close", "tm-2", "--at", NOW], capsys)
    assert code == 1 and out.startswith("REFUSED: closing tm-2 ") and "tm-2.2" in out
    code, _, _ = run(["audit", str(tmp_path), "--close", "tm-1", "--at", NOW], capsys)
    assert code == 0


def _hook_script() -> str:
    text = DOCS.read_text(encoding="utf-8")
    found = re.search(r"```sh\n(#!/bin/sh\n# \.beads/hooks/on_close.*?)```", text, re.S)
    assert found, "docs/guide/trackers.md shows the beads on_close hook"
    return found.group(1)


def test_the_documented_beads_hook_refuses_and_reopens(tmp_path: Path) -> None:
    """Run the documentation's hook as beads does, with ``bd`` a recorder of its arguments on
    PATH (beads itself is a Go program outside this repository), and the real openloop."""
    workspace = tmp_path / "repo"
    (workspace / ".beads" / "hooks").mkdir(parents=True)
    (workspace / ".openloop").mkdir()
    shutil.copy(DATA / "beads_commits.jsonl", workspace / ".openloop" / "commits.jsonl")
    hook = workspace / ".beads" / "hooks" / "on_close"
    hook.write_text(_hook_script())
    hook.chmod(0o755)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "bd-calls.txt"
    exporting = f'cat {DATA / "beads_issues.jsonl"} > "$3"'
    (bin_dir / "bd").write_text(
        f'#!/bin/sh\necho "$@" >> {calls}\nif [ "$1" = export ]; then {exporting}; fi\n'
    )
    (bin_dir / "bd").chmod(0o755)
    (bin_dir / "openloop").write_text(f'#!/bin/sh\nexec {sys.executable} -m resolver "$@"\n')
    (bin_dir / "openloop").chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_dir}:{os.environ['PATH']}"}
    for ident, refused in (("bd-3", True), ("bd-1", False)):
        issue = json.dumps({"id": ident, "status": "closed"})
        done = subprocess.run(
            [str(hook), ident, "close"], input=issue, text=True, cwd=workspace, env=env,
            capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == (1 if refused else 0), done.stderr
        recorded = calls.read_text()
        if refused:
            assert f"reopen {ident} --reason REFUSED: closing {ident} " in recorded
            assert "REFUSED" in done.stderr
        else:
            assert f"reopen {ident}" not in recorded


def test_the_github_action_commands(tmp_path: Path, capsys) -> None:
    """The Action's commands on a GitHub export: the close itself is read as a claim, so only
    a commit that closes the issue supports it."""
    issue = {"body": "", "state": "CLOSED", "stateReason": "COMPLETED", "author": {"login": "a"},
             "labels": [], "url": "", "createdAt": "2025-01-01T00:00:00Z"}  # fmt: skip
    issues = [
        issue
        | {"number": 1, "title": "Crash on an empty file", "closedAt": "2025-01-05T00:00:00Z"},
        issue | {"number": 2, "title": "Slow start", "closedAt": "2025-01-06T00:00:00Z"},
    ]
    (tmp_path / "issues.json").write_text(json.dumps(issues))
    history = tmp_path / ".openloop"
    history.mkdir()
    commit = {"id": "c1", "channel": "commits", "seq": 1, "at": "2025-01-04T00:00:00Z",
              "by": "bob", "kind": "commit", "text": "Guard it\n\nFixes #1",
              "completes": ["issue-1"]}  # fmt: skip
    (history / "commits.jsonl").write_text(json.dumps(commit) + "\n")
    argv = ["ingest", "github", str(tmp_path / "issues.json"), "--ol", str(history / "i.ol")]
    assert run([*argv, "-o", str(history / "i.jsonl")], capsys)[0] == 0
    code, out, _ = run(["audit", str(history), "--close", "issue-2", "--format", "github"], capsys)
    assert code == 1 and out.startswith("::error title=openloop audit --close issue-2::REFUSED")
    code, comment, _ = run(["audit", str(history), "--close", "issue-2"], capsys)
    assert code == 1 and comment.splitlines()[0].startswith("REFUSED: closing issue-2 (Slow start)")
    code, out, _ = run(["audit", str(history), "--close", "issue-1", "--format", "github"], capsys)
    assert code == 0 and out.startswith("::notice ")


def test_the_measurement_export_builder(tmp_path: Path) -> None:
    from tests.trackers.github_export import export

    log = tmp_path / "commits.jsonl"
    rows = [
        {"id": "a", "channel": "commits", "at": "2025-01-02T00:00:00Z", "text": "See #7"},
        {"id": "b", "channel": "commits", "at": "2025-01-03T00:00:00Z",
         "recorded": "2025-01-04T00:00:00Z", "text": "Fix it, fixes #7", "completes": ["issue-7"]},
    ]  # fmt: skip
    log.write_text("".join(json.dumps(r) + "\n" for r in rows))
    (submit,) = export(str(log), "submit")
    assert submit["number"] == 7 and submit["title"] == "Fix it, fixes #7"
    assert submit["createdAt"] == "2025-01-01T23:00:00Z"
    assert submit["closedAt"] == "2025-01-03T00:00:00Z"
    assert export(str(log), "merge")[0]["closedAt"] == "2025-01-04T00:00:00Z"
