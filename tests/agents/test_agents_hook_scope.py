"""The hook prepares only the claimed task's group and answers in one solve, with the same
refusal as a solve of the whole history followed by an explanation solve."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from agent_helpers import EVENTS, HISTORY

from lab.bench.generate import generate
from resolver.agents import hook, warm
from resolver.agents.hook import Call, Options, judge, refusal_text
from resolver.engine import prepared as engine
from resolver.engine.prepared import Prepared, Standpoint
from resolver.language.loader import collect_files, load
from resolver.verdicts.explanation import query_facts
from resolver.verdicts.resolution import resolve

CLAIM = Call("claim", "TaskCompleted", "s-1")
#: An expectation that shares nothing with release-7: not in its group.
UNRELATED = """
expectation unrelated {
  title "Rotate the signing key"
  opened 2024-01-01
  want signing.key = "rotated"
}
"""
#: A policy that opens a task instance per ticket (SPEC 5.1): the instance is in no group.
TEMPLATED = """
channel tickets work
channel agent mention
template fix {
  title "Fix a ticket"
  obligation patch { want patch.$task = "merged"  verify state }
}
policy ticket-work {
  when kind ticket
  opens fix
}
"""


def _count_solves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Record the part (``prepare`` or ``standpoint``) of every clingo solve."""
    parts: list[str] = []
    real = engine._solve

    def counting(program_parts, part):
        parts.append(part)
        return real(program_parts, part)

    monkeypatch.setattr(engine, "_solve", counting)
    return parts


def test_a_refused_claim_costs_one_standpoint_solve(history: Path, monkeypatch):
    (history / "other.ol").write_text(UNRELATED, encoding="utf-8")
    parts = _count_solves(monkeypatch)
    decision = judge(CLAIM, Options("release-7", [history], use_cache=False))
    assert decision.action == "refuse"
    assert "release-7/deploy" in decision.reason and "deploy-1" in decision.reason
    assert parts == ["prepare", "standpoint"]


def test_the_scope_is_the_tasks_group(history: Path):
    (history / "other.ol").write_text(UNRELATED, encoding="utf-8")
    whole = warm.load_prepared([history], use_cache=False)
    scoped = warm.load_prepared([history], use_cache=False, scope="release-7")
    assert {x.id for x in whole.project.expectations} >= {"unrelated", "release-7/deploy"}
    assert {x.id for x in scoped.project.expectations} == {"release-7/deploy", "release-7/notes"}
    assert len(scoped.project.events) == len(whole.project.events)  # every event is kept


def test_scoped_entries_are_apart_in_the_cache(history: Path, env: dict, monkeypatch):
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", env["OPENLOOP_CACHE_DIR"])
    (history / "other.ol").write_text(UNRELATED, encoding="utf-8")
    scoped = warm.load_prepared([history], scope="release-7")
    whole = warm.load_prepared([history])
    again = warm.load_prepared([history], scope="release-7")
    assert len(list(Path(env["OPENLOOP_CACHE_DIR"]).glob("prepared-*.sqlite"))) == 2
    assert {x.id for x in again.project.expectations} == {x.id for x in scoped.project.expectations}
    assert "unrelated" in {x.id for x in whole.project.expectations}


def test_a_policy_task_instance_is_judged_on_the_whole_history(tmp_path: Path):
    (tmp_path / "work.ol").write_text(TEMPLATED + UNRELATED, encoding="utf-8")
    ticket = {"id": "ticket-5", "channel": "tickets", "seq": 1, "at": "2024-03-01T09:00:00Z"}
    ticket["kind"] = "ticket"
    (tmp_path / "events.jsonl").write_text(json.dumps(ticket) + "\n", encoding="utf-8")
    whole = Prepared(load(collect_files([tmp_path])))
    (instance,) = [t for t in whole.project.derived.values() if hasattr(t, "obligations")]
    decision = judge(CLAIM, Options(instance.id, [tmp_path], use_cache=False))
    assert decision.action == "refuse" and decision.status == "INCOMPLETE"
    assert f"{instance.id}/patch" in decision.reason


def _with_release(folder: Path, tmp_path: Path) -> Path:
    """A generated history plus the release-7 task (channels renamed away from the bench's)."""
    history = tmp_path / "mixed"
    history.mkdir()
    shutil.copyfile(folder / "project.ol", history / "project.ol")
    text = HISTORY.replace("channel deploys ", "channel rel-deploys ")
    text = text.replace("search deploys", "search rel-deploys")
    (history / "release.ol").write_text(text.replace("actor alice principal\n", ""))
    lines = (folder / "events.jsonl").read_text(encoding="utf-8")
    for event in EVENTS:
        channel = "rel-deploys" if event["channel"] == "deploys" else event["channel"]
        lines += json.dumps({**event, "channel": channel}) + "\n"
    (history / "events.jsonl").write_text(lines, encoding="utf-8")
    return history


def test_every_refusal_matches_a_solve_of_the_whole_history(tmp_path: Path):
    bench = generate(tmp_path / "bench", events=1500, expectations=30, seed=3)
    history = _with_release(bench.folder, tmp_path)
    files = collect_files([history])
    whole = Prepared(load(files))
    point = Standpoint(1_800_000_000, None)
    plain = resolve(whole, point, reasons=False)
    compared = 0
    for task in whole.project.tasks:
        verdict = plain.task(task.id)
        assert verdict is not None
        if verdict.status == "COMPLETE":
            continue
        outstanding = verdict.outstanding[: hook.LISTED]
        expected = refusal_text(
            whole, resolve(whole, point, query_facts(whole, outstanding)), task.id
        )
        scoped = warm.prepare_files(files, task.id)
        explained = query_facts(scoped, scoped.project.task(task.id).obligations)
        assert refusal_text(scoped, resolve(scoped, point, explained), task.id) == expected
        compared += 1
    assert compared >= 2  # release-7 and at least one generated task
