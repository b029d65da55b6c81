"""``openloop check``: a gate for CI: is anything in scope still outstanding?

Exit 0 when everything in scope is closed, 1 when something is OPEN or NOT_OPENED, 3 when
nothing is outstanding but something is UNKNOWN, 2 on bad input. The scope, what counts as
outstanding and the result are derived by ``rules/query/gate.lp``; this command passes the scope
as integer facts and prints the result first, then one entry per item that needs a person (its
title, bound and flags, and the key reason the rules give, ``rules/query/explain.lp``), earliest
bound first, ids in natural order, as ``status`` lists them. ``--format github`` and ``--format
sarif`` print the same items for CI (``resolver/faces/github.py``, ``resolver/faces/sarif.py``).

An empty scope passes the rules' gate, but a gate that checked nothing is most often a mistake
(a first run with no expectations declared, a misspelt ``--before``), so it exits 1 with a line
that says so unless ``--allow-empty`` says the empty scope is meant (issue 27.4).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from resolver import api
from resolver.cli.common import add_paths, add_standpoint, emit, prepare, standpoint
from resolver.faces import github, sarif
from resolver.faces.safe_text import terminal, visible
from resolver.faces.screen_order import natural_key
from resolver.faces.table import item_row
from resolver.times import format_time

if TYPE_CHECKING:
    from resolver.api import Check, Standpoint

#: Exit code of an empty scope without ``--allow-empty``: as if something were outstanding.
EMPTY_EXIT = 1


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the ``check`` subcommand."""
    parser = subparsers.add_parser(
        "check",
        help="gate: exit 1 if anything in scope is outstanding, 3 if only unknown",
        description="Check every expectation, a task's obligations (--task) or the "
        "expectations bounded by an event (--before) at one standpoint. Prints what "
        "is outstanding (OPEN or NOT_OPENED) or UNKNOWN, each with its key reason, after a "
        "summary line. Exit 0: all in scope closed; 1: something outstanding, or nothing in "
        "scope at all (unless --allow-empty); 3: nothing outstanding but something UNKNOWN; "
        "2: bad input.",
    )
    add_paths(parser)
    add_standpoint(parser)
    scope = parser.add_mutually_exclusive_group()
    scope.add_argument("--task", metavar="ID", help="check the obligations of task ID")
    scope.add_argument(
        "--before", metavar="EVENT", help="check the expectations whose `before` names EVENT"
    )
    parser.add_argument(
        "--format",
        choices=("text", "json", "github", "sarif"),
        default="text",
        help="text (one line per item), json, github (Actions annotations at the declaration "
        "or claim line, and a Markdown summary appended to $GITHUB_STEP_SUMMARY when set) or "
        "sarif (SARIF 2.1.0 for code scanning)",
    )
    parser.add_argument(
        "--allow-empty",
        action="store_true",
        help="pass (exit 0) when no expectation is in scope; without it an empty scope says "
        "so and exits 1, since a gate that checked nothing proves nothing",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Gate and print."""
    prepared = prepare(args, scope=args.task)
    point = standpoint(args)
    answer = api.check(prepared, point, args.task, args.before)
    gate, label, code = answer.gate, answer.label, answer.exit
    result, scope, outstanding, unknown = gate.result, gate.scope, gate.outstanding, gate.unknown
    empty = None
    if not scope and not args.allow_empty:
        empty = "EMPTY: no expectations in scope, nothing was checked (--allow-empty passes it)"
        if not args.task and not args.before:
            empty += "; declare expectations, or let `openloop init` write a starter .ol"
        code = EMPTY_EXIT
    if args.format in ("github", "sarif"):
        items = answer.ci_items()
        if args.format == "sarif":
            emit(sarif.render(items, result))
        else:
            emit(github.render(items, label, result))
            github.append_summary(items, label, result)
        if empty:
            print(terminal(f"openloop check: {empty}"), file=sys.stderr)
        return code
    if args.format == "json":
        document = answer.document()
        if empty:
            document["exit"] = code
        emit(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return code
    closed = len(scope) - len(outstanding) - len(unknown)
    lines = [
        f"openloop check {_standpoint_text(point)}: {label}",
        empty
        or f"{result.upper()}: {len(outstanding)} outstanding, {len(unknown)} unknown, "
        f"{closed} closed",
    ]
    for ident in _by_bound(answer, outstanding + unknown):
        lines.append(_line(answer, ident))
    emit(terminal("\n".join(lines) + "\n"))
    return code


def _standpoint_text(point: Standpoint) -> str:
    """``at 2024-08-23T00:00:00Z, known latest``, as ``openloop test`` names a standpoint."""
    known = "latest" if point.known is None else format_time(point.known)
    return f"at {format_time(point.at)}, known {known}"


def _by_bound(answer: Check, idents: list[str]) -> list[str]:
    """Earliest bound first, unbounded last, then ids in natural order (as ``status``)."""

    def key(ident: str) -> tuple:
        verdict = answer.resolution.expectation(ident)
        bound = verdict.bound if verdict is not None else None
        return (bound is None, bound or 0, natural_key(ident))

    return sorted(idents, key=key)


def _line(answer: Check, ident: str) -> str:
    verdict = answer.resolution.expectation(ident)
    assert verdict is not None
    text = f'"{visible(verdict.title)}"' if verdict.title else ""
    notes = []
    if verdict.bound is not None:
        notes.append(f"bound {format_time(verdict.bound)}")
    if verdict.flags:
        notes.append("flags: " + ", ".join(verdict.flags))
    if notes:
        text += f" ({'; '.join(notes)})" if text else f"({'; '.join(notes)})"
    rows = item_row(verdict.status, visible(ident), text)
    return "\n".join([*rows, f"    {visible(answer.key_reason(ident))}"])
