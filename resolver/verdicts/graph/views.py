"""Questions users ask of the provenance graph, and the views drawn from it.

``blocked_by`` and ``focus`` answer "what waits on this?" and "what does a reader of this one item
need?"; ``drawable`` keeps the edges a picture shows (rejected candidates only as asked);
``scalar_copy`` flattens attributes for GraphML. Each reads the graph that
:func:`resolver.verdicts.graph.build` made from the rules' atoms, and decides nothing new: which
verdicts are still open is the ``open_like`` node attribute, from the rules.
"""

from __future__ import annotations

import networkx as nx

from resolver.verdicts.graph import node_id


def blocked_by(graph: nx.MultiDiGraph, ident: str) -> list[str]:
    """Ids of the expectations and tasks that require ``ident``, directly or transitively."""
    start = _find(graph, ident)
    requires = nx.subgraph_view(
        graph, filter_edge=lambda u, v, k: graph.edges[u, v, k]["kind"] == "requires"
    )
    return sorted(graph.nodes[n]["id"] for n in nx.ancestors(requires, start))


def _find(graph: nx.MultiDiGraph, ident: str) -> str:
    for kind in ("expectation", "task"):
        if node_id(kind, ident) in graph:
            return node_id(kind, ident)
    raise KeyError(ident)


def focus(graph: nx.MultiDiGraph, ident: str) -> nx.MultiDiGraph:
    """The neighbourhood of one expectation (or task): what a reader of that one item needs.

    For an expectation: itself, its task, what it requires and what requires it, every event
    linked to it and those events' actors, and its principals. For a task: the task, its
    obligations and their neighbourhoods. Raises ``KeyError`` for an id that is neither.
    """
    start = _find(graph, ident)
    keep = {start}
    items = [start]
    if graph.nodes[start]["kind"] == "task":
        items += [u for u, _, k in graph.in_edges(start, data="kind") if k == "part_of"]
        keep.update(items)
    for item in items:
        keep.update(graph.successors(item))
        keep.update(graph.predecessors(item))
    for node in list(keep):
        if graph.nodes[node]["kind"] == "event":
            keep.update(v for _, v, k in graph.out_edges(node, data="kind") if k == "by")
    return graph.subgraph(keep).copy()


#: Choices of ``drawable(..., rejected=...)``.
REJECTED_CHOICES = ("open", "candidates", "all", "none")


def drawable(graph: nx.MultiDiGraph, rejected: str = "open") -> nx.MultiDiGraph:
    """A copy for pictures, keeping only some ``rejected`` edges; the data graph keeps all.

    ``rejected``: ``open`` keeps the rejected candidates of expectations still OPEN or UNKNOWN
    (why is it not closed?); ``candidates`` keeps every rejected candidate; ``all`` also keeps
    touching events that never were candidates (on a mention channel, or before the opening);
    ``none`` drops them all. Events and actors left without a drawn link to an expectation or
    task are dropped too.
    """
    if rejected not in REJECTED_CHOICES:
        raise ValueError(f"rejected must be one of {', '.join(REJECTED_CHOICES)}")

    def keep(u: str, v: str, k: str) -> bool:
        attrs = graph.edges[u, v, k]
        if attrs["kind"] != "rejected" or rejected == "all":
            return True
        if rejected == "none" or not attrs.get("candidate"):
            return False
        return rejected == "candidates" or bool(graph.nodes[v].get("open_like"))

    view = nx.subgraph_view(graph, filter_edge=keep)
    items = {n for n, kind in graph.nodes(data="kind") if kind in ("expectation", "task", "policy")}
    events = {
        n
        for n, kind in graph.nodes(data="kind")
        if kind == "event" and any(m in items for m in nx.all_neighbors(view, n))
    }
    actors = {
        n
        for n, kind in graph.nodes(data="kind")
        if kind == "actor" and any(m in items | events for m in nx.all_neighbors(view, n))
    }
    return view.subgraph(items | events | actors).copy()


def scalar_copy(graph: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """A copy whose attributes are all scalars (GraphML allows nothing else).

    Tuples become comma-separated strings and missing values (None) are left out.
    """

    def flatten(attrs: dict) -> dict:
        out = {}
        for name, value in attrs.items():
            if value is None:
                continue
            out[name] = ",".join(map(str, value)) if isinstance(value, tuple | list) else value
        return out

    copy = nx.MultiDiGraph(**flatten(graph.graph))
    for node, attrs in graph.nodes(data=True):
        copy.add_node(node, **flatten(attrs))
    for u, v, key, attrs in graph.edges(keys=True, data=True):
        copy.add_edge(u, v, key=key, **flatten(attrs))
    return copy
