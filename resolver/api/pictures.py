"""``graph`` and ``report``: the dependency and provenance graph, and the one-page report.

The graph is built by :mod:`resolver.verdicts.graph` from one solve, its edge labels phrased by
:mod:`resolver.faces.palette`; what a picture draws (which rejected candidates, at most how
many nodes) is :mod:`resolver.verdicts.graph.views` and :mod:`resolver.verdicts.graph.caps`.
This module is imported only by a command that draws: it pulls in networkx (and the report,
Jinja2).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import networkx as nx

from resolver.api.history import snapshot_facts
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.errors import InputError
from resolver.verdicts import graph as graphs
from resolver.verdicts.graph import views as graph_views
from resolver.verdicts.graph.caps import DEFAULT_MAX_NODES, Omission, cap
from resolver.verdicts.graph.views import REJECTED_CHOICES, drawable, scalar_copy
from resolver.verdicts.resolution import Resolution, resolve

__all__ = [
    "DEFAULT_MAX_NODES",
    "REJECTED_CHOICES",
    "Drawing",
    "drawable",
    "graph",
    "report_page",
    "scalar_copy",
]


@dataclass(frozen=True)
class Drawing:
    """The graph at one standpoint and what a picture of it draws.

    ``graph`` holds every node and edge (of the focused item's neighbourhood, if one was asked):
    what the data formats write. ``drawn`` keeps only the rejected candidates asked for
    (:func:`~resolver.verdicts.graph.views.drawable`): what a picture draws.
    """

    resolution: Resolution
    graph: nx.MultiDiGraph
    drawn: nx.MultiDiGraph

    def capped(self, max_nodes: int) -> tuple[nx.MultiDiGraph, Omission | None]:
        """At most ``max_nodes`` nodes of the picture (0: no limit), and what was left out."""
        return cap(self.drawn, max_nodes)


def graph(
    prepared: Prepared,
    point: Standpoint,
    rejected: str = "none",
    focus: str | None = None,
    every_reason: bool | None = None,
) -> Drawing:
    """The graph of tasks, expectations, events and actors at ``point``.

    ``rejected`` (one of :data:`REJECTED_CHOICES`) says which rejected candidates a picture
    draws; ``focus`` keeps one item's neighbourhood (an unknown id is an input error).
    ``every_reason``: read every candidate's reason (what the data formats and a picture of
    rejected candidates need); by default only when ``rejected`` draws some, since a picture
    without them draws nothing the key reasons do not name.
    """
    from resolver.faces import palette  # the edges' sentences

    every = rejected != "none" if every_reason is None else every_reason
    resolution = resolve(prepared, point, Query(every_reason=every))
    built = graphs.build(prepared, resolution, palette.sentences(prepared.project))
    if focus is not None:
        try:
            built = graph_views.focus(built, focus)
        except KeyError:
            raise InputError(f"--focus: no expectation or task named {focus!r}") from None
    return Drawing(resolution, built, drawable(built, rejected))


def report_page(
    prepared: Prepared,
    point: Standpoint,
    rejected: str = "none",
    use_graphviz: bool = True,
    snapshot: str | Path | None = None,
    max_nodes: int = DEFAULT_MAX_NODES,
) -> str:
    """The self-contained HTML page for one standpoint (``openloop report``).

    One solve with every item explained (and the reasons of a ``snapshot`` file, if given);
    the graph capped at ``max_nodes`` nodes (0: no limit), drawing ``rejected`` candidates only
    when asked; each expectation's explanation the concise one, each task's whole. The page
    is drawn by :mod:`resolver.faces.report` (Graphviz's ``dot`` when ``use_graphviz`` and
    installed, else Mermaid source and an adjacency list).
    """
    from resolver.faces import palette, report
    from resolver.verdicts import caps
    from resolver.verdicts.explanation import explain, query_facts

    query = query_facts(prepared, everything=True) + snapshot_facts(prepared, snapshot)
    resolution = resolve(prepared, point, query)
    phrase = palette.sentences(prepared.project)
    drawn = drawable(graphs.build(prepared, resolution, phrase), rejected)
    picture, omission = cap(drawn, max_nodes)
    trees = {
        v.id: caps.concise(prepared, resolution, explain(prepared, resolution, v.id))
        for v in resolution.expectations
    }
    trees.update({t.id: explain(prepared, resolution, t.id) for t in resolution.tasks})
    return report.render(
        report.Page(
            project=prepared.project,
            resolution=resolution,
            graph=drawn,
            picture=picture,
            omission=None if omission is None else omission.text(),
            explanations=trees,
            use_graphviz=use_graphviz,
        )
    )
