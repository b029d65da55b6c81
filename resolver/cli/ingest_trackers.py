"""``openloop ingest beads|taskmaster|backlog``: the tracker importers' arguments.

Registered by :mod:`resolver.cli.ingest` beside ``git``, ``github`` and ``junit``, with the same
destinations (``-o FILE`` written atomically, ``--append FILE`` locked): the tracker's items go
to ``--ol FILE`` (written whole, renamed into place), its events to the log. Bad input stops the
import before anything is written: the whole source is read and checked first.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import Any

from resolver.faces.safe_text import terminal
from resolver.ingest import writer
from resolver.ingest.backlog import read_backlog
from resolver.ingest.beads import read_beads
from resolver.ingest.taskmaster import read_taskmaster
from resolver.ingest.tracker_common import TrackerImport
from resolver.output import check_target

Deliver = Callable[[argparse.Namespace, Iterable[dict[str, Any]]], None]


def register(
    sources: argparse._SubParsersAction,
    add_destination: Callable[[argparse.ArgumentParser], None],
    deliver: Deliver,
) -> None:
    """Add the three tracker sources to ``openloop ingest``."""
    beads = sources.add_parser(
        "beads",
        help="a beads tracker's .beads/issues.jsonl",
        description="One expectation per beads issue (ID-opened on channel beads); a close is "
        "a claim by the closer (claims_complete; an agent session's close is an agent's claim), "
        "never evidence; a reopening reports it pending; blocks dependencies become requires, "
        "parent-child ones part_of.",
        epilog="example: openloop ingest beads .beads/issues.jsonl --ol beads.ol -o beads.jsonl",
    )
    beads.add_argument("files", nargs="+", metavar="FILE.jsonl", help="beads issues JSONL")
    _common(beads, add_destination)
    beads.set_defaults(
        func=lambda args: _run(args, lambda: read_beads(args.files, args.by), deliver)
    )

    taskmaster = sources.add_parser(
        "taskmaster",
        help="Task Master's tasks.json",
        description="One expectation per Task Master task (a task with subtasks becomes a "
        "task whose obligations they are; ids tm-N, tm-N.S, tm-TAG/N); done is a claim "
        "(claims_complete) by --by, cancelled a cancels; dependencies become requires.",
        epilog="example: openloop ingest taskmaster .taskmaster/tasks/tasks.json --by claude "
        "--agent claude --ol tasks.ol -o tasks.jsonl",
    )
    taskmaster.add_argument("files", nargs="+", metavar="tasks.json", help="Task Master file")
    taskmaster.add_argument("--tag", metavar="TAG", help="import this tag only")
    taskmaster.add_argument(
        "--at", metavar="T", help="the export's time, for tasks the file gives no time"
    )
    _common(taskmaster, add_destination)
    taskmaster.set_defaults(
        func=lambda args: _run(
            args, lambda: read_taskmaster(args.files, args.by, args.at, args.tag), deliver
        )
    )

    backlog = sources.add_parser(
        "backlog",
        help="Backlog.md task files (backlog/tasks/*.md)",
        description="One expectation per Backlog.md task (front matter id, title, status, "
        "assignee, created_date, updated_date, dependencies); a task in the done status or in "
        "completed/ is claimed complete (claims_complete) by its assignee, one in archive/tasks/ "
        "cancelled.",
        epilog="example: openloop ingest backlog backlog --agent claude --ol backlog.ol -o "
        "backlog.jsonl",
    )
    backlog.add_argument("files", nargs="+", metavar="PATH", help="task files, or a backlog folder")
    backlog.add_argument(
        "--done-status", default="Done", metavar="S", help="the done status (default: Done)"
    )
    backlog.add_argument(
        "--at", metavar="T", help="the export's time, for tasks the files give no date"
    )
    _common(backlog, add_destination)
    backlog.set_defaults(
        func=lambda args: _run(
            args, lambda: read_backlog(args.files, args.by, args.at, args.done_status), deliver
        )
    )


def _common(parser: argparse.ArgumentParser, add_destination) -> None:
    parser.add_argument("--ol", metavar="FILE", help="also write the items' declarations to FILE")
    parser.add_argument(
        "--by", metavar="ACTOR", help="who changes statuses where the tracker names no one"
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="PATTERN",
        help="declare actors matching PATTERN (`*` = any characters) agents in --ol: their "
        "closes are an agent's claims (repeatable)",
    )
    add_destination(parser)


def _run(args: argparse.Namespace, read: Callable[[], TrackerImport], deliver: Deliver) -> int:
    """Check the targets, read the whole source, then write the events and the declarations
    (an ``--append`` that refuses a conflicting line leaves ``--ol`` untouched)."""
    if args.ol:
        check_target(args.ol)
    imported = read()
    for warning in imported.warnings:
        print(terminal(warning), file=sys.stderr)
    imported.agents.extend(pattern.lower() for pattern in args.agent)
    declarations = imported.declarations(f"openloop ingest {args.source}")
    deliver(args, imported.ordered_events())
    if args.ol:
        with writer.output(args.ol) as stream:
            stream.write(declarations)
    return 0
