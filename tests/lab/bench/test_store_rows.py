"""The bench's store rows: measured on a small generated history, and judged PASS/MISS against
the issue's targets (the unchanged status against 2x the floor plus the start-up measured)."""

from __future__ import annotations

from pathlib import Path

from lab.bench import store_rows
from lab.bench.generate import ensure


def test_the_rows_are_measured_on_a_small_history(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(tmp_path / "user-cache"))
    history = ensure(tmp_path / "h", 300)
    paths = [str(p) for p in history.paths]
    from resolver.language.loader import load

    events = load(paths).events
    first, end = min(e.at for e in events), max(e.at for e in events)
    seen: list[str] = []
    rows = store_rows.measure(
        {"paths": paths}, end, [first + (end - first) // 3, end], 0.01, seen.append
    )
    for key in (
        "first_status_cpu_s",
        "status_unchanged_cpu_s",
        "startup_cpu_s",
        "warm_at_cpu_s",
        "warm_latest_cpu_s",
        "warm_miss_cpu_s",
        "append10_cpu_s",
        "hook_cpu_s",
        "mcp_call_cpu_s",
    ):
        assert rows[key] >= 0, key
    assert rows["warm_at_cpu_s"] < rows["warm_miss_cpu_s"] * 10  # a lookup, not a runaway
    assert any("hook" in line for line in seen)
    kept = list((tmp_path / "user-cache").glob("p*-*"))  # prepared-*.sqlite, parsed-*.json
    assert not kept, "the bench keeps its store apart from the user's"
    line = store_rows.table([{"events": 300, "rows": {"store": rows}}]).splitlines()[1]
    assert line.startswith("300  ")


def test_verdicts_read_the_targets_and_the_start_up():
    rows = {
        "first_status_cpu_s": 0.4,
        "first_status_over_floor": 20.0,
        "warm_at_over_floor": 0.01,
        "warm_latest_over_floor": 0.2,
        "append10_cpu_s": 0.5,
        "hook_after_startup_cpu_s": 0.05,
        "mcp_call_cpu_s": 0.2,
        "status_unchanged_cpu_s": 0.29,
        "startup_cpu_s": 0.2,
    }
    result = {"events": 10_000, "rows": {"store": rows}, "phases": {"floor_cpu_s": 0.05}}
    marks = store_rows.verdicts(result)
    assert marks["first_status_10k_le_0.5s"] is True
    assert marks["first_status_le_15x"] is None  # judged from 100k
    assert marks["warm_at_le_0.05x"] is True and marks["warm_latest_le_0.05x"] is False
    assert marks["append10_le_0.2s"] is None
    assert marks["hook_le_0.1s"] is True and marks["mcp_le_0.1s"] is False
    assert marks["unchanged_le_2x_plus_startup"] is True  # 0.29 <= 2 x 0.05 + 0.2
    rows["status_unchanged_cpu_s"] = 0.31
    assert store_rows.verdicts(result)["unchanged_le_2x_plus_startup"] is False
    big = store_rows.verdicts({**result, "events": 100_000})
    assert big["first_status_le_15x"] is False and big["first_status_10k_le_0.5s"] is None
