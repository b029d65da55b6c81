"""The ``openloop`` command: parse arguments, dispatch to ``commands/``, map errors to exits.

Exit codes: 0 success; 1 something outstanding or a failed test (per command); 2 bad input or
usage, with a ``FILE:LINE[:COL]: error: ...`` message and nothing written; 3 for ``check`` when
nothing is outstanding but something is UNKNOWN.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from resolver import __version__
from resolver.cli import COMMANDS
from resolver.errors import InputError


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="openloop",
        description="What did we leave unfinished? Resolve expectations against a bitemporal "
        "event log with clingo rules.",
    )
    parser.add_argument("--version", action="version", version=f"openloop {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    for name in COMMANDS:
        importlib.import_module(f"resolver.cli.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except InputError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except OverflowError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
