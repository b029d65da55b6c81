"""``openloop ledger`` as a user runs it: real processes, real files, exit codes and outputs."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import ledger_helpers as h
import pytest

from resolver.cli.main import main


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "resolver", "ledger", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )


def test_refresh_list_history_rebuild_in_a_real_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    h.write_history(tmp_path / "history")
    done = _run("refresh", "history", "--at", "2024-02-01", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("refreshed .openloop/ledger.db: refresh 1 at 2024-02-01")
    assert "4 expectations checked, 2 open" in done.stdout
    assert (tmp_path / ".openloop" / "ledger.db").is_file()  # the default, beside the user

    h.append(tmp_path / "history", h.CLOSING)
    listed = _run("list", "--format", "json", cwd=tmp_path)
    assert listed.returncode == 0, listed.stderr
    data = json.loads(listed.stdout)
    assert (data["schema_version"], data["kind"]) == (1, "ledger_list")
    assert [(e["id"], e["status"], e["state"]) for e in data["entries"]] == [
        ("audited", "UNKNOWN", "stale"),
        ("backups", "OPEN", "stale"),
    ]
    assert data["counts"] == {"open": 2, "fresh": 0, "stale": 2}
    assert data["refresh"]["read_through"][0]["lines"] == 4

    again = _run("refresh", "history", "--at", "2024-02-03", "--format", "json", cwd=tmp_path)
    assert json.loads(again.stdout)["changed"] == ["backups"]
    table = _run("list", "--stale-after", "1d", cwd=tmp_path).stdout
    rows = [line.split() for line in table.splitlines()[3:] if line.strip()]
    assert rows[0][:3] == ["audited", "UNKNOWN", "UNKNOWN"] and rows[0][-1] == "fresh"
    assert "backups" not in table
    assert table.rstrip().endswith("1 open: 1 fresh, 0 stale")

    past = _run("history", "backups", cwd=tmp_path)
    assert past.returncode == 0
    rows = [line.split() for line in past.stdout.splitlines()[3:]]
    assert [row[3:] for row in rows] == [
        ["OPEN", "CORROBORATED_OPEN", "-", "history/events.jsonl:4"],
        ["SATISFIED", "-", "c-3", "(state)", "history/events.jsonl:5"],
    ]

    monkeypatch.chdir(tmp_path)  # the same commands in this process, to keep the test short
    assert main(["ledger", "rebuild", "history", "--at", "2024-02-03"]) == 0
    assert capsys.readouterr().out.startswith("rebuilt .openloop/ledger.db: refresh 3")
    assert main(["ledger", "history", "backups", "--format", "json"]) == 0
    checks = json.loads(capsys.readouterr().out)
    assert checks["kind"] == "ledger_history" and len(checks["checks"]) == 1
    assert checks["checks"][0]["read_through"][0]["lines"] == 5


def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path: Path, capsys) -> None:
    h.write_history(tmp_path / "history")
    db = tmp_path / "ledger.db"
    assert main(["ledger", "list", "--db", str(db)]) == 2
    assert capsys.readouterr().err == (
        f"{db}: error: no ledger here; run 'openloop ledger refresh PATH... --db FILE' first\n"
    )
    assert not db.exists()
    (tmp_path / "history" / "bad.jsonl").write_text('{"id": "x", "channel": "commits"}\n')
    assert main(["ledger", "refresh", str(tmp_path / "history"), "--db", str(db)]) == 2
    assert "bad.jsonl:1: error:" in capsys.readouterr().err
    assert not db.exists()
    (tmp_path / "history" / "bad.jsonl").unlink()
    assert main(["ledger", "refresh", str(tmp_path / "history"), "--db", str(db)]) == 0
    capsys.readouterr()
    assert main(["ledger", "list", "--db", str(db), "--stale-after", "soon"]) == 2
    assert capsys.readouterr().err.startswith("error: --stale-after: expected a duration")
    assert main(["ledger", "history", "nothing", "--db", str(db)]) == 2
    assert capsys.readouterr().err == f"{db}: error: no recorded check of 'nothing'\n"


@pytest.mark.parametrize("sub", ["refresh", "list", "history", "rebuild"])
def test_every_subcommand_explains_itself(sub: str, capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["ledger", sub, "--help"])
    assert stop.value.code == 0
    assert "--db FILE" in capsys.readouterr().out
