"""The policy fixtures as a user runs them: ``openloop test``, ``status`` JSON, lint.

The bench's policies row lives with the lab's tests (``tests/lab/bench/test_policy_bench.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from resolver import api
from resolver.engine.prepared import Prepared
from resolver.language.loader import load
from resolver.verdicts.lint import lint

ROOT = Path(__file__).resolve().parents[2]
API_DOCS = ROOT / "fixtures" / "policies" / "api-docs"
TODO = ROOT / "fixtures" / "policies" / "todo-debt"
SUPPORT = ROOT / "fixtures" / "support-mission" / "template"
PER_ENDPOINT = ROOT / "fixtures" / "policies" / "api-docs-per-endpoint"
API_TEMPLATE = ROOT / "fixtures" / "policies" / "api-change-template"


def openloop(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "resolver", *args], capture_output=True, text=True, check=False
    )


def test_the_fixtures_test_blocks_pass() -> None:
    for folder in (API_DOCS, TODO, SUPPORT, PER_ENDPOINT, API_TEMPLATE):
        done = openloop("test", str(folder))
        assert done.returncode == 0, done.stdout + done.stderr
        assert " 0 failed" in done.stdout


def test_status_json_lists_instances_with_policy_and_trigger() -> None:
    done = openloop("status", str(API_DOCS), "--at", "2024-08-20", "--format", "json")
    assert done.returncode == 0, done.stderr
    listed = {x["id"]: x for x in json.loads(done.stdout)["expectations"]}
    # the commit that brought its own docs opened nothing
    assert sorted(listed) == [
        "docs-follow-api/commit-62409e248957",
        "docs-follow-api/commit-c28e22600d49",
        "docs-follow-api/commit-df1e842580ff",
    ]
    owed = listed["docs-follow-api/commit-c28e22600d49"]
    assert (owed["policy"], owed["trigger"]) == ("docs-follow-api", "commit-c28e22600d49")
    assert (owed["status"], owed["flags"]) == ("OPEN", ["deadline_passed"])
    assert owed["title"] == "Update the docs for commit-c28e22600d49"
    assert owed["bound"] == "2024-08-11T12:00:00Z"


def test_status_md_names_each_instance_policy_and_trigger() -> None:
    done = openloop("status", str(API_DOCS), "--at", "2024-08-20", "--format", "md")
    assert done.returncode == 0, done.stderr
    assert "### Policy instances" in done.stdout
    assert (
        "- `docs-follow-api/commit-c28e22600d49`: policy `docs-follow-api`, "
        "trigger `commit-c28e22600d49`" in done.stdout
    )


def test_task_instances_in_status_json_and_check() -> None:
    done = openloop("status", str(SUPPORT), "--at", "2024-07-13", "--format", "json")
    tasks = {t["id"]: t for t in json.loads(done.stdout)["tasks"]}
    assert tasks["ticket-opens-work/ticket-91"]["policy"] == "ticket-opens-work"
    assert tasks["ticket-opens-work/ticket-91"]["trigger"] == "ticket-91"
    assert tasks["ticket-opens-work/ticket-91"]["outstanding"] == [
        "ticket-opens-work/ticket-91/accepted"
    ]
    gate = openloop(
        "check", str(SUPPORT), "--at", "2024-07-13", "--task", "ticket-opens-work/ticket-91"
    )
    assert gate.returncode == 1
    assert "ticket-opens-work/ticket-91/accepted" in gate.stdout
    assert openloop("check", str(SUPPORT), "--at", "2024-07-16").returncode == 0


def test_explain_names_the_policy_the_trigger_and_the_conditions() -> None:
    done = openloop(
        "explain", "docs-follow-api/commit-c28e22600d49", str(API_DOCS), "--at", "2024-08-20"
    )
    assert done.returncode == 0, done.stderr
    assert "instance of policy docs-follow-api" in done.stdout
    assert "triggered by commit-c28e22600d49" in done.stdout
    assert 'when not touches "docs/**": met by commit-c28e22600d49' in done.stdout
    assert "bound: 2024-08-11T12:00:00Z, from within" in done.stdout


def test_explaining_an_instance_before_its_trigger_is_an_input_error() -> None:
    """SPEC 5.2: an instance exists only where its trigger is visible; before, there is
    nothing to explain (it used to stop with an AssertionError's traceback)."""
    ident = "docs-follow-api/commit-c28e22600d49"
    done = openloop("explain", ident, str(API_DOCS), "--at", "2024-07-01T10:00:00Z")
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.count("\n") == 1 and "error:" in done.stderr
    assert f"'{ident}' is a policy instance that does not exist at 2024-07-01T10:00:00Z" in (
        done.stderr
    )
    assert "its trigger is not visible there" in done.stderr
    assert not done.stdout


def test_graph_has_policy_nodes_with_instantiates_and_triggered_by_edges() -> None:
    done = openloop("graph", str(SUPPORT), "--at", "2024-07-13", "--format", "json")
    graph = json.loads(done.stdout)
    kinds = {(e["source"], e["target"], e["kind"]) for e in graph["edges"]}
    policy = "policy:ticket-opens-work"
    assert (policy, "task:ticket-opens-work/ticket-91", "instantiates") in kinds
    assert (policy, "event:ticket-91", "triggered_by") in kinds


def test_lint_knows_instances_and_warns_about_idle_policies(tmp_path: Path) -> None:
    project = load([API_DOCS])
    assert lint(project) == []  # the test blocks name instances: nothing dangles
    (tmp_path / "p.ol").write_text(
        'template idle { obligation a { want a.$task = "x" } }\n'
        "policy never { when kind nothing }\n"
        "event e { channel c at 2024-01-01 kind other }\n",
        encoding="utf-8",
    )
    messages = [d.message for d in lint(load([tmp_path]))]
    assert "template idle is used by no task and opened by no policy" in messages
    assert any(m.startswith("policy never is triggered by no event") for m in messages)


def test_reduction_keeps_instance_verdicts() -> None:
    """The optimised prepare path (events no rule can read left out) changes no verdict."""
    for folder, at in ((API_DOCS, "2024-08-20"), (TODO, "2024-07-09"), (SUPPORT, "2024-07-13")):
        project = load([folder])
        fast = api.status(Prepared(project), at=at)
        plain = api.status(Prepared(project, reduce=False, block_size=1), at=at)
        assert fast.expectations == plain.expectations
        assert fast.tasks == plain.tasks


def test_a_receipt_of_a_task_instance_before_its_trigger_says_so() -> None:
    done = openloop("receipt", "ticket-opens-work/ticket-88", str(SUPPORT), "--at", "2024-06-01")
    assert done.returncode == 2, done.stdout + done.stderr
    assert "is a policy instance that does not exist at this standpoint" in done.stderr
