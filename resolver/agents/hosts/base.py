"""What every host module shares: reading the payload, and the shape of an answer.

A host module reads its host's payload into a :class:`~resolver.agents.hook.Call` and renders
the judge's :class:`~resolver.agents.hook.Outcome` as what its host reads (stdout JSON, stderr,
exit code). The judge never sees a host's field names, and a host module decides nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from resolver.errors import InputError, Location


@dataclass(frozen=True)
class Rendered:
    """What the hook process prints and how it exits."""

    stdout: str = ""
    stderr: str = ""
    code: int = 0


def read_object(text: str, name: str = "<stdin>") -> dict[str, Any]:
    """The payload as a JSON object; anything else is an :class:`InputError` at its line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"invalid JSON hook payload: {exc.msg}", Location(name, exc.lineno)
        ) from None
    if not isinstance(data, dict):
        raise InputError("the hook payload must be a JSON object", Location(name, 1))
    return data


def text(value: Any) -> str | None:
    """A non-empty string, else None."""
    return value if isinstance(value, str) and value else None


def flag(data: dict[str, Any], name: str) -> bool:
    """A boolean field (absent is False); another type is an :class:`InputError`."""
    value = data.get(name, False)
    if value is None:
        return False
    if not isinstance(value, bool):
        raise InputError(f"{name} must be true or false", Location("<stdin>", 1))
    return value


def arguments(value: Any) -> Any:
    """Tool arguments, decoded when a host sends them as a JSON string."""
    if isinstance(value, str):
        try:
            return json.loads(value)
        except ValueError:
            return value
    return value


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False)


def refusal_exit(reason: str) -> Rendered:
    """Exit 2 with the reason on stderr: the blocking answer every host but Copilot honours,
    used when the payload could not even be read (its event is unknown)."""
    return Rendered(stderr=reason + "\n", code=2)


def tool_call(data: dict[str, Any], event: str, session: str | None, cwd: str | None):
    """The tool call a payload with ``tool_name`` and ``tool_input`` makes (the guard judges
    it): Cursor's ``preToolUse`` and Gemini's ``BeforeTool`` carry the same two fields."""
    from resolver.agents.hook import Call  # the hook imports the hosts

    tool = text(data.get("tool_name")) or ""
    return Call(
        "tool", event, session, tool=tool, tool_input=arguments(data.get("tool_input")), cwd=cwd
    )
