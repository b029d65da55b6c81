"""``openloop report``: one self-contained HTML page for a standpoint.

The API does the work a face may not (:func:`resolver.api.report_page`): it solves the
standpoint once with every item explained, builds the graph, caps the picture, and builds each
expectation's concise and each task's explanation tree; ``resolver/faces/report.py`` only draws
what it is handed.
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
        choices=api.REJECTED_CHOICES,
        default=None,
        help="which rejected candidates to draw in the graph, finer than --candidates",
    )
    parser.add_argument(
        "--max-nodes",
        type=count_argument,
        default=api.DEFAULT_MAX_NODES,
        metavar="N",
        help=f"draw at most N nodes in the graph (default {api.DEFAULT_MAX_NODES}; "
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
    text = api.report_page(
        prepared,
        standpoint(args),
        rejected=args.rejected or ("candidates" if args.candidates else "none"),
        max_nodes=args.max_nodes,
        use_graphviz=not args.no_graphviz,
        snapshot=args.snapshot,
    )
    emit(text, args.output)
    return 0
