"""Explanations: the derivation behind one verdict, as a typed tree read from the rules' atoms.

The rules decide and say why (``rules/standpoint/reasons.lp``, ``rules/query/explain.lp``);
this module only arranges their atoms into a :class:`Node` tree and phrases each node, filling
in times, channels
and values from the model so that every line can be checked against the user's files. Two
renderers read the tree: :func:`render_text` (an indented argument for a reviewer) and
:func:`to_json` (the same tree for tools and the HTML report).

>>> from resolver import api
>>> from resolver.verdicts.explanation import explain_at, render_text
>>> history = api.prepare(["fixtures/release"])                          # doctest: +SKIP
>>> print(render_text(explain_at(history, api.standpoint("2024-08-23"), "intent-401")))
... # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any
from weakref import WeakKeyDictionary

from resolver import times
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.errors import InputError
from resolver.faces.explain_words import (
    authority_text,
    bound_text,
    event_label,
    link_text,
    opening_text,
    sets_text,
    show_time,
    standpoint_text,
    value_text,
    why_not_text,
)
from resolver.faces.safe_text import visible
from resolver.faces.words import describe
from resolver.language.model import Expectation, Project, Task
from resolver.verdicts.instance_explanation import instance_nodes
from resolver.verdicts.resolution import (
    ExpectationVerdict,
    Reason,
    Resolution,
    TaskVerdict,
    resolve,
)

#: Statuses ``--why-not`` accepts (lower case, as the rules name them).
WHY_NOT_STATUSES = (
    "satisfied",
    "cancelled",
    "superseded",
    "waived",
    "open",
    "unknown",
    "not_opened",
)


@dataclass(frozen=True)
class Node:
    """One step of an explanation: a sentence, what it is about, and the steps under it.

    ``kind`` says what the node is (``expectation``, ``opening``, ``candidate``, ``closing``,
    ``tie``, ``flag``...), ``code`` the rule that spoke (a rejection reason, a tier, a flag),
    ``event`` the event it is about, ``data`` the values behind the sentence.
    """

    kind: str
    text: str
    code: str | None = None
    event: str | None = None
    data: dict[str, Any] = field(default_factory=dict, compare=False)
    children: tuple[Node, ...] = ()


# ---------------------------------------------------------------------------------------------
# Query facts
# ---------------------------------------------------------------------------------------------


def query_facts(
    prepared: Prepared,
    idents: Iterable[str] = (),
    why_not: str | None = None,
    everything: bool = False,
) -> Query:
    """The query asking the rules to explain ``idents`` (or ``everything``).

    ``why_not`` (one of :data:`WHY_NOT_STATUSES`) also asks what keeps them from that status.
    Unknown ids raise :class:`InputError`.
    """
    return Query(
        explain=tuple(item_number(prepared, ident) for ident in idents),
        explain_all=everything,
        why_not=None if why_not is None else why_not_word(why_not),
    )


def item_number(prepared: Prepared, ident: str) -> int:
    """The integer of a declared expectation or task; unknown ids are input errors."""
    project = prepared.project
    number = prepared.facts.interner.get(("item", ident))
    if number is None or (project.expectation(ident) is None and project.task(ident) is None):
        raise InputError(f"no expectation or task named '{ident}'{_suggest(project, ident)}")
    return number


def why_not_word(status: str) -> str:
    """A ``--why-not`` status as the rules' constant; anything else is an input error."""
    word = status.strip().lower()
    if word not in WHY_NOT_STATUSES:
        raise InputError(
            f"--why-not: unknown status '{status}'; expected one of "
            + ", ".join(s.upper() for s in WHY_NOT_STATUSES)
        )
    return word


def _suggest(project: Project, ident: str) -> str:
    import difflib

    names = [x.id for x in project.expectations] + [t.id for t in project.tasks]
    close = difflib.get_close_matches(ident, names, n=3)
    return f" (did you mean {', '.join(close)}?)" if close else ""


# ---------------------------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------------------------


def explain_at(
    prepared: Prepared,
    standpoint: Standpoint,
    ident: str,
    why_not: str | None = None,
    extra_facts: Query | str = "",
) -> Node:
    """Solve one standpoint with ``ident`` explained and build its tree."""
    facts = query_facts(prepared, [ident], why_not) + extra_facts
    return explain(prepared, resolve(prepared, standpoint, facts), ident, why_not)


