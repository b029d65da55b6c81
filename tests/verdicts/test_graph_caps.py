"""``graph``: expectations, tasks and the events that opened or closed them; rejected
candidates only with ``--candidates``; ``--max-nodes`` says what it left out (SPEC §4)."""

from __future__ import annotations

import json
import re

import pytest

from resolver.verdicts.graph import caps as graph_caps
from tests.caps_histories import AT, busy, many, openloop, write


def _graph(folder, *extra: str):
    done = openloop("graph", str(folder), *AT, *extra)
    assert done.returncode == 0, done.stderr
    return done


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return write(tmp_path_factory.mktemp("busy"), busy(6))


def test_by_default_no_rejected_candidate_is_drawn(history) -> None:
    text = _graph(history, "--format", "dot").stdout
    assert '"event:s1"' in text and '"expectation:backups"' in text
    assert (
        "event:c00" not in text
        and "rejected" not in text.split("label=<", 1)[-1].split("</TABLE>>")[-1]
    )


def test_candidates_draws_them(history) -> None:
    text = _graph(history, "--format", "dot", "--candidates").stdout
    assert all(f'"event:c00{n}"' in text for n in range(1, 7))
    mermaid = _graph(history, "--format", "mermaid", "--candidates").stdout
    assert mermaid.count("rejected: no_done_cue") == 6
    assert "rejected: " not in _graph(history, "--format", "mermaid").stdout


def test_json_still_holds_every_node(history) -> None:
    data = json.loads(_graph(history, "--format", "json").stdout)
    ids = {n["id"] for n in data["nodes"]}
    assert {f"event:c00{n}" for n in range(1, 7)} <= ids


@pytest.fixture(scope="module")
def crowd(tmp_path_factory):
    return write(tmp_path_factory.mktemp("many"), many(60))


def test_max_nodes_says_what_it_left_out(crowd) -> None:
    done = _graph(crowd, "--format", "mermaid", "--max-nodes", "10", "--no-legend")
    nodes = re.findall(r"^  n\d+[(\[]", done.stdout, flags=re.M)
    assert 0 < len(nodes) <= 10
    # 60 expectations, 120 events and 2 actors: 182 nodes.
    assert "left out" in done.stderr and "of 182 nodes" in done.stderr
    (line,) = [ln for ln in done.stdout.splitlines() if ln.startswith("title:")]
    assert "left out" in line and "--max-nodes N" in line
    kept = len(nodes)
    assert f"left out {182 - kept} of 182 nodes" in done.stderr


def test_the_default_limit_and_no_limit(crowd) -> None:
    assert graph_caps.DEFAULT_MAX_NODES < 182
    capped = _graph(crowd, "--format", "dot")
    assert "left out" in capped.stderr
    whole = _graph(crowd, "--format", "dot", "--max-nodes", "0")
    assert whole.stderr == "" and whole.stdout.count('"expectation:x') >= 60
    assert len(whole.stdout) > len(capped.stdout)


def test_what_is_still_owed_is_kept_first(tmp_path) -> None:
    text = many(6).replace(
        'event d005 { channel commits at 2024-01-02T05:05 by bob set k5 = "done" }', ""
    )
    folder = write(tmp_path, text)
    done = _graph(folder, "--format", "dot", "--max-nodes", "3")
    assert '"expectation:x005"' in done.stdout  # the one still OPEN
    assert '"expectation:x000"' not in done.stdout


def test_a_bad_max_nodes_is_a_usage_error(crowd) -> None:
    done = openloop("graph", str(crowd), "--max-nodes", "-1")
    assert done.returncode == 2 and "--max-nodes" in done.stderr and not done.stdout


def test_a_tiny_limit_still_draws_the_first_item(history) -> None:
    done = _graph(history, "--format", "dot", "--max-nodes", "1")
    assert '"expectation:backups"' in done.stdout and '"event:s1"' not in done.stdout
    assert "left out" in done.stderr
