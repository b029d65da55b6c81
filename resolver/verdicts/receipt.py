"""Work receipts: what a task's completion rests on, read from the verdicts of one standpoint.

A receipt answers the questions a principal asks before accepting work as done: what was owed,
what evidence settled each obligation and at which tier, who waived or cancelled what (and which
attempts were only proposals), what the agent claimed and whether it was true, and what remains.
Nothing here decides anything: statuses, tiers, flags, findings and the authority behind each
marker are atoms of ``rules/*.lp``; the project only lends titles, actors and texts to describe
them.

>>> from resolver import api
>>> from resolver.verdicts import receipt                          # doctest: +SKIP
>>> history = api.prepare(["fixtures/support-mission/base"])              # doctest: +SKIP
>>> resolution = api.status(history, at="2024-09-03T15:00")               # doctest: +SKIP
>>> receipt.build(history, resolution, "support-88").status               # doctest: +SKIP
'INCOMPLETE'
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from resolver.engine.prepared import Prepared
from resolver.errors import InputError
from resolver.faces.words import describe
from resolver.language.model import Project
from resolver.times import format_time
from resolver.verdicts.resolution import ExpectationVerdict, Finding, Resolution

#: Reason codes worth a line on a receipt: evidence that fell short, or changed the outcome.
NOTE_CODES = ("below_verify", "unconfirmed_effect", "reopened")
#: The status each ending marker closes with (``reopens`` closes nothing).
_ENDING_STATUS = {"waives": "WAIVED", "cancels": "CANCELLED", "supersedes": "SUPERSEDED"}


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
    detail: str


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
    notes: tuple[Note, ...]
    awaiting_until: int | None


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
class Claim:
    """A finding about the task or one of its obligations, with the claim's own time."""

    kind: str
    event: str
    at: int | None
    by: str | None
    target: str
    outstanding: tuple[str, ...]


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
    findings: tuple[Claim, ...]
    remaining: tuple[str, ...]

    def obligation(self, ident: str) -> ObligationLine | None:
        """The line of one obligation, if it belongs to the task."""
        return next((o for o in self.obligations if o.id == ident), None)


def build(prepared: Prepared, resolution: Resolution, task_id: str) -> Receipt:
    """The receipt of ``task_id`` from a resolution of ``prepared``; InputError if no such task."""
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
    principals = sorted(
        name
        for name in {
            facts.actor(a) for x, a in prepared.core.get("principal_of") if facts.item_id(x) in ids
        }
        if name is not None
    )

    lines = tuple(_line(project, v, statuses, requires.get(v.id, [])) for v in members)
    endings = tuple(
        sorted(_endings(prepared, members), key=lambda e: (e.at, e.event, e.obligation))
    )
    return Receipt(
        task=task_id,
        title=verdict.title,
        status=verdict.status,
        at=resolution.standpoint.at,
        known=resolution.standpoint.known,
        principals=tuple(principals),
        obligations=lines,
        endings=endings,
        findings=tuple(_claim(project, f) for f in verdict.findings),
        remaining=verdict.outstanding,
    )


def _declaration_order(project: Project, task_id: str):
    """Obligations in the order the task declares them (a principal's own story), then by id."""
    task = project.task(task_id)
    nested = {x: i for i, x in enumerate(task.obligations if task else ())}
    return lambda v: (nested.get(v.id, len(nested)), v.id)


def _claim(project: Project, finding: Finding) -> Claim:
    event = project.event(finding.event)
    return Claim(
        finding.kind,
        finding.event,
        event.at if event else None,
        finding.by,
        finding.target,
        finding.outstanding,
    )


def _unknown_task(project: Project, task_id: str) -> str:
    if project.expectation(task_id) is not None:
        return f"'{task_id}' is an expectation, not a task: a receipt is made for a task"
    declared = ", ".join(sorted(t.id for t in project.tasks)) or "none"
    return f"unknown task '{task_id}' (declared tasks: {declared})"


