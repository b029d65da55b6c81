"""Typed verdicts, read from the atoms the rules derived at one standpoint.

Nothing here decides a status: every field is copied from an atom of ``rules/*.lp`` and only
mapped back from integers to ids, channel names and times.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import cached_property

from resolver import times
from resolver.engine.prepared import Atoms, Prepared, Standpoint
from resolver.engine.query import Query, as_query
from resolver.language.model import Task, Value


@dataclass(frozen=True)
class Reason:
    """One reason atom: ``code`` from the spec's list, ``detail`` names the rule that spoke."""

    code: str
    event: str | None
    detail: str
    channel: str | None = None
    gap: tuple[int, int] | None = None
    value: Value | None = None
    #: For ``below_verify``: the tier ``verify`` asks for (``verify_tier``, rules/prepare/tiers.lp).
    verify: str | None = None


@dataclass(frozen=True)
class ChannelFootprint:
    """What the search of one channel found at the standpoint."""

    searched: bool
    through: int | None
    candidates: int
    #: Every gap of the channel, in seq order: one tuple per channel, shared by every
    #: expectation that searches it (never copied per expectation).
    gaps: tuple[tuple[int, int], ...]
    #: The relevant gaps listed for this expectation (``listed_gap``, rules/standpoint/
    #: absence.lp): of the first relevant gap and the 7 after it in seq order, the relevant ones.
    relevant_gaps: tuple[tuple[int, int], ...]
    #: Some gap of the channel is relevant (``has_relevant_gap``).
    has_relevant_gap: bool = False
    #: How many of the channel's gaps come after the last of ``relevant_gaps`` in seq order
    #: (counted in the channel's list; the top-level list of a face names them).
    gaps_after: int = 0


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
    #: The key reasons among ``reasons`` (``reason_is_key``, rules/standpoint/key_reasons.lp).
    key_reasons: tuple[Reason, ...] = ()
    #: The weakest tier that may satisfy it (``verify_tier``: its ``verify``, else the default).
    verify: str | None = None
    #: For a policy instance: the policy and the trigger event (SPEC 5.2), else None.
    policy: str | None = None
    trigger: str | None = None
    #: Still owed as far as the log shows: OPEN or UNKNOWN (``open_like``, snapshot.lp).
    open_like: bool = False
    #: What makes the verdict unconfident (``doubt``, absence.lp): ``gap`` and
    #: ``unconfirmed_effect`` behind an UNKNOWN, ``unsearched`` behind an INCOMPLETE_SEARCH.
    doubts: tuple[str, ...] = ()
    #: How many reasons the rules derived (``reason_count``) when only the key ones were asked
    #: for: ``reasons`` then holds the key reasons alone and ``examined`` is empty. None:
    #: ``reasons`` holds every reason.
    reasons_in_all: int | None = None

    @property
    def reason_total(self) -> int:
        """How many reasons the verdict has, whether or not every one was read."""
        return len(self.reasons) if self.reasons_in_all is None else self.reasons_in_all

    @property
    def searched_count(self) -> tuple[int, int]:
        """(channels searched, search channels)."""
        return sum(1 for c in self.channels.values() if c.searched), len(self.channels)


@dataclass(frozen=True)
class Finding:
    """A claim that disagrees with the computed state at the claim's own time (``at``)."""

    kind: str
    event: str
    by: str | None
    target: str
    outstanding: tuple[str, ...]
    at: int | None = None


@dataclass(frozen=True)
class TaskVerdict:
    """A task's computed completion and the claims made about it."""

    id: str
    title: str | None
    status: str
    outstanding: tuple[str, ...]
    findings: tuple[Finding, ...]
    #: For a task instance opened by a policy: the policy and the trigger event.
    policy: str | None = None
    trigger: str | None = None


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
        return self._by_id[0].get(ident)

    def task(self, ident: str) -> TaskVerdict | None:
        """The verdict of one task, if declared."""
        return self._by_id[1].get(ident)

    @cached_property
    def channel_gaps(self) -> dict[str, tuple[tuple[int, int], ...]]:
        """Every search channel's gaps, once per channel, by channel name (faces print the
        whole list here, and per expectation only a bounded part of it)."""
        found: dict[str, tuple[tuple[int, int], ...]] = {}
        for x in self.expectations:
            for name, fp in x.channels.items():
                if fp.gaps:
                    found.setdefault(name, fp.gaps)
        return dict(sorted(found.items()))

    @cached_property
    def _by_id(self) -> tuple[dict[str, ExpectationVerdict], dict[str, TaskVerdict]]:
        """Ids to verdicts, built on first use: a face looks one up per item, never scans."""
        expectations: dict[str, ExpectationVerdict] = {}
        for x in self.expectations:
            expectations.setdefault(x.id, x)
        tasks: dict[str, TaskVerdict] = {}
        for t in self.tasks:
            tasks.setdefault(t.id, t)
        return expectations, tasks


