"""``openloop explain``: the derivation behind one expectation's or task's verdict."""

from __future__ import annotations

import argparse
import json

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
from resolver.errors import InputError
from resolver.faces.explanation.text import render_text, to_document
from resolver.faces.safe_text import terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``explain`` subcommand."""
    parser = subparsers.add_parser(
        "explain",
        help="explain why an expectation or task has its status",
        description="Print the derivation behind one verdict, read from the rules' own atoms: "
        "the opening, the candidates examined and why each closed or was rejected "
        "(with the authority behind each marker; by default the decisive ones and the "
        "three nearest rejected, with a count of the rest; --full lists every one), the "
        "winning transition and any tie, reopenings, the footprint and gaps, the bound "
        "and each flag. For a task: its status, each obligation and the findings about it.",
    )
    parser.add_argument("id", metavar="ID", help="an expectation, obligation or task id")
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text (an indented argument) or json (the same tree)",
    )
    parser.add_argument(
        "--why-not",
        metavar="STATUS",
        type=str.lower,
        choices=api.WHY_NOT_STATUSES,
        help="also say what keeps an expectation from STATUS, and name the "
        "nearest candidate (the latest visible one that took no effect)",
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help=f"list every candidate examined; by default only the decisive ones (those that "
        f"closed or reopened it, or that a key reason names) and the {api.NEAREST_SHOWN} "
        f"nearest rejected candidates are listed, with a count of the rest",
    )
    add_snapshot(parser)
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Explain and print."""
    prepared = prepare(args, scope=args.id)
    point = standpoint(args)
    if args.why_not and prepared.project.task(args.id) is not None:
        raise InputError(f"--why-not applies to expectations; '{args.id}' is a task")
    tree = api.explain(prepared, point, args.id, args.why_not, args.snapshot, full=args.full)
    if args.format == "json":
        text = json.dumps(to_document(tree, args.id, point), indent=2, ensure_ascii=False) + "\n"
    else:
        text = terminal(render_text(tree))  # CI-log safe, like every text face
    emit(text, args.output)
    return 0
