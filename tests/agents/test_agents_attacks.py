"""The agent as an attacker (issue 28): one test per way it walked through the gate.

Each test drives the real command in a subprocess with real payload shapes, and fails on the
code before the fix: forged identity (MCP and `record`), a missing `by`, a backdated `recorded`,
a reused `seq`, a self-`set`, a second `.jsonl`, a torn line, an unknown `--task`, writes to the
history through Bash, Edit and Write, a poisoned cache.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from agent_helpers import claims, hook, log_lines, openloop, payload, status_json


class Wire:
    """`openloop mcp` in a subprocess, spoken to in raw JSON-RPC lines."""

    def __init__(self, history: Path, env: dict, *extra: str) -> None:
        command = [sys.executable, "-m", "resolver", "mcp", str(history), *extra]
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env
        )
        self.ask(
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "attacker", "version": "1"},
            },
        )
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.next_id = 100

    def send(self, message) -> None:
        text = message if isinstance(message, str) else json.dumps(message)
        assert self.process.stdin is not None
        self.process.stdin.write(text + "\n")
        self.process.stdin.flush()

    def receive(self) -> dict:
        assert self.process.stdout is not None
        return json.loads(self.process.stdout.readline())

    def ask(self, method: str, params=None, ident: int = 1) -> dict:
        message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return self.receive()

    def record(self, event: dict) -> dict:
        self.next_id += 1
        params = {"name": "record", "arguments": {"event": event}}
        return self.ask("tools/call", params, self.next_id)["result"]

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


@pytest.fixture
def wire(history: Path, env: dict):
    server = Wire(history, env)
    yield server
    server.close()


def _authoritative(history: Path) -> None:
    text = (history / "release.ol").read_text(encoding="utf-8")
    text = text.replace("channel deploys work", "channel deploys work authoritative")
    (history / "release.ol").write_text(text, encoding="utf-8")


@pytest.mark.parametrize(
    ("event", "words"),
    [
        ({"channel": "deploys", "by": "alice", "waives": ["release-7/deploy"]}, "by 'alice'"),
        ({"channel": "deploys", "recorded": "2024-01-01T00:00:00Z"}, "recorded is refused"),
        ({"channel": "deploys", "seq": 2}, "seq is refused"),
    ],
)
def test_mcp_record_refuses_another_identity_and_the_logs_fields(history, wire, event, words):
    before = (history / "events.jsonl").read_bytes()
    result = wire.record(event)
    assert result["isError"] is True and words in result["content"][0]["text"]
    assert (history / "events.jsonl").read_bytes() == before


def test_mcp_record_refuses_an_authoritative_channel(history: Path, env: dict):
    _authoritative(history)
    server = Wire(history, env)
    try:
        result = server.record({"channel": "deploys", "set": {"deploy.prod": "7"}})
    finally:
        server.close()
    assert result["isError"] and "authoritative" in result["content"][0]["text"]
    assert all(e["channel"] != "deploys" or e["id"] == "deploy-1" for e in log_lines(history))


def test_mcp_record_without_by_writes_as_the_identity(history: Path, env: dict):
    server = Wire(history, env, "--as", "bot-7")
    try:
        result = server.record({"channel": "docs", "text": "Drafted the notes"})
    finally:
        server.close()
    assert result["structuredContent"]["event"]["by"] == "bot-7"
    assert log_lines(history)[-1]["by"] == "bot-7"


@pytest.mark.parametrize(
    ("line", "code"),
    [
        ("{not json", -32700),
        ("[1, 2]", -32600),
        ('{"jsonrpc": "1.0", "id": 7, "method": "tools/list"}', -32600),
        ('{"jsonrpc": "2.0", "id": 7, "method": "no/such/method"}', -32601),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": "status"}', -32602),
        ('{"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "nope"}}', -32602),
        (
            '{"jsonrpc": "2.0", "id": 7, "method": "tools/call",'
            ' "params": {"name": "status", "arguments": {"at": 5}}}',
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 7, "method": "tools/call",'
            ' "params": {"name": "record", "arguments": {"event": "x"}}}',
            -32602,
        ),
        (
            '{"jsonrpc": "2.0", "id": 7, "method": "tools/call",'
            ' "params": {"name": "check", "arguments": {"colour": "red"}}}',
            -32602,
        ),
    ],
)
def test_every_malformed_request_gets_a_json_rpc_error(wire, line, code):
    wire.send(line)
    answer = wire.receive()
    assert answer["error"]["code"] == code
    # and the session goes on answering
    assert "tools" in wire.ask("tools/list", ident=8)["result"]


def test_record_refuses_a_backdated_recorded_and_a_wrong_seq(history: Path, env: dict):
    log = history / "events.jsonl"
    before = log.read_bytes()
    base = ["record", log, "--channel", "deploys", "--by", "monitor", "--set", "deploy.prod=7"]
    back = openloop(*base, "--recorded", "2024-01-02T00:00:00Z", env=env)
    assert back.returncode == 2 and "earlier than the latest recorded" in back.stderr
    again = openloop(*base, "--seq", "1", env=env)  # deploy-1 holds seq 1
    assert again.returncode == 2 and "not the next number of channel 'deploys' (2)" in again.stderr
    skip = openloop(*base, "--seq", "5", env=env)  # a gap of its own making
    assert skip.returncode == 2
    assert log.read_bytes() == before
    fine = openloop(*base, "--seq", "2", "--recorded", "2030-01-01T00:00:00Z", env=env)
    assert fine.returncode == 0, fine.stderr


def test_an_agents_own_set_does_not_open_the_gate(history: Path, env: dict):
    server = Wire(history, env)
    try:
        server.record({"channel": "deploys", "set": {"deploy.prod": "7"}})
    finally:
        server.close()
    done = hook("claude-code", history, "task_completed.json", env)
    assert done.returncode == 2 and "release-7/deploy" in done.stderr


def test_a_second_jsonl_in_the_history_refuses_the_claim(history: Path, env: dict):
    (history / "other.jsonl").write_text("", encoding="utf-8")
    done = hook("claude-code", history, "task_completed.json", env)
    assert done.returncode == 2
    assert "2 .jsonl files among the paths" in done.stderr and "other.jsonl" in done.stderr
    assert claims(history) == []
    stop = hook("claude-code", history, "stop.json", env)
    assert "2 .jsonl files" in json.loads(stop.stdout)["reason"]


def test_a_torn_line_refuses_the_claim(history: Path, env: dict):
    with open(history / "events.jsonl", "a", encoding="utf-8") as stream:
        stream.write('{"id": "forged", "channel": "deploys", "se')
    done = hook("claude-code", history, "task_completed.json", env)
    assert done.returncode == 2 and "events.jsonl:3: error" in done.stderr
    stop = hook("claude-code", history, "stop.json", env)
    assert "cannot judge the claim" in json.loads(stop.stdout)["reason"]


def test_an_unknown_task_refuses_the_claim(history: Path, env: dict):
    done = hook("claude-code", history, "task_completed.json", env, task="relase-7")
    assert done.returncode == 2 and "no task named 'relase-7'" in done.stderr
    assert claims(history) == []


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("pretooluse_bash_append.json", "redirects output onto history/events.jsonl"),
        ("pretooluse_bash_touch.json", "touch would write history/other.jsonl"),
        ("pretooluse_edit.json", "Edit would write"),
        ("pretooluse_write.json", "Write would write"),
        ("pretooluse_record_forged.json", "--by alice: you record only as agent"),
    ],
)
def test_writes_to_the_history_are_denied_before_they_run(history: Path, env: dict, name, words):
    done = hook("claude-code", history, f"claude-code/{name}", env)
    assert done.returncode == 0
    output = json.loads(done.stdout)["hookSpecificOutput"]
    assert output["hookEventName"] == "PreToolUse"
    assert output["permissionDecision"] == "deny"
    assert words in output["permissionDecisionReason"]


def test_record_onto_an_authoritative_channel_is_denied(history: Path, env: dict):
    _authoritative(history)
    command = "openloop record history/events.jsonl --channel deploys --by agent --set x=1"
    text = json.dumps(
        {
            "session_id": "s",
            "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command},
            "cwd": str(history.parent),
        }
    )
    done = openloop("hook", "claude-code", "--task", "release-7", history, stdin=text, env=env)
    reason = json.loads(done.stdout)["hookSpecificOutput"]["permissionDecisionReason"]
    assert "deploys is an authoritative channel" in reason


def test_a_stop_that_asks_is_neither_blocked_nor_recorded(history: Path, env: dict):
    done = hook("claude-code", history, "claude-code/stop_question.json", env)
    assert done.returncode == 0 and done.stdout == ""
    assert claims(history) == []


def test_a_stop_that_claims_done_is_blocked_and_recorded(history: Path, env: dict):
    text = payload("stop.json")
    done = openloop("hook", "claude-code", "--task", "release-7", history, stdin=text, env=env)
    assert json.loads(done.stdout)["decision"] == "block"
    (claim,) = claims(history)
    assert claim["by"] == "agent"


SMALL = """
channel work work
channel agent mention
task t {
  opened 2024-01-01
  obligation t/x { want a.b = "1"  verify state }
}
"""


def test_a_poisoned_cache_agrees_with_status(tmp_path: Path, env: dict):
    history = tmp_path / "h"
    history.mkdir()
    ol = history / "t.ol"
    ol.write_text(SMALL, encoding="utf-8")
    event = {"id": "w-1", "channel": "work", "seq": 1, "at": "2024-01-02T00:00:00Z"}
    (history / "events.jsonl").write_text(json.dumps({**event, "set": {"a.b": "2"}}) + "\n")
    original = ol.read_bytes()
    ol.write_bytes(original.replace(b'"1"', b'"2"'))  # same size: the task is now complete
    edited = ol.stat()
    stdin = payload("task_completed.json")
    args = ["hook", "claude-code", "--task", "t", history]
    assert openloop(*args, stdin=stdin, env=env).returncode == 0  # fills the cache
    _quiet(Path(env["OPENLOOP_CACHE_DIR"]))
    ol.write_bytes(original)  # restored, with the edited file's mtime
    os.utime(ol, ns=(edited.st_atime_ns, edited.st_mtime_ns))
    task = next(t for t in status_json(history, env=env)["tasks"] if t["id"] == "t")
    assert task["status"] == "INCOMPLETE"
    assert openloop(*args, stdin=stdin, env=env).returncode == 2  # the hook agrees


def _quiet(folder: Path, seconds: float = 1.5, limit: float = 30.0) -> None:
    """Wait until the background re-preparation has written its copy (nothing changes)."""
    start = time.monotonic()
    while time.monotonic() - start < limit:
        stamps = [p.stat().st_mtime for p in folder.rglob("*") if p.is_file()]
        if stamps and time.time() - max(stamps) > seconds:
            return
        time.sleep(0.2)
