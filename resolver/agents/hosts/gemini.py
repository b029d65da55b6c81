"""Gemini CLI's hook protocol (``.gemini/settings.json``, ``hooks`` by event name).

Events read: ``AfterAgent`` (``prompt_response``, the agent's final text, and
``stop_hook_active``) and ``BeforeTool`` (``tool_name``: ``run_shell_command``, ``write_file``,
``replace``, MCP tools; ``tool_input``). Answers (stdout must hold JSON only):

- a refused ``AfterAgent``: ``{"decision": "deny", "reason": ...}``: the response is rejected
  and the reason sent to the agent as a new prompt;
- a denied tool call: ``{"decision": "deny", "reason": ...}``, sent to the agent as the tool's
  error;
- a warning: ``{"systemMessage": ...}``, shown to the user; otherwise ``{}``.
Gemini sets no cap of its own on retries: ``stop_hook_active`` and ``--max-refusals`` bound it.
"""

from __future__ import annotations

from typing import Any

from resolver.agents.hook import Call, Outcome
from resolver.agents.hosts.base import Rendered, dumps, flag, text, tool_call
from resolver.agents.stop_claims import last_message

NAME = "gemini"
HOST_CAP = None


def parse(data: dict[str, Any]) -> Call:
    event = text(data.get("hook_event_name")) or "?"
    session = text(data.get("session_id"))
    cwd = text(data.get("cwd"))
    if event == "AfterAgent":
        message = last_message(data, "prompt_response")
        return Call("stop", event, session, flag(data, "stop_hook_active"), message, cwd=cwd)
    if event == "BeforeTool":
        return tool_call(data, event, session, cwd)
    return Call("other", event, session, cwd=cwd)


def render(call: Call, outcome: Outcome) -> Rendered:
    body: dict[str, Any] = {}
    if outcome.warning:
        body["systemMessage"] = outcome.warning
    if outcome.blocks:
        body.update({"decision": "deny", "reason": outcome.reason})
    return Rendered(dumps(body) + "\n")


def config_path() -> str:
    return ".gemini/settings.json"


def install(config: dict[str, Any], command: str) -> dict[str, Any]:
    from resolver.agents.hosts.install import add_nested

    add_nested(config, "AfterAgent", command, None, name="openloop")
    add_nested(
        config, "BeforeTool", command, "run_shell_command|write_file|replace", name="openloop"
    )
    return config
