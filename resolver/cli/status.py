"""``openloop status``: every expectation's and task's verdict at one standpoint."""

from __future__ import annotations

import argparse

from resolver import api
from resolver.api import REASON_CAP, REASON_MODES
from resolver.cli.common import (
    add_jobs,
    add_output,
    add_paths,
    add_snapshot,
    add_standpoint,
    emit,
    keep_loaded,
)
from resolver.faces import json_format, markdown, table


def add_reasons(parser: argparse.ArgumentParser) -> None:
    """``--reasons key|all``: the key reasons (capped) or every reason."""
    parser.add_argument(
        "--reasons",
        choices=REASON_MODES,
        default="key",
        help=f"which reasons --format json prints: key (default: the opening, the decisive "
        f"transition or nearest rejected candidate, proposals, gaps, unconfirmed effects, "
        f"reopenings; at most {REASON_CAP}, the rest counted in reasons_omitted) or all "
        f"(every candidate's reason)",
    )


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``status`` subcommand."""
    parser = subparsers.add_parser(
        "status",
        help="print every expectation's and task's status at a standpoint",
        description="Derive, at one standpoint (valid time --at, knowledge time --known), each "
        "expectation's status with its closing evidence, footprint and confidence, "
        "and each task's completion. The table opens with one summary line, then the findings, "
        "then the outstanding items (OPEN, UNKNOWN, NOT_OPENED, tasks not complete) by bound "
        "and id, each with its title; closed items are counted unless --all lists them.",
    )
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--format",
        choices=("table", "json", "md"),
        default="table",
        help="output format (default: table)",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        dest="every",
        help="table and md: list closed items too (by default they are counted in the summary "
        "line and only outstanding items are listed); json always lists every item",
    )
    add_reasons(parser)
    add_snapshot(parser)
    add_jobs(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resolve and print."""
    # Only `--format json --reasons all` prints every reason; every other face reads the key
    # reasons and their count, which is far less to solve, print and read on a real history.
    every = args.format == "json" and args.reasons == "all"
    resolution, project = api.status_of(
        args.paths, args.at, args.known, args.snapshot, args.jobs, args.cluster, every_reason=every
    )
    keep_loaded()
    if args.format == "json":
        text = json_format.render(resolution, project, args.reasons)
    elif args.format == "md":
        text = markdown.render(resolution, every=args.every)
    else:
        text = table.render(resolution, every=args.every)
    emit(text, args.output)
    return 0
