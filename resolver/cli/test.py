"""``openloop test``: run the ``test`` blocks written beside a history."""

from __future__ import annotations

import argparse
import sys

from resolver import api
from resolver.cli.common import add_paths, write_bytes


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``test`` subcommand."""
    parser = subparsers.add_parser(
        "test",
        help="run the test blocks of .ol files",
        description="Run every `test` block and print each failed assertion with the expected "
        "and actual value and the rules' reason. A test block runs against the "
        "folder of its .ol file, read recursively (so one folder may hold several "
        "histories); files named explicitly form one history together. Each "
        "history is prepared once. Exit 0 when all pass (also when there are no "
        "test blocks), 1 on any failure, 2 on bad input.",
    )
    add_paths(parser)
    parser.add_argument(
        "-k",
        metavar="TEXT",
        dest="select",
        help="run only the test blocks whose name contains TEXT",
    )
    parser.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report to FILE")
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="print failures and the summary only"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the blocks, print, write JUnit if asked; exit 1 on any failure."""
    report = api.test(args.paths, args.select)
    out = sys.stdout
    for result in report.blocks:
        if result.passed and args.quiet:
            continue
        out.write(api.block_text(result) + "\n")
    if not report.blocks:
        out.write("no test blocks found\n")
    out.write(report.summary() + "\n")
    if args.junit:
        write_bytes(api.junit_xml(report), args.junit)
    return 0 if report.failed == 0 else 1
