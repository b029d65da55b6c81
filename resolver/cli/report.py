"""``openloop report``: one self-contained HTML page for a standpoint."""

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
from resolver.faces import report
from resolver.verdicts import graph as graphs


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``report`` subcommand."""
    parser = subparsers.add_parser(
        "report",
        help="write one self-contained HTML page: verdicts, graph, lifelines, explanations",
        description="Write an HTML page that needs no network: the verdict table, the "
        "dependency and provenance graph (drawn by Graphviz's dot when installed, "
        "else Mermaid source and an adjacency list), the lifelines and each "
        "expectation's explanation.",
    )
    add_paths(parser)
    add_standpoint(parser)
    add_output(parser, "FILE (e.g. report.html)")
    parser.add_argument(
        "--rejected",
        choices=graphs.REJECTED_CHOICES,
        default="open",
        help="rejected candidates to draw in the graph (default: those of open expectations)",
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
    page = report.render(
        prepared,
        standpoint(args),
        rejected=args.rejected,
        use_graphviz=not args.no_graphviz,
        snapshot_facts=api.snapshot_facts(prepared, args.snapshot),
    )
    emit(page, args.output)
    return 0
