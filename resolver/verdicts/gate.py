"""The gate of ``openloop check`` (SPEC §4): its scope as query facts, its atoms read once.

``rules/query/gate.lp`` derives the scope (every expectation, a task's obligations, or the
expectations a ``before`` names), what in it is outstanding or UNKNOWN, and the result; this
module turns the scope's ids into integer query facts and reads those atoms back as ids, once
per solve, for every face that reports the gate (text, JSON, GitHub, SARIF, the MCP tool).
"""

from __future__ import annotations

from dataclasses import dataclass

from resolver.engine.prepared import Prepared
from resolver.engine.query import Gate, Query
from resolver.errors import InputError
from resolver.verdicts.resolution import Resolution


def gate_facts(prepared: Prepared, task: str | None, before: str | None) -> Query:
    """The gate's scope as integer query facts (every expectation, a task's obligations, or
    those bounded by ``before``); unknown ids are input errors."""
    project = prepared.project
    if task is not None:
        number = prepared.facts.interner.get(("item", task))
        if project.task(task) is None or number is None:
            hint = " (it is an expectation)" if project.expectation(task) else ""
            raise InputError(f"--task: no task named '{task}'{hint}")
        return Query(gate=Gate("task", number), every_reason=False)
    if before is not None:
        number = prepared.facts.interner.get(("event", before))
        named = any(x.before == before for x in project.expectations)
        if number is None or (project.event(before) is None and not named):
            raise InputError(
                f"--before: no event named '{before}' in the log or in any `before` clause"
            )
        return Query(gate=Gate("before", number), every_reason=False)
    return Query(gate=Gate("all"), every_reason=False)


@dataclass(frozen=True)
class GateReading:
    """What the rules' gate derived (``gate_result``, ``gate_scope``, ``gate_outstanding``,
    ``gate_unknown``), read once, ids sorted."""

    result: str
    scope: list[str]
    outstanding: list[str]
    unknown: list[str]


def read_gate(prepared: Prepared, resolution: Resolution) -> GateReading:
    """The gate's atoms of a resolution solved with :func:`gate_facts`."""
    atoms, item = resolution.atoms, prepared.facts.item_id
    return GateReading(
        str(atoms.get("gate_result")[0][0]),
        sorted(item(x) for (x,) in atoms.get("gate_scope")),
        sorted(item(x) for (x,) in atoms.get("gate_outstanding")),
        sorted(item(x) for (x,) in atoms.get("gate_unknown")),
    )
