"""`openloop hook claude-code`: recorded payloads through the real command (SPEC §8)."""

from __future__ import annotations

import json
import time
from pathlib import Path

from agent_helpers import openloop, payload

from resolver import api
from resolver.cli.main import main
from resolver.times import format_time, now, parse_time


def _hook(history: Path, name: str, env: dict, *extra: str, cache: bool = False):
    options = [*extra] if cache else [*extra, "--no-cache"]
    return openloop(
        "hook",
        "claude-code",
        "--task",
        "release-7",
        history,
        *options,
        stdin=payload(name),
        env=env,
    )


def _claims(history: Path) -> list[dict]:
    lines = (history / "events.jsonl").read_text(encoding="utf-8").splitlines()
    return [e for e in map(json.loads, lines) if e["channel"] == "agent"]


def _false_completions(history: Path, env: dict) -> set[str]:
    findings = api.status(api.prepare([history]), known="latest").findings
    return {f.event for f in findings if f.kind == "FALSE_COMPLETION"}


def test_task_completed_is_refused_until_the_deploy_is_confirmed(history: Path, env: dict):
    refused = _hook(history, "task_completed.json", env)
    assert refused.returncode == 2
    assert refused.stdout == ""
    assert "release-7 " in refused.stderr and "UNKNOWN" in refused.stderr
    assert "release-7/deploy" in refused.stderr
    assert "release-7/notes" not in refused.stderr  # closed: not outstanding
    assert "deploy-1" in refused.stderr  # the candidate that would satisfy, unconfirmed
    (claim,) = _claims(history)
    assert claim["claims_complete"] == ["release-7"]
    assert claim["by"] == "5f0c2a9e-8d41-4c55-9a3e-2f1b7c6d0e11"
    assert "text" not in claim  # the agent's words are never evidence

    # The confirmation comes a second after the claim (so the claim stays false), and is seen.
    after = parse_time(claim["at"]) + 1
    while now() <= after:
        time.sleep(0.1)
    log = str(history / "events.jsonl")
    record = ["record", log, "--channel", "deploys", "--by", "monitor", "--set", "deploy.prod=7"]
    assert main([*record, "--at", format_time(after)]) == 0

    allowed = _hook(history, "task_completed.json", env)
    assert allowed.returncode == 0, allowed.stderr
    assert allowed.stdout == "" and allowed.stderr == ""
    first, second = _claims(history)
    assert _false_completions(history, env) == {first["id"]}  # not second["id"]
    assert second["claims_complete"] == ["release-7"]


def test_stop_is_blocked_with_a_decision_on_stdout(history: Path, env: dict):
    done = _hook(history, "stop.json", env)
    assert done.returncode == 0, done.stderr
    decision = json.loads(done.stdout)
    assert decision["decision"] == "block"
    assert "release-7/deploy" in decision["reason"]
    assert "All done" not in decision["reason"]
    assert len(_claims(history)) == 1


def test_subagent_stop_is_judged_like_stop(history: Path, env: dict):
    done = _hook(history, "subagent_stop.json", env)
    assert json.loads(done.stdout)["decision"] == "block"
    assert _claims(history)[0]["by"] == "0b7d4e21-1c9a-4f3b-8e6d-5a2c9f8e7d60"


def test_stop_hook_active_is_honoured_and_the_claim_still_recorded(history: Path, env: dict):
    done = _hook(history, "stop_active.json", env)
    assert done.returncode == 0
    assert done.stdout == ""
    assert "stop_hook_active" in done.stderr
    (claim,) = _claims(history)
    assert _false_completions(history, env) == {claim["id"]}


def test_refusals_stop_after_the_cap_while_findings_stay(history: Path, env: dict):
    codes = [_hook(history, "task_completed.json", env, "--max-refusals", "2") for _ in range(3)]
    assert [c.returncode for c in codes] == [2, 2, 0]
    assert "consecutive refusals" in codes[2].stderr
    claims = _claims(history)
    assert len(claims) == 3
    assert _false_completions(history, env) == {c["id"] for c in claims}


def test_the_cap_counts_per_session(history: Path, env: dict):
    first = _hook(history, "task_completed.json", env, "--max-refusals", "1")
    other = _hook(history, "subagent_stop.json", env, "--max-refusals", "1")
    again = _hook(history, "task_completed.json", env, "--max-refusals", "1")
    assert first.returncode == 2
    assert json.loads(other.stdout)["decision"] == "block"  # another session: its first
    assert again.returncode == 0 and "consecutive refusals" in again.stderr


def test_a_malformed_payload_allows_with_a_warning_and_writes_nothing(history: Path, env: dict):
    before = (history / "events.jsonl").read_bytes()
    done = _hook(history, "malformed.json", env)
    assert done.returncode == 0
    assert done.stdout == ""
    assert "warning" in done.stderr and "<stdin>:2: error: invalid JSON" in done.stderr
    assert (history / "events.jsonl").read_bytes() == before


def test_strict_makes_errors_block(history: Path, env: dict):
    before = (history / "events.jsonl").read_bytes()
    done = _hook(history, "malformed.json", env, "--strict")
    assert done.returncode == 2
    assert "<stdin>:2: error: invalid JSON hook payload" in done.stderr
    unknown = openloop(
        "hook",
        "claude-code",
        "--task",
        "release-8",
        history,
        "--strict",
        stdin=payload("stop.json"),
        env=env,
    )
    assert unknown.returncode == 2 and "no task named 'release-8'" in unknown.stderr
    assert (history / "events.jsonl").read_bytes() == before


def test_an_unknown_event_name_is_an_error_not_a_block(history: Path, env: dict):
    text = json.dumps({"hook_event_name": "PreToolUse", "session_id": "s"})
    done = openloop("hook", "claude-code", "--task", "release-7", history, stdin=text, env=env)
    assert done.returncode == 0 and "hook_event_name must be one of" in done.stderr
    assert _claims(history) == []


def test_the_log_option_and_the_cache_agree_with_a_cold_run(history: Path, env: dict, tmp_path):
    log = tmp_path / "claims.jsonl"
    cold = _hook(history, "stop.json", env, "--log", log)
    warm = _hook(history, "stop.json", env, "--log", log, cache=True)
    again = _hook(history, "stop.json", env, "--log", log, cache=True)
    reasons = [json.loads(d.stdout)["reason"].split(" at ")[0] for d in (cold, warm, again)]
    assert len(set(reasons)) == 1
    assert len(log.read_text(encoding="utf-8").splitlines()) == 3
    assert len(_claims(history)) == 0  # the history's own log is untouched