def read(
    prepared: Prepared,
    standpoint: Standpoint,
    atoms: Atoms,
    with_reasons: bool = True,
    key_only: bool = False,
) -> Resolution:
    """Arrange the atoms of one standpoint into typed verdicts.

    ``key_only``: the solve showed the key reasons and a count per item instead of every reason
    (``Query.key_reasons_only``); each verdict's ``reasons`` are then its key reasons.
    """
    facts, project = prepared.facts, prepared.project

    def per_item(name: str) -> dict[int, list[tuple]]:
        table: dict[int, list[tuple]] = defaultdict(list)
        for args in atoms.get(name):
            table[args[0]].append(args[1:])
        return table

    status = {x: rest[0][0] for x, rest in per_item("status").items()}
    verify_tier = {x: str(t) for x, t in prepared.core.get("verify_tier")}
    confidence = {x: rest[0][0] for x, rest in per_item("confidence").items()}
    flags = per_item("flag")
    closed = {x: rest[0] for x, rest in per_item("closed_by").items()}
    closed_tier = {x: rest[0][0] for x, rest in per_item("closed_tier").items()}
    closed_time = {x: rest[0][0] for x, rest in per_item("closed_time").items()}
    opened_at = {x: rest[0][0] for x, rest in per_item("opened_at").items()}
    bound = {x: rest[0][0] for x, rest in per_item("bound").items()}
    complete = {args[0] for args in atoms.get("footprint_complete")}
    search = per_item("search_channel")
    searched = {args[0] for args in atoms.get("searched")}
    through = {c: m for c, m in atoms.get("through")}
    candidates = {(x, c): n for x, c, n in atoms.get("candidates")}
    gaps = _channel_gaps(atoms)
    relevant: dict[tuple[int, int], list[tuple[int, int]]] = defaultdict(list)
    for x, c, lo, hi in atoms.get("listed_gap"):
        relevant[(x, c)].append((lo, hi))
    has_relevant = set(atoms.get("has_relevant_gap"))
    open_like = {x for (x,) in atoms.get("open_like")}
    doubts = per_item("doubt")
    # Without reasons the rejected candidates were left out, so reasons would be partial.
    keys = per_item("reason_is_key") if with_reasons else {}
    shown_reasons = per_item("reason") if with_reasons else {}
    examined = per_item("examined") if with_reasons else {}
    # Key reasons only: an item's reasons are its key ones and a count, unless the query
    # explains it (whole_reasons/1, rules/standpoint/key_reasons.lp: then every one is shown).
    whole = {x for (x,) in atoms.get("whole_reasons")} if key_only else None
    counted = {x: n for x, n in atoms.get("reason_count")} if key_only else {}

    listed, task_list, made_by = _listing(facts, project, atoms)
    names = {c: facts.channel(c) for c in {c for rows in search.values() for (c,) in rows}}
    footprints: dict[tuple, ChannelFootprint] = {}
    verdicts = []
    for x in listed:
        number = facts.interner.get(("item", x.id))
        channels = {}
        for (c,) in search.get(number, []):
            listed = tuple(sorted(relevant.get((number, c), [])))
            found = (c, candidates.get((number, c), 0), listed, (number, c) in has_relevant)
            if found not in footprints:  # equal footprints (most are) are one object
                every = gaps.get(c, ())
                footprints[found] = ChannelFootprint(
                    searched=c in searched,
                    through=times.decode(through[c]) if c in through else None,
                    candidates=found[1],
                    gaps=every,
                    relevant_gaps=listed,
                    has_relevant_gap=found[3],
                    gaps_after=len(every) - bisect_right(every, listed[-1]) if listed else 0,
                )
            channels[names[c]] = footprints[found]
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
                closed_at=times.decode(closed_time[number]) if number in closed_time else None,
                opened_at=times.decode(opened_at[number]) if number in opened_at else None,
                bound=times.decode(bound[number]) if number in bound else None,
                footprint_complete=number in complete,
                open_like=number in open_like,
                doubts=tuple(sorted(str(c) for (c,) in doubts.get(number, []))),
                channels=dict(sorted(channels.items())),
                reasons=_reasons(
                    facts,
                    (shown_reasons if whole is None or number in whole else keys).get(number, []),
                    verify_tier.get(number),
                ),
                key_reasons=_reasons(facts, keys.get(number, []), verify_tier.get(number)),
                examined=tuple(sorted(facts.event_id(e) for (e,) in examined.get(number, []))),
                verify=verify_tier.get(number),
                reasons_in_all=None if whole is None or number in whole else counted.get(number, 0),
                policy=made_by.get(x.id, (None, None))[0],
                trigger=made_by.get(x.id, (None, None))[1],
            )
        )

    outstanding_of: dict[tuple[int, int], list[str]] = defaultdict(list)
    for e, y, x in atoms.get("finding_outstanding"):
        outstanding_of[(e, y)].append(facts.item_id(x))
    found: dict[tuple, Finding] = {}
    for kind, e, target in atoms.get("finding"):
        event_id = facts.event_id(e)
        event = project.event(event_id)
        found[(kind, e, target)] = Finding(
            kind=str(kind).upper(),
            event=event_id,
            by=event.by if event is not None else None,
            target=facts.item_id(target),
            outstanding=tuple(sorted(outstanding_of.get((e, target), []))),
            at=event.at if event is not None else None,
        )
    findings = sorted(found.values(), key=lambda f: (f.event, f.kind, f.target))
    # Which findings are listed under a task: task_finding/4 (rules/standpoint/tasks.lp).
    findings_of: dict[int, list[Finding]] = defaultdict(list)
    for t, kind, e, y in atoms.get("task_finding"):
        findings_of[t].append(found[(kind, e, y)])

    task_status = {t: rest[0][0] for t, rest in per_item("task_status").items()}
    outstanding = per_item("outstanding")
    tasks = []
    for task in task_list:
        number = facts.interner.get(("item", task.id))
        tasks.append(
            TaskVerdict(
                id=task.id,
                title=task.title,
                status=str(task_status[number]).upper(),
                outstanding=tuple(sorted(facts.item_id(x) for (x,) in outstanding.get(number, []))),
                findings=tuple(
                    sorted(findings_of[number], key=lambda f: (f.event, f.kind, f.target))
                ),
                policy=made_by.get(task.id, (None, None))[0],
                trigger=made_by.get(task.id, (None, None))[1],
            )
        )
    return Resolution(standpoint, tuple(verdicts), tuple(tasks), tuple(findings), atoms)


