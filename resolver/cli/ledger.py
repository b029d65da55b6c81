"""``openloop ledger``: the maintained open list in SQLite (refresh, list, history, rebuild)."""

from __future__ import annotations

import argparse

from resolver import ledger, times
from resolver.cli.common import add_output, add_standpoint, emit
from resolver.errors import InputError
from resolver.ledger import render
from resolver.ledger.schema import whole_file

_DB_HELP = (
    f"the ledger database (default: {ledger.DEFAULT_DB} in the current folder; created, with "
    "its folder, by refresh and rebuild)"
)


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add ``ledger`` and its subcommands."""
    parser = subparsers.add_parser(
        "ledger",
        help="keep a maintained open list in SQLite, with when and how far each was checked",
        description="A maintained open list: 'refresh' resolves every expectation at a "
        "standpoint and records each verdict with its provenance (when checked, at which "
        "standpoint, through which log position); 'list' reads the open ones back from the "
        "database alone, each marked fresh or stale; 'history ID' shows every check of one "
        "expectation; 'rebuild' recreates the database from the log, which stays the source "
        "of truth. A refresh is one transaction: a crash leaves the previous refresh whole.",
    )
    commands = parser.add_subparsers(dest="ledger_command", metavar="SUBCOMMAND")
    commands.required = True

    for name, summary in (
        ("refresh", "resolve every expectation and record the checks (one transaction)"),
        ("rebuild", "forget every recorded check and refresh from the log, atomically"),
    ):
        sub = commands.add_parser(name, help=summary, description=summary[0].upper() + summary[1:])
        sub.add_argument(
            "paths", nargs="+", metavar="PATH", help="*.ol and *.jsonl files, or folders"
        )
        _add_db(sub)
        add_standpoint(sub)
        _add_format(sub)
        sub.set_defaults(func=run_refresh, rebuild=name == "rebuild")

    listing = commands.add_parser(
        "list",
        help="the open list, from the database alone, each entry fresh or stale",
        description="Print the expectations the last refresh found open (OPEN or UNKNOWN), "
        "without resolving anything. An entry is stale when its check is older than "
        "--stale-after, or when a file the check read has changed since (a .jsonl grown past "
        "the recorded size and line count, rewritten, or gone; a .ol changed), or when a file "
        "appeared in the paths the refresh read (or in PATHs, when given) that it did not read.",
    )
    listing.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="where to look for files the check did not read (default: the paths the refresh "
        "was given)",
    )
    _add_db(listing)
    listing.add_argument(
        "--stale-after",
        metavar="DURATION",
        help="an entry not re-verified within this long is stale (90m, 36h, 2d, 1w)",
    )
    listing.add_argument(
        "--now", metavar="T", help="judge --stale-after as of T (default: the current time)"
    )
    listing.add_argument(
        "--no-log-check",
        action="store_true",
        help="do not look at the files at all (staleness by --stale-after only)",
    )
    _add_format(listing)
    add_output(listing)
    listing.set_defaults(func=run_list)

    past = commands.add_parser(
        "history",
        help="every recorded check of one expectation",
        description="Print every recorded check of one expectation, oldest first: when it "
        "ran, at which standpoint, the status, confidence and closing evidence it found, and "
        "the log position it read through.",
    )
    past.add_argument("id", metavar="ID", help="the expectation's id")
    _add_db(past)
    _add_format(past)
    add_output(past)
    past.set_defaults(func=run_history)


def _add_db(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--db", metavar="FILE", default=str(ledger.DEFAULT_DB), help=_DB_HELP)


def _add_format(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--format",
        choices=("table", "json"),
        default="table",
        help="output format (default: table)",
    )


def run_refresh(args: argparse.Namespace) -> int:
    """``ledger refresh`` and ``ledger rebuild``."""
    work = ledger.rebuild if args.rebuild else ledger.refresh
    summary = work(args.db, args.paths, at=args.at, known=args.known)
    text = render.summary_json(summary) if args.format == "json" else render.summary_text(summary)
    emit(text)
    return 0


def run_list(args: argparse.Namespace) -> int:
    """``ledger list``."""
    stale_after = None
    if args.stale_after is not None:
        try:
            stale_after = times.parse_duration(args.stale_after)
        except times.TimeFormatError as exc:
            raise InputError(f"--stale-after: {exc}") from None
    try:
        now = times.parse_time(args.now) if args.now else times.now()
    except times.TimeFormatError as exc:
        raise InputError(f"--now: {exc}") from None
    state = ledger.state(
        args.db,
        stale_after=stale_after,
        now=now,
        paths=args.paths or None,
        check_log=not args.no_log_check,
    )
    if args.format == "json":
        text = render.list_json(state, args.db, now, stale_after, not args.no_log_check)
    else:
        text = render.list_table(state, args.db, now, stale_after)
    emit(text, args.output)
    return 0


def run_history(args: argparse.Namespace) -> int:
    """``ledger history ID``."""
    checks = ledger.history(args.db, args.id)
    if not checks:
        raise InputError(f"no recorded check of '{args.id}'", whole_file(args.db))
    if args.format == "json":
        text = render.history_json(args.id, checks, args.db)
    else:
        text = render.history_table(args.id, checks, args.db)
    emit(text, args.output)
    return 0
