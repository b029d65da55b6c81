"""The ingest benchmark: a generated repository of exactly N commits, and its table row."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from lab.bench import ingest_bench
from lab.bench.harness import table

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def test_generated_repository_has_the_commits_merges_and_todos(tmp_path: Path) -> None:
    repo = ingest_bench.generate(tmp_path, 160)
    count = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "--count", "HEAD"], capture_output=True, text=True
    )
    merges = subprocess.run(
        ["git", "-C", str(repo), "rev-list", "--count", "--merges", "HEAD"],
        capture_output=True,
        text=True,
    )
    assert int(count.stdout) == 160
    assert int(merges.stdout) >= 2
    assert ingest_bench.generate(tmp_path, 160) == repo  # reused


def test_measure_reports_rates_and_the_table_prints_the_row(tmp_path: Path) -> None:
    result = ingest_bench.measure(tmp_path, 120)
    assert result["commits"] == 120
    assert result["commits_per_s"] > 0 and result["todos_commits_per_s"] > 0
    text = table([result])
    assert "ingest git: 120 commits:" in text
    assert "target >= 2,000 commits/s:" in text
