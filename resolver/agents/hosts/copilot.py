"""GitHub Copilot CLI's hook protocol (``.github/hooks/*.json``, ``{"version": 1, ...}``).

Copilot sends camelCase payloads for camelCase event names (``agentStop``: ``sessionId``,
``cwd``, ``transcriptPath``, ``stopReason``; ``preToolUse``: ``toolName``, ``toolArgs``) and
snake_case ones, with ``hook_event_name``, for the PascalCase names; both are read. The last
message comes from the transcript. Answers:

- a refused ``agentStop`` / ``subagentStop``: ``{"decision": "block", "reason": ...}`` on
  stdout with exit 0: Copilot treats exit 2 from a stop hook as a warning only, so the JSON is
  what blocks;
- a denied tool call: ``{"permissionDecision": "deny", "permissionDecisionReason": ...}``;
- a warning: standard error (Copilot logs it and shows it to the user).
Copilot sends no ``stop_hook_active`` and sets no cap of its own: the hook's ``--max-refusals``
bounds the loop.
"""

from __future__ import annotations

from typing import Any

from resolver.agents.hook import Call, Outcome
from resolver.agents.hosts.base import Rendered, arguments, dumps, text
from resolver.agents.stop_claims import last_message

NAME = "copilot"
HOST_CAP = None
_STOPS = {"agentStop", "subagentStop", "Stop", "SubagentStop"}
_TOOLS = {"preToolUse", "PreToolUse"}


def parse(data: dict[str, Any]) -> Call:
    event = text(data.get("hook_event_name")) or _infer(data)
    session = text(data.get("sessionId")) or text(data.get("session_id"))
    cwd = text(data.get("cwd"))
    if event in _STOPS:
        return Call("stop", event, session, False, last_message(data), cwd=cwd)
    if event in _TOOLS:
        tool = text(data.get("toolName")) or text(data.get("tool_name")) or ""
        raw = data["toolArgs"] if "toolArgs" in data else data.get("tool_input")
        return Call("tool", event, session, tool=tool, tool_input=arguments(raw), cwd=cwd)
    return Call("other", event, session, cwd=cwd)


def _infer(data: dict[str, Any]) -> str:
    """camelCase payloads carry no event name: tell them apart by their fields."""
    if "toolName" in data and "toolResult" not in data and "error" not in data:
        return "preToolUse"
    if "stopReason" in data:
        return "subagentStop" if "agentName" in data else "agentStop"
    return "?"


def render(call: Call, outcome: Outcome) -> Rendered:
    stderr = outcome.warning + "\n" if outcome.warning else ""
    if outcome.action == "deny":
        body = {"permissionDecision": "deny", "permissionDecisionReason": outcome.reason}
        return Rendered(dumps(body) + "\n", stderr)
    if outcome.action == "refuse":
        return Rendered(dumps({"decision": "block", "reason": outcome.reason}) + "\n", stderr)
    return Rendered("", stderr)


def config_path() -> str:
    return ".github/hooks/openloop.json"


def install(config: dict[str, Any], command: str) -> dict[str, Any]:
    from resolver.agents.hosts.install import add_flat

    config.setdefault("version", 1)
    for event in ("agentStop", "subagentStop", "preToolUse"):
        add_flat(config, event, {"type": "command", "bash": command, "timeoutSec": 30})
    return config
