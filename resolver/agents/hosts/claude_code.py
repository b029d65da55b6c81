"""Claude Code's hook protocol (``.claude/settings.json``; Devin reads the same hooks).

Events read: ``TaskCompleted`` (always a claim), ``Stop`` and ``SubagentStop`` (a claim when
``last_assistant_message``, else the last assistant turn of the transcript at
``transcript_path``, claims completion; ``stop_hook_active`` honoured), ``PreToolUse``
(``tool_name``, ``tool_input``, ``cwd``) and ``SessionStart`` (``source``: startup, resume,
clear, compact), which judges nothing: it warms the session's first claim. Answers:

- a refused ``TaskCompleted``: exit 2, the reason on stderr (shown to the model);
- a refused stop: ``{"decision": "block", "reason": ...}`` on stdout, exit 0;
- a denied tool call: ``{"hookSpecificOutput": {"hookEventName": "PreToolUse",
  "permissionDecision": "deny", "permissionDecisionReason": ...}}``, exit 0;
- a session's start: nothing on stdout (whatever a ``SessionStart`` hook prints is added to
  the model's context), exit 0;
- a warning (an internal error, ``--observe``, a cap reached): ``{"systemMessage": ...}``,
  which the host shows the user. Claude Code ends a turn after 8 consecutive stop blocks; the
  default cap of refusals is below it.
"""

from __future__ import annotations

from typing import Any

from resolver.agents.hook import Call, Outcome
from resolver.agents.hosts.base import Rendered, dumps, flag, text
from resolver.agents.stop_claims import last_message

NAME = "claude-code"
#: The host's own cap on consecutive stop-hook blocks.
HOST_CAP = 8
CLAIMS = ("TaskCompleted",)
STOPS = ("Stop", "SubagentStop")
TOOLS = ("PreToolUse",)
STARTS = ("SessionStart",)


def parse(data: dict[str, Any]) -> Call:
    """The call a Claude Code payload makes."""
    event = text(data.get("hook_event_name")) or "?"
    session = text(data.get("session_id"))
    cwd = text(data.get("cwd"))
    if event in CLAIMS:
        return Call("claim", event, session, cwd=cwd)
    if event in STOPS:
        message = last_message(data, "last_assistant_message")
        return Call("stop", event, session, flag(data, "stop_hook_active"), message, cwd=cwd)
    if event in TOOLS:
        return Call(
            "tool",
            event,
            session,
            tool=text(data.get("tool_name")) or "",
            tool_input=data.get("tool_input"),
            cwd=cwd,
        )
    if event in STARTS:
        return Call("start", event, session, cwd=cwd)
    return Call("other", event, session, cwd=cwd)


def render(call: Call, outcome: Outcome) -> Rendered:
    """The answer in Claude Code's protocol (also Codex's: the same JSON)."""
    extra: dict[str, Any] = {}
    if outcome.warning:
        extra["systemMessage"] = outcome.warning
    if outcome.action == "deny":
        return Rendered(
            dumps(
                {
                    "hookSpecificOutput": {
                        "hookEventName": call.event,
                        "permissionDecision": "deny",
                        "permissionDecisionReason": outcome.reason,
                    },
                    **extra,
                }
            )
            + "\n"
        )
    if outcome.action == "refuse":
        if call.kind == "stop":
            return Rendered(dumps({"decision": "block", "reason": outcome.reason, **extra}) + "\n")
        return Rendered(dumps(extra) + "\n" if extra else "", outcome.reason + "\n", 2)
    return Rendered(dumps(extra) + "\n" if extra else "")


def config_path() -> str:
    return ".claude/settings.json"


def install(config: dict[str, Any], command: str) -> dict[str, Any]:
    """``config`` with the hook added for every event it judges (Claude-style nesting)."""
    from resolver.agents.hosts.install import add_nested

    for event in (*CLAIMS, *STOPS, *STARTS):
        add_nested(config, event, command, None)
    add_nested(config, "PreToolUse", command, "Bash|Edit|Write|MultiEdit|NotebookEdit")
    return config
