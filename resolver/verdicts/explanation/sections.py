"""The closing, footprint, bound, preconditions and flags of an expectation's explanation.

Each section is read from the rules' atoms (``transition_taken``, ``tie``, ``reopen_taken``,
``bound_from``, ``precondition``, ``blocked_by``, ``unmet_by``...) and from the typed verdict;
it holds the values its sentences are made of and no words
(``resolver/faces/explanation/text.py`` phrases them).
"""

from __future__ import annotations

from typing import Any

from resolver import times
from resolver.language.model import Expectation
from resolver.verdicts.explanation.view import Node, View
from resolver.verdicts.resolution import ExpectationVerdict


def _iso(unix: int | None) -> str | None:
    return None if unix is None else times.format_time(unix)


def closing_node(view: View, number: int, verdict: ExpectationVerdict) -> Node:
    """Every transition taken and every reopening, in time order, and what stands."""
    steps: list[tuple[int, int, Node]] = []
    for e, status, tier, instant in view.rows("transition_taken", number):
        eid = view.event(e)
        when = times.decode(instant)
        ties = [
            Node(
                "tie",
                code=str(how),
                event=view.event(loser),
                data={"winner": eid},
                say={"winner": eid, "loser": view.event(loser), "how": str(how)},
            )
            for i, winner, loser, how in view.rows("tie", number)
            if i == instant and winner == e
        ]
        shown_tier = None if tier == "none" else str(tier)
        node = Node(
            "transition",
            code=str(status),
            event=eid,
            data={"at": _iso(when), "tier": shown_tier},
            children=tuple(ties),
            say={"at": when, "status": str(status), "tier": shown_tier},
        )
        steps.append((when, 0, node))
    for e, how, instant in view.rows("reopen_taken", number):
        when = times.decode(instant)
        node = Node("reopening", code=str(how), event=view.event(e), say={"at": when})
        steps.append((when, 1, node))
    steps.sort(key=lambda s: (s[0], s[1]))
    return Node(
        "closing",
        code="closed" if verdict.closed_by else "none",
        event=verdict.closed_by,
        children=tuple(node for _, _, node in steps),
        say={"verdict": verdict, "steps": len(steps)},
    )


def footprint_node(verdict: ExpectationVerdict) -> Node:
    """What each search channel's search found, and its gaps."""
    done, total = verdict.searched_count
    state = "complete" if verdict.footprint_complete else "incomplete"
    nodes = []
    for name, fp in verdict.channels.items():
        gaps = []
        # Up to 8 gaps one by one; past that the relevant ones the rules listed, and a count.
        shown = fp.gaps if len(fp.gaps) <= 8 else fp.relevant_gaps
        for lo, hi in shown:
            relevant = (lo, hi) in fp.relevant_gaps
            gaps.append(
                Node(
                    "gap",
                    code="relevant" if relevant else "gap",
                    data={"channel": name, "gap": [lo, hi]},
                    say={"gap": (lo, hi), "relevant": relevant},
                )
            )
        if len(shown) < len(fp.gaps):
            left = len(fp.gaps) - len(shown)
            span = (fp.gaps[0][0], fp.gaps[-1][1])
            gaps.append(
                Node(
                    "gap",
                    code="omitted",
                    data={"channel": name, "omitted": left},
                    say={
                        "omitted": left,
                        "total": len(fp.gaps),
                        "span": span,
                        "after": fp.gaps_after,
                    },
                )
            )
        nodes.append(
            Node(
                "channel",
                code="searched" if fp.searched else "unsearched",
                data={
                    "channel": name,
                    "searched": fp.searched,
                    "through": _iso(fp.through),
                    "candidates": fp.candidates,
                },
                children=tuple(gaps),
                say={"channel": name, "footprint": fp},
            )
        )
    say = {"state": state, "searched": done, "channels": total}
    return Node("footprint", code=state, children=tuple(nodes), say=say)


def bound_node(view: View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node:
    """Where the bound comes from (``bound_from``) and what does not bound it yet."""
    sources = [(str(kind), view.event(e)) for kind, e in view.rows("bound_from", number)]
    pending = [view.event(e) for (e,) in view.rows("bound_pending", number)]
    return Node(
        "bound",
        code="bounded" if verdict.bound is not None else "none",
        data={"bound": _iso(verdict.bound), "from": [k for k, _ in sources], "pending": pending},
        say={"x": x, "bound": verdict.bound, "sources": sources, "pending": pending},
    )


def preconditions_node(view: View, x: Expectation) -> Node | None:
    """What it requires (``precondition`` and ``precondition_via``, preconditions.lp) and their
    verdicts here: its own ``requires`` first, in the order written, then its task's."""
    number = view.number(x.id)
    item = view.facts.item_id
    required = [item(y) for (y,) in view.rows("precondition", number)]
    through = {item(y): item(t) for y, t in view.rows("precondition_via", number)}
    if not required:
        return None
    task = view.project.task(x.part_of) if x.part_of else None
    written = list(x.requires) + list(task.requires if task else ())
    required.sort(key=lambda y: (y in through, written.index(y) if y in written else 0, y))
    nodes = []
    for ident in dict.fromkeys(required):
        verdict = view.resolution.expectation(ident) or view.resolution.task(ident)
        state = verdict.status if verdict is not None else "not declared"
        say = {"id": ident, "via": through.get(ident), "state": state}
        nodes.append(Node("precondition", code=state.lower(), data={"id": ident}, say=say))
    return Node("preconditions", children=tuple(nodes), say={"count": len(required)})


def flags_node(view: View, x: Expectation, number: int, verdict: ExpectationVerdict) -> Node | None:
    """Each flag the rules raised, with what raised it."""
    if not verdict.flags:
        return None
    nodes = [
        Node("flag", code=flag, say=_flag_cause(view, x, number, verdict, flag))
        for flag in verdict.flags
    ]
    return Node("flags", children=tuple(nodes), say={"flags": verdict.flags})


def _flag_cause(
    view: View, x: Expectation, number: int, verdict: ExpectationVerdict, flag: str
) -> dict[str, Any]:
    say: dict[str, Any] = {"x": x, "verdict": verdict, "at": view.resolution.standpoint.at}
    if flag == "blocked":
        say["blocked_by"] = [
            (view.facts.item_id(y), str(s)) for y, s in view.rows("blocked_by", number)
        ]
    elif flag == "precondition_unmet":
        say["unmet_by"] = [
            (view.facts.item_id(y), view.facts.item_id(z), y == z)
            for y, z in view.rows("unmet_by", number)
        ]
    elif flag == "reopened":
        say["reopened_by"] = sorted(view.event(e) for e, _, _ in view.rows("reopen_taken", number))
    elif flag == "claimed_unverified":
        say["below"] = [(r.event, r.detail) for r in verdict.reasons if r.code == "below_verify"]
    return say