def _line(
    project: Project, v: ExpectationVerdict, statuses: dict[str, str], requires: list[str]
) -> ObligationLine:
    declared = project.expectation(v.id)
    assert declared is not None
    evidence = None
    if v.closed_by is not None:
        event = project.event(v.closed_by)
        if event is not None:
            evidence = Evidence(event.id, event.at, event.by, event.channel, event.kind, event.text)
    notes = tuple(
        Note(r.code, r.event, describe(r, project, declared))
        for r in v.reasons
        if r.code in NOTE_CODES
    )
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
        notes=notes,
        awaiting_until=awaiting_until,
    )


def _endings(prepared: Prepared, members: list[ExpectationVerdict]) -> list[Ending]:
    """Every visible ending marker naming an obligation: effective ones and proposals."""
    facts = prepared.facts
    project = prepared.project
    by_id = {v.id: v for v in members}
    found: dict[tuple[str, str, str], bool] = {}
    for x, e, kind in prepared.core.get("effective"):
        x_id, e_id = facts.item_id(x), facts.event_id(e)
        if x_id in by_id and e_id in by_id[x_id].examined:  # visible at this standpoint
            found[(x_id, e_id, str(kind))] = True
    for v in members:
        for reason in v.reasons:
            if reason.code == "proposal" and reason.event:
                found.setdefault((v.id, reason.event, reason.detail), False)
    endings = []
    for (x_id, e_id, kind), effective in found.items():
        event = project.event(e_id)
        assert event is not None
        endings.append(
            Ending(
                event=e_id,
                at=event.at,
                by=event.by,
                kind=kind,
                obligation=x_id,
                effective=effective,
                outcome=_outcome(by_id[x_id], e_id, kind, effective),
            )
        )
    return endings


def _outcome(v: ExpectationVerdict, event: str, kind: str, effective: bool) -> str:
    if not effective:
        return "proposal"
    if kind == "reopens":
        reopened = any(r.code == "reopened" and r.event == event for r in v.reasons)
        return "reopened" if reopened else "none"
    closed = v.closed_by == event and v.status == _ENDING_STATUS.get(kind)
    return "closed" if closed else "none"


# ------------------------------------------------------------------------------------------------
# Renderers
# ------------------------------------------------------------------------------------------------


def _time(value: int | None) -> str | None:
    return None if value is None else format_time(value)


def to_dict(receipt: Receipt) -> dict[str, Any]:
    """The receipt as plain data (the ``--format json`` output)."""
    return {
        "standpoint": {
            "at": format_time(receipt.at),
            "known": "latest" if receipt.known is None else format_time(receipt.known),
        },
        "task": {
            "id": receipt.task,
            "title": receipt.title,
            "status": receipt.status,
            "principals": list(receipt.principals),
        },
        "obligations": [
            {
                "id": o.id,
                "title": o.title,
                "status": o.status,
                "tier": o.tier,
                "closed_at": _time(o.closed_at),
                "evidence": None
                if o.evidence is None
                else {
                    "event": o.evidence.event,
                    "at": format_time(o.evidence.at),
                    "by": o.evidence.by,
                    "channel": o.evidence.channel,
                    "kind": o.evidence.kind,
                    "text": o.evidence.text,
                },
                "flags": list(o.flags),
                "requires": [{"id": p.id, "status": p.status} for p in o.preconditions],
                "awaiting_until": _time(o.awaiting_until),
                "notes": [{"code": n.code, "event": n.event, "detail": n.detail} for n in o.notes],
            }
            for o in receipt.obligations
        ],
        "endings": [
            {
                "event": e.event,
                "at": format_time(e.at),
                "by": e.by,
                "kind": e.kind,
                "obligation": e.obligation,
                "effective": e.effective,
                "outcome": e.outcome,
            }
            for e in receipt.endings
        ],
        "findings": [
            {
                "kind": f.kind,
                "event": f.event,
                "at": _time(f.at),
                "by": f.by,
                "target": f.target,
                "outstanding": list(f.outstanding),
            }
            for f in receipt.findings
        ],
        "remaining": list(receipt.remaining),
    }


