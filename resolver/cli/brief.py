"""``openloop brief``: what is owed, most urgent first, within a token budget (SPEC §8)."""

from __future__ import annotations

import argparse

from resolver import api
from resolver.api import CHARS_PER_TOKEN, DEFAULT_BUDGET
from resolver.cli.common import add_output, add_paths, add_standpoint, emit, prepare, standpoint
from resolver.errors import InputError
from resolver.faces.safe_text import terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``brief`` subcommand."""
    parser = subparsers.add_parser(
        "brief",
        help="what is owed, most urgent first, in a compact text for an agent's context",
        description="A compact text of what is owed, meant for an agent at session start or "
        "after context compaction: false claims first, then each owed expectation by urgency "
        "(overdue, ready to work on, unknown, waiting on a precondition, not opened yet), "
        "earliest bound first, each with its key reason; lines stop before --budget tokens "
        "and a last line counts what was left out.",
        epilog="example (a Claude Code SessionStart hook): openloop brief history/ "
        "--known latest --budget 600",
    )
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--budget",
        type=int,
        default=DEFAULT_BUDGET,
        metavar="TOKENS",
        help=f"approximate token budget (default: {DEFAULT_BUDGET}); tokens are counted as "
        f"characters / {CHARS_PER_TOKEN}, rounded up, per line",
    )
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Resolve and print the brief."""
    if args.budget < 1:
        raise InputError("--budget must be a positive number of tokens")
    emit(terminal(api.brief(prepare(args), standpoint(args), args.budget).text()), args.output)
    return 0
