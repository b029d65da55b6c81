"""Claims that cite evidence (issue 28, item 5): the gate says what each cited event supports."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from agent_helpers import hook, openloop
from test_agents_attacks import Wire

from resolver.errors import InputError
from resolver.language.eventlog import read_jsonl_text


def test_the_refusal_says_what_each_cited_event_supports(history: Path, env: dict):
    log = history / "events.jsonl"
    cite = ["deploy-1", "notes-1", "nosuch"]
    record = openloop(
        "record", log, "--channel", "agent", "--by", "agent",
        "--claims-complete", "release-7", "--evidence", *cite, env=env,
    )  # fmt: skip
    assert record.returncode == 0, record.stderr
    done = hook("claude-code", history, "task_completed.json", env)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    start = lines.index("Evidence cited:")
    cited = "\n".join(lines[start:])
    assert "deploy-1 for release-7/deploy: " in cited and "outcome is unknown" in cited
    assert "notes-1 for release-7/notes: " in cited and "SATISFIED at tier state" in cited
    assert "nosuch: no such event in the history" in cited
    claim = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
    assert claim["evidence"] == cite  # the hook's claim rests on the same events


def test_mcp_record_of_a_claim_with_evidence_answers_its_judgment(history: Path, env: dict):
    server = Wire(history, env)
    try:
        server.next_id += 1
        params = {
            "name": "record",
            "arguments": {
                "event": {"channel": "agent", "claims_complete": ["release-7"]},
                "evidence": ["deploy-1"],
            },
        }
        result = server.ask("tools/call", params, server.next_id)["result"]
    finally:
        server.close()
    (judgment,) = result["structuredContent"]["judgment"]
    assert judgment["target"] == "release-7" and judgment["status"] == "UNKNOWN"
    (entry,) = judgment["evidence"]
    assert entry["event"] == "deploy-1" and entry["known"] is True
    assert [s["outcome"] for s in entry["supports"]] == ["unconfirmed_effect"]


@pytest.mark.parametrize("value", [5, ["ok", 7], ["not an id"]])
def test_the_reader_validates_evidence(value):
    line = json.dumps({"id": "c", "channel": "agent", "at": "2024-01-01", "evidence": value})
    with pytest.raises(InputError, match="evidence"):
        read_jsonl_text(line, "log.jsonl")


def test_the_reader_accepts_evidence():
    line = json.dumps({"id": "c", "channel": "agent", "at": "2024-01-01", "evidence": "e-1"})
    (event,) = read_jsonl_text(line, "log.jsonl")
    assert event.id == "c"
