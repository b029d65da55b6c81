"""The explanation step of a policy instance: which policy, which trigger, which conditions.

``explain`` of an instance (SPEC 5.1) says where it came from: the policy, the event that
triggered it, and each ``when`` condition with whether that event met it, read from the rules'
``instance`` (at the standpoint) and ``cond_met`` (prepared) atoms; the conditions themselves
are written back in the language's own syntax (:func:`condition_text`, which the JSON data
holds too); the sentences are phrased in ``resolver/faces/explanation/text.py``.
"""

from __future__ import annotations

from typing import Any

from resolver.language.model import Condition
from resolver.verdicts.explanation.view import Node
from resolver.verdicts.resolution import ExpectationVerdict, TaskVerdict

__all__ = ["condition_text", "instance_nodes"]


def condition_text(c: Condition) -> str:
    """A condition as it is written: ``when not touches "docs/**"``."""
    operand = c.operand if c.kind in ("channel", "kind", "by", "set") else f'"{c.operand}"'
    text = f"{c.kind} {operand}"
    if c.kind == "set" and c.has_value:
        value = c.value
        shown = f'"{value}"' if isinstance(value, str) else str(value).lower()
        text += f" = {shown}"
    return "when " + ("not " if c.negated else "") + text


def instance_nodes(view: Any, verdict: ExpectationVerdict | TaskVerdict) -> list[Node]:
    """The ``instance`` node of an explanation (nothing for a declared item)."""
    if verdict.policy is None or verdict.trigger is None:
        return []
    policy = next((p for p in view.project.policies if p.id == verdict.policy), None)
    if policy is None:
        return []
    facts = view.facts
    # An obligation of a task instance was triggered through its task.
    source = verdict.id
    derived = view.project.derived.get(verdict.id)
    part_of = getattr(derived, "part_of", None)
    if part_of and view.project.derived.get(part_of) is not None:
        source = part_of
    number = facts.interner.get(("item", source))
    met = {c for (c,) in view.prepared.core.rows("cond_met", number)}
    children = []
    for index, condition in enumerate(policy.conditions):
        c = facts.interner.get(("cond", policy.id, index))
        ok = c in met
        children.append(
            Node(
                "condition",
                code="met" if ok else "not_met",
                event=verdict.trigger,
                data={"condition": condition_text(condition), "met": ok},
            )
        )
    return [
        Node(
            "instance",
            code="instance",
            event=verdict.trigger,
            data={"policy": policy.id, "trigger": verdict.trigger, "task": source},
            children=tuple(children),
            say={"where": str(policy.location)},
        )
    ]
