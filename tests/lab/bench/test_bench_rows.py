"""The benchmark's user-facing rows: what they run, the SQLite yardstick, PASS/MISS."""

from __future__ import annotations

from pathlib import Path

from lab.bench import rows, sqlite_compare
from lab.bench.generate import ensure
from resolver import api
from resolver.errors import Location
from resolver.language.model import Assignment, Event, Expectation, Project

HERE = Location("x.ol", 1, 1)


def test_rows_measure_every_user_command(tmp_path: Path):
    history = ensure(tmp_path / "h", 300, 5, 0)
    prepared = api.prepare(history.paths)
    spec = {"paths": [str(p) for p in history.paths], "seed": 0, "warm_queries": 3}
    spec["compare"] = True
    out = rows.measure(spec, prepared, floor_cpu=0.01, log=lambda _: None)
    every = ("status_json", "status_json_jobs1", "warm_query", "explain", "explain_command")
    for name in (*every, "check"):
        assert out[f"{name}_cpu_s"] > 0, name
        assert out[f"{name}_over_floor"] > 0, name
    assert out["warm_queries"] == 3
    # The commands' own peak RSS (wait4), at least an interpreter with clingo loaded.
    for name in ("status_json", "status_json_jobs1", "explain_command"):
        assert 15 < out[f"{name}_rss_mb"] < 2048, name
    assert out["sqlite_expectations"] == sum(1 for x in prepared.project.expectations if x.want)
    # the long-lived yardstick answers the same standpoints, one status per item
    assert out["longlived_query_cpu_s"] > 0 and out["longlived_shown"] > 0
    text = rows.table([{"events": 300, "rows": out, "peak_rss_mb": 50.0}])
    assert "cold_json_le_4x" in text and "sqlite" in text and "long-lived floor" in text
    assert f"{out['status_json_rss_mb']:.0f} ({out['status_json_jobs1_rss_mb']:.0f})" in text


def test_sqlite_state_tier_query_sees_only_visible_sets():
    project = Project(
        expectations=(
            Expectation("a", HERE, opened=100, want=Assignment("k", "v")),
            Expectation("b", HERE, opened=100, want=Assignment("k", "w")),
            Expectation("c", HERE, opened=500, want=Assignment("k", "v")),
        ),
        events=(
            Event("e1", "commits", 200, 200, HERE, sets=(Assignment("k", "v"),)),
            Event("e2", "commits", 300, 900, HERE, sets=(Assignment("k", "w"),)),
        ),
    )
    connection = sqlite_compare.load(project)
    answer = dict(connection.execute(sqlite_compare.QUERY, {"at": 400, "known": 400}))
    assert answer == {"a": 1, "b": 0, "c": 0}  # e2 is recorded later; c opened after e1
    answer = dict(connection.execute(sqlite_compare.QUERY, {"at": 400, "known": 1000}))
    assert answer == {"a": 1, "b": 1, "c": 0}


def test_targets_pass_miss_and_not_applicable():
    result = {
        "events": 100_000,
        "peak_rss_mb": 500.0,
        "rows": {
            "status_json_over_floor": 3.0,
            "warm_query_over_floor": 0.2,
            "status_json_rss_mb": 350.0,
        },
    }
    marks = rows.verdicts(result)
    # the measuring process misses while the command a user runs stays under the limit
    assert marks["status_rss_100000"] is True and marks["status_rss_1000000"] is None
    assert marks["cold_json_le_4x"] is True
    assert marks["warm_le_0.05x"] is False
    assert marks["explain_le_0.05x"] is None  # not measured
    assert marks["rss_100000"] is False and marks["rss_1000000"] is None