def _channel_gaps(atoms: Atoms) -> dict[int, tuple[tuple[int, int], ...]]:
    """Each channel's gaps (``gap/3``, shown once per channel), in seq order."""
    found: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for c, lo, hi in atoms.get("gap"):
        found[c].append((lo, hi))
    return {c: tuple(sorted(spans)) for c, spans in found.items()}


def _listing(facts, project, atoms: Atoms) -> tuple[list, list, dict[str, tuple[str, str]]]:
    """Declared expectations and tasks, and the policy instances the rules show at this
    standpoint (``instance/3``), sorted by id; with the (policy, trigger) of each instance."""
    made_by: dict[str, tuple[str, str]] = {}
    for x, p, e in atoms.get("instance"):
        made_by[facts.item_id(x)] = (facts.interner.key(p)[1], facts.event_id(e))
    listed = list(project.expectations)
    task_list = list(project.tasks)
    for ident in made_by:
        derived = project.derived[ident]
        (task_list if isinstance(derived, Task) else listed).append(derived)
    listed.sort(key=lambda x: x.id)
    task_list.sort(key=lambda t: t.id)
    return listed, task_list, made_by


def _reasons(facts, rows: list[tuple], verify: str | None) -> tuple[Reason, ...]:
    """Reason atoms as typed reasons, in a stable order (code, event, rule, channel, gap)."""
    return tuple(
        sorted(
            (_reason(facts, args, verify) for args in rows),
            key=lambda r: (r.code, r.event or "", r.detail, r.channel or "", r.gap or ()),
        )
    )


def _reason(facts, args: tuple, verify: str | None = None) -> Reason:
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
    if str(code) == "below_verify":
        return Reason(str(code), event_id, str(detail), verify=verify)
    return Reason(str(code), event_id, str(detail))


def resolve(
    prepared: Prepared,
    standpoint: Standpoint,
    query: Query | str | None = None,
    reasons: bool | None = None,
) -> Resolution:
    """Solve one standpoint (and what ``query`` asks) and read its verdicts.

    ``reasons`` None takes the query's (by default: with reasons).
    """
    from resolver.verdicts import kept  # (it reads this module's classes)

    asked = as_query(query)
    if reasons is not None:
        asked = replace(asked, reasons=reasons)
    reasons = asked.reasons or asked.explaining
    # On a plateau already read in this process, the verdicts read then (the same atoms give
    # the same verdicts; only the standpoint they are shown at differs).
    memo, key = prepared.memo, prepared.memo_key(standpoint, asked)
    flags = (reasons, asked.key_reasons_only)
    view = None if memo is None or key is None else (*key, *flags)
    if view is not None and memo is not None:
        found = memo.view(view)
        if isinstance(found, Resolution):
            return replace(found, standpoint=standpoint)
        # Answered on this plateau by another process: the verdicts it read, kept beside the
        # atoms (resolver/verdicts/kept.py); the atoms are read only if a face asks for them.
        decoded = kept.lookup(
            memo, view, flags, standpoint, lambda: prepared.solve(standpoint, asked)
        )
        if decoded is not None:
            return decoded
    atoms = prepared.solve(standpoint, asked)
    resolution = read(prepared, standpoint, atoms, with_reasons=reasons, key_only=flags[1])
    if view is not None and memo is not None:
        kept.remember(memo, view, resolution, flags)
    return resolution
