"""The benchmark harness: deterministic generation, loadable histories, well-formed results.

Sizes are tiny and nothing here asserts a timing: these tests check the instrument, not the
engine's speed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.__main__ import main
from lab.bench import generate, history_paths, ingest_bench
from lab.bench.harness import _child_main, _failed, finish, settle, table
from resolver import api

FIELDS = (
    "events",
    "expectations",
    "floor_s",
    "cold_s",
    "warm_s",
    "peak_rss_mb",
    "cold_over_floor",
    "warm_over_floor",
)


def test_same_seed_writes_identical_files(tmp_path: Path) -> None:
    first = generate(tmp_path / "a", events=300, seed=4)
    second = generate(tmp_path / "b", events=300, seed=4)
    other = generate(tmp_path / "c", events=300, seed=5)
    for mine, twin in zip(first.paths, second.paths, strict=True):
        assert mine.read_bytes() == twin.read_bytes()
    assert first.jsonl.read_bytes() != other.jsonl.read_bytes()


def test_history_has_the_promised_shape(tmp_path: Path) -> None:
    history = generate(tmp_path, events=2000, expectations=40, seed=1)
    lines = history.jsonl.read_text(encoding="utf-8").splitlines()
    events = [json.loads(line) for line in lines]
    assert len(events) == 2000
    assert len({e["id"] for e in events}) == 2000
    assert {e["channel"] for e in events} >= {"commits", "issues", "sessions", "deploys", "ci"}
    assert any("recorded" in e for e in events), "some records arrive late"
    assert any("set" in e for e in events)
    for marker in ("completes", "cancels", "claims_complete"):
        assert any(marker in e for e in events), marker
    declarations = history.ol.read_text(encoding="utf-8")
    assert "event " not in declarations, "events live in the .jsonl file only"
    assert declarations.count("expectation ") + declarations.count("obligation ") == 40
    for clause in (
        "opened_by",
        "want",
        "deadline",
        "verify",
        "search",
        "window",
        "obligation",
        "alias",
        "agent",
    ):
        assert clause in declarations, clause


def test_generated_history_loads_and_resolves(tmp_path: Path) -> None:
    history = generate(tmp_path, events=600, expectations=12, seed=2)
    prepared = api.prepare(history.paths)
    assert len(prepared.project.events) == 600
    assert len(prepared.project.expectations) == 12
    resolution = api.status(prepared, at=history.last_at, known="latest")
    assert len(resolution.expectations) == 12
    assert {x.status for x in resolution.expectations} - {"NOT_OPENED"}, "something opened"


def test_history_paths_reuses_a_generated_folder(tmp_path: Path) -> None:
    paths = history_paths(tmp_path, events=300, seed=3)
    stamp = paths[1].stat().st_mtime_ns
    assert history_paths(tmp_path, events=300, seed=3) == paths
    assert paths[1].stat().st_mtime_ns == stamp
    history_paths(tmp_path, events=300, seed=4)  # other arguments: generated anew
    assert json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))["seed"] == 4


def test_bench_command_prints_one_json_object_per_size(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            *("bench", "--sizes", "300,400", "--runs", "1", "--standpoints", "2", "--json"),
            *("--warm-queries", "3"),
        ]
    )
    assert code == 0
    printed = [json.loads(line) for line in capsys.readouterr().out.strip().splitlines()]
    sizes = [r for r in printed if r["kind"] == "bench"]
    assert len(sizes) == 2
    # the ingest row is printed too, as its own kind (it needs git to build its repository)
    ingest = [r for r in printed if r["kind"] == "ingest"]
    assert len(ingest) == (1 if ingest_bench.available() else 0)
    assert all(r["commits"] == 400 and r["commits_per_s"] > 0 for r in ingest)
    for result, size in zip(sizes, (300, 400), strict=True):
        for name in FIELDS:
            assert isinstance(result[name], int | float), name
        assert result["events"] == size
        assert set(result["targets"]) == {
            "cold_le_2x_floor",
            "warm_le_0.02x_floor",
            "rss_under_2gb",
        }
        assert result["targets"]["rss_under_2gb"] is None  # applies from 1M events only
        assert sum(result["statuses"].values()) == result["expectations"]
        assert result["rows"]["warm_queries"] == 3  # lab/bench/rows.py


def test_table_marks_targets_pass_miss_or_not_applicable() -> None:
    result = finish(
        {
            "events": 1_000_000,
            "expectations": 1000,
            "tasks": 33,
            "runs": 1,
            "standpoints": 1,
            "floor_s": 10.0,
            "cold_s": 15.0,
            "warm_s": 1.0,
            "peak_rss_mb": 2500.0,
            "phases": {
                "load_s": 1,
                "prepare_s": 1,
                "facts_s": 1,
                "first_resolve_s": 1,
                "warm_solve_s": 1,
                "warm_read_s": 0,
                "baseline_rss_mb": 30,
            },
            "sizes": {"declarations_facts": 1, "events_facts": 1, "prepared_atoms": 1},
        }
    )
    assert result["targets"] == {
        "cold_le_2x_floor": True,
        "warm_le_0.02x_floor": None,
        "rss_under_2gb": False,
    }
    row = table([result]).splitlines()[1].split()
    assert row[-3:] == ["PASS", "-", "MISS"]


def test_a_failed_measurement_reports_how_far_it_got(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = str(tmp_path / "events.jsonl")
    spec = {"label": "t", "paths": [missing], "runs": 1, "standpoints": 1, "seed": 0}
    assert _child_main([json.dumps(spec)]) == 3
    result = json.loads(capsys.readouterr().out)
    assert "FileNotFoundError" in result["error"]
    assert isinstance(result["peak_rss_mb"], float)


def test_a_failed_size_still_misses_what_it_already_exceeded() -> None:
    shell = {"events": 1_000_000, "expectations": 1000, "tasks": 33}
    result = settle(
        {
            **_failed(shell, "MemoryError: bad_alloc (during first resolve)"),
            "floor_s": 4.0,
            "peak_rss_mb": 9000.0,
            "phases": {"load_s": 10.0, "prepare_s": 20.0},
        }
    )
    assert result["targets"] == {
        "cold_le_2x_floor": False,
        "warm_le_0.02x_floor": None,
        "rss_under_2gb": False,
    }
    assert table([result]).splitlines()[1].split()[-3:] == ["MISS", "-", "MISS"]


def test_bench_data_naming_a_file_is_exit_2(tmp_path, capsys):
    data = tmp_path / "data"
    data.write_text("not a folder\n", encoding="utf-8")
    assert main(["bench", "--data", str(data), "--events", "20", "--runs", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not a folder" in err
