"""Cursor's hook protocol (``.cursor/hooks.json``, ``{"version": 1, "hooks": {...}}``).

Events read: ``stop`` (``status``, ``loop_count``, ``conversation_id``, ``transcript_path``: a
claim when ``status`` is ``completed`` and the last assistant turn of the transcript claims
completion; ``loop_count`` above 0 means the host is already continuing because of a stop hook,
read like ``stop_hook_active``), ``beforeShellExecution`` (``command``, ``cwd``) and
``preToolUse`` (``tool_name``, ``tool_input``). Answers:

- a refused stop: ``{"followup_message": ...}``, which Cursor submits as the next user message,
  at most ``loop_limit`` times (the installer writes ``--max-refusals`` + 1, so the hook's own
  cap, which still records every false completion, is the one that ends the loop);
- a denied shell command: ``{"permission": "deny", "user_message": ..., "agent_message": ...}``;
- a denied tool call: ``{"decision": "deny", "reason": ...}``;
- a warning: ``user_message`` where the event has one, else standard error (Cursor's hook log).
"""

from __future__ import annotations

from typing import Any

from resolver.agents.hook import Call, Outcome
from resolver.agents.hosts.base import Rendered, dumps, text, tool_call
from resolver.agents.stop_claims import last_message

NAME = "cursor"
#: Cursor's default ``loop_limit`` for a stop hook.
HOST_CAP = 5


def parse(data: dict[str, Any]) -> Call:
    event = text(data.get("hook_event_name")) or "?"
    session = text(data.get("conversation_id"))
    roots = data.get("workspace_roots")
    cwd = text(data.get("cwd")) or (roots[0] if isinstance(roots, list) and roots else None)
    if event == "stop":
        if data.get("status", "completed") != "completed":  # aborted or failed: no claim
            return Call("other", event, session, cwd=cwd)
        loops = data.get("loop_count", 0)
        active = isinstance(loops, int) and not isinstance(loops, bool) and loops > 0
        message = last_message(data, "last_assistant_message", "text")
        return Call("stop", event, session, active, message, cwd=cwd)
    if event == "beforeShellExecution":
        command = data.get("command")
        return Call("tool", event, session, tool="Shell", tool_input={"command": command}, cwd=cwd)
    if event == "preToolUse":
        return tool_call(data, event, session, cwd)
    return Call("other", event, session, cwd=cwd)


def render(call: Call, outcome: Outcome) -> Rendered:
    warning = outcome.warning
    if call.event == "beforeShellExecution":
        if outcome.action == "deny":
            body = {
                "permission": "deny",
                "user_message": outcome.reason,
                "agent_message": outcome.reason,
            }
        else:
            body = {"permission": "allow", **({"user_message": warning} if warning else {})}
        return Rendered(dumps(body) + "\n")
    if call.event == "preToolUse":
        if outcome.action == "deny":
            return Rendered(dumps({"decision": "deny", "reason": outcome.reason}) + "\n")
        return Rendered(dumps({"decision": "allow"}) + "\n", (warning or "") and warning + "\n")
    stderr = warning + "\n" if warning else ""
    if outcome.action == "refuse":
        if call.kind == "stop":
            return Rendered(dumps({"followup_message": outcome.reason}) + "\n", stderr)
        return Rendered("", outcome.reason + "\n", 2)
    return Rendered(dumps({}) + "\n", stderr)


def config_path() -> str:
    return ".cursor/hooks.json"


def install(config: dict[str, Any], command: str, max_refusals: int) -> dict[str, Any]:
    from resolver.agents.hosts.install import add_flat

    config.setdefault("version", 1)
    add_flat(config, "stop", {"command": command, "loop_limit": max_refusals + 1})
    add_flat(config, "beforeShellExecution", {"command": command})
    add_flat(config, "preToolUse", {"command": command, "matcher": "Write|Edit|Delete"})
    return config