def explain(
    prepared: Prepared, resolution: Resolution, ident: str, why_not: str | None = None
) -> Node:
    """The explanation tree of one expectation or task at the resolution's standpoint.

    When the resolution was solved without asking the rules to explain ``ident`` (a plain
    status query), the standpoint is solved again with the question added. To explain many
    items, solve once with ``query_facts(prepared, everything=True)`` and pass that resolution.
    """
    number = item_number(prepared, ident)
    wanted = why_not_word(why_not) if why_not else None
    view = _View(prepared, resolution)
    if not view.has_explanation(number, wanted):
        facts = query_facts(prepared, [ident], wanted)
        resolution = resolve(prepared, resolution.standpoint, facts)
        view = _View(prepared, resolution)
    expectation = prepared.project.expectation(ident)
    if expectation is not None:
        return _expectation_tree(view, expectation, wanted)
    task = prepared.project.task(ident)
    assert task is not None
    return _task_tree(view, task)


def key_reason(prepared: Prepared, resolution: Resolution, ident: str) -> str:
    """One line saying why an expectation has its status (why a task has its, for a task).

    Reads the ``key_reason`` atom (``explain.lp``); solves again when it is missing.
    """
    number = item_number(prepared, ident)
    view = _View(prepared, resolution)
    if not view.has_explanation(number, None):
        resolution = resolve(prepared, resolution.standpoint, query_facts(prepared, [ident]))
        view = _View(prepared, resolution)
    expectation = prepared.project.expectation(ident)
    if expectation is not None:
        return _key_line(view, expectation)
    task = prepared.project.task(ident)
    assert task is not None
    verdict = view.task(task.id)
    deciding = view.task_because(number)
    if not deciding:
        return f"every obligation is closed ({len(task.obligations)})"
    states = [f"{x} is {view.expectation(x).status}" for x in deciding]
    return "; ".join(states) + f" so {task.id} is {verdict.status}"


def why_not_line(prepared: Prepared, resolution: Resolution, ident: str, status: str) -> str:
    """One line saying what keeps an expectation from ``status``, nearest candidate included."""
    tree = explain(prepared, resolution, ident, status)
    answer = next((c for c in tree.children if c.kind == "why_not"), None)
    if answer is None:
        return ""
    return "; ".join(child.text for child in answer.children)


# ---------------------------------------------------------------------------------------------
# Reading the atoms of one explained standpoint
# ---------------------------------------------------------------------------------------------


#: Per solve's atoms: atom name -> first argument -> the other arguments (see ``_View.rows``).
_ROWS: WeakKeyDictionary[Any, dict[str, dict[Any, list[tuple]]]] = WeakKeyDictionary()


class _View:
    """The atoms of one resolution, indexed by item and mapped back to ids."""

    def __init__(self, prepared: Prepared, resolution: Resolution) -> None:
        self.prepared = prepared
        self.project = prepared.project
        self.resolution = resolution
        self.facts = prepared.facts
        self.atoms = resolution.atoms

    def number(self, ident: str) -> int:
        number = self.facts.interner.get(("item", ident))
        assert number is not None
        return number

    def has_explanation(self, number: int, why_not: str | None) -> bool:
        if not (self.rows("explained", number) or self.rows("explained_task", number)):
            return False
        if why_not is None or self.project.task(self.facts.item_id(number)) is not None:
            return True
        return any(a[0] == why_not for a in self.rows("why_not", number))

    def rows(self, name: str, number: int) -> list[tuple]:
        """The arguments after the first of the ``name`` atoms whose first is ``number``: a
        dict lookup (an index per atom name, built once per solve), never a scan per item."""
        indexes = _ROWS.setdefault(self.atoms, {})
        index = indexes.get(name)
        if index is None:
            index = indexes[name] = {}
            for args in self.atoms.get(name):
                index.setdefault(args[0], []).append(args[1:])
        return index.get(number, [])

    def event(self, number: int) -> str | None:
        return self.facts.event_id(number) if number else None

    def expectation(self, ident: str) -> ExpectationVerdict:
        verdict = self.resolution.expectation(ident)
        assert verdict is not None
        return verdict

    def task(self, ident: str) -> TaskVerdict:
        verdict = self.resolution.task(ident)
        assert verdict is not None
        return verdict

    def task_because(self, number: int) -> list[str]:
        return sorted(self.facts.item_id(x) for (x,) in self.rows("task_because", number))


