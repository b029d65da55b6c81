"""Codex CLI's hook protocol (``.codex/hooks.json`` or ``[hooks]`` in ``.codex/config.toml``).

Codex speaks Claude Code's JSON (its schemas: ``codex-rs/hooks/schema/generated`` in
``openai/codex``): ``Stop`` and ``SubagentStop`` carry ``last_assistant_message``,
``stop_hook_active`` and ``transcript_path``; ``PreToolUse`` carries ``tool_name`` (``Bash``,
``apply_patch``, MCP tools) and ``tool_input``. A stop is blocked with ``{"decision": "block",
"reason": ...}``, a tool call denied with ``hookSpecificOutput.permissionDecision: "deny"``.
Codex has no ``TaskCompleted`` and no cap of its own on stop blocks: the hook's
``--max-refusals`` is the only bound, with ``stop_hook_active``.
"""

from __future__ import annotations

from typing import Any

from resolver.agents.hook import Call, Outcome
from resolver.agents.hosts import claude_code
from resolver.agents.hosts.base import Rendered

NAME = "codex"
HOST_CAP = None
STOPS = ("Stop", "SubagentStop")


def parse(data: dict[str, Any]) -> Call:
    """The call a Codex payload makes (Claude Code's shapes; no TaskCompleted)."""
    call = claude_code.parse(data)
    return call if call.kind != "claim" else Call("other", call.event, call.session)


def render(call: Call, outcome: Outcome) -> Rendered:
    return claude_code.render(call, outcome)


def config_path() -> str:
    return ".codex/hooks.json"


def install(config: dict[str, Any], command: str) -> dict[str, Any]:
    from resolver.agents.hosts.install import add_nested

    for event in STOPS:
        add_nested(config, event, command, None)
    add_nested(config, "PreToolUse", command, "Bash|apply_patch")
    return config
