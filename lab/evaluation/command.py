"""``python -m lab eval``: reproduce the studies' experiments, each beside its figure."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from lab.evaluation import commitments, suite, table
from resolver.errors import InputError
from resolver.output import write_bytes, write_stdout

PARTS = ("all", "open-loops", "commitments")


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``eval`` subcommand."""
    parser = subparsers.add_parser(
        "eval",
        help="reproduce the studies' experiments side by side with their figures",
        description="Run the open-loops study's experiments on the bundled fixtures (the "
        "mention baseline, the canonical histories, maintained ledger vs derivation, the "
        "staleness simulation, the derivation cost) and the commitment-graph experiment as a "
        "seeded simulation of the judging step. Each row prints the study's figure, "
        "openloop's measured figure and the history it ran on. Exit 0 when every figure is "
        "reproduced, 1 when one is not.",
        epilog="examples: python -m lab eval | python -m lab eval commitments --seed 7 | "
        "python -m lab eval --format md -o docs/design/evaluation.md",
    )
    parser.add_argument(
        "part",
        nargs="?",
        choices=PARTS,
        default="all",
        help="which experiments: all (default), open-loops (the open-loops study's tables), or "
        "commitments (the simulation only)",
    )
    parser.add_argument(
        "--format",
        choices=("table", "md", "json"),
        default="table",
        help="output format (default: table)",
    )
    parser.add_argument(
        "--fixtures",
        metavar="DIR",
        help="the fixtures folder to run on (default: the checkout's fixtures/)",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the commitment simulation (default: 0)"
    )
    parser.add_argument(
        "--per-family",
        type=int,
        default=commitments.DEFAULT_PER_FAMILY,
        metavar="N",
        help="simulated tasks per family (default: %(default)s)",
    )
    parser.add_argument(
        "--no-cost",
        action="store_true",
        help="skip the derivation-cost measurement (generates and times synthetic histories)",
    )
    parser.add_argument("--quiet", action="store_true", help="no progress on standard error")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of stdout")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the chosen experiments and print them."""
    if not 1 <= args.per_family <= 2000:
        raise InputError("--per-family: expected a number from 1 to 2000")
    if not 0 <= args.seed < 2**32:
        raise InputError("--seed: expected a number from 0 to 4294967295")

    def progress(message: str) -> None:
        if not args.quiet:
            print(f"eval: {message} ...", file=sys.stderr)

    if args.fixtures is not None and not Path(args.fixtures).is_dir():
        raise InputError(f"--fixtures: no such folder {args.fixtures!r}")
    rows = []
    if args.part in ("all", "open-loops"):
        rows = suite.open_loops(args.fixtures, with_cost=not args.no_cost, progress=progress)
    experiment = None
    if args.part in ("all", "commitments"):
        progress("commitment-graph simulation")
        experiment = commitments.run(args.per_family, args.seed)
    render = {"table": table.text, "md": table.markdown, "json": table.as_json}[args.format]
    text = render(rows, experiment)
    if args.output is None or args.output == "-":
        write_stdout(text)
    else:  # as `> FILE` would, atomically, never over an input file (resolver/output.py)
        write_bytes(text.encode("utf-8"), args.output)
    return 1 if any(r.agrees is False for r in rows) else 0