# ---------------------------------------------------------------------------------------------
# Expectations
# ---------------------------------------------------------------------------------------------


def _expectation_tree(view: _View, x: Expectation, why_not: str | None) -> Node:
    verdict = view.expectation(x.id)
    number = view.number(x.id)
    point = view.resolution.standpoint
    headline = f"{x.id}" + (f' "{x.title}"' if x.title else "") + f" is {verdict.status}"
    if verdict.confidence:
        headline += f" ({verdict.confidence.lower()})"
    children = [
        Node("standpoint", standpoint_text(point), data=_standpoint_data(point)),
        _opening_node(view, x, number),
        *instance_nodes(view, verdict),
        _want_node(x, verdict),
        _candidates_node(view, x, number, verdict),
        _closing_node(view, x, number, verdict),
        _footprint_node(verdict),
        _bound_node(view, x, number, verdict),
    ]
    preconditions = _preconditions_node(view, x)
    if preconditions is not None:
        children.append(preconditions)
    flags = _flags_node(view, x, number, verdict)
    if flags is not None:
        children.append(flags)
    snapshot = [r for r in verdict.reasons if r.code == "snapshot"]
    if snapshot:
        children.append(
            Node(
                "snapshot",
                "snapshot",
                children=tuple(
                    Node("snapshot", describe(r, view.project, x), code=r.detail) for r in snapshot
                ),
            )
        )
    children.append(_verdict_node(view, x, number, verdict))
    if why_not:
        children.append(_why_not_node(view, x, number, verdict, why_not))
    data = {
        "id": x.id,
        "title": x.title,
        "status": verdict.status,
        "confidence": verdict.confidence,
        "flags": list(verdict.flags),
        "closed_by": verdict.closed_by,
        "tier": verdict.tier,
        "closed_at": show_time(verdict.closed_at),
        "task": x.part_of,
        "location": str(x.location),
    }
    return Node(
        "expectation", headline, code=verdict.status.lower(), data=data, children=tuple(children)
    )


def _standpoint_data(point: Standpoint) -> dict[str, Any]:
    known = "latest" if point.known is None else times.format_time(point.known)
    return {"at": times.format_time(point.at), "known": known}


def _opening_node(view: _View, x: Expectation, number: int) -> Node:
    sources = [view.facts.item_id(s) for (s,) in view.rows("opened_by_source", number)]
    source_id = sources[0] if sources else None
    hidden = [str(w) for (w,) in view.rows("opening_hidden", number)]
    missing = bool(view.rows("no_opening", number)) or any(
        args == (number,) for args in view.atoms.get("no_opening")
    )
    text, event = opening_text(view.project, x, source_id, hidden, missing)
    code = "no_opening" if missing else (hidden[0] if hidden else "opened")
    return Node(
        "opening", text, code=code, event=event, data={"source": source_id, "hidden": hidden}
    )


def _want_node(x: Expectation, verdict: ExpectationVerdict) -> Node:
    verify = verdict.verify or ""
    parts = []
    if x.want is not None:
        parts.append(f"wants {x.want.key} = {value_text(x.want.value)}")
    elif x.want_touches is not None:
        parts.append(f'wants a work event whose files match "{x.want_touches}"')
    else:
        parts.append("wants no particular state (no `want`): only markers and text can satisfy it")
    parts.append(
        f"accepts tier {verify} or stronger"
        + ("" if x.verify else f" (the default `verify {verify}`)")
    )
    if x.superseded_when is not None:
        parts.append(
            f"superseded when {x.superseded_when.key} = {value_text(x.superseded_when.value)}"
        )
    data: dict[str, Any] = {"verify": verify}
    if x.want is not None:
        data["want"] = {x.want.key: x.want.value}
    return Node("want", "; ".join(parts), code=verify, data=data)


def _reasons_by_event(verdict: ExpectationVerdict) -> dict[str, list[Reason]]:
    table: dict[str, list[Reason]] = {}
    for reason in verdict.reasons:
        if reason.event and reason.code in (
            "candidate_rejected",
            "proposal",
            "below_verify",
            "unconfirmed_effect",
        ):
            table.setdefault(reason.event, []).append(reason)
    return table


def _verb(reason: Reason) -> str:
    """``rejected [no_done_cue]: `` and the like: the rule's own name, for cross-checking."""
    if reason.code == "candidate_rejected":
        return f"rejected [{reason.detail}]: "
    if reason.code == "proposal":
        return "proposal only: "
    if reason.code == "below_verify":
        return "below verify: "
    return f"{reason.code.replace('_', ' ')}: "


