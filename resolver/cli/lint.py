"""``openloop lint``: validate files; report what will run but is probably not what was meant."""

from __future__ import annotations

import argparse
import sys

from resolver import api
from resolver.cli.common import add_paths
from resolver.faces.safe_text import terminal


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``lint`` subcommand."""
    parser = subparsers.add_parser(
        "lint",
        help="validate files; dangling references and dead declarations are warnings",
        description="Load the files as every command does (anything the resolver cannot run is "
        "an error: FILE:LINE[:COL]: error: ..., exit 2) and print warnings as "
        "FILE:LINE[:COL]: warning: ... for references to nothing (events in opened_by, before "
        "and markers; expectations and tasks in requires, part_of and tests; search channels "
        "no event uses), expectations that never open or can never be satisfied, clashing "
        "clauses and duplicate declarations; FILE:LINE:COL: note: ... names the `by` values each "
        "quoted actor pattern matched. Exit 0 when there are only warnings (1 with --strict).",
    )
    add_paths(parser)
    parser.add_argument("--strict", action="store_true", help="exit 1 when there is any warning")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Load, check, print."""
    found = api.lint(args.paths)
    for diagnostic in found.diagnostics:
        sys.stdout.write(terminal(f"{diagnostic}\n"))
    count, files = found.warnings, found.files
    sys.stderr.write(
        f"{count} warning{'s' if count != 1 else ''} in {files} file{'s' if files != 1 else ''}\n"
    )
    return 1 if args.strict and count else 0
