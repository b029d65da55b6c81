"""Work receipts: what a task's completion rests on, read from the verdicts of one standpoint.

A receipt answers the questions a principal asks before accepting work as done: what was owed,
what evidence settled each obligation and at which tier, who waived or cancelled what (and which
attempts were only proposals), what the agent claimed and whether it was true, and what remains.
Nothing here decides anything: statuses, tiers, flags, findings and the authority behind each
marker are atoms of ``rules/*.lp``; the project only lends titles, actors and texts to describe
them.

A receipt stays readable on a real history (SPEC §4): each obligation prints at most
:data:`NOTES_SHOWN` notes and, while it is still owed, the :data:`NEAREST_SHOWN` rejected
candidates that came nearest (the rules' ``nearest``/``nearer``, rules/query/explain.lp: ask for
them with :func:`explain_query`), and counts the rest; ``full=True`` keeps every one.

>>> from resolver import api
>>> from resolver.verdicts import receipt                          # doctest: +SKIP
>>> history = api.prepare(["fixtures/support-mission/base"])              # doctest: +SKIP
>>> resolution = api.status(history, at="2024-09-03T15:00")               # doctest: +SKIP
>>> receipt.build(history, resolution, "support-88").status               # doctest: +SKIP
'INCOMPLETE'
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field, replace

from resolver.engine.prepared import Prepared
from resolver.engine.query import Query
from resolver.errors import InputError
from resolver.language.model import Project, Task
from resolver.verdicts.caps import NEAREST_SHOWN, nearest_events
from resolver.verdicts.explanation import query_facts
from resolver.verdicts.resolution import ExpectationVerdict, Finding, Reason, Resolution

#: Reason codes worth a line on a receipt: evidence that fell short, or changed the outcome.
NOTE_CODES = ("below_verify", "unconfirmed_effect", "reopened")
#: Reason codes of a candidate that took no effect (what a rejected candidate's line says).
REJECTION_CODES = ("candidate_rejected", "below_verify", "unconfirmed_effect")
#: At most this many notes are printed per obligation (``full`` prints every one).
NOTES_SHOWN = 3


@dataclass(frozen=True)
class Evidence:
    """The event that settled an obligation, as recorded in the log."""

    event: str
    at: int
    by: str | None
    channel: str
    kind: str | None
    text: str | None


@dataclass(frozen=True)
class Precondition:
    """One ``requires`` of an obligation (its own or its task's) and that item's status now."""

    id: str
    status: str | None  # None when the id names nothing declared


@dataclass(frozen=True)
class Note:
    """A reason that bears on the receipt: unverified claims, unconfirmed effects, reopenings."""

    code: str
    event: str | None
    reason: Reason


@dataclass(frozen=True)
class ObligationLine:
    """One obligation of the task: its status, what settled it, and what bears on it."""

    id: str
    title: str | None
    status: str
    tier: str | None
    closed_at: int | None
    evidence: Evidence | None
    flags: tuple[str, ...]
    preconditions: tuple[Precondition, ...]
    blocked_by: tuple[Precondition, ...]
    notes: tuple[Note, ...]
    awaiting_until: int | None
    #: While it is owed: the rejected candidates that came nearest, nearest first (each with
    #: the reasons the rules gave it); every rejected candidate when the receipt is ``full``.
    nearest: tuple[Note, ...] = ()
    #: Notes (of :data:`NOTE_CODES`) left out of ``notes``.
    notes_omitted: int = 0
    #: Rejected candidates (events) left out of ``nearest``; counted only while it is owed.
    rejected_omitted: int = 0


@dataclass(frozen=True)
class Ending:
    """A ``waives``, ``cancels``, ``supersedes`` or ``reopens`` naming an obligation.

    ``effective`` says whether its actor had authority (rules/prepare/roles.lp); ``outcome`` what it
    did at this standpoint: ``closed``, ``reopened``, ``none`` (it had authority but changed
    nothing, for instance because the obligation was already closed) or ``proposal``.
    """

    event: str
    at: int
    by: str | None
    kind: str
    obligation: str
    effective: bool
    outcome: str


@dataclass(frozen=True)
class Receipt:
    """The work receipt of one task at one standpoint."""

    task: str
    title: str | None
    status: str
    at: int
    known: int | None  # None: known latest
    principals: tuple[str, ...]
    obligations: tuple[ObligationLine, ...]
    endings: tuple[Ending, ...]
    findings: tuple[Finding, ...]
    remaining: tuple[str, ...]
    project: Project = field(repr=False, compare=False, default_factory=Project)

    def obligation(self, ident: str) -> ObligationLine | None:
        """The line of one obligation, if it belongs to the task."""
        return next((o for o in self.obligations if o.id == ident), None)


def explain_query(prepared: Prepared, resolution: Resolution, task_id: str) -> Query:
    """The query that asks the rules which rejected candidates came nearest to closing each
    obligation still outstanding (``outstanding``, rules/standpoint/tasks.lp); solve the
    standpoint with it and build the receipt from that resolution. InputError if no such task.

    Without it, a receipt names one nearest candidate per owed obligation (its key reason).
    """
    verdict = resolution.task(task_id)
    if verdict is None:
        raise InputError(_unknown_task(prepared.project, task_id))
    return query_facts(prepared, verdict.outstanding)


def build(prepared: Prepared, resolution: Resolution, task_id: str, full: bool = False) -> Receipt:
    """The receipt of ``task_id`` from a resolution of ``prepared``; InputError if no such task.

    ``full`` keeps every note and every rejected candidate of an owed obligation; by default
    each obligation keeps :data:`NOTES_SHOWN` notes and :data:`NEAREST_SHOWN` candidates.
    """
    project = prepared.project
    verdict = resolution.task(task_id)
    if verdict is None:
        raise InputError(_unknown_task(project, task_id))
    members = sorted(
        (v for v in resolution.expectations if v.task == task_id),
        key=_declaration_order(project, task_id),
    )
    ids = {v.id for v in members}
    facts = prepared.facts
    statuses = {v.id: v.status for v in resolution.expectations}
    statuses.update({t.id: t.status for t in resolution.tasks})

    requires: dict[str, list[str]] = defaultdict(list)
    for x, y in resolution.atoms.get("precondition"):
        requires[facts.item_id(x)].append(facts.item_id(y))
    blocked: dict[str, list[Precondition]] = defaultdict(list)
    for x, y, s in resolution.atoms.get("blocked_by"):
        blocked[facts.item_id(x)].append(Precondition(facts.item_id(y), str(s).upper()))
    principals = sorted(
        name
        for name in {
            facts.actor(a) for x, a in prepared.core.get("principal_of") if facts.item_id(x) in ids
        }
        if name is not None
    )

    owed = set(verdict.outstanding)
    candidates = {
        (facts.item_id(x), facts.event_id(e))
        for x, e, _ in prepared.reason_inputs.get("cand_channel")
    }
    lines = []
    for v in members:
        line = _line(project, v, statuses, requires.get(v.id, []), blocked.get(v.id, []))
        chain: list[str] = []
        if v.id in owed:
            most = len(v.reasons) if full else NEAREST_SHOWN  # a chain is never longer
            chain = nearest_events(prepared, resolution, v.id, most)
            if not chain:  # not explained: the nearest is the key rejection (key_reasons.lp)
                chain = [r.event for r in v.key_reasons if r.code in REJECTION_CODES and r.event]
            line = _nearest(project, line, v, chain, candidates, full)
        lines.append(_capped_notes(line, v, chain, full))
    endings = tuple(
        sorted(_endings(prepared, resolution, ids), key=lambda e: (e.at, e.event, e.obligation))
    )
    return Receipt(
        task=task_id,
        title=verdict.title,
        status=verdict.status,
        at=resolution.standpoint.at,
        known=resolution.standpoint.known,
        principals=tuple(principals),
        obligations=tuple(lines),
        endings=endings,
        findings=verdict.findings,
        remaining=verdict.outstanding,
        project=project,
    )


def _capped_notes(
    line: ObligationLine, v: ExpectationVerdict, chain: list[str], full: bool
) -> ObligationLine:
    """At most :data:`NOTES_SHOWN` notes, in the verdict's order: those of the nearest
    candidates first (nearest first), then the key ones (``reason_is_key``); the rest counted."""
    if full or len(line.notes) <= NOTES_SHOWN:
        return line
    key = set(v.key_reasons)
    near = {event: rank for rank, event in enumerate(chain)}

    def rank(i: int) -> tuple[int, bool, int]:
        note = line.notes[i]
        return (near.get(note.event or "", len(near)), note.reason not in key, i)

    ranked = sorted(range(len(line.notes)), key=rank)
    keep = sorted(ranked[:NOTES_SHOWN])
    notes = tuple(line.notes[i] for i in keep)
    return replace(line, notes=notes, notes_omitted=len(line.notes) - len(notes))


def _nearest(
    project: Project,
    line: ObligationLine,
    v: ExpectationVerdict,
    chain: list[str],
    candidates: set[tuple[str, str]],
    full: bool,
) -> ObligationLine:
    """An owed obligation's rejected candidates: the rules' nearest chain (``nearest`` then
    ``nearer``, or the key rejection reason when it was not explained). With ``full``, every
    rejected candidate, the chain first and then the others, latest first."""
    rejected: dict[str, list[Reason]] = {}
    for reason in v.reasons:
        if reason.code in REJECTION_CODES and reason.event is not None:
            rejected.setdefault(reason.event, []).append(reason)
    order = [e for e in dict.fromkeys(chain) if e in rejected]
    if full:

        def when(event: str) -> tuple[int, str]:
            found = project.event(event)
            return (found.at if found else 0, event)

        order += sorted(set(rejected) - set(order), key=when, reverse=True)
    else:
        order = order[:NEAREST_SHOWN]
    shown = tuple(Note(r.code, e, r) for e in order for r in rejected[e])
    counted = {e for e in rejected if (v.id, e) in candidates}
    return replace(line, nearest=shown, rejected_omitted=len(counted - set(order)))


def _declaration_order(project: Project, task_id: str):
    """Obligations in the order the task declares them (a principal's own story), then by id."""
    task = project.task(task_id)
    nested = {x: i for i, x in enumerate(task.obligations if task else ())}
    return lambda v: (nested.get(v.id, len(nested)), v.id)


def _unknown_task(project: Project, task_id: str) -> str:
    if isinstance(project.derived.get(task_id), Task):  # listed only once triggered (SPEC 5.2)
        return (
            f"'{task_id}' is a policy instance that does not exist at this standpoint: "
            "its trigger is not visible there"
        )
    if project.expectation(task_id) is not None:
        return f"'{task_id}' is an expectation, not a task: a receipt is made for a task"
    declared = ", ".join(sorted(t.id for t in project.tasks)) or "none"
    return f"unknown task '{task_id}' (declared tasks: {declared})"


def _line(
    project: Project,
    v: ExpectationVerdict,
    statuses: dict[str, str],
    requires: list[str],
    blocked: list[Precondition],
) -> ObligationLine:
    declared = project.expectation(v.id)
    assert declared is not None
    evidence = None
    if v.closed_by is not None:
        event = project.event(v.closed_by)
        if event is not None:
            evidence = Evidence(event.id, event.at, event.by, event.channel, event.kind, event.text)
    notes = tuple(Note(r.code, r.event, r) for r in v.reasons if r.code in NOTE_CODES)
    awaiting_until = None
    if "awaiting" in v.flags and declared.window is not None and v.opened_at is not None:
        awaiting_until = v.opened_at + declared.window
    return ObligationLine(
        id=v.id,
        title=v.title,
        status=v.status,
        tier=v.tier,
        closed_at=v.closed_at,
        evidence=evidence,
        flags=v.flags,
        preconditions=tuple(Precondition(y, statuses.get(y)) for y in sorted(set(requires))),
        blocked_by=tuple(sorted(set(blocked), key=lambda p: p.id)),
        notes=notes,
        awaiting_until=awaiting_until,
    )


def _endings(prepared: Prepared, resolution: Resolution, members: set[str]) -> list[Ending]:
    """Every visible ending marker naming an obligation, with what the rules say it did
    (``ending_outcome``, rules/standpoint/reasons.lp)."""
    facts = prepared.facts
    project = prepared.project
    endings = []
    for x, e, kind, outcome in resolution.atoms.get("ending_outcome"):
        x_id, e_id = facts.item_id(x), facts.event_id(e)
        if x_id not in members:
            continue
        event = project.event(e_id)
        assert event is not None
        endings.append(
            Ending(
                event=e_id,
                at=event.at,
                by=event.by,
                kind=str(kind),
                obligation=x_id,
                effective=str(outcome) != "proposal",
                outcome=str(outcome),
            )
        )
    return endings
