"""`openloop hook claude-code`: recorded payloads through the real command (SPEC §8)."""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import pytest
from agent_helpers import claims, hook, openloop, payload

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


def _false_completions(history: Path) -> set[str]:
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
    (claim,) = claims(history)
    assert claim["claims_complete"] == ["release-7"]
    assert claim["by"] == "agent"  # the --as identity, never the session id
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
    first, second = claims(history)
    assert _false_completions(history) == {first["id"]}  # not second["id"]
    assert second["claims_complete"] == ["release-7"]


def test_a_stop_that_claims_done_is_blocked_and_recorded(history: Path, env: dict):
    done = _hook(history, "stop.json", env)
    assert done.returncode == 0, done.stderr
    decision = json.loads(done.stdout)
    assert decision["decision"] == "block"
    assert "release-7/deploy" in decision["reason"]
    assert "All done" not in decision["reason"]
    (claim,) = claims(history)
    assert _false_completions(history) == {claim["id"]}


@pytest.mark.parametrize("name", ["stop_question.json", "stop_remaining.json"])
def test_a_stop_that_asks_or_reports_what_remains_is_no_claim(history: Path, env: dict, name):
    before = (history / "events.jsonl").read_bytes()
    done = hook("claude-code", history, f"claude-code/{name}", env)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    assert (history / "events.jsonl").read_bytes() == before  # nothing recorded


def test_a_session_start_prints_nothing_and_records_nothing(history: Path, env: dict):
    """Whatever a SessionStart hook prints is added to the model's context: it prints nothing."""
    before = (history / "events.jsonl").read_bytes()
    done = hook("claude-code", history, "claude-code/session_start.json", env)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""
    assert (history / "events.jsonl").read_bytes() == before


def test_without_last_message_the_transcript_is_read(history: Path, env: dict):
    done = hook("claude-code", history, "claude-code/stop_transcript.json", env)
    assert json.loads(done.stdout)["decision"] == "block"
    assert len(claims(history)) == 1


def test_subagent_stop_is_judged_like_stop(history: Path, env: dict):
    done = _hook(history, "subagent_stop.json", env)
    assert json.loads(done.stdout)["decision"] == "block"
    assert claims(history)[0]["by"] == "agent"


def test_stop_hook_active_is_honoured_visibly_and_the_claim_still_recorded(history, env):
    done = _hook(history, "stop_active.json", env)
    assert done.returncode == 0
    assert "stop_hook_active" in json.loads(done.stdout)["systemMessage"]
    (claim,) = claims(history)
    assert _false_completions(history) == {claim["id"]}


def test_refusals_stop_after_the_cap_while_findings_stay(history: Path, env: dict):
    codes = [_hook(history, "task_completed.json", env, "--max-refusals", "2") for _ in range(3)]
    assert [c.returncode for c in codes] == [2, 2, 0]
    assert "consecutive refusals" in json.loads(codes[2].stdout)["systemMessage"]
    recorded = claims(history)
    assert len(recorded) == 3
    assert _false_completions(history) == {c["id"] for c in recorded}


def test_the_cap_counts_per_identity(history: Path, env: dict):
    first = _hook(history, "task_completed.json", env, "--max-refusals", "1", "--as", "bot-a")
    other = _hook(history, "subagent_stop.json", env, "--max-refusals", "1", "--as", "bot-b")
    again = _hook(history, "task_completed.json", env, "--max-refusals", "1", "--as", "bot-a")
    assert first.returncode == 2
    assert json.loads(other.stdout)["decision"] == "block"  # another identity: its first
    assert again.returncode == 0 and "consecutive refusals" in again.stdout
    assert [c["by"] for c in claims(history)] == ["bot-a", "bot-b", "bot-a"]


def test_a_malformed_payload_is_refused_and_writes_nothing(history: Path, env: dict):
    before = (history / "events.jsonl").read_bytes()
    done = _hook(history, "malformed.json", env)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "<stdin>:2: error: invalid JSON hook payload" in done.stderr
    observed = _hook(history, "malformed.json", env, "--observe")
    assert (
        observed.returncode == 0 and "invalid JSON" in json.loads(observed.stdout)["systemMessage"]
    )
    assert (history / "events.jsonl").read_bytes() == before


