"""``openloop audit PATH... [--since T] [--format text|md|json|sarif]``: judge a history's closes.

Every past close (a ``claims_complete`` event: a tracker's close, an agent's claim) is judged at
its own standpoint and at now (``resolver/verdicts/audit.py``, ``rules/query/audit.lp``): complete
when closed, landed later, never supported, or UNKNOWN; then the false pendings. Exit 0 when no
close is unsupported and nothing is falsely pending, 1 otherwise (an audit can gate a CI job),
2 on bad input.
"""

from __future__ import annotations

import argparse

from resolver import api, times
from resolver.cli.common import add_output, add_paths, emit, keep_loaded
from resolver.errors import InputError
from resolver.faces.audit_text import render, render_gate


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``audit`` subcommand."""
    parser = subparsers.add_parser(
        "audit",
        help="judge every past close: complete when closed, landed later, never supported",
        description="Judge every past close (each claims_complete event: a tracker's close, "
        "an agent's claim) at its own standpoint (its time, what was known then) and at now: "
        "complete when closed, landed later, never supported, or UNKNOWN; and the false "
        "pendings (reports of pending work already complete; tracker items still open whose "
        "expectation is SATISFIED). A summary first (by closer, agents against people), then "
        "each close with its key reason. Exit 0: every close was supported and nothing is "
        "falsely pending; 1: otherwise; 2: bad input.",
        epilog="example: openloop audit tracker.ol tracker.jsonl commits.jsonl --since "
        "2025-01-01 --format md",
    )
    add_paths(parser)
    parser.add_argument("--since", metavar="T", help="only closes at or after T")
    parser.add_argument(
        "--at", metavar="T", help="the 'now' the closes are judged against (default: now)"
    )
    parser.add_argument(
        "--close",
        metavar="ID",
        help="the gate at a tracker's close: judge a close of ID (expectation or task) made "
        "now; exit 0 when it would be supported, 1 when ID is not complete, 3 when UNKNOWN; "
        "one line first, then the key reason",
    )
    parser.add_argument(
        "--format",
        choices=("text", "md", "json", "sarif", "github"),
        default="text",
        help="text, md (Markdown), json (kind audit), sarif (SARIF 2.1.0); with --close: "
        "text, json or github (an Actions annotation)",
    )
    add_output(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Audit and print."""
    since = None
    if args.since:
        try:
            since = times.parse_time(args.since)
        except times.TimeFormatError as exc:
            raise InputError(f"--since: {exc}") from None
    now = api.standpoint(args.at, "latest")
    if args.close is not None:
        if args.format not in ("text", "json", "github"):
            raise InputError("--close prints text, json or github")
        gate = api.judge_close(_prepare(args.paths, args.close), now, args.close)
        emit(render_gate(gate, args.format), args.output)
        return gate.exit_code
    if args.format == "github":
        raise InputError("--format github goes with --close")
    result = api.audit(_prepare(args.paths), now, since)
    emit(render(result, args.format), args.output)
    return 1 if result.unsupported or result.false_pending else 0


def _prepare(paths: list[str], scope: str | None = None) -> api.Prepared:
    """The history, each tracker close read as the closer's claim; with ``scope``, only that
    item's group of declarations (:func:`resolver.api.prepare_closes`)."""
    prepared = api.prepare_closes(paths, scope)
    keep_loaded()
    return prepared
