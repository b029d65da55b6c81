"""The lab bench's policies row: 100 policies against their instances declared by hand, on one
log, with the same verdicts (``lab/bench/policy_bench.py``)."""

from __future__ import annotations

from pathlib import Path

from lab.bench import policy_bench


def test_the_bench_row_compares_policies_with_hand_declared_instances(
    tmp_path: Path, monkeypatch
) -> None:
    monkeypatch.setattr(policy_bench, "RUNS", 1)
    row = policy_bench.measure(1500, tmp_path / "bench")
    assert row["same_verdicts"] is True
    assert row["instances"] > 5
    assert row["policies"] == 100
    assert "declared by hand" in policy_bench.table(row)
    declared = (tmp_path / "bench" / "declared.ol").read_text(encoding="utf-8")
    assert declared.count("expectation ") == row["instances"]