def test_an_unknown_task_refuses_the_claim_and_writes_nothing(history: Path, env: dict):
    before = (history / "events.jsonl").read_bytes()
    stop = openloop(
        "hook", "claude-code", "--task", "release-8", history, "--no-cache",
        stdin=payload("stop.json"), env=env,
    )  # fmt: skip
    assert "no task named 'release-8'" in json.loads(stop.stdout)["reason"]
    task = openloop(
        "hook", "claude-code", "--task", "release-8", history, "--no-cache",
        stdin=payload("task_completed.json"), env=env,
    )  # fmt: skip
    assert task.returncode == 2 and "no task named 'release-8'" in task.stderr
    assert (history / "events.jsonl").read_bytes() == before


def test_an_unknown_event_name_is_allowed_visibly(history: Path, env: dict):
    text = json.dumps({"hook_event_name": "PostToolUse", "session_id": "s"})
    done = openloop("hook", "claude-code", "--task", "release-7", history, stdin=text, env=env)
    assert done.returncode == 0
    assert "PostToolUse is not a hook it judges" in json.loads(done.stdout)["systemMessage"]
    assert claims(history) == []


def test_observe_judges_and_records_but_never_blocks(history: Path, env: dict):
    done = _hook(history, "task_completed.json", env, "--observe")
    assert done.returncode == 0
    message = json.loads(done.stdout)["systemMessage"]
    assert message.startswith("openloop (observe): would refuse") and "release-7/deploy" in message
    (claim,) = claims(history)
    assert _false_completions(history) == {claim["id"]}


def test_an_internal_error_fails_open_visibly_and_strict_refuses(
    history: Path, monkeypatch, capsys
):
    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr("resolver.agents.hook.judge", broken)
    args = ["hook", "claude-code", "--task", "release-7", str(history), "--no-cache"]
    monkeypatch.setattr("sys.stdin", io.StringIO(payload("task_completed.json")))
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "internal error (RuntimeError: boom)" in json.loads(out)["systemMessage"]
    monkeypatch.setattr("sys.stdin", io.StringIO(payload("task_completed.json")))
    assert main([*args, "--strict"]) == 2
    assert "internal error (RuntimeError: boom); refusing" in capsys.readouterr().err


def test_the_log_option_and_the_cache_agree_with_a_cold_run(history: Path, env: dict, tmp_path):
    log = tmp_path / "claims.jsonl"
    cold = _hook(history, "stop.json", env, "--log", log)
    warm = _hook(history, "stop.json", env, "--log", log, cache=True)
    again = _hook(history, "stop.json", env, "--log", log, cache=True)
    reasons = [json.loads(d.stdout)["reason"].split(" at ")[0] for d in (cold, warm, again)]
    assert len(set(reasons)) == 1
    assert len(log.read_text(encoding="utf-8").splitlines()) == 3
    assert len(claims(history)) == 0  # the history's own log is untouched


def test_pre_tool_use_allows_what_does_not_touch_the_history(history: Path, env: dict):
    done = hook("claude-code", history, "claude-code/pretooluse_allowed.json", env)
    assert done.returncode == 0 and done.stdout == "" and done.stderr == ""


def test_the_identity_acts_as_an_agent_even_when_declared_principal(history: Path, env: dict):
    waiver = {"id": "w-1", "channel": "deploys", "seq": 2, "at": "2024-01-04T00:00:00Z"}
    waiver.update({"by": "alice", "waives": ["release-7/deploy"]})
    with open(history / "events.jsonl", "a", encoding="utf-8") as stream:
        stream.write(json.dumps(waiver) + "\n")
    assert main(["check", str(history), "--known", "latest", "--task", "release-7"]) == 0
    done = _hook(history, "task_completed.json", env, "--as", "alice")
    assert done.returncode == 2  # as the hook's identity, alice has no authority to waive
    assert "release-7/deploy" in done.stderr and claims(history)[0]["by"] == "alice"
