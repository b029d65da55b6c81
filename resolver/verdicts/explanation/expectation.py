"""An expectation's explanation tree: its opening, candidates, verdict and ``--why-not``.

Each step is read from the rules' atoms of one explained standpoint (``View``) and holds the
values its sentence is made of; the closing, footprint, bound, preconditions and flags are built
in ``sections.py``. No words here: ``resolver/faces/explanation/text.py`` phrases.
"""

from __future__ import annotations

from typing import Any

from resolver import times
from resolver.engine.prepared import Standpoint
from resolver.language.model import Expectation
from resolver.verdicts.explanation.instance import instance_nodes
from resolver.verdicts.explanation.sections import (
    bound_node,
    closing_node,
    flags_node,
    footprint_node,
    preconditions_node,
)
from resolver.verdicts.explanation.view import Node, View
from resolver.verdicts.resolution import ExpectationVerdict, Reason

#: Reason codes that speak about one examined candidate.
_CANDIDATE_REASONS = ("candidate_rejected", "proposal", "below_verify", "unconfirmed_effect")

#: The order of the lines of a ``--why-not`` answer, by the rule that gave each.
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


def iso(unix: int | None) -> str | None:
    """A time as the JSON data holds it (``YYYY-MM-DDTHH:MM:SSZ``), or None."""
    return None if unix is None else times.format_time(unix)


def standpoint_data(point: Standpoint) -> dict[str, Any]:
    """The standpoint as the JSON data holds it."""
    known = "latest" if point.known is None else times.format_time(point.known)
    return {"at": times.format_time(point.at), "known": known}


def standpoint_node(point: Standpoint) -> Node:
    """The standpoint the tree is read at."""
    return Node("standpoint", data=standpoint_data(point), say={"point": point})


def expectation_tree(view: View, x: Expectation, why_not: str | None) -> Node:
    """The whole tree of one expectation; ``why_not`` adds what keeps it from that status."""
    verdict = view.expectation(x.id)
    number = view.number(x.id)
    children = [
        standpoint_node(view.resolution.standpoint),
        opening_node(view, x, number),
        *instance_nodes(view, verdict),
        Node(
            "want", code=verdict.verify or "", data=_want_data(x, verdict), say=_about(x, verdict)
        ),
        candidates_node(view, x, number, verdict),
        closing_node(view, number, verdict),
        footprint_node(verdict),
        bound_node(view, x, number, verdict),
    ]
    preconditions = preconditions_node(view, x)
    if preconditions is not None:
        children.append(preconditions)
    flags = flags_node(view, x, number, verdict)
    if flags is not None:
        children.append(flags)
    snapshot = [r for r in verdict.reasons if r.code == "snapshot"]
    if snapshot:
        children.append(
            Node(
                "snapshot",
                say={"as": "snapshot_section"},
                children=tuple(
                    Node("snapshot", code=r.detail, say={"reason": r, "x": x}) for r in snapshot
                ),
            )
        )
    children.append(verdict_node(x, verdict))
    if why_not:
        children.append(why_not_node(view, x, number, verdict, why_not))
    data = {
        "id": x.id,
        "title": x.title,
        "status": verdict.status,
        "confidence": verdict.confidence,
        "flags": list(verdict.flags),
        "closed_by": verdict.closed_by,
        "tier": verdict.tier,
        "closed_at": iso(verdict.closed_at),
        "task": x.part_of,
        "location": str(x.location),
    }
    return Node(
        "expectation",
        code=verdict.status.lower(),
        data=data,
        children=tuple(children),
        say={**_about(x, verdict), "project": view.project},
    )


def _about(x: Expectation, verdict: ExpectationVerdict) -> dict[str, Any]:
    return {"x": x, "verdict": verdict}


def _want_data(x: Expectation, verdict: ExpectationVerdict) -> dict[str, Any]:
    data: dict[str, Any] = {"verify": verdict.verify or ""}
    if x.want is not None:
        data["want"] = {x.want.key: x.want.value}
    return data


def opening_node(view: View, x: Expectation, number: int) -> Node:
    """Whose opening it uses (``opened_by_source``) and whether it is visible."""
    sources = [view.facts.item_id(s) for (s,) in view.rows("opened_by_source", number)]
    source_id = sources[0] if sources else None
    hidden = [str(w) for (w,) in view.rows("opening_hidden", number)]
    missing = bool(view.rows("no_opening", number)) or any(
        args == (number,) for args in view.atoms.get("no_opening")
    )
    event = None
    if not missing:
        holder = view.project.task(source_id) if source_id and source_id != x.id else None
        event = (holder if holder is not None else x).opened_by
    code = "no_opening" if missing else (hidden[0] if hidden else "opened")
    return Node(
        "opening",
        code=code,
        event=event,
        data={"source": source_id, "hidden": hidden},
        say={"x": x, "source": source_id, "hidden": hidden, "missing": missing},
    )


def reasons_by_event(verdict: ExpectationVerdict) -> dict[str, list[Reason]]:
    """The reasons about each examined candidate, by event id."""
    table: dict[str, list[Reason]] = {}
    for reason in verdict.reasons:
        if reason.event and reason.code in _CANDIDATE_REASONS:
            table.setdefault(reason.event, []).append(reason)
    return table


