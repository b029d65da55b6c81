"""Lint for policies and templates (SPEC 5.2): a policy no event triggers, a template no task
uses, and the ids of the instances, so that tests and markers naming them are not dangling; for
a policy whose matched paths each open an instance, a note per trigger naming which path opened
which instance (``instance_path``).

Whether an event triggers a policy is the rules' decision, so this check prepares the history
(the standpoint-independent part only) and reads the ``instance_of`` atoms: a policy without
any is one that no event in the history triggers, at any standpoint.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from resolver.engine.prepared import Prepared
from resolver.language.loader import Diagnostic
from resolver.language.model import Policy, Project, Task

__all__ = ["SHOWN", "PolicyLint", "policy_lint"]

#: Triggers of a policy whose instances by path a note lists; the rest are counted.
SHOWN = 10


@dataclass
class PolicyLint:
    """Warnings, and the instance ids that exist at some standpoint."""

    warnings: list[Diagnostic] = field(default_factory=list)
    expectations: set[str] = field(default_factory=set)
    tasks: set[str] = field(default_factory=set)


def policy_lint(project: Project) -> PolicyLint:
    """Check the project's policies and templates (nothing to do without them)."""
    out = PolicyLint()
    if not project.policies and not project.templates:
        return out
    used = {t.template for t in project.tasks if t.template} | {
        p.opens for p in project.policies if p.opens
    }
    for template in project.templates:
        if template.id not in used:
            out.warnings.append(
                Diagnostic(
                    template.location,
                    "warning",
                    f"template {template.id} is used by no task and opened by no policy",
                )
            )
    if not project.policies:
        return out
    prepared = Prepared(project)
    interner = prepared.facts.interner
    triggered: set[str] = set()
    paths = {x: interner.key(pa)[1] for x, pa in prepared.core.get("instance_path")}
    by_path: dict[str, dict[str, list[tuple[str, str]]]] = {}
    for x, p, e in prepared.core.get("instance_of"):
        triggered.add(interner.key(p)[1])
        if x in paths:
            trigger = prepared.facts.event_id(e)
            opened = by_path.setdefault(interner.key(p)[1], {}).setdefault(trigger, [])
            opened.append((paths[x], prepared.facts.item_id(x)))
        ident = prepared.facts.item_id(x)
        derived = project.derived.get(ident)
        if isinstance(derived, Task):
            out.tasks.add(ident)
            out.expectations.update(derived.obligations)
        else:
            out.expectations.add(ident)
    for policy in project.policies:
        out.warnings.extend(_path_notes(policy, by_path.get(policy.id, {})))
        if policy.id not in triggered:
            out.warnings.append(
                Diagnostic(
                    policy.location,
                    "warning",
                    f"policy {policy.id} is triggered by no event in the history: none meets "
                    "all its 'when' conditions",
                )
            )
    return out


def _path_notes(policy: Policy, triggers: dict[str, list[tuple[str, str]]]) -> list[Diagnostic]:
    """One note per trigger (the first ``SHOWN``, then a count): each matched path and the
    instance it opened."""
    notes = []
    for trigger in sorted(triggers)[:SHOWN]:
        opened = sorted(triggers[trigger])
        listed = "; ".join(f"{path} -> {ident}" for path, ident in opened)
        notes.append(
            Diagnostic(
                policy.location,
                "note",
                f"policy {policy.id}: {trigger} opened {len(opened)} "
                f"instance{'s' if len(opened) != 1 else ''} by path: {listed}",
            )
        )
    if len(triggers) > SHOWN:
        notes.append(
            Diagnostic(
                policy.location,
                "note",
                f"policy {policy.id}: and {len(triggers) - SHOWN} more triggers opened "
                "instances by path",
            )
        )
    return notes
