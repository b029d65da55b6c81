"""Output that scales with what matters (SPEC §4): the key reasons and the concise explanation.

A busy expectation on a real history has hundreds of rejected candidates; printing each one
buries the few that say why the verdict is what it is. The rules say which reasons are key
(``reason_is_key``, rules/standpoint/key_reasons.lp) and which rejected candidates came
nearest (``nearest``/``nearer``, rules/query/explain.lp); this module only caps how many of
them a face prints and counts the rest. Nothing here decides what is key or nearest.
"""

from __future__ import annotations

from dataclasses import replace

from resolver.engine.prepared import Prepared
from resolver.verdicts.explanation import Node
from resolver.verdicts.resolution import ExpectationVerdict, Reason, Resolution

#: At most this many key reasons are printed per expectation (SPEC §4).
REASON_CAP = 8
#: A concise explanation lists this many of the nearest rejected candidates.
NEAREST_SHOWN = 3
#: ``--reasons`` choices: the key reasons (capped), or every reason.
REASON_MODES = ("key", "all")

# Which key reasons are printed first when there are more than the cap: the opening, then the
# decisive transition (or nearest candidate), then what makes a verdict doubtful, then the rest.
_PRIORITY = {
    "opened": 0,
    "candidate_rejected": 1,
    "below_verify": 1,
    "reopened": 2,
    "unconfirmed_effect": 3,
    "gap": 4,
    "unsearched": 5,
    "proposal": 6,
    "snapshot": 7,
}


def reasons_shown(verdict: ExpectationVerdict, mode: str = "key") -> tuple[tuple[Reason, ...], int]:
    """The reasons a face prints for ``verdict`` and how many it leaves out.

    ``mode`` ``"all"`` prints every reason (none left out); ``"key"`` prints the key reasons,
    at most :data:`REASON_CAP` of them, in the verdict's own order.
    """
    if mode == "all":
        return verdict.reasons, verdict.reason_total - len(verdict.reasons)
    ranked = sorted(
        range(len(verdict.key_reasons)),
        key=lambda i: (_PRIORITY.get(verdict.key_reasons[i].code, 9), i),
    )
    keep = sorted(ranked[:REASON_CAP])
    shown = tuple(verdict.key_reasons[i] for i in keep)
    return shown, verdict.reason_total - len(shown)


def nearest_events(prepared: Prepared, resolution: Resolution, ident: str, count: int) -> list[str]:
    """The ``count`` nearest rejected candidates of an explained expectation, nearest first:
    ``nearest(X, satisfied, E)``, then back along ``nearer(X, E, F)``."""
    facts = prepared.facts
    number = facts.interner.get(("item", ident))
    atoms = resolution.atoms
    start = [e for s, e in atoms.rows("nearest", number) if s == "satisfied"]
    if not start:
        return []
    farther = {f: e for e, f in atoms.rows("nearer", number)}
    chain = [start[0]]
    while len(chain) < count and chain[-1] in farther:
        chain.append(farther[chain[-1]])
    return [facts.event_id(e) for e in chain]


def concise(prepared: Prepared, resolution: Resolution, tree: Node) -> Node:
    """An expectation's explanation with its decisive argument and only the nearest rejected
    candidates; the others are counted in one closing line. A task's tree is returned as is.

    Kept candidates: those that closed or reopened it, those a key reason names, and the
    :data:`NEAREST_SHOWN` nearest rejected ones.
    """
    if tree.kind != "expectation":
        return tree
    ident = tree.data["id"]
    verdict = resolution.expectation(ident)
    assert verdict is not None
    nearest = nearest_events(prepared, resolution, ident, NEAREST_SHOWN)
    keep = {r.event for r in verdict.key_reasons if r.event} | set(nearest)
    if verdict.closed_by:
        keep.add(verdict.closed_by)
    children = []
    for child in tree.children:
        if child.kind == "candidates":
            child = _trim(child, keep, nearest, ident)
        elif child.kind == "flags":
            child = replace(
                child, children=tuple(_trim_flag(f, verdict, keep) for f in child.children)
            )
        children.append(child)
    return replace(tree, children=tuple(children))


def _trim_flag(flag: Node, verdict: ExpectationVerdict, keep: set[str | None]) -> Node:
    """``claimed_unverified`` names every candidate below ``verify``; concisely, the kept
    ones (else the first few) and a count of the rest."""
    below = sorted((r.event, r.detail) for r in verdict.reasons if r.code == "below_verify")
    if flag.code != "claimed_unverified" or len(below) <= NEAREST_SHOWN:
        return flag
    chosen = [b for b in below if b[0] in keep][:NEAREST_SHOWN] or below[:NEAREST_SHOWN]
    named = ", ".join(f"{event} (tier {tier})" for event, tier in chosen)
    rest = len(below) - len(chosen)
    text = f"claimed_unverified: below `verify {verdict.verify}`: {named}, and {rest} more"
    return replace(flag, text=text, data={**flag.data, "omitted": rest})


def _trim(section: Node, keep: set[str | None], nearest: list[str], ident: str) -> Node:
    kept, left = [], 0
    for node in section.children:
        outcomes = node.data.get("outcomes", [])
        decisive = "closed" in outcomes or "reopened" in outcomes
        if node.kind != "candidate" or decisive or node.event in keep:
            if node.event in nearest:
                rank = nearest.index(node.event) + 1
                node = replace(node, data={**node.data, "nearest": rank})
            kept.append(node)
        else:
            left += 1
    if left:
        kept.append(
            Node(
                "omitted",
                f"... and {left} more rejected candidate{'s' if left != 1 else ''} "
                f"(openloop explain {ident} --full lists every one)",
                code="omitted",
                data={"count": left},
            )
        )
    return replace(section, data={**section.data, "omitted": left}, children=tuple(kept))