def candidates_node(view: View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node:
    """Every examined candidate, with its evidence, authority, link and what it did."""
    took = {
        view.event(e): (str(s), str(t), i) for e, s, t, i in view.rows("transition_taken", number)
    }
    reopened = {view.event(e): str(h) for e, h, _ in view.rows("reopen_taken", number)}
    reasons = reasons_by_event(verdict)
    authority: dict[str | None, list[tuple[str, str]]] = {}
    for e, kind, basis in view.rows("explain_authority", number):
        authority.setdefault(view.event(e), []).append((str(kind), str(basis)))
    claims: dict[str | None, list[str]] = {}
    for e, would in view.rows("agent_claim", number):
        claims.setdefault(view.event(e), []).append(str(would))
    principals = view.principals(number)
    links: dict[str | None, list[str]] = {}
    for e, kind in view.rows("link", number):
        links.setdefault(view.event(e), []).append(str(kind))
    overlaps: dict[str | None, list[tuple[int, int, int]]] = {}
    for e, src, shared, total in view.rows("link_overlap", number):
        overlaps.setdefault(view.event(e), []).append((src, shared, total))
    events = sorted(
        (view.project.event(e) for e in verdict.examined), key=lambda ev: (ev.at, ev.id)
    )
    nodes = []
    for event in events:
        eid = event.id
        details = []
        if event.sets or x.want or x.superseded_when:
            details.append(Node("evidence", code="sets", say={"event": event, "x": x}))
        for kind, basis in sorted(authority.get(eid, [])):
            details.append(
                Node(
                    "authority",
                    code=basis,
                    data={"marker": kind, "by": event.by},
                    say={"event": event, "x": x, "principals": principals},
                )
            )
        for would in sorted(claims.get(eid, [])):
            # An agent's own record, capped to a claim (rules/prepare/tiers.lp): say why.
            details.append(
                Node("agent_claim", code=would, data={"by": event.by}, say={"event": event})
            )
        kinds, overlap = sorted(links.get(eid, [])), sorted(overlaps.get(eid, []))
        if kinds or overlap:
            details.append(Node("link", code="text", say={"kinds": kinds, "overlaps": overlap}))
        if event.outcome != "confirmed":
            details.append(Node("outcome", code=event.outcome))
        # What it did, each step with the rule that spoke: (code, what the words are made of).
        steps: list[tuple[str, Any]] = []
        if eid in took:
            steps.append(("closed", took[eid][:2]))
        if eid in reopened:
            steps.append(("reopened", reopened[eid]))
        for reason in reasons.get(eid, []):
            code = reason.detail if reason.code == "candidate_rejected" else reason.code
            steps.append((code, reason))
        if not steps:
            steps.append(("examined", None))
        nodes.append(
            Node(
                "candidate",
                code=steps[0][0],
                event=eid,
                data={
                    "at": iso(event.at),
                    "channel": event.channel,
                    "by": event.by,
                    "outcomes": [c for c, _ in steps],
                },
                children=tuple(details),
                say={"event": event, "x": x, "steps": steps},
            )
        )
    for (e,) in view.rows("unrecorded", number):
        event = view.project.event(view.event(e))
        nodes.append(Node("unrecorded", code="unrecorded", event=event.id, say={"event": event}))
    count = len(events)
    return Node(
        "candidates",
        data={"count": count},
        children=tuple(nodes),
        say={"count": count, "status": verdict.status},
    )


def verdict_node(x: Expectation, verdict: ExpectationVerdict) -> Node:
    """The verdict, with the doubts behind an UNKNOWN or an INCOMPLETE_SEARCH."""
    children = tuple(
        Node(
            "doubt",
            code=reason.code,
            event=reason.event if reason.code != "unsearched" else None,
            say={"reason": reason, "x": x},
        )
        for reason in verdict.reasons
        if reason.code in verdict.doubts
    )
    return Node(
        "verdict",
        code=verdict.status.lower(),
        event=verdict.closed_by,
        children=children,
        say={"verdict": verdict},
    )


def why_not_node(
    view: View, x: Expectation, number: int, verdict: ExpectationVerdict, status: str
) -> Node:
    """What keeps it from ``status`` (``why_not``), and the nearest candidate (``nearest``)."""
    rows = [
        (str(code), view.event(e)) for s, code, e in view.rows("why_not", number) if s == status
    ]
    principals = view.principals(number)
    nodes = []
    for code, event in sorted(rows, key=lambda r: (_WHY_ORDER.get(r[0], 9), r[1] or "")):
        say = {"x": x, "verdict": verdict, "status": status, "principals": principals}
        nodes.append(Node("missing", code=code, event=event, say=say))
    nearest = [view.event(e) for s, e in view.rows("nearest", number) if s == status]
    if nearest and status != "already" and not any(c == "already" for c, _ in rows):
        eid = nearest[0]
        say = {
            "x": x,
            "reasons": reasons_by_event(verdict).get(eid or "", []),
            "candidate": view.project.event(eid or ""),
        }
        nodes.append(Node("nearest", code="nearest", event=eid, say=say))
    return Node("why_not", code=status, children=tuple(nodes), say={"status": status})


def key_node(view: View, x: Expectation) -> Node:
    """The key reason of an expectation (``key_reason``, one per item), to phrase in a line."""
    verdict = view.expectation(x.id)
    number = view.number(x.id)
    say: dict[str, Any] = {"project": view.project, "x": x, "verdict": verdict}
    rows = [(str(code), view.event(e)) for code, e in view.rows("key_reason", number)]
    if not rows:
        return Node("key_reason", say=say)
    code, event = sorted(rows)[0]  # the rules derive one key reason per item
    if code == "not_opened":
        say["opening"] = opening_node(view, x, number)
    elif code in ("gap", "unconfirmed_effect"):
        say["reasons"] = [
            r for r in verdict.reasons if r.code == code and (r.event == event or not event)
        ]
    elif code == "reopened":
        say["candidate"] = view.project.event(event or "")
        say["marker"] = any(
            str(h) == "marker"
            for e, h, _ in view.rows("reopen_taken", number)
            if view.event(e) == event
        )
    elif code == "nearest":
        say["reasons"] = reasons_by_event(verdict).get(event or "", [])
    return Node("key_reason", code=code, event=event, say=say)
