"""A drawn graph that fits a screen: at most N nodes, and a note saying what was left out.

On a real history the picture of every expectation, task and event is thousands of nodes that
no renderer lays out legibly. :func:`cap` keeps whole neighbourhoods (an item with the events
and actors drawn beside it) in a fixed order until the next would pass the limit, and reports
the rest as counts. The order is presentation, not meaning: tasks first, then what is still
owed (``OPEN``, ``UNKNOWN``, ``NOT_OPENED``, as the rules derived them), then the rest, each by
id. Only pictures are capped; ``--format json`` and ``graphml`` always hold every node.
"""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx

from resolver.vocabulary import TASK_OUTSTANDING, UNSETTLED_STATUSES, upper

#: The default ``--max-nodes``: a picture a maintainer can still read.
DEFAULT_MAX_NODES = 100
#: Statuses drawn first: still owed, or not known to be done (an unsettled expectation, a task
#: that is not complete).
_OWED = frozenset(upper((*UNSETTLED_STATUSES, *TASK_OUTSTANDING)))
_ITEM_KINDS = ("task", "expectation", "policy")
_COUNTED = ("expectation", "task", "event", "actor", "policy")


@dataclass(frozen=True)
class Omission:
    """What :func:`cap` left out: node counts by kind, of how many nodes in all."""

    left_out: dict[str, int]
    total: int

    @property
    def count(self) -> int:
        """Nodes left out."""
        return sum(self.left_out.values())

    def text(self) -> str:
        """One line: ``left out 812 of 1,012 nodes (300 expectations, ...); ...``."""
        parts = [
            f"{n:,} {kind}{'s' if n != 1 else ''}"
            for kind in _COUNTED
            if (n := self.left_out.get(kind, 0))
        ]
        return (
            f"left out {self.count:,} of {self.total:,} nodes ({', '.join(parts)}); "
            "draw one neighbourhood with --focus ID, or more with --max-nodes N"
        )


def _order(graph: nx.MultiDiGraph, node: str) -> tuple:
    attrs = graph.nodes[node]
    kind = attrs.get("kind")
    owed = attrs.get("status") in _OWED
    return (_ITEM_KINDS.index(kind), not owed, attrs.get("id", node))


def _neighbours(graph: nx.MultiDiGraph, node: str, kind: str) -> list[str]:
    return [n for n in nx.all_neighbors(graph, node) if graph.nodes[n].get("kind") == kind]


def cap(graph: nx.MultiDiGraph, max_nodes: int) -> tuple[nx.MultiDiGraph, Omission | None]:
    """At most ``max_nodes`` nodes of a drawable graph (0: no limit), and what was left out.

    Whole neighbourhoods are kept while they fit (the first item alone when even its own
    does not). The kept graph carries the omission's line as ``graph.graph["note"]`` for
    the title.
    """
    if max_nodes <= 0 or graph.number_of_nodes() <= max_nodes:
        return graph, None
    items = sorted(
        (n for n, k in graph.nodes(data="kind") if k in _ITEM_KINDS), key=lambda n: _order(graph, n)
    )
    kept: set[str] = set()
    for item in items:
        group = {item, *_neighbours(graph, item, "actor")}
        for event in _neighbours(graph, item, "event"):
            group |= {event, *_neighbours(graph, event, "actor")}
        if len(kept | group) > max_nodes:
            if not kept:  # the first neighbourhood alone is too big: draw its item at least
                kept.add(item)
            break
        kept |= group
    left: dict[str, int] = {}
    for node, kind in graph.nodes(data="kind"):
        if node not in kept:
            left[kind] = left.get(kind, 0) + 1
    omission = Omission(left, graph.number_of_nodes())
    smaller = graph.subgraph(kept).copy()
    smaller.graph["note"] = omission.text()
    return smaller, omission
