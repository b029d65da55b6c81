"""Options and helpers shared by the subcommands."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from resolver import api
from resolver.engine.prepared import Prepared, Standpoint
from resolver.errors import InputError


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
    """``-o FILE``: write atomically to FILE instead of stdout."""
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


def prepare(args: argparse.Namespace) -> Prepared:
    """Load and prepare the history named by ``args.paths``."""
    return api.prepare(args.paths)


def standpoint(args: argparse.Namespace) -> Standpoint:
    """The standpoint named by ``--at``/``--known``."""
    return api.standpoint(args.at, args.known)


def emit(text: str, output: str | None = None) -> None:
    """Print ``text``, or write it to ``output`` atomically (nothing half written on failure)."""
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    write_bytes(text.encode("utf-8"), output)


def write_bytes(data: bytes, output: str) -> None:
    """Write ``data`` to ``output`` through a temporary file in the same folder."""
    target = Path(output)
    if not target.parent.exists():
        raise InputError(f"{output}: error: no such directory {str(target.parent)!r}")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual mode
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    current = os.umask(0)
    os.umask(current)
    return current
