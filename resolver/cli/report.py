"""``openloop report``: one self-contained HTML page for a standpoint.

The command does the work a face may not: it solves the standpoint once with every item
explained, builds the graph, caps the picture, and builds each expectation's concise and each
task's explanation tree; ``resolver/faces/report.py`` only draws what :func:`page` hands it.
"""

from __future__ import annotations

import argparse

from resolver import api
from resolver.cli.common import (
    add_output,
    add_paths,
    add_snapshot,
    add_standpoint,
    emit,
    prepare,
    standpoint,
)
from resolver.cli.graph import count_argument
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.faces import palette, report
from resolver.verdicts import caps, graph_caps, graph_views
from resolver.verdicts import graph as graphs
from resolver.verdicts.explanation import explain, query_facts
from resolver.verdicts.resolution import resolve


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``report`` subcommand."""
    parser = subparsers.add_parser(
        "report",
        help="write one self-contained HTML page: verdicts, graph, lifelines, explanations",
        description="Write an HTML page that needs no network: the verdict table, the "
        "dependency and provenance graph (drawn by Graphviz's dot when installed, "
        "else Mermaid source and an adjacency list), the lifelines and each "
        "expectation's concise explanation, collapsed until opened.",
    )
    add_paths(parser)
    add_standpoint(parser)
    add_output(parser, "FILE (e.g. report.html)")
    parser.add_argument(
        "--candidates",
        action="store_true",
        help="also draw the rejected candidates in the graph (by default: only the events "
        "that opened or closed something)",
    )
    parser.add_argument(
        "--rejected",
        choices=graph_views.REJECTED_CHOICES,
        default=None,
        help="which rejected candidates to draw in the graph, finer than --candidates",
    )
    parser.add_argument(
        "--max-nodes",
        type=count_argument,
        default=graph_caps.DEFAULT_MAX_NODES,
        metavar="N",
        help=f"draw at most N nodes in the graph (default {graph_caps.DEFAULT_MAX_NODES}; "
        "0: no limit); the page says what was left out",
    )
    parser.add_argument(
        "--no-graphviz",
        action="store_true",
        help="do not run dot: embed Mermaid source and an adjacency list",
    )
    add_snapshot(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resolve and write the page."""
    prepared = prepare(args)
    text = page(
        prepared,
        standpoint(args),
        rejected=args.rejected or ("candidates" if args.candidates else "none"),
        max_nodes=args.max_nodes,
        use_graphviz=not args.no_graphviz,
        snapshot_facts=api.snapshot_facts(prepared, args.snapshot),
    )
    emit(text, args.output)
    return 0


def page(
    prepared: Prepared,
    point: Standpoint,
    rejected: str = "none",
    use_graphviz: bool = True,
    snapshot_facts: Query | str = "",
    max_nodes: int = graph_caps.DEFAULT_MAX_NODES,
) -> str:
    """The HTML page for one standpoint (``snapshot_facts`` from ``api.snapshot_facts``).

    The page stays small on a long history: the graph is capped at ``max_nodes`` nodes (0: no
    limit) and draws ``rejected`` candidates only when asked; each expectation's explanation is
    the concise one (:func:`resolver.verdicts.caps.concise`), collapsed until opened.
    """
    resolution = resolve(prepared, point, query_facts(prepared, everything=True) + snapshot_facts)
    phrase = palette.sentences(prepared.project)
    drawn = graph_views.drawable(graphs.build(prepared, resolution, phrase), rejected)
    picture, omission = graph_caps.cap(drawn, max_nodes)
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
