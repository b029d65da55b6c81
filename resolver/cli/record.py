"""``openloop record``: append one event to a JSON-lines log, safely (SPEC §6.3).

The command-line face of :func:`resolver.ingest.record.append_event`, for agents, hooks and
scripts: the event is validated before it is written, appended as one whole line under an
exclusive lock, flushed and fsynced, and its id printed on stdout. A given ``--recorded`` earlier
than the log's latest, or a ``--seq`` other than the channel's next, is refused (SPEC §6.3).
"""

from __future__ import annotations

import argparse
from typing import Any

from resolver.errors import InputError
from resolver.ingest.record import append_event
from resolver.vocabulary import OUTCOMES

_MARKERS = (
    ("completes", "the event completes these expectations or tasks"),
    ("cancels", "the event cancels these"),
    ("supersedes", "the event supersedes these"),
    ("waives", "the event waives these"),
    ("reopens", "the event reopens these"),
    ("claims_complete", "the actor claims these are complete (judged, never trusted)"),
    ("reports_pending", "the actor reports these as still pending"),
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``record`` subcommand."""
    parser = subparsers.add_parser(
        "record",
        help="append one event to a JSON-lines log (the safe write path for agents and hooks)",
        description="Append one event to LOG: validated against the event contract first, seq = "
        "the channel's next number, at and recorded = now unless given, written as one line "
        "under an exclusive lock and fsynced before the event's id is printed. A torn or "
        "non-JSON line already in LOG is reported (LOG:LINE: error: ...) and nothing is written.",
        epilog="example: openloop record events.jsonl --channel agents --by bot-7 "
        "--text 'Deployed to staging' --set deploy.staging=done --claims-complete release-prep",
    )
    parser.add_argument(
        "log", metavar="LOG", help="the .jsonl log to append to (created if absent)"
    )
    parser.add_argument("--channel", required=True, metavar="C", help="the event's channel")
    parser.add_argument("--by", required=True, metavar="ACTOR", help="who did it")
    parser.add_argument("--id", metavar="ID", help="the event id (default: CHANNEL-SEQ)")
    parser.add_argument("--kind", metavar="K", help="the event's kind (commit, deploy, ...)")
    parser.add_argument("--text", metavar="T", help="what happened, in words")
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an observed state (repeatable); the value is kept as a string",
    )
    parser.add_argument(
        "--files", action="extend", nargs="+", default=[], metavar="PATH", help="paths touched"
    )
    for name, text in _MARKERS:
        parser.add_argument(
            f"--{name.replace('_', '-')}",
            dest=name,
            action="extend",
            nargs="+",
            default=[],
            metavar="ID",
            help=f"{text} (ids, space- or comma-separated)",
        )
    parser.add_argument(
        "--evidence",
        action="extend",
        nargs="+",
        default=[],
        metavar="EVENT",
        help="the events a --claims-complete rests on (ids); the gate then says what each supports",
    )
    parser.add_argument(
        "--outcome",
        choices=OUTCOMES,
        help="whether the effect is confirmed (default), unknown or failed",
    )
    parser.add_argument("--at", metavar="T", help="when it happened (ISO-8601; default: now)")
    parser.add_argument("--recorded", metavar="T", help="when the log learned of it (default: now)")
    parser.add_argument("--seq", type=int, metavar="N", help="sequence number (default: next)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the event from the options, append it, print its id."""
    event: dict[str, Any] = {
        "id": args.id,
        "channel": args.channel,
        "seq": args.seq,
        "at": args.at,
        "recorded": args.recorded,
        "by": args.by,
        "kind": args.kind,
        "text": args.text,
        "outcome": args.outcome,
    }
    if args.files:
        event["files"] = list(args.files)
    if args.set:
        event["set"] = _assignments(args.set)
    for name, _ in _MARKERS:
        names = [part.strip() for item in getattr(args, name) for part in item.split(",")]
        if any(not part for part in names):
            raise InputError(f"--{name.replace('_', '-')}: empty id in {getattr(args, name)!r}")
        if names:
            event[name] = names
    cited = [part.strip() for item in args.evidence for part in item.split(",")]
    if any(not part for part in cited):
        raise InputError(f"--evidence: empty id in {args.evidence!r}")
    if cited:
        event["evidence"] = cited
    written = append_event(args.log, event)
    print(written["id"])
    return 0


def _assignments(items: list[str]) -> dict[str, str]:
    result: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InputError(f"--set expects KEY=VALUE, got {item!r}")
        if key.strip() in result:
            raise InputError(f"--set gives the key {key.strip()!r} twice")
        result[key.strip()] = value
    return result
