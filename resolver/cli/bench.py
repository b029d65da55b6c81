"""``openloop bench PATH...``: time what a user waits for on their own history."""

from __future__ import annotations

import argparse
import json
import sys

from resolver.benchmark import timing
from resolver.cli.common import add_output, add_paths, add_standpoint, emit, whole_number
from resolver.faces.safe_text import terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``bench`` subcommand."""
    parser = subparsers.add_parser(
        "bench",
        help="time status (cold, on the store, warm), explain and check on your history",
        description="Run, on the history in PATH, what a user runs, each command in a fresh "
        "interpreter with a cache folder of its own (your cache is neither read nor filled): "
        "status with an empty cache, status again on the store, explain of one expectation "
        "and check; and a warm standpoint (status at other standpoints on the history "
        "prepared once, in one process). Reports CPU seconds and each command's own peak RSS. "
        "Progress goes to stderr.",
        epilog="The synthetic histories, the real-history rows and the accuracy study are the "
        "lab's, run from a checkout: python -m lab bench|study|eval.",
    )
    add_paths(parser)
    add_standpoint(parser)
    parser.add_argument(
        "--explain",
        metavar="ID",
        help="the expectation or task to explain (default: the middle expectation by id)",
    )
    parser.add_argument(
        "--standpoints",
        type=whole_number(1),
        default=timing.STANDPOINTS,
        metavar="N",
        help=f"standpoints timed warm; the median is reported (default: {timing.STANDPOINTS})",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Measure and print; exit 2 when a command refuses the input (with its message), 1 when
    one fails otherwise."""
    try:
        document = timing.measure(
            args.paths,
            args.at,
            args.known,
            args.explain,
            args.standpoints,
            lambda message: print(f"[bench] {message}", file=sys.stderr),
        )
    except timing.CommandFailed as failed:
        said = failed.stderr.strip().splitlines()
        if failed.code == 2 and said:  # bad input: the command's own line says where
            print(terminal(said[-1]), file=sys.stderr)
            return 2
        print(terminal(f"openloop bench: {failed}"), file=sys.stderr)
        print(terminal("\n".join(said[-5:])), file=sys.stderr)
        return 1
    emit(json.dumps(document) + "\n" if args.json else timing.table(document), args.output)
    return 0
