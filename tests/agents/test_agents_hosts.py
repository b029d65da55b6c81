"""Every host's hook protocol, with recorded payload shapes, and `hook install` / `hook doctor`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import claims, hook, openloop


def test_codex_stop_blocks_in_claude_json_and_a_question_passes(history: Path, env: dict):
    done = hook("codex", history, "codex/stop.json", env)
    assert json.loads(done.stdout)["decision"] == "block"
    asked = hook("codex", history, "codex/stop_question.json", env)
    assert asked.returncode == 0 and asked.stdout == ""
    assert len(claims(history)) == 1


def test_codex_pre_tool_use_denies_sed_in_place_on_the_history(history: Path, env: dict):
    done = hook("codex", history, "codex/pre_tool_use.json", env)
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["permissionDecision"] == "deny" and "sed -i" in output["permissionDecisionReason"]


def test_cursor_stop_answers_with_a_followup_message(history: Path, env: dict):
    done = hook("cursor", history, "cursor/stop.json", env)
    assert "release-7/deploy" in json.loads(done.stdout)["followup_message"]
    assert len(claims(history)) == 1


def test_cursor_stop_in_a_followup_loop_does_not_block_again(history: Path, env: dict):
    text = (Path(__file__).parent / "payloads/cursor/stop.json").read_text(encoding="utf-8")
    looping = tmp = history.parent / "loop.json"
    tmp.write_text(text.replace('"loop_count": 0', '"loop_count": 1'), encoding="utf-8")
    done = openloop(
        "hook", "cursor", "--task", "release-7", history, "--no-cache",
        stdin=looping.read_text().replace("$CWD", str(history.parent)).replace(
            "$TRANSCRIPTS", str(Path(__file__).parent / "payloads/transcripts")
        ),
        env=env,
    )  # fmt: skip
    assert json.loads(done.stdout) == {} and "stop_hook_active" in done.stderr


def test_cursor_before_shell_execution_denies_tee_onto_the_log(history: Path, env: dict):
    done = hook("cursor", history, "cursor/before_shell.json", env)
    answer = json.loads(done.stdout)
    assert answer["permission"] == "deny" and "tee would write" in answer["agent_message"]


def test_copilot_agent_stop_blocks_with_json_not_exit_2(history: Path, env: dict):
    done = hook("copilot", history, "copilot/agent_stop.json", env)
    assert done.returncode == 0  # exit 2 is only a warning to Copilot
    answer = json.loads(done.stdout)
    assert answer["decision"] == "block" and "release-7/deploy" in answer["reason"]


def test_copilot_pre_tool_use_denies_an_edit_of_the_declarations(history: Path, env: dict):
    done = hook("copilot", history, "copilot/pre_tool_use.json", env)
    answer = json.loads(done.stdout)
    assert answer["permissionDecision"] == "deny"
    assert "release.ol" in answer["permissionDecisionReason"]


def test_gemini_after_agent_denies_and_before_tool_denies(history: Path, env: dict):
    stop = hook("gemini", history, "gemini/after_agent.json", env)
    answer = json.loads(stop.stdout)
    assert answer["decision"] == "deny" and "release-7/deploy" in answer["reason"]
    tool = hook("gemini", history, "gemini/before_tool.json", env)
    assert json.loads(tool.stdout)["decision"] == "deny"


@pytest.mark.parametrize(
    ("name", "path", "events"),
    [
        (
            "claude-code",
            ".claude/settings.json",
            {"TaskCompleted", "Stop", "PreToolUse", "SessionStart"},
        ),
        ("codex", ".codex/hooks.json", {"Stop", "PreToolUse"}),
        ("cursor", ".cursor/hooks.json", {"stop", "beforeShellExecution", "preToolUse"}),
        ("copilot", ".github/hooks/openloop.json", {"agentStop", "preToolUse"}),
        ("gemini", ".gemini/settings.json", {"AfterAgent", "BeforeTool"}),
    ],
)
def test_install_merges_is_idempotent_and_doctor_passes(
    history: Path, env: dict, name, path, events
):
    project = history.parent
    config = project / path
    config.parent.mkdir(parents=True, exist_ok=True)
    theirs = {"model": "keep-me", "hooks": {"SessionEnd": [{"command": "echo bye"}]}}
    config.write_text(json.dumps(theirs), encoding="utf-8")
    first = openloop("hook", "install", name, "history", "--dir", project, env=env, cwd=project)
    assert first.returncode == 0, first.stderr
    written = json.loads(config.read_text(encoding="utf-8"))
    assert written["model"] == "keep-me" and written["hooks"]["SessionEnd"]
    assert events <= set(written["hooks"])
    text = json.dumps(written)
    assert f"hook {name} --task release-7 history" in text
    again = openloop("hook", "install", name, "history", "--dir", project, env=env, cwd=project)
    assert again.stdout.startswith("unchanged") and json.loads(config.read_text()) == written
    doctor = openloop("hook", "doctor", name, "--dir", project, env=env, cwd=project)
    assert doctor.returncode == 0, doctor.stdout
    assert "task release-7 is declared" in doctor.stdout
    assert "does not declare it" in doctor.stdout  # `agent` is not declared in the history


def test_doctor_finds_what_would_break_the_gate(history: Path, env: dict):
    project = history.parent
    openloop("hook", "install", "claude-code", "history", "--dir", project, env=env, cwd=project)
    (history / "other.jsonl").write_text("", encoding="utf-8")
    done = openloop("hook", "doctor", "--dir", project, env=env, cwd=project)
    assert done.returncode == 1 and "2 .jsonl files" in done.stdout
    missing = openloop("hook", "doctor", "cursor", "--dir", project, env=env, cwd=project)
    assert missing.returncode == 1 and "no configuration" in missing.stdout


def test_install_refuses_a_configuration_that_is_not_json(history: Path, env: dict):
    project = history.parent
    config = project / ".claude" / "settings.json"
    config.parent.mkdir()
    config.write_text("{ not json", encoding="utf-8")
    done = openloop(
        "hook", "install", "claude-code", "history", "--dir", project, env=env, cwd=project
    )
    assert done.returncode == 2 and "settings.json:1: error: not JSON" in done.stderr
    assert config.read_text(encoding="utf-8") == "{ not json"
