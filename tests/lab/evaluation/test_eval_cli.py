"""``python -m lab eval`` as a user runs it: a real subprocess, every format, bad options."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def lab(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lab", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=240,
    )


def test_commitments_json_is_a_labelled_simulation() -> None:
    done = lab("eval", "commitments", "--per-family", "12", "--format", "json", "--quiet")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["kind"] == "eval" and data["schema_version"] == 1
    assert "rows" not in data
    sim = data["commitments"]
    assert "not a study of language-model agents" in sim["disclaimer"]
    assert sim["instances"] == 36
    rates = {(r["judge"], r["family"]): r for r in sim["rates"]}
    assert rates[("openloop", "all")]["false_completion"]["hits"] == 0
    low, high = rates[("trace", "all")]["false_completion"]["ci95"]
    assert 0 <= low <= high <= 1


def test_open_loops_markdown_written_atomically(tmp_path: Path) -> None:
    target = tmp_path / "evaluation.md"
    done = lab("eval", "open-loops", "--no-cost", "--format", "md", "-o", str(target))
    assert done.returncode == 0, done.stderr
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Evaluation")
    assert "| Release scenario: six expectations, one history | accuracy 1.0 on six | 6/6" in text
    assert "4/5 at precision 0.80" in text
    assert done.stdout == ""


def test_table_says_what_it_is() -> None:
    done = lab("eval", "commitments", "--per-family", "5", "--quiet")
    assert done.returncode == 0, done.stderr
    assert "simulation of the judging step" in done.stdout
    assert "censored" in done.stdout


def test_bad_options_exit_two_and_write_nothing(tmp_path: Path) -> None:
    target = tmp_path / "out.md"
    done = lab("eval", "commitments", "--per-family", "0", "-o", str(target))
    assert done.returncode == 2
    assert "--per-family" in done.stderr
    assert not target.exists()
    done = lab("eval", "open-loops", "--fixtures", str(tmp_path / "none"), "--no-cost")
    assert done.returncode == 2
    assert "error" in done.stderr


def test_help_describes_the_command() -> None:
    done = lab("eval", "--help")
    assert done.returncode == 0
    assert "commitments" in done.stdout and "--format" in done.stdout
