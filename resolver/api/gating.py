"""``check``: the gate for CI, one solve with the gate's scope, its atoms read once.

What is in scope, what is outstanding and the result are derived by ``rules/query/gate.lp``
(read by :mod:`resolver.verdicts.gate`); the reported items' key reasons come from the same
solve (``rules/query/explain.lp``). :func:`check` returns all of it as a :class:`Check`, which
the CLI's faces (text, JSON, GitHub, SARIF), the MCP ``check`` tool and the bench read.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from resolver.engine.prepared import Prepared, Standpoint
from resolver.verdicts.resolution import Resolution, resolve

if TYPE_CHECKING:
    from resolver.verdicts.ci_items import CiItem
    from resolver.verdicts.gate import GateReading

__all__ = [
    "GATE_EXIT",
    "Check",
    "check",
    "check_document",
    "check_json",
    "key_reason",
    "scope_label",
]

#: ``openloop check``'s exit code for each result of the rules' gate (``rules/query/gate.lp``).
GATE_EXIT = {"pass": 0, "fail": 1, "unknown": 3}


@dataclass(frozen=True)
class Check:
    """A gate's answer: the solve, what the gate derived, and the scope in words."""

    prepared: Prepared
    resolution: Resolution
    gate: GateReading
    label: str

    @property
    def exit(self) -> int:
        """The exit code of the gate's result (:data:`GATE_EXIT`)."""
        return GATE_EXIT[self.gate.result]

    def key_reason(self, ident: str) -> str:
        """The one-line key reason of a reported item (:func:`key_reason`)."""
        return key_reason(self.prepared, self.resolution, ident)

    def document(self) -> dict:
        """The ``check --format json`` document (:func:`check_json`)."""
        return check_json(self.prepared, self.resolution, self.gate, self.label)

    def ci_items(self) -> list[CiItem]:
        """What the GitHub and SARIF faces report (:mod:`resolver.verdicts.ci_items`)."""
        from resolver.verdicts import ci_items

        return ci_items.collect(self.prepared, self.resolution, self.key_reason)


def check(
    prepared: Prepared, point: Standpoint, task: str | None = None, before: str | None = None
) -> Check:
    """The gate at ``point`` over every expectation, a ``task``'s obligations, or the
    expectations bounded by the event ``before``; unknown ids are input errors."""
    from resolver.verdicts.gate import gate_facts, read_gate  # the gate's: not a hook's key reason

    resolution = resolve(prepared, point, gate_facts(prepared, task, before))
    gate = read_gate(prepared, resolution)
    return Check(prepared, resolution, gate, scope_label(task, before, len(gate.scope)))


def scope_label(task: str | None, before: str | None, size: int) -> str:
    """The scope in words: ``obligations of task T (3 expectations)``."""
    count = f"{size} expectation{'s' if size != 1 else ''}"
    if task:
        return f"obligations of task {task} ({count})"
    if before:
        return f"expectations before {before} ({count})"
    return f"every expectation ({count})"


def key_reason(prepared: Prepared, resolution: Resolution, ident: str) -> str:
    """The one-line key reason of an item (``key_reason`` atom, ``rules/query/explain.lp``)."""
    from resolver.faces.explanation.text import line  # phrasing: only when a reason is asked
    from resolver.verdicts.explanation import key_reason_of

    return line(key_reason_of(prepared, resolution, ident))


def check_json(prepared: Prepared, resolution: Resolution, gate: GateReading, label: str) -> dict:
    """The ``check --format json`` document of a gate's reading."""

    def entry(ident: str) -> dict:
        verdict = resolution.expectation(ident)
        assert verdict is not None
        return {
            "id": ident,
            "status": verdict.status,
            "flags": list(verdict.flags),
            "reason": key_reason(prepared, resolution, ident),
        }

    return {
        "schema_version": 1,
        "kind": "check",
        "result": gate.result.upper(),
        "exit": GATE_EXIT[gate.result],
        "scope": label,
        "checked": gate.scope,
        "outstanding": [entry(x) for x in gate.outstanding],
        "unknown": [entry(x) for x in gate.unknown],
    }


def check_document(
    prepared: Prepared, point: Standpoint, task: str | None, before: str | None
) -> dict:
    """``check --format json`` for a scope, as the CLI, the MCP ``check`` tool and the bench
    ask for it: one solve with the gate, its atoms read once."""
    return check(prepared, point, task, before).document()
