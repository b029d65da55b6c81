"""``openloop audit``: every past close of a history, judged when it was made and now.

The judging is the rules' (``rules/query/audit.lp``): a close (a ``claims_complete`` event) is
judged at its own standpoint, ``(at its at, known when it was recorded)``, which is what a
gate running at that moment would have known; then every closed item is read at now with every
record (``known latest``), and the rules combine both into one verdict per close:
``complete_when_closed``, ``landed_later``, ``never_supported`` or ``unknown``. False pendings
are ``reports_pending`` findings at their own standpoint and tracker items still open whose
expectation is SATISFIED now.

This module only picks the standpoints (one solve per distinct close standpoint, one at now),
hands each close's state to the now solve as integer facts, and reads the atoms into typed
results; who acts as an agent is the rules' ``acts_as``.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.language.model import Project
from resolver.verdicts.explanation import item_number, key_reason_of
from resolver.verdicts.explanation.view import Node
from resolver.verdicts.resolution import Resolution, resolve
from resolver.vocabulary import (
    AUDIT_STATES,
    AUDIT_VERDICTS,
    CLAIM_MARKERS,
    UNSUPPORTED_VERDICTS,
    per_word,
)

__all__ = [
    "AuditClose",
    "AuditResult",
    "CloseGate",
    "PendingFinding",
    "audit",
    "closes_as_claims",
    "judge_close",
]

#: The verdicts of a close, in the order a summary lists them.
VERDICTS = AUDIT_VERDICTS
#: The verdicts that say the close was not supported when it was made.
UNSUPPORTED = UNSUPPORTED_VERDICTS
#: The exit of the gate at a close, by the item's state now: those of ``openloop check``.
_EXIT_CODES = per_word(AUDIT_STATES, {"complete": 0, "incomplete": 1, "unknown": 3})
#: The kind of event that opens a tracker's item (ingest github, beads, taskmaster, backlog).
TRACKER_OPENING = "issue"
#: The kind of a tracker's close that ``ingest github`` writes with ``completes``.
TRACKER_CLOSE = "issue_closed"


@dataclass(frozen=True)
class AuditClose:
    """One close (a ``claims_complete`` of one item) and how it stands."""

    event: str
    target: str
    title: str | None
    by: str | None
    agent: bool
    at: int
    recorded: int
    at_close: str  # complete | unknown | incomplete (audit_state)
    now: str  # complete | unknown | incomplete (audit_now_state)
    verdict: str  # one of VERDICTS (audit_verdict)
    status_now: str | None  # the expectation's status at now (None for a task)
    reason: Node  # the item's key reason at now (a face phrases it)


@dataclass(frozen=True)
class PendingFinding:
    """An item reported pending (or still open on its tracker) although it was complete."""

    target: str
    title: str | None
    event: str | None  # the reports_pending event; None for an item still open on the tracker
    by: str | None
    reason: Node


@dataclass
class AuditResult:
    """The closes and false pendings of a history, with the standpoints they were read at."""

    now: Standpoint
    since: int | None
    closes: list[AuditClose] = field(default_factory=list)
    false_pending: list[PendingFinding] = field(default_factory=list)

    def count(self, verdict: str) -> int:
        """How many closes have ``verdict``."""
        return sum(1 for c in self.closes if c.verdict == verdict)

    @property
    def unsupported(self) -> int:
        """Closes that were not complete when made (landed later or never)."""
        return sum(1 for c in self.closes if c.verdict in UNSUPPORTED)

    def by_closer(self) -> dict[str, dict[str, int]]:
        """Per closer (``(unnamed)`` for none), how many closes of each verdict."""
        table: dict[str, dict[str, int]] = defaultdict(lambda: dict.fromkeys(VERDICTS, 0))
        for close in self.closes:
            table[close.by or "(unnamed)"][close.verdict] += 1
        return dict(sorted(table.items()))

    def by_role(self) -> dict[str, dict[str, int]]:
        """Agents' closes against people's, by verdict."""
        table = {role: dict.fromkeys(VERDICTS, 0) for role in ("agent", "person")}
        for close in self.closes:
            table["agent" if close.agent else "person"][close.verdict] += 1
        return table


def audit(prepared: Prepared, now: Standpoint, since: int | None = None) -> AuditResult:
    """Judge every close at or after ``since`` (every one when None) and find false pendings."""
    project, facts = prepared.project, prepared.facts
    claims = [
        e
        for e in project.events
        if any(m.kind in CLAIM_MARKERS for m in e.markers)
        and (since is None or e.at >= since)
        and e.at <= now.at
    ]
    groups: dict[tuple[int, int], list[int]] = defaultdict(list)
    for event in claims:
        number = facts.interner.get(("event", event.id))
        assert number is not None, event.id
        groups[(event.at, event.recorded)].append(number)
    states: dict[tuple[int, int], str] = {}
    pending: list[tuple[int, int]] = []
    for (at, recorded), events in sorted(groups.items()):
        extra = "".join(f"audit_close({e}).\n" for e in sorted(events))
        atoms = prepared.solve(Standpoint(at, recorded), Query(extra=extra), reasons=False)
        for e, y, state in atoms.get("audit_state"):
            states[(e, y)] = str(state)
        pending.extend(atoms.get("audit_false_pending"))
    items = _tracker_items(prepared)
    extra = "audit_now.\n" + "".join(f"audit_item({y}).\n" for y in sorted(items))
    extra += "".join(f"audit_at_close({e},{y},{s}).\n" for (e, y), s in sorted(states.items()))
    resolution = resolve(prepared, now, Query(every_reason=False, extra=extra))
    atoms = resolution.atoms
    verdicts = {(e, y): str(v) for e, y, v in atoms.get("audit_verdict")}
    now_state = {y: str(s) for y, s in atoms.get("audit_now_state")}
    agents = {a for a, role in prepared.core.get("acts_as") if str(role) == "agent"}
    result = AuditResult(now, since)
    for (e, y), state in states.items():
        event = project.event(facts.event_id(e))
        assert event is not None
        target = facts.item_id(y)
        actor = facts.interner.get(("actor", event.by)) if event.by else 0
        verdict = resolution.expectation(target)
        result.closes.append(
            AuditClose(
                event=event.id,
                target=target,
                title=_title(prepared, target),
                by=event.by,
                agent=actor in agents,
                at=event.at,
                recorded=event.recorded,
                at_close=state,
                now=now_state[y],
                verdict=verdicts[(e, y)],
                status_now=verdict.status if verdict is not None else None,
                reason=_reason(prepared, resolution, target),
            )
        )
    result.closes.sort(key=lambda c: (c.at, c.event, c.target))
    for e, y in sorted(set(pending)):
        event = project.event(facts.event_id(e))
        target = facts.item_id(y)
        result.false_pending.append(
            PendingFinding(target, _title(prepared, target), facts.event_id(e),
                           event.by if event else None, _reason(prepared, resolution, target))
        )  # fmt: skip
    for (y,) in atoms.get("audit_stale_open"):
        target = facts.item_id(y)
        result.false_pending.append(
            PendingFinding(target, _title(prepared, target), None, None,
                           _reason(prepared, resolution, target))
        )  # fmt: skip
    return result


@dataclass(frozen=True)
class CloseGate:
    """A close about to be made (the gate at a tracker's close): the item's state now."""

    target: str
    title: str | None
    state: str  # complete | unknown | incomplete (audit_now_state)
    status: str  # the expectation's or task's status word now
    reason: Node

    @property
    def exit_code(self) -> int:
        """0 complete, 1 not complete, 3 UNKNOWN: the exits of ``openloop check``."""
        return _EXIT_CODES[self.state]


def judge_close(prepared: Prepared, now: Standpoint, ident: str) -> CloseGate:
    """Would a close of ``ident`` (expectation or task) made at ``now`` be supported?"""
    number = item_number(prepared, ident)  # an unknown id is an input error
    resolution = resolve(
        prepared, now, Query(every_reason=False, extra=f"audit_now.\naudit_gate({number}).\n")
    )
    (state,) = [str(s) for y, s in resolution.atoms.get("audit_now_state") if y == number]
    verdict = resolution.expectation(ident)
    task = resolution.task(ident)
    status = verdict.status if verdict is not None else task.status if task is not None else "?"
    reason = _reason(prepared, resolution, ident)
    return CloseGate(ident, _title(prepared, ident), state, status, reason)


def closes_as_claims(project: Project) -> Project:
    """The project with each tracker close that completes an item read as the closer's claim.

    ``ingest github`` writes a closed issue as ``issue-N-closed`` (kind ``issue_closed``)
    carrying ``completes``, which the rules grade as explicit evidence: the close would support
    itself. The audit (and the gate at a close) asks what supports a close besides the close,
    so it reads those markers as ``claims_complete`` (issue 30: a close is a claim by the
    closer, never evidence by itself); the rules then judge them like every other claim.
    Nothing else changes: a ``cancels`` or ``supersedes`` close keeps its meaning.
    """
    if not any(e.kind == TRACKER_CLOSE for e in project.events):
        return project
    events = []
    for event in project.events:
        if event.kind == TRACKER_CLOSE and any(m.kind == "completes" for m in event.markers):
            markers = tuple(
                replace(m, kind="claims_complete") if m.kind == "completes" else m
                for m in event.markers
            )
            event = replace(event, markers=markers)
        events.append(event)
    return replace(project, events=events)


def _tracker_items(prepared: Prepared) -> set[int]:
    """The expectations a tracker opened: opened by an event of kind ``issue``."""
    project, interner = prepared.project, prepared.facts.interner
    found = set()
    for expectation in project.expectations:
        opening = project.event(expectation.opened_by) if expectation.opened_by else None
        if opening is not None and opening.kind == TRACKER_OPENING:
            number = interner.get(("item", expectation.id))
            if number is not None:
                found.add(number)
    return found


def _title(prepared: Prepared, ident: str) -> str | None:
    item = prepared.project.expectation(ident) or prepared.project.task(ident)
    return getattr(item, "title", None) if item is not None else None


def _reason(prepared: Prepared, resolution: Resolution, ident: str) -> Node:
    return key_reason_of(prepared, resolution, ident)
