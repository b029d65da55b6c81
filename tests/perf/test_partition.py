"""Partitions change no verdict: any split of the expectations into independent parts gives
byte-identical ``status --format json``, in-process, in a process pool and on a dask cluster."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.api import parallel as partition
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.faces import json_format
from resolver.language.loader import load
from resolver.language.model import (
    Event,
    Expectation,
    Marker,
    Project,
    Task,
)
from resolver.times import parse_time
from resolver.verdicts.resolution import resolve
from tests.random_histories import DAY, HERE, PARTITION, START
from tests.random_histories import histories as random_histories

ROOT = Path(__file__).resolve().parents[2]


def single(project: Project, point: Standpoint) -> str:
    """``status --format json`` from one solve."""
    prepared = Prepared(replace(project, derived={}))
    return json_format.render(resolve(prepared, point), prepared.project, "all")


def in_parts(project: Project, point: Standpoint, **options) -> str:
    """The same from the parts, merged."""
    fresh = replace(project, derived={})
    return json_format.render(partition.resolve_parts(fresh, point, **options), fresh, "all")


def histories() -> st.SearchStrategy[Project]:
    """Random projects of the partition's shape: every item opened by an event."""
    return random_histories(shape=PARTITION)


@settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(histories(), st.integers(min_value=0, max_value=10**6), st.integers(2, 4))
def test_any_partitioning_gives_identical_json(project: Project, seed: int, parts: int):
    point = Standpoint(START + 12 * DAY, START + 9 * DAY)
    expected = single(project, point)
    assert in_parts(project, point, parts=partition.split(project, parts)) == expected
    assert in_parts(project, point, parts=partition.split(project, parts, seed)) == expected


def test_groups_follow_tasks_requires_and_markers():
    project = Project(
        expectations=(
            Expectation("a", HERE, part_of="t"),
            Expectation("b", HERE, requires=("c",)),
            Expectation("c", HERE),
            Expectation("d", HERE),
            Expectation("e", HERE),
        ),
        tasks=(Task("t", HERE, obligations=("a",)),),
        events=(
            Event("m", "commits", 1, 1, HERE, markers=(Marker("completes", "d"),)),
            Event("n", "commits", 2, 2, HERE, markers=(Marker("cancels", "e"),) * 1),
            Event(
                "o",
                "commits",
                3,
                3,
                HERE,
                markers=(Marker("completes", "d"), Marker("claims_complete", "t")),
            ),
        ),
    )
    assert partition.groups(project) == [["a", "d", "t"], ["b", "c"], ["e"]]
    assert sorted(map(len, partition.split(project, 2))) == [3, 3]


def test_policy_fixture_in_every_partitioning():
    project = load([ROOT / "fixtures/policies/api-docs"])
    at = parse_time("2024-08-20")
    point = Standpoint(at, at)
    expected = single(project, point)
    assert '"policy"' in expected  # policy instances are listed
    for seed in range(3):
        assert in_parts(project, point, parts=partition.split(project, 3, seed)) == expected


def test_process_pool_matches_one_solve():
    project = load([ROOT / "fixtures/release"])
    at = parse_time("2024-08-23")
    point = Standpoint(at, at)
    assert len(partition.groups(project)) > 1
    assert in_parts(project, point, jobs=2) == single(project, point)


def test_key_reasons_only_in_parts_match_one_solve():
    """``every_reason=False`` reaches every part: the key reasons and counts, as one solve."""
    project = load([ROOT / "fixtures/release"])
    at = parse_time("2024-08-23")
    point = Standpoint(at, at)
    prepared = Prepared(replace(project, derived={}))
    one = resolve(prepared, point, Query(every_reason=False))
    expected = json_format.render(one, prepared.project, "key")
    fresh = replace(project, derived={})
    parts = partition.split(fresh, 3)
    assert len(parts) > 1
    merged = partition.resolve_parts(fresh, point, jobs=2, parts=parts, every_reason=False)
    assert json_format.render(merged, fresh, "key") == expected
    assert all(x.reasons_in_all is not None for x in merged.expectations)  # counted, not read
    assert any(x.reasons_in_all > len(x.reasons) for x in merged.expectations)


