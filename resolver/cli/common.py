"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import gc
from collections.abc import Callable
from typing import TYPE_CHECKING

from resolver import api
from resolver.output import write_bytes, write_stdout

if TYPE_CHECKING:
    from resolver.api import Prepared, Standpoint

__all__ = [
    "add_jobs",
    "add_output",
    "add_paths",
    "add_snapshot",
    "add_standpoint",
    "emit",
    "keep_loaded",
    "prepare",
    "standpoint",
    "whole_number",
    "write_bytes",
]


def add_paths(parser: argparse.ArgumentParser) -> None:
    """``PATH...``: files or folders holding ``.ol`` and ``.jsonl`` files."""
    parser.add_argument(
        "paths",
        nargs="+",
        metavar="PATH",
        help="*.ol and *.jsonl files, or folders read recursively",
    )


def add_standpoint(parser: argparse.ArgumentParser) -> None:
    """``--at T`` and ``--known K|latest``."""
    parser.add_argument(
        "--at", metavar="T", help="valid time of the standpoint (ISO-8601; default: now)"
    )
    parser.add_argument(
        "--known",
        metavar="K",
        help="knowledge time: records after K are unseen; 'latest' sees all "
        "(default: same as --at)",
    )


def add_output(parser: argparse.ArgumentParser, example: str = "FILE") -> None:
    """``-o FILE``: write to FILE (as ``> FILE`` would, atomically) instead of stdout."""
    parser.add_argument(
        "-o", "--output", metavar="FILE", help=f"write to {example} instead of stdout"
    )


def add_snapshot(parser: argparse.ArgumentParser) -> None:
    """``--snapshot FILE``: a current-state snapshot that adds reasons, never a status."""
    parser.add_argument(
        "--snapshot",
        metavar="FILE",
        help='current-state snapshot {"observed": T, "state": {KEY: VALUE}}: adds corroborating '
        "or contradicting reasons, never changes a status",
    )


def add_jobs(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` and ``--cluster ADDRESS``: solve independent groups of expectations apart."""
    parser.add_argument(
        "--jobs",
        type=whole_number(1),
        metavar="N",
        help="solve independent groups of expectations in N processes, prepared from the "
        "files (default: one process, answering from the stored prepared history when the "
        "files are unchanged); verdicts are identical",
    )
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="solve the groups on this dask.distributed scheduler (e.g. tcp://host:8786; "
        "needs the 'cluster' extra and openloop on every worker)",
    )


def whole_number(minimum: int) -> Callable[[str], int]:
    """An argparse ``type``: a whole number of at least ``minimum`` (0 or 1), said plainly."""
    what = "a positive integer" if minimum >= 1 else "a whole number"

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


def prepare(args: argparse.Namespace, scope: str | None = None) -> Prepared:
    """Load and prepare the history named by ``args.paths``; with ``scope`` (the one item a
    command is about), only that item's group of declarations (:func:`resolver.api.prepare`)."""
    prepared = api.prepare(args.paths, scope, store=True)
    keep_loaded()
    return prepared


def keep_loaded() -> None:
    """Set the loaded history aside from the cyclic garbage collector (``gc.freeze``).

    It lives until the command ends, yet every collection while the verdicts are read and
    rendered would scan all of it again: rendering grew faster than the history (measured: 2x
    the CPU at 100k events). ``main`` unfreezes when the command ends.
    """
    gc.freeze()


def standpoint(args: argparse.Namespace) -> Standpoint:
    """The standpoint named by ``--at``/``--known``."""
    return api.standpoint(args.at, args.known)


def emit(text: str, output: str | None = None) -> None:
    """Print ``text``, or write it to ``output`` as ``> output`` would (see :mod:`.output`):
    atomically for a regular file, through a symlink, into a FIFO or device; never over an
    input file."""
    if output is None or output == "-":
        write_stdout(text)
        return
    write_bytes(text.encode("utf-8"), output)
