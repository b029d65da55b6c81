"""Dogfood: ``ingest git --todos`` then ``status`` on a fresh clone of this repository."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from resolver.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
STATUSES = {"OPEN", "SATISFIED", "CANCELLED", "SUPERSEDED", "WAIVED", "NOT_OPENED", "UNKNOWN"}


@pytest.mark.skipif(not (ROOT / ".git").exists(), reason="not a git checkout (e.g. an sdist)")
@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_openloop_judges_its_own_history(tmp_path: Path, capsys) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
    folder = tmp_path / "self"
    folder.mkdir()
    shutil.copy(ROOT / "fixtures" / "self" / "self.ol", folder / "self.ol")
    log = folder / "commits.jsonl"
    assert main(["ingest", "git", str(clone), "--todos", "-o", str(log)]) == 0
    events = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    count = subprocess.run(
        ["git", "-C", str(clone), "rev-list", "--count", "HEAD"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(events) == int(count.stdout)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert len({e["id"] for e in events}) == len(events)

    capsys.readouterr()
    assert main(["status", str(folder), "--known", "latest", "--format", "json"]) == 0
    result = json.loads(capsys.readouterr().out)
    verdicts = {e["id"]: e for e in result["expectations"]}
    assert {"importers-documented", "importers-tested"} <= set(verdicts)
    assert {e["status"] for e in verdicts.values()} <= STATUSES
