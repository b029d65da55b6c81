"""The ledger's benchmark rows: which cases run, what one measurement reports, how it prints."""

from __future__ import annotations

from pathlib import Path

from lab.bench import generate, ledger_bench


def test_cases_keep_the_expectations_fixed_and_add_a_larger_open_set() -> None:
    assert ledger_bench.cases((300, 400)) == []  # small benchmark runs add nothing
    x, k = ledger_bench.EXPECTATIONS, ledger_bench.OPEN_SET_FACTOR
    assert ledger_bench.cases((100_000, 10_000), seed=3) == [
        (10_000, x, 3),
        (100_000, x, 3),
        (10_000, x * k, 3),
    ]
    assert ledger_bench.run((300,), Path("unused")) is None


def test_one_measurement_refreshes_then_times_the_open_list(tmp_path: Path) -> None:
    history = generate(tmp_path / "h", events=400, expectations=20, seed=1)
    spec = {
        "paths": [str(p) for p in history.paths],
        "db": str(tmp_path / "bench.db"),
        "at": history.last_at,
        "events": 400,
        "expectations": 20,
        "refreshes": 5,  # fewer than the benchmark's, to keep the test short
    }
    row = ledger_bench.measure(spec)
    assert row["expectations"] == 20 and 0 < row["open"] <= 20
    assert row["list_ms"] > 0 and row["refresh_s"] > 0 and row["db_bytes"] > 0
    again = ledger_bench.measure(spec)  # a fresh ledger each time, the same open set
    assert again["open"] == row["open"]
    result = {"kind": "ledger", "rows": [row, {**again, "events": 4000}]}
    result.update(ledger_bench._ratios(result["rows"]))
    text = ledger_bench.table(result)
    assert "list time, 10x the history, same expectations:" in text
    assert row["list_after_refreshes_ms"] > 0
    assert row["db_bytes_after_refreshes"] > row["db_bytes"]  # every check is kept
    assert text.count("\n") == 7