def test_pool_solves_one_part_here_and_forks_jobs_minus_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """This process solves a part itself; the other parts go to ``jobs - 1`` workers, forked
    with the loaded project frozen out of the collector's reach."""
    project = load([ROOT / "fixtures/mentions"])
    at = max(e.at for e in project.events)
    point = Standpoint(at, at)
    solved = partition.solve_part

    def noting(project: Project, items, ask):
        with open(tmp_path / "pids", "a", encoding="utf-8") as out:
            out.write(f"{os.getpid()} {gc.get_freeze_count()}\n")
        return solved(project, items, ask)

    monkeypatch.setattr(partition, "solve_part", noting)
    parts = partition.split(project, 3)
    assert len(parts) == 3
    merged = json_format.render(
        partition.resolve_parts(replace(project, derived={}), point, jobs=2, parts=parts),
        project,
        "all",
    )
    rows = [line.split() for line in (tmp_path / "pids").read_text(encoding="utf-8").splitlines()]
    pids = [pid for pid, _ in rows]
    assert all(int(frozen) > 0 for _, frozen in rows)  # the loaded project was frozen
    assert len(pids) == 3  # every part once
    assert pids.count(str(os.getpid())) == 1  # one here, two in the one worker
    assert len(set(pids)) == 2
    assert merged == single(project, point)


def test_an_error_in_the_part_here_stops_the_pool(monkeypatch: pytest.MonkeyPatch):
    project = load([ROOT / "fixtures/mentions"])
    at = max(e.at for e in project.events)
    here = os.getpid()
    solved = partition.solve_part

    def failing(project: Project, items, ask):
        if os.getpid() == here:
            raise RuntimeError("the part here failed")
        return solved(project, items, ask)

    monkeypatch.setattr(partition, "solve_part", failing)
    with pytest.raises(RuntimeError, match="the part here failed"):
        partition.resolve_parts(
            project, Standpoint(at, at), jobs=2, parts=partition.split(project, 4)
        )
    assert gc.get_freeze_count() == 0  # thawed on the way out


def test_pool_freezes_the_collector_only_while_it_forks():
    project = load([ROOT / "fixtures/release"])
    at = parse_time("2024-08-23")
    assert gc.get_freeze_count() == 0
    partition.resolve_parts(replace(project, derived={}), Standpoint(at, at), jobs=2)
    assert gc.get_freeze_count() == 0  # thawed: the caller had not frozen anything
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        partition.resolve_parts(replace(project, derived={}), Standpoint(at, at), jobs=2)
        assert gc.get_freeze_count() >= frozen  # the caller's freeze is kept
    finally:
        gc.unfreeze()


def test_dask_local_cluster_matches_one_solve():
    distributed = pytest.importorskip("distributed")
    project = load([ROOT / "fixtures/support-mission/base"])
    at = parse_time("2024-09-03T15:00")
    point = Standpoint(at, at)
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
    ) as cluster:
        merged = in_parts(
            project, point, cluster=cluster.scheduler_address, parts=partition.split(project, 3)
        )
    assert merged == single(project, point)


def test_cli_cluster_option_matches_one_solve(capsys: pytest.CaptureFixture[str]):
    distributed = pytest.importorskip("distributed")
    from resolver.cli.main import main

    release = str(ROOT / "fixtures/release")
    options = ["--at", "2024-08-23", "--format", "json", "--reasons", "all"]
    assert main(["status", release, *options, "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster:
        assert main(["status", release, *options, "--cluster", cluster.scheduler_address]) == 0
    assert capsys.readouterr().out == one


def test_unreachable_cluster_is_one_line_error(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
):
    pytest.importorskip("distributed")
    from resolver.cli.main import main

    monkeypatch.setattr(partition, "CONNECT_TIMEOUT", "1s")
    code = main(["status", str(ROOT / "fixtures/release"), "--cluster", "tcp://127.0.0.1:9"])
    assert code == 2
    assert "--cluster: cannot reach the scheduler" in capsys.readouterr().err


def test_cli_jobs_is_byte_identical():
    def run(*extra: str) -> str:
        command = [sys.executable, "-m", "resolver", "status", str(ROOT / "fixtures/release")]
        command += ["--at", "2024-08-23", "--format", "json", "--reasons", "all", *extra]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout

    one, two = run("--jobs", "1"), run("--jobs", "2")
    assert one == two
    assert json.loads(one)["kind"] == "status"


def test_cli_refuses_a_bad_jobs_count():
    command = [sys.executable, "-m", "resolver", "status", str(ROOT / "fixtures/release")]
    done = subprocess.run([*command, "--jobs", "0"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "expected a positive integer" in done.stderr
