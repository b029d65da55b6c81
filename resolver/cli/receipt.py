"""``openloop receipt``: the work receipt of one task at a standpoint."""

from __future__ import annotations

import argparse

from resolver import api
from resolver.cli.common import add_output, add_paths, add_standpoint, emit, prepare, standpoint
from resolver.faces import receipt_text


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``receipt`` subcommand."""
    parser = subparsers.add_parser(
        "receipt",
        help="print the work receipt of a task: evidence, waivers, findings, what remains",
        description="Show what a task's completion rests on at one standpoint: each obligation "
        "with the evidence that settled it and its tier, who waived, cancelled, "
        "superseded or reopened what (and which markers were proposals without "
        "authority), the findings about claims of completion, and what remains. On a long "
        f"history each obligation lists at most {api.NOTES_SHOWN} notes and, while it is "
        f"owed, the {api.NEAREST_SHOWN} rejected candidates that came nearest, and counts "
        "the rest; --full lists every one.",
    )
    parser.add_argument("task", metavar="TASK", help="the task id")
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--format", choices=("md", "json"), default="md", help="output format (default: md)"
    )
    parser.add_argument(
        "--full",
        action="store_true",
        help=f"list every note and every rejected candidate of an owed obligation; by default "
        f"at most {api.NOTES_SHOWN} notes and the {api.NEAREST_SHOWN} nearest rejected "
        f"candidates per obligation, with a count of the rest",
    )
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the receipt and print it; exit 0 whatever the task's status."""
    prepared = prepare(args, scope=args.task)
    built = api.receipt(prepared, standpoint(args), args.task, full=args.full)
    render = receipt_text.render_json if args.format == "json" else receipt_text.render_markdown
    emit(render(built), args.output)
    return 0
