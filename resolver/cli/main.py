"""The ``openloop`` command: parse arguments, dispatch to a command's module, map errors to exits.

Exit codes: 0 success; 1 something outstanding or a failed test (per command); 2 bad input or
usage, with a ``FILE:LINE[:COL]: error: ...`` message and nothing written; 3 for ``check`` when
nothing is outstanding but something is UNKNOWN; 130 when interrupted (Ctrl-C), after one line.

Standard output is guarded for the length of a command (:class:`_GuardedStdout`): a reader that
goes away (``openloop check ... | head``) stops the printing but not the command, whose exit code
stands, so a failing gate never passes under ``pipefail``; a full disk or a closed stdout is bad
output, exit 2 with one line, never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
from collections.abc import Sequence
from functools import cache
from typing import Any, TextIO

from resolver import __version__, inputs
from resolver.cli import COMMANDS
from resolver.errors import InputError
from resolver.faces.safe_text import terminal
from resolver.output import check_target

#: Exit code after Ctrl-C, as shells report a command killed by SIGINT.
INTERRUPTED = 130
#: Options naming a file a command writes, checked before any work is done.
_TARGETS = ("output", "junit")
#: Commands that left the product for the lab (run from a checkout): one line says where.
MOVED = {"eval": "python -m lab eval"}
#: Each command's one line in ``openloop --help``: the listing is built from these alone, so
#: that it imports no command (and with them clingo, Lark, networkx, Jinja2); a test holds them
#: to the lines the commands register.
SUMMARIES = {
    "status": "print every expectation's and task's status at a standpoint",
    "explain": "explain why an expectation or task has its status",
    "check": "gate: exit 1 if anything in scope is outstanding, 3 if only unknown",
    "test": "run the test blocks of .ol files",
    "lint": "validate files; dangling references and dead declarations are warnings",
    "receipt": "print the work receipt of a task: evidence, waivers, findings, what remains",
    "graph": "draw the dependency and provenance graph (or the lifelines) at a standpoint",
    "report": "write one self-contained HTML page: verdicts, graph, lifelines, explanations",
    "bench": "time status (cold, on the store, warm), explain and check on your history",
    "ingest": "import git, GitHub, JUnit or a tracker (beads, Task Master, Backlog.md) as events",
    "record": "append one event to a JSON-lines log (the safe write path for agents and hooks)",
    "ledger": "keep a maintained open list in SQLite, with when and how far each was checked",
    "ready": "list the obligations that can be worked on now, earliest bound first",
    "brief": "what is owed, most urgent first, in a compact text for an agent's context",
    "hook": "agent hooks: refuse a false completion inside the agent's loop",
    "mcp": "serve the history to agents as a Model Context Protocol server (stdio)",
    "audit": "judge every past close: complete when closed, landed later, never supported",
    "init": "write a starter .ol for a repository (channels, bots, TODO debt, issues)",
}


def build_parser(only: str | None = None, listing: bool = False) -> argparse.ArgumentParser:
    """The argument parser with every subcommand registered, or just ``only`` when it names one.

    Importing a command's module pulls in what it needs (the engine, the renderers, the agents'
    and the ledger's code); a hook or a gate pays for its own command alone. ``listing``: no
    command is registered, each is only listed with its summary (:data:`SUMMARIES`): what
    ``openloop --help`` and a mistyped command print, at the cost of argparse alone.
    """
    parser = argparse.ArgumentParser(
        prog="openloop",
        description="What did we leave unfinished? Resolve expectations against a bitemporal "
        "event log with clingo rules.",
    )
    parser.add_argument("--version", action="version", version=f"openloop {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    subparsers.required = True
    if listing and only not in COMMANDS:
        for name in COMMANDS:
            if name in SUMMARIES:
                subparsers.add_parser(name, help=SUMMARIES[name], add_help=False)
            else:  # a command without a summary here yet: registered as usual
                importlib.import_module(f"resolver.cli.{name}").register(subparsers)
        return parser
    for name in (only,) if only in COMMANDS else COMMANDS:
        importlib.import_module(f"resolver.cli.{name}").register(subparsers)
    return parser


@cache
def _parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser, built once per process (a test or tool may call :func:`main` many times);
    with no command named, the listing alone (:func:`build_parser`)."""
    return build_parser(only, listing=only is None)


def _command_named(argv: Sequence[str]) -> str | None:
    """The subcommand ``argv`` names, if its first word is one (else every command is loaded)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns its exit code."""
    try:
        words = sys.argv[1:] if argv is None else list(argv)
        if words and words[0] in MOVED:
            moved = f"run '{MOVED[words[0]]}' in a checkout of openloop"
            return _error(f"error: openloop {words[0]} moved to the lab: {moved}")
        args = _parser(_command_named(words)).parse_args(words)
    except KeyboardInterrupt:
        return _interrupted()
    inputs.forget()
    # What the imports made (modules, classes, functions: about half of the objects a first
    # status at 10k events keeps) lives as long as the process; set aside from the cyclic
    # collector, it is not scanned again by a full collection while the history loads (one
    # such collection cost 8-11 ms of a first status at 10k).
    gc.freeze()
    guard = _GuardedStdout(sys.stdout)
    sys.stdout = guard  # type: ignore[assignment]
    try:
        for option in _TARGETS:
            target = getattr(args, option, None)
            if isinstance(target, str) and target != "-":
                check_target(target)
        code = int(args.func(args))
        guard.flush()  # a full disk shows itself when the buffer is written
    except InputError as exc:
        code = _error(str(exc))
    except OverflowError as exc:
        code = _error(f"error: {exc}")
    except KeyboardInterrupt:
        code = _interrupted()
    finally:
        sys.stdout = guard.stream  # type: ignore[assignment]
        gc.unfreeze()  # what common.keep_loaded set aside is collectable again
    return code


def _error(message: str) -> int:
    print(terminal(message), file=sys.stderr)
    return 2


def _interrupted() -> int:
    print("openloop: interrupted", file=sys.stderr)
    return INTERRUPTED


class _GuardedStdout:
    """Stands in for ``sys.stdout`` while a command runs (see the module's docstring)."""

    def __init__(self, stream: TextIO | None) -> None:
        self.stream = stream
        self.broken = False

    def write(self, text: str) -> int:
        if not self.broken:
            self._call("write", text)
        return len(text)

    def flush(self) -> None:
        if not self.broken and self.stream is not None:
            self._call("flush")

    def _call(self, method: str, *arguments: Any) -> None:
        if self.stream is None:
            raise InputError("cannot write to standard output: it is closed")
        try:
            getattr(self.stream, method)(*arguments)
        except BrokenPipeError:
            self._detach()
        except OSError as exc:
            self._detach()
            raise InputError(f"cannot write to standard output: {exc.strerror or exc}") from None

    def _detach(self) -> None:
        """Nothing more reaches the real stdout; what Python still holds for it is dropped at
        exit (pointing the descriptor at the null device), instead of failing there again."""
        self.broken = True
        try:
            descriptor = self.stream.fileno() if self.stream is not None else None
        except (AttributeError, OSError, ValueError):
            descriptor = None
        if descriptor is not None:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, descriptor)
            os.close(null)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


if __name__ == "__main__":
    sys.exit(main())
