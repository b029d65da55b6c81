"""Typed verdicts, read from the atoms the rules derived at one standpoint.

Nothing here decides a status: every field is copied from an atom of ``rules/*.lp`` and only
mapped back from integers to ids, channel names and times.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from resolver import times
from resolver.engine.prepared import Atoms, Prepared, Standpoint
from resolver.facts.writer import iter_items
from resolver.language.model import Value


@dataclass(frozen=True)
class Reason:
    """One reason atom: ``code`` from the spec's list, ``detail`` names the rule that spoke."""

    code: str
    event: str | None
    detail: str
    channel: str | None = None
    gap: tuple[int, int] | None = None
    value: Value | None = None


@dataclass(frozen=True)
class ChannelFootprint:
    """What the search of one channel found at the standpoint."""

    searched: bool
    through: int | None
    candidates: int
    gaps: tuple[tuple[int, int], ...]
    relevant_gaps: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class ExpectationVerdict:
    """The status of one expectation at one standpoint, with its evidence and reasons."""

    id: str
    title: str | None
    task: str | None
    status: str
    confidence: str | None
    flags: tuple[str, ...]
    closed_by: str | None
    tier: str | None
    closed_at: int | None
    opened_at: int | None
    bound: int | None
    footprint_complete: bool
    channels: dict[str, ChannelFootprint]
    reasons: tuple[Reason, ...]
    examined: tuple[str, ...] = ()

    @property
    def searched_count(self) -> tuple[int, int]:
        """(channels searched, search channels)."""
        return sum(1 for c in self.channels.values() if c.searched), len(self.channels)


@dataclass(frozen=True)
class Finding:
    """A claim that disagrees with the computed state at the claim's own time."""

    kind: str
    event: str
    by: str | None
    target: str
    outstanding: tuple[str, ...]


@dataclass(frozen=True)
class TaskVerdict:
    """A task's computed completion and the claims made about it."""

    id: str
    title: str | None
    status: str
    outstanding: tuple[str, ...]
    findings: tuple[Finding, ...]


@dataclass(frozen=True)
class Resolution:
    """Every verdict at one standpoint."""

    standpoint: Standpoint
    expectations: tuple[ExpectationVerdict, ...]
    tasks: tuple[TaskVerdict, ...]
    findings: tuple[Finding, ...]
    atoms: Atoms = field(repr=False, compare=False, default=None)  # type: ignore[assignment]

    def expectation(self, ident: str) -> ExpectationVerdict | None:
        """The verdict of one expectation, if declared."""
        return next((x for x in self.expectations if x.id == ident), None)

    def task(self, ident: str) -> TaskVerdict | None:
        """The verdict of one task, if declared."""
        return next((t for t in self.tasks if t.id == ident), None)


def _decode(value: int) -> int:
    return times.decode(value)


