"""``openloop bench PATH``: each command a user runs, timed on their own history (here the
release fixture), each in a fresh interpreter with a cache of the bench's own.

Nothing here asserts a timing: these tests check the instrument (what runs, what is reported,
what is left alone), not the engine's speed.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from resolver.benchmark import timing
from resolver.cli.main import main

RELEASE = str(Path(__file__).resolve().parents[2] / "fixtures" / "release")
AT = ["--at", "2024-08-28"]
ROWS = ["startup", "status_cold", "status_store", "warm", "explain", "check"]


@pytest.fixture(scope="module")
def measured(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:
    """One run of the bench, its JSON document and the user's cache folder it must not touch."""
    mine = tmp_path_factory.mktemp("home") / "cache"
    before = os.environ.get("OPENLOOP_CACHE_DIR")
    os.environ["OPENLOOP_CACHE_DIR"] = str(mine)
    try:
        out = tmp_path_factory.mktemp("out") / "bench.json"
        assert main(["bench", RELEASE, *AT, "--standpoints", "3", "--json", "-o", str(out)]) == 0
        assert os.environ["OPENLOOP_CACHE_DIR"] == str(mine)  # put back as it was
    finally:
        if before is None:
            os.environ.pop("OPENLOOP_CACHE_DIR", None)
        else:
            os.environ["OPENLOOP_CACHE_DIR"] = before
    return json.loads(out.read_text(encoding="utf-8")), mine


def test_every_command_a_user_runs_is_timed(measured: tuple[dict, Path]) -> None:
    document, _ = measured
    assert (document["schema_version"], document["kind"]) == (1, "bench_history")
    assert (document["events"], document["expectations"], document["tasks"]) == (16, 6, 1)
    rows = {r["row"]: r for r in document["rows"]}
    assert list(rows) == ROWS
    for name in ROWS:
        assert rows[name]["cpu_s"] > 0, name
    for name in ("startup", "status_cold", "status_store", "explain", "check"):
        assert rows[name]["rss_mb"] > 0 and rows[name]["exit"] in (0, 1, 3), name
    assert rows["warm"]["rss_mb"] is None and rows["warm"]["exit"] is None
    assert rows["explain"]["command"].startswith("openloop explain intent-")  # the middle id
    assert "--at 2024-08-28" in rows["status_cold"]["command"]


def test_the_users_cache_is_neither_read_nor_filled(measured: tuple[dict, Path]) -> None:
    _, mine = measured
    assert not mine.exists() or not any(mine.iterdir())


def test_the_table_names_each_row(capsys: pytest.CaptureFixture[str]) -> None:
    document = {
        "events": 1,
        "expectations": 2,
        "tasks": 0,
        "paths": ["h"],
        "rows": [
            vars(
                timing.Row("status_cold", "status, empty cache", "openloop status h", 0.5, 40.0, 0)
            ),
            vars(timing.Row("warm", "warm standpoint (median of 5)", "in one process", 0.01)),
            vars(timing.Row("check", "check", "openloop check h", 0.25, 30.0, 1)),
        ],
    }
    text = timing.table(document)
    assert text.startswith("openloop bench: 1 event, 2 expectations, 0 tasks (h)\n")
    assert "status, empty cache" in text and "openloop check h (exit 1)" in text
    assert "  0.010            -  in one process" in text


def test_a_path_that_does_not_exist_is_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere"
    assert main(["bench", str(missing)]) == 2
    err = capsys.readouterr().err
    assert [line for line in err.splitlines() if not line.startswith("[bench]")] == [
        f"{missing}: error: no such file or directory"
    ]


def test_an_unknown_id_to_explain_is_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", RELEASE, *AT, "--explain", "no-such-id", "--standpoints", "1"]) == 2
    assert "no-such-id" in capsys.readouterr().err.splitlines()[-1]


def test_eval_left_the_product_for_the_lab(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["eval", "--format", "json"]) == 2
    assert capsys.readouterr().err == (
        "error: openloop eval moved to the lab: run 'python -m lab eval' in a checkout of "
        "openloop\n"
    )
