"""`openloop mcp`: the SDK's own client over a real stdio session, the server a subprocess."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp")

from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from resolver.ingest.record import append_event  # noqa: E402


async def _session_run(history: Path, env: dict, body) -> None:
    server = StdioServerParameters(
        command=sys.executable, args=["-m", "resolver", "mcp", str(history)], env=env
    )
    async with stdio_client(server) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await body(session)


def _run(history: Path, env: dict, body) -> None:
    anyio.run(_session_run, history, env, body)


def test_tools_resources_and_a_verdict_that_changes_after_record(history: Path, env: dict):
    seen: dict = {}

    async def body(session: ClientSession) -> None:
        tools = {t.name: t for t in (await session.list_tools()).tools}
        seen["tools"] = tools
        # The client validates each result against the tool's output schema itself.
        seen["status"] = await session.call_tool("status", {"known": "latest"})
        seen["check"] = await session.call_tool("check", {"known": "latest", "task": "release-7"})
        seen["explain"] = await session.call_tool(
            "explain", {"id": "release-7/deploy", "known": "latest", "why_not": "satisfied"}
        )
        seen["ready"] = await session.call_tool("ready", {"at": "2024-01-02T12:00:00Z"})
        seen["resources"] = (await session.list_resources()).resources
        seen["receipt"] = await session.read_resource("openloop://receipt/release-7")
        seen["record"] = await session.call_tool(
            "record", {"event": {"channel": "deploys", "text": "Asked for a deploy retry"}}
        )
        # Another writer (the deploy monitor) confirms the deploy; the server sees it.
        append_event(
            history / "events.jsonl",
            {"channel": "deploys", "by": "monitor", "set": {"deploy.prod": "7"}},
        )
        seen["after"] = await session.call_tool("check", {"known": "latest", "task": "release-7"})
        seen["bad"] = await session.call_tool("explain", {"id": "no-such-thing"})

    _run(history, env, body)

    tools = seen["tools"]
    assert set(tools) == {"status", "check", "explain", "ready", "record"}
    for name in ("status", "check", "explain", "ready"):
        assert tools[name].annotations.read_only_hint is True
        assert tools[name].annotations.idempotent_hint is True
    assert tools["record"].annotations.read_only_hint is False
    assert all(t.output_schema["properties"]["kind"]["const"] == n for n, t in tools.items())

    status = seen["status"].structured_content
    assert status["kind"] == "status" and status["schema_version"] == 1
    deploy = next(x for x in status["expectations"] if x["id"] == "release-7/deploy")
    assert deploy["status"] == "UNKNOWN"
    assert json.loads(seen["status"].content[0].text) == status

    before = seen["check"].structured_content
    assert before["result"] == "FAIL" or before["result"] == "UNKNOWN"
    assert [x["id"] for x in before["unknown"]] == ["release-7/deploy"]

    tree = seen["explain"].structured_content
    assert tree["kind"] == "explain" and tree["id"] == "release-7/deploy"
    assert "deploy-1" in json.dumps(tree)

    ready = seen["ready"].structured_content
    assert [x["id"] for x in ready["ready"]] == ["release-7/deploy"]
    assert [str(r.uri) for r in seen["resources"]] == ["openloop://receipt/release-7"]
    receipt = json.loads(seen["receipt"].contents[0].text)
    assert receipt["kind"] == "receipt" and receipt["task"]["id"] == "release-7"

    written = seen["record"].structured_content
    assert written["kind"] == "record" and written["event"]["channel"] == "deploys"
    assert written["event"]["seq"] == 2 and written["event"]["by"] == "agent"
    lines = (history / "events.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[-2])["id"] == written["event"]["id"]

    after = seen["after"].structured_content
    assert after["result"] == "PASS" and after["unknown"] == [] and after["outstanding"] == []
    assert seen["bad"].is_error and "no expectation or task named" in seen["bad"].content[0].text