def render_json(receipt: Receipt) -> str:
    """Pretty-printed JSON text."""
    return json.dumps(to_dict(receipt), indent=2, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _evidence_cell(o: ObligationLine) -> str:
    if o.evidence is None:
        return ""
    e = o.evidence
    who = f" by {e.by}" if e.by else ""
    text = f': "{e.text}"' if e.text else ""
    return f"`{e.event}` ({e.channel}{who}){text}"


_OUTCOME_WORDS = {
    "closed": "took effect",
    "reopened": "took effect: reopened it",
    "none": "had authority but changed nothing (already settled)",
    "proposal": "a proposal without authority: no effect",
}


def _remaining_line(o: ObligationLine) -> str:
    parts = [o.status]
    if o.awaiting_until is not None:
        parts.append(f"awaiting evidence until {format_time(o.awaiting_until)}")
    unsettled = [p for p in o.preconditions if p.status not in _SETTLED]
    if "blocked" in o.flags and unsettled:
        named = (f"`{p.id}` ({p.status or 'undeclared'})" for p in unsettled)
        parts.append("blocked by " + ", ".join(named))
    parts += [f for f in o.flags if f in ("deadline_passed", "reopened")]
    line = f"- `{o.id}`: " + "; ".join(parts)
    for note in o.notes:
        if note.code != "reopened":
            line += f"\n  - {note.detail}"
    return line


_SETTLED = frozenset({"SATISFIED", "WAIVED", "CANCELLED", "SUPERSEDED", "COMPLETE"})


def render_markdown(receipt: Receipt) -> str:
    """The receipt for people: obligations and evidence, authority, findings, what remains."""
    known = "latest" if receipt.known is None else format_time(receipt.known)
    out = [f"# Work receipt: {receipt.task}", ""]
    if receipt.title:
        out += [receipt.title, ""]
    headline = f"**{receipt.status}** at {format_time(receipt.at)} (known {known})."
    if receipt.obligations:
        principals = ", ".join(receipt.principals) or "any actor who is not an agent"
        headline += f" Authority over endings: {principals}."
    out += [
        headline,
        "",
        "## Obligations",
        "",
    ]
    if not receipt.obligations:
        out.append("No obligations: the task is complete by definition.")
    else:
        out += [
            "| obligation | status | settled by | tier | settled at | flags |",
            "|---|---|---|---|---|---|",
        ]
        for o in receipt.obligations:
            out.append(
                "| "
                + " | ".join(
                    _cell(c)
                    for c in (
                        f"`{o.id}`" + (f" {o.title}" if o.title else ""),
                        o.status,
                        _evidence_cell(o),
                        o.tier or "",
                        _time(o.closed_at) or "",
                        ", ".join(o.flags),
                    )
                )
                + " |"
            )
        notes = [(o, n) for o in receipt.obligations for n in o.notes]
        unmet = [o for o in receipt.obligations if "precondition_unmet" in o.flags]
        if notes or unmet:
            out += ["", "Notes:", ""]
            for o in unmet:
                required = ", ".join(f"`{p.id}`" for p in o.preconditions)
                out.append(
                    f"- `{o.id}` was satisfied while its preconditions ({required}) "
                    f"were not all closed: precondition_unmet"
                )
            out += [f"- `{o.id}`: {n.detail}" for o, n in notes]
    out += ["", "## Waivers and other endings", ""]
    if not receipt.endings:
        out.append("None.")
    for e in receipt.endings:
        who = e.by or "an unnamed actor"
        out.append(
            f"- `{e.event}` ({format_time(e.at)}): {who} {e.kind} `{e.obligation}`: "
            f"{_OUTCOME_WORDS[e.outcome]}"
        )
    out += ["", "## Findings", ""]
    if not receipt.findings:
        out.append("None: no claim about this task disagrees with its computed state.")
    for f in receipt.findings:
        who = f" by {f.by}" if f.by else ""
        when = f" ({format_time(f.at)})" if f.at is not None else ""
        line = f"- **{f.kind}** `{f.event}`{when}{who} about `{f.target}`"
        if f.outstanding:
            line += "; outstanding when claimed: " + ", ".join(f"`{x}`" for x in f.outstanding)
        out.append(line)
    out += ["", "## What remains", ""]
    if not receipt.remaining:
        out.append("Nothing: every obligation is satisfied, waived, cancelled or superseded.")
    else:
        out += [_remaining_line(o) for o in receipt.obligations if o.id in receipt.remaining]
    return "\n".join(out) + "\n"