def read(
    prepared: Prepared, standpoint: Standpoint, atoms: Atoms, with_reasons: bool = True
) -> Resolution:
    """Arrange the atoms of one standpoint into typed verdicts."""
    facts = prepared.facts
    project = prepared.project
    item_ids = dict(iter_items(facts))

    def per_item(name: str) -> dict[int, list[tuple]]:
        table: dict[int, list[tuple]] = defaultdict(list)
        for args in atoms.get(name):
            table[args[0]].append(args[1:])
        return table

    status = {x: rest[0][0] for x, rest in per_item("status").items()}
    confidence = {x: rest[0][0] for x, rest in per_item("confidence").items()}
    flags = per_item("flag")
    closed = {x: rest[0] for x, rest in per_item("closed").items()}
    closed_tier = {x: rest[0][0] for x, rest in per_item("closed_tier").items()}
    closed_time = {x: rest[0][0] for x, rest in per_item("closed_time").items()}
    opened_at = {x: rest[0][0] for x, rest in per_item("opened_at").items()}
    bound = {x: rest[0][0] for x, rest in per_item("bound").items()}
    complete = {args[0] for args in atoms.get("footprint_complete")}
    search = per_item("search_channel")
    searched = {args[0] for args in atoms.get("searched")}
    through = {c: m for c, m in atoms.get("through")}
    candidates = {(x, c): n for x, c, n in atoms.get("candidates")}
    gaps: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for c, lo, hi in atoms.get("gap"):
        gaps[c].append((lo, hi))
    relevant: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for x, c, lo, hi in atoms.get("relevant_gap"):
        relevant[(x, c)].append((lo, hi))
    # Without reasons the rejected candidates were left out, so reasons would be partial.
    reasons = per_item("reason") if with_reasons else {}
    examined = per_item("visible_touch") if with_reasons else {}

    verdicts = []
    for x in sorted(project.expectations, key=lambda e: e.id):
        number = facts.interner.get(("item", x.id))
        channels = {}
        for (c,) in search.get(number, []):
            channels[facts.channel(c)] = ChannelFootprint(
                searched=c in searched,
                through=_decode(through[c]) if c in through else None,
                candidates=candidates.get((number, c), 0),
                gaps=tuple(sorted(gaps.get(c, []))),
                relevant_gaps=tuple(sorted(relevant.get((number, c), []))),
            )
        closing = closed.get(number)
        verdicts.append(
            ExpectationVerdict(
                id=x.id,
                title=x.title,
                task=x.part_of,
                status=str(status[number]).upper(),
                confidence=str(confidence[number]).upper() if number in confidence else None,
                flags=tuple(sorted({f for (f,) in flags.get(number, [])})),
                closed_by=facts.event_id(closing[0]) if closing else None,
                tier=closed_tier.get(number),
                closed_at=_decode(closed_time[number]) if number in closed_time else None,
                opened_at=_decode(opened_at[number]) if number in opened_at else None,
                bound=_decode(bound[number]) if number in bound else None,
                footprint_complete=number in complete,
                channels=dict(sorted(channels.items())),
                reasons=tuple(
                    sorted(
                        (_reason(facts, args) for args in reasons.get(number, [])),
                        key=lambda r: (
                            r.code,
                            r.event or "",
                            r.detail,
                            r.channel or "",
                            r.gap or (),
                        ),
                    )
                ),
                examined=tuple(sorted(facts.event_id(e) for (e,) in examined.get(number, []))),
            )
        )

    events = {e.id: e for e in project.events}
    outstanding_of: dict[tuple[int, int], list[str]] = defaultdict(list)
    for e, y, x in atoms.get("finding_outstanding"):
        outstanding_of[(e, y)].append(item_ids[x])
    findings = []
    for kind, e, target in atoms.get("finding"):
        event_id = facts.event_id(e)
        findings.append(
            Finding(
                kind=str(kind).upper(),
                event=event_id,
                by=events[event_id].by if event_id in events else None,
                target=item_ids[target],
                outstanding=tuple(sorted(outstanding_of.get((e, target), []))),
            )
        )
    findings.sort(key=lambda f: (f.event, f.kind, f.target))

    task_status = {t: rest[0][0] for t, rest in per_item("task_status").items()}
    outstanding = per_item("outstanding")
    obligations_of = defaultdict(set)
    for x in project.expectations:
        if x.part_of:
            obligations_of[x.part_of].add(x.id)
    tasks = []
    for task in sorted(project.tasks, key=lambda t: t.id):
        number = facts.interner.get(("item", task.id))
        related = {task.id} | obligations_of[task.id]
        tasks.append(
            TaskVerdict(
                id=task.id,
                title=task.title,
                status=str(task_status[number]).upper(),
                outstanding=tuple(sorted(item_ids[x] for (x,) in outstanding.get(number, []))),
                findings=tuple(f for f in findings if f.target in related),
            )
        )
    return Resolution(standpoint, tuple(verdicts), tuple(tasks), tuple(findings), atoms)


def _reason(facts, args: tuple) -> Reason:
    code, event, detail = args
    event_id = facts.event_id(event) if event else None
    if isinstance(detail, tuple) and detail[0] == "gap":
        _, c, lo, hi = detail
        return Reason(str(code), event_id, "gap", channel=facts.channel(c), gap=(lo, hi))
    if isinstance(detail, tuple) and detail[0] == "agrees_open":
        observed = facts.interner.key(detail[1])  # ("value", type name, raw value)
        return Reason(str(code), event_id, "agrees_open", value=observed[2])
    if isinstance(detail, tuple) and detail[0] == "channel":
        return Reason(str(code), event_id, "unsearched", channel=facts.channel(detail[1]))
    return Reason(str(code), event_id, str(detail))


def resolve(
    prepared: Prepared, standpoint: Standpoint, snapshot_facts: str = "", reasons: bool = True
) -> Resolution:
    """Solve one standpoint and read its verdicts."""
    atoms = prepared.solve(standpoint, snapshot_facts, reasons=reasons)
    return read(prepared, standpoint, atoms, with_reasons=reasons)
