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

from resolver.cli.common import add_paths, add_standpoint, emit, prepare, standpoint
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Gate, Query
from resolver.errors import InputError
from resolver.faces import github, sarif
from resolver.faces.explanation_text import line
from resolver.faces.safe_text import terminal, visible
from resolver.faces.screen_order import natural_key
from resolver.faces.table import item_row
from resolver.testing.runner import standpoint_text
from resolver.times import format_time
from resolver.verdicts import ci_items
from resolver.verdicts.explanation import key_reason_of
from resolver.verdicts.resolution import Resolution, resolve

#: Exit code for each gate result.
EXIT = {"pass": 0, "fail": 1, "unknown": 3}
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


def gate_facts(prepared: Prepared, task: str | None, before: str | None) -> Query:
    """The scope as integer query facts; unknown ids are input errors."""
    project = prepared.project
    if task is not None:
        number = prepared.facts.interner.get(("item", task))
        if project.task(task) is None or number is None:
            hint = " (it is an expectation)" if project.expectation(task) else ""
            raise InputError(f"--task: no task named '{task}'{hint}")
        return Query(gate=Gate("task", number), every_reason=False)
    if before is not None:
        number = prepared.facts.interner.get(("event", before))
        named = any(x.before == before for x in project.expectations)
        if number is None or (project.event(before) is None and not named):
            raise InputError(
                f"--before: no event named '{before}' in the log or in any `before` clause"
            )
        return Query(gate=Gate("before", number), every_reason=False)
    return Query(gate=Gate("all"), every_reason=False)


def run(args: argparse.Namespace) -> int:
    """Gate and print."""
    prepared = prepare(args, scope=args.task)
    point = standpoint(args)
    resolution = resolve(prepared, point, gate_facts(prepared, args.task, args.before))
    atoms = resolution.atoms
    item = prepared.facts.item_id
    result = str(atoms.get("gate_result")[0][0])
    scope = sorted(item(x) for (x,) in atoms.get("gate_scope"))
    outstanding = sorted(item(x) for (x,) in atoms.get("gate_outstanding"))
    unknown = sorted(item(x) for (x,) in atoms.get("gate_unknown"))
    label = _scope_label(args, len(scope))
    code = EXIT[result]
    empty = None
    if not scope and not args.allow_empty:
        empty = "EMPTY: no expectations in scope, nothing was checked (--allow-empty passes it)"
        if not args.task and not args.before:
            empty += "; declare expectations, or let `openloop init` write a starter .ol"
        code = EMPTY_EXIT
    if args.format in ("github", "sarif"):
        items = ci_items.collect(
            prepared, resolution, lambda ident: _key_reason(prepared, resolution, ident)
        )
        if args.format == "sarif":
            emit(sarif.render(items, result))
        else:
            emit(github.render(items, label, result))
            github.append_summary(items, label, result)
        if empty:
            print(terminal(f"openloop check: {empty}"), file=sys.stderr)
        return code
    if args.format == "json":
        document = _as_json(prepared, resolution, result, label, scope, outstanding, unknown)
        if empty:
            document["exit"] = code
        emit(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
        return code
    closed = len(scope) - len(outstanding) - len(unknown)
    lines = [
        f"openloop check {standpoint_text(point)}: {label}",
        empty
        or f"{result.upper()}: {len(outstanding)} outstanding, {len(unknown)} unknown, "
        f"{closed} closed",
    ]
    for ident in _by_bound(resolution, outstanding + unknown):
        lines.append(_line(prepared, resolution, ident))
    emit(terminal("\n".join(lines) + "\n"))
    return code


def _by_bound(resolution: Resolution, idents: list[str]) -> list[str]:
    """Earliest bound first, unbounded last, then ids in natural order (as ``status``)."""

    def key(ident: str) -> tuple:
        verdict = resolution.expectation(ident)
        bound = verdict.bound if verdict is not None else None
        return (bound is None, bound or 0, natural_key(ident))

    return sorted(idents, key=key)


def check_document(
    prepared: Prepared, point: Standpoint, task: str | None, before: str | None
) -> dict:
    """The ``check --format json`` document for a scope (also the MCP ``check`` tool's)."""
    resolution = resolve(prepared, point, gate_facts(prepared, task, before))
    atoms = resolution.atoms
    item = prepared.facts.item_id
    result = str(atoms.get("gate_result")[0][0])
    scope = sorted(item(x) for (x,) in atoms.get("gate_scope"))
    outstanding = sorted(item(x) for (x,) in atoms.get("gate_outstanding"))
    unknown = sorted(item(x) for (x,) in atoms.get("gate_unknown"))
    label = _scope_label(argparse.Namespace(task=task, before=before), len(scope))
    return _as_json(prepared, resolution, result, label, scope, outstanding, unknown)


def _scope_label(args: argparse.Namespace, size: int) -> str:
    count = f"{size} expectation{'s' if size != 1 else ''}"
    if args.task:
        return f"obligations of task {args.task} ({count})"
    if args.before:
        return f"expectations before {args.before} ({count})"
    return f"every expectation ({count})"


def _line(prepared: Prepared, resolution: Resolution, ident: str) -> str:
    verdict = resolution.expectation(ident)
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
    return "\n".join([*rows, f"    {visible(_key_reason(prepared, resolution, ident))}"])


def _as_json(
    prepared: Prepared,
    resolution: Resolution,
    result: str,
    label: str,
    scope: list[str],
    outstanding: list[str],
    unknown: list[str],
) -> dict:
    def entry(ident: str) -> dict:
        verdict = resolution.expectation(ident)
        assert verdict is not None
        return {
            "id": ident,
            "status": verdict.status,
            "flags": list(verdict.flags),
            "reason": _key_reason(prepared, resolution, ident),
        }

    return {
        "schema_version": 1,
        "kind": "check",
        "result": result.upper(),
        "exit": EXIT[result],
        "scope": label,
        "checked": scope,
        "outstanding": [entry(x) for x in outstanding],
        "unknown": [entry(x) for x in unknown],
    }


def _key_reason(prepared: Prepared, resolution: Resolution, ident: str) -> str:
    """The one-line key reason of an expectation (``key_reason`` atom, ``explain.lp``)."""
    return line(key_reason_of(prepared, resolution, ident))