def _about(reason: Reason, project: Project, x: Expectation) -> str:
    """The wording of a reason without its leading event id (the line already names it)."""
    text = describe(reason, project, x)
    if reason.event:
        for lead in (f"{reason.event}: ", f"{reason.event} "):
            if text.startswith(lead):
                return text[len(lead) :]
    return text


def _candidates_node(view: _View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node:
    took = {
        view.event(e): (str(s), str(t), i) for e, s, t, i in view.rows("transition_taken", number)
    }
    reopened = {view.event(e): str(h) for e, h, _ in view.rows("reopen_taken", number)}
    reasons = _reasons_by_event(verdict)
    authority: dict[str, list[tuple[str, str]]] = {}
    for e, kind, basis in view.rows("explain_authority", number):
        authority.setdefault(view.event(e), []).append((str(kind), str(basis)))
    principals = sorted(
        name for (a,) in view.rows("principal_of", number) if (name := view.facts.actor(a))
    )
    links: dict[str, list[str]] = {}
    for e, kind in view.rows("link", number):
        links.setdefault(view.event(e), []).append(str(kind))
    overlaps: dict[str, list[tuple[int, int, int]]] = {}
    for e, src, shared, total in view.rows("link_overlap", number):
        overlaps.setdefault(view.event(e), []).append((src, shared, total))
    events = sorted(
        (view.project.event(e) for e in verdict.examined), key=lambda ev: (ev.at, ev.id)
    )
    nodes = []
    for event in events:
        eid = event.id
        details = []
        sets = sets_text(event, x) if (event.sets or x.want or x.superseded_when) else None
        if sets:
            details.append(Node("evidence", sets, code="sets"))
        for kind, basis in sorted(authority.get(eid, [])):
            details.append(
                Node(
                    "authority",
                    authority_text(event, x, kind, basis, principals),
                    code=basis,
                    data={"marker": kind, "by": event.by},
                )
            )
        link = link_text(sorted(links.get(eid, [])), sorted(overlaps.get(eid, [])))
        if link:
            details.append(Node("link", link, code="text"))
        if event.outcome != "confirmed":
            details.append(Node("outcome", f"outcome {event.outcome}", code=event.outcome))
        outcomes: list[tuple[str, str]] = []
        if eid in took:
            status, tier, _ = took[eid]
            what = f"closed it as {status.upper()}" + (f" at tier {tier}" if tier != "none" else "")
            outcomes.append(("closed", what))
        if eid in reopened:
            how = "an effective reopens" if reopened[eid] == "marker" else "a contradicting state"
            outcomes.append(("reopened", f"reopened it ({how})"))
        for reason in reasons.get(eid, []):
            code = reason.detail if reason.code == "candidate_rejected" else reason.code
            outcomes.append((code, _verb(reason) + _about(reason, view.project, x)))
        if not outcomes:
            outcomes.append(("examined", f"{eid} touches it"))
        text = f"{event_label(event)}: " + "; ".join(words for _, words in outcomes)
        nodes.append(
            Node(
                "candidate",
                text,
                code=outcomes[0][0],
                event=eid,
                data={
                    "at": show_time(event.at),
                    "channel": event.channel,
                    "by": event.by,
                    "outcomes": [c for c, _ in outcomes],
                },
                children=tuple(details),
            )
        )
    for (e,) in view.rows("unrecorded", number):
        event = view.project.event(view.event(e))
        nodes.append(
            Node(
                "unrecorded",
                f"{event_label(event)}: has happened but is recorded "
                f"{times.format_time(event.recorded)}, after the knowledge time: not visible here",
                code="unrecorded",
                event=event.id,
            )
        )
    count = len(events)
    text = f"candidates: {count} visible event{'s' if count != 1 else ''} touch it"
    if not count:
        text = "candidates: no visible event touches it"
        if verdict.status == "NOT_OPENED":
            text = "candidates: none examined while it is not opened"
    return Node("candidates", text, data={"count": count}, children=tuple(nodes))


def _closing_node(view: _View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node:
    steps: list[tuple[int, int, Node]] = []
    for e, status, tier, instant in view.rows("transition_taken", number):
        eid = view.event(e)
        what = f"{eid} closed it as {str(status).upper()}"
        if tier != "none":
            what += f" (tier {tier})"
        when = times.decode(instant)
        ties = []
        for i, winner, loser, how in view.rows("tie", number):
            if i == instant and winner == e:
                lost = view.event(loser)
                why = (
                    "a stronger transition (tier order state, explicit, semantic, textual, "
                    "then superseded, cancelled, waived)"
                    if how == "stronger"
                    else "the same rank, and the lower event id wins"
                )
                ties.append(
                    Node(
                        "tie",
                        f"{eid} beat {lost} at the same instant: {why}",
                        code=str(how),
                        event=lost,
                        data={"winner": eid},
                    )
                )
        steps.append(
            (
                when,
                0,
                Node(
                    "transition",
                    f"{show_time(when)}: {what}",
                    code=str(status),
                    event=eid,
                    data={"at": show_time(when), "tier": None if tier == "none" else str(tier)},
                    children=tuple(ties),
                ),
            )
        )
    for e, how, instant in view.rows("reopen_taken", number):
        eid = view.event(e)
        when = times.decode(instant)
        why = (
            "an effective reopens marker"
            if how == "marker"
            else "it sets the wanted key to another value before the bound"
        )
        steps.append(
            (
                when,
                1,
                Node(
                    "reopening",
                    f"{show_time(when)}: {eid} reopened it: {why}",
                    code=str(how),
                    event=eid,
                ),
            )
        )
    steps.sort(key=lambda s: (s[0], s[1]))
    if verdict.closed_by:
        final = f"it stands closed by {verdict.closed_by}"
        if verdict.tier:
            final += f" (tier {verdict.tier})"
        final += f" since {show_time(verdict.closed_at)}"
    elif steps:
        final = "no closing transition stands: it is open again"
    else:
        final = "no closing transition: nothing visible closed it"
    return Node(
        "closing",
        f"closing: {final}",
        code="closed" if verdict.closed_by else "none",
        event=verdict.closed_by,
        children=tuple(node for _, _, node in steps),
    )


def _footprint_node(verdict: ExpectationVerdict) -> Node:
    done, total = verdict.searched_count
    state = "complete" if verdict.footprint_complete else "incomplete"
    nodes = []
    for name, fp in verdict.channels.items():
        if fp.searched:
            text = (
                f"{name}: searched through {show_time(fp.through)}, {fp.candidates} "
                f"candidate{'s' if fp.candidates != 1 else ''}"
            )
        else:
            text = f"{name}: not searched (no visible event)"
        gaps = []
        for lo, hi in fp.gaps:
            span = f"seq {lo}" if lo == hi else f"seq {lo}..{hi}"
            relevant = (lo, hi) in fp.relevant_gaps
            gaps.append(
                Node(
                    "gap",
                    f"missing {span}"
                    + (
                        ": after the opening, the closure could hide there"
                        if relevant
                        else ": before the opening, irrelevant"
                    ),
                    code="relevant" if relevant else "gap",
                    data={"channel": name, "gap": [lo, hi]},
                )
            )
        nodes.append(
            Node(
                "channel",
                text,
                code="searched" if fp.searched else "unsearched",
                data={
                    "channel": name,
                    "searched": fp.searched,
                    "through": show_time(fp.through),
                    "candidates": fp.candidates,
                },
                children=tuple(gaps),
            )
        )
    text = f"footprint: {state}, {done}/{total} search channels searched"
    return Node("footprint", text, code=state, children=tuple(nodes))


def _bound_node(view: _View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node:
    sources = [(str(kind), view.event(e)) for kind, e in view.rows("bound_from", number)]
    pending = [view.event(e) for (e,) in view.rows("bound_pending", number)]
    text = bound_text(view.project, x, verdict.bound, sources, pending)
    return Node(
        "bound",
        text,
        code="bounded" if verdict.bound is not None else "none",
        data={
            "bound": show_time(verdict.bound),
            "from": [k for k, _ in sources],
            "pending": pending,
        },
    )


def _preconditions_node(view: _View, x: Expectation) -> Node | None:
    """What it requires (``precondition`` and ``precondition_via``, preconditions.lp) and their
    verdicts here: its own ``requires`` first, in the order written, then its task's."""
    number = view.number(x.id)
    atoms = view.resolution.atoms
    item = view.facts.item_id
    required = [item(y) for x2, y in atoms.get("precondition") if x2 == number]
    through = {item(y): item(t) for x2, y, t in atoms.get("precondition_via") if x2 == number}
    if not required:
        return None
    task = view.project.task(x.part_of) if x.part_of else None
    written = list(x.requires) + list(task.requires if task else ())
    required.sort(key=lambda y: (y in through, written.index(y) if y in written else 0, y))
    nodes = []
    for ident in dict.fromkeys(required):
        verdict = view.resolution.expectation(ident) or view.resolution.task(ident)
        state = verdict.status if verdict is not None else "not declared"
        via = f" (through its task {through[ident]})" if ident in through else ""
        nodes.append(
            Node(
                "precondition",
                f"requires {ident}{via}: {state}",
                code=state.lower(),
                data={"id": ident},
            )
        )
    return Node("preconditions", f"preconditions: {len(required)}", children=tuple(nodes))


def _flags_node(
    view: _View, x: Expectation, number: int, verdict: ExpectationVerdict
) -> Node | None:
    if not verdict.flags:
        return None
    point = view.resolution.standpoint
    nodes = []
    for flag in verdict.flags:
        nodes.append(
            Node("flag", f"{flag}: {_flag_cause(view, x, number, verdict, flag, point)}", code=flag)
        )
    return Node("flags", "flags: " + ", ".join(verdict.flags), children=tuple(nodes))


def _flag_cause(
    view: _View,
    x: Expectation,
    number: int,
    verdict: ExpectationVerdict,
    flag: str,
    point: Standpoint,
) -> str:
    bound = show_time(verdict.bound)
    if flag == "deadline_passed":
        return f"the standpoint {show_time(point.at)} is past the bound {bound}"
    if flag == "late":
        return f"closed at {show_time(verdict.closed_at)}, after the bound {bound}"
    if flag == "awaiting":
        window = times.format_duration(x.window or 0)
        return f"within the window of {window} after the opening {show_time(verdict.opened_at)}"
    if flag == "blocked":
        parts = [
            f"requires {view.facts.item_id(y)}, which is {str(s).upper()}"
            for y, s in view.rows("blocked_by", number)
        ]
        return "; ".join(sorted(parts)) or "a precondition is not settled"
    if flag == "precondition_unmet":
        parts = []
        for y, z in view.rows("unmet_by", number):
            yid, zid = view.facts.item_id(y), view.facts.item_id(z)
            parts.append(f"{zid} was not closed" + ("" if y == z else f" (an obligation of {yid})"))
        return (
            f"satisfied at {show_time(verdict.closed_at)} while " + "; ".join(sorted(parts))
            if parts
            else "satisfied before its precondition closed"
        )
    if flag == "reopened":
        events = sorted(view.event(e) for e, _, _ in view.rows("reopen_taken", number))
        return "reopened by " + ", ".join(events)
    if flag == "claimed_unverified":
        below = sorted(
            f"{r.event} (tier {r.detail})" for r in verdict.reasons if r.code == "below_verify"
        )
        return f"below `verify {verdict.verify}`: " + ", ".join(below)
    return flag


def _verdict_node(view: _View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node:
    status = verdict.status
    children = []
    if status == "NOT_OPENED":
        text = "NOT_OPENED: its opening is not visible at this standpoint"
    elif verdict.closed_by:
        text = f"{status}: closed by {verdict.closed_by}"
    elif status == "UNKNOWN":
        text = "UNKNOWN: no closing transition, but the evidence is not conclusive"
        for reason in verdict.reasons:
            if reason.code in ("gap", "unconfirmed_effect"):
                children.append(
                    Node(
                        "doubt",
                        describe(reason, view.project, x),
                        code=reason.code,
                        event=reason.event,
                    )
                )
    else:
        confidence = verdict.confidence or ""
        if confidence == "INCOMPLETE_SEARCH":
            text = (
                "OPEN, INCOMPLETE_SEARCH: no closing transition, but a search channel was "
                "never searched"
            )
            for reason in verdict.reasons:
                if reason.code == "unsearched":
                    children.append(
                        Node("doubt", describe(reason, view.project, x), code="unsearched")
                    )
        else:
            text = (
                "OPEN, CORROBORATED_OPEN: no closing transition stands, every search channel "
                "was searched and no relevant gap was found"
            )
    return Node(
        "verdict",
        f"verdict: {text}",
        code=status.lower(),
        event=verdict.closed_by,
        children=tuple(children),
    )


def _why_not_node(
    view: _View, x: Expectation, number: int, verdict: ExpectationVerdict, status: str
) -> Node:
    rows = [
        (str(code), view.event(e)) for s, code, e in view.rows("why_not", number) if s == status
    ]
    principals = sorted(
        name for (a,) in view.rows("principal_of", number) if (name := view.facts.actor(a))
    )
    nodes = []
    for code, event in sorted(rows, key=lambda r: (_WHY_ORDER.get(r[0], 9), r[1] or "")):
        nodes.append(
            Node(
                "missing",
                why_not_text(view.project, x, verdict, status, code, event, principals),
                code=code,
                event=event,
            )
        )
    nearest = [view.event(e) for s, e in view.rows("nearest", number) if s == status]
    if nearest and status != "already" and not any(c == "already" for c, _ in rows):
        eid = nearest[0]
        reasons = _reasons_by_event(verdict).get(eid, [])
        what = "; ".join(_verb(r) + _about(r, view.project, x) for r in reasons)
        event = view.project.event(eid)
        text = f"nearest candidate: {eid}: {what or 'it took no effect'}"
        if event is not None and x.want is not None:
            watched = [a for a in event.sets if a.key == x.want.key]
            text += (
                f" (sets {x.want.key} = {value_text(watched[0].value)})"
                if watched
                else " (sets nothing)"
                if not event.sets
                else " (sets no key it watches)"
            )
        nodes.append(Node("nearest", text, code="nearest", event=eid))
    return Node("why_not", f"why not {status.upper()}?", code=status, children=tuple(nodes))


_WHY_ORDER = {
    "already": 0,
    "not_opened": 1,
    "closed_first": 2,
    "closed": 2,
    "no_transition": 3,
    "undone_by": 4,
    "unknown_because": 4,
    "no_doubt": 4,
    "opened": 4,
    "unrecorded": 5,
    "later": 6,
}


def _key_line(view: _View, x: Expectation) -> str:
    verdict = view.expectation(x.id)
    number = view.number(x.id)
    rows = [(str(code), view.event(e)) for code, e in view.rows("key_reason", number)]
    if not rows:
        return verdict.status
    code, event = sorted(rows)[0]  # the rules derive one key reason per item
    if code == "closed":
        tier = f", tier {verdict.tier}" if verdict.tier else ""
        return f"closed by {event}{tier} at {show_time(verdict.closed_at)}"
    if code == "not_opened":
        return _opening_node(view, x, number).text
    if code in ("gap", "unconfirmed_effect"):
        reasons = [r for r in verdict.reasons if r.code == code and (r.event == event or not event)]
        return "; ".join(describe(r, view.project, x) for r in reasons) or code
    if code == "reopened":
        ev = view.project.event(event or "")
        how = {str(h) for e, h, _ in view.rows("reopen_taken", number) if view.event(e) == event}
        why = (
            "an effective `reopens`"
            if "marker" in how
            else f"{sets_text(ev, x)}, contradicting the satisfied state before the bound"
            if ev is not None
            else "a contradicting state"
        )
        when = show_time(ev.at) if ev is not None else "?"
        return f"reopened by {event} at {when}: {why}"
    if code == "nearest":
        reasons = _reasons_by_event(verdict).get(event or "", [])
        what = "; ".join(_verb(r) + _about(r, view.project, x) for r in reasons)
        return f"no closing evidence; nearest candidate {event}: {what}"
    unsearched = [r.channel for r in verdict.reasons if r.code == "unsearched"]
    tail = f" (never searched: {', '.join(unsearched)})" if unsearched else ""
    return "no closing evidence: no visible candidate touches it" + tail


# ---------------------------------------------------------------------------------------------
# Tasks
# ---------------------------------------------------------------------------------------------


def _task_tree(view: _View, task: Task) -> Node:
    verdict = view.task(task.id)
    number = view.number(task.id)
    point = view.resolution.standpoint
    deciding = set(view.task_because(number))
    headline = (
        f"task {task.id}" + (f' "{task.title}"' if task.title else "") + f" is {verdict.status}"
    )
    obligations = []
    for ident in task.obligations:
        ov = view.expectation(ident)
        text = f"{ident} is {ov.status}"
        if ov.closed_by:
            text += f" (closed by {ov.closed_by}" + (f", tier {ov.tier}" if ov.tier else "") + ")"
        elif ov.confidence:
            text += f" ({ov.confidence.lower()})"
        if ident in deciding:
            text += ": this decides the task"
        obligations.append(
            Node(
                "obligation",
                text,
                code=ov.status.lower(),
                data={"id": ident, "status": ov.status, "decides": ident in deciding},
            )
        )
    if verdict.status == "COMPLETE":
        rule = (
            "COMPLETE: every obligation is SATISFIED, WAIVED, CANCELLED or SUPERSEDED"
            if task.obligations
            else "COMPLETE: a task with no obligations is complete"
        )
    elif verdict.status == "INCOMPLETE":
        rule = "INCOMPLETE: " + ", ".join(sorted(deciding)) + " is OPEN or NOT_OPENED"
    else:
        rule = "UNKNOWN: nothing is OPEN, but " + ", ".join(sorted(deciding)) + " is UNKNOWN"
    findings = []
    for finding in verdict.findings:
        event = view.project.event(finding.event)
        who = f" by {finding.by}" if finding.by else ""
        when = show_time(event.at) if event else "?"
        text = f"{finding.kind}: {finding.event}{who} at {when} about {finding.target}"
        if finding.kind == "FALSE_COMPLETION":
            text += ": judged at its own time, outstanding then: " + (
                ", ".join(finding.outstanding) or "-"
            )
        else:
            text += ": it was complete at that time"
        findings.append(
            Node(
                "finding",
                text,
                code=finding.kind.lower(),
                event=finding.event,
                data={"target": finding.target, "outstanding": list(finding.outstanding)},
            )
        )
    children = [
        Node("standpoint", standpoint_text(point), data=_standpoint_data(point)),
        Node("opening", "opening: " + _task_opening(view.project, task), code="task_opening"),
        *instance_nodes(view, verdict),
        Node("obligations", f"obligations: {len(task.obligations)}", children=tuple(obligations)),
        Node("verdict", f"verdict: {rule}", code=verdict.status.lower()),
    ]
    if findings:
        children.append(Node("findings", f"findings: {len(findings)}", children=tuple(findings)))
    data = {
        "id": task.id,
        "title": task.title,
        "status": verdict.status,
        "outstanding": list(verdict.outstanding),
        "location": str(task.location),
    }
    return Node("task", headline, code=verdict.status.lower(), data=data, children=tuple(children))


def _task_opening(project: Project, task: Task) -> str:
    if task.opened_by:
        event = project.event(task.opened_by)
        if event is None:
            return f"opened_by {task.opened_by}, which names no event in the log"
        return f"opened by {event_label(event)}, known from {times.format_time(event.recorded)}"
    if task.opened is not None:
        return f"opened {times.format_time(task.opened)} (an oracle label)"
    return "no opening of its own: obligations must name their own"


# ---------------------------------------------------------------------------------------------
# Renderers
# ---------------------------------------------------------------------------------------------


def render_text(node: Node) -> str:
    """The tree as indented lines: the headline, sections, and ``-`` items under them."""
    lines: list[str] = []
    _render(node, 0, lines)
    return "\n".join(lines) + "\n"


def _render(node: Node, depth: int, lines: list[str]) -> None:
    text = visible(node.text)  # one node, one line: user text cannot start another
    if depth == 0:
        lines.append(text)
    elif depth == 1:
        lines.append("  " + text)
    else:
        lines.append("  " * depth + "- " + text)
    for child in node.children:
        _render(child, depth + 1, lines)


def to_json(node: Node) -> dict[str, Any]:
    """The tree as JSON-ready dicts: ``kind``, ``text``, ``code``, ``event``, ``data``,
    ``children``."""
    return {
        "kind": node.kind,
        "text": node.text,
        "code": node.code,
        "event": node.event,
        "data": node.data,
        "children": [to_json(child) for child in node.children],
    }


def to_document(node: Node, ident: str, point: Standpoint) -> dict[str, Any]:
    """The ``explain --format json`` document: the versioned envelope around :func:`to_json`."""
    return {
        "schema_version": 1,
        "kind": "explain",
        "id": ident,
        "standpoint": _standpoint_data(point),
        "tree": to_json(node),
    }


def walk(node: Node) -> Sequence[Node]:
    """Every node of the tree, depth first (handy for tests and reports)."""
    out = [node]
    for child in node.children:
        out.extend(walk(child))
    return out
