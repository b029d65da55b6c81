"""The Python interface: every command's work as a plain function.

>>> from resolver.api import prepare, status
>>> history = prepare(["fixtures/release"])                     # doctest: +SKIP
>>> status(history, at="2024-08-23").expectation("intent-401").status  # doctest: +SKIP
'OPEN'
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from resolver import inputs, times
from resolver.engine import partition
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Gate, Query
from resolver.errors import InputError, Location
from resolver.language.loader import load
from resolver.language.model import Project
from resolver.verdicts.resolution import Resolution, resolve


def prepare(paths: Sequence[str | Path], scope: str | None = None, store: bool = False) -> Prepared:
    """Load ``.ol`` and ``.jsonl`` files (or folders) and do the standpoint-independent work;
    with ``scope`` (an item id), only for the declarations of its group (:func:`scoped`).

    ``store``: read and keep the prepared history in the user's cache folder
    (:mod:`resolver.store`: keyed by the files' content; what the commands do), so that the
    same inputs are prepared once and a standpoint already answered is a lookup.
    """
    if store:
        from resolver.store import load_prepared

        return load_prepared(paths, scope)
    return Prepared(scoped(load(paths), scope))


def scoped(project: Project, item: str | None) -> Project:
    """The project with only the declarations of ``item``'s group, or the whole project.

    Groups are :func:`resolver.engine.partition.groups`: a task with its obligations, what
    ``requires`` and ``part_of`` join, the items one event's markers name together, and one
    group for everything policies and templates touch. Every channel, actor, alias and event is
    kept. No rule reads across groups, so the item's verdict and explanation are those of the
    whole history (``tests/engine/test_scoped.py``) at the cost of its group alone: on a real
    history one expectation's explanation no longer grounds every other expectation's candidates.
    An id in no group (undeclared, or an instance only a policy makes) keeps the whole project.
    """
    if item is None:
        return project
    group = next((g for g in partition.groups(project) if item in g), None)
    return project if group is None else partition.subproject(project, group)


def standpoint(at: str | int | None = None, known: str | int | None = None) -> Standpoint:
    """Build a standpoint from text or Unix seconds; ``at`` defaults to now, ``known`` to ``at``.

    ``known="latest"`` sees every record.
    """
    at_unix = times.now() if at is None else _instant(at, "--at")
    if known == "latest":
        return Standpoint(at_unix, None)
    known_unix = at_unix if known is None else _instant(known, "--known")
    return Standpoint(at_unix, known_unix)


def _instant(value: str | int, option: str) -> int:
    if isinstance(value, int):
        return value
    try:
        return times.parse_time(value)
    except times.TimeFormatError as exc:
        raise InputError(f"{option}: {exc}") from None


def snapshot_facts(prepared: Prepared, path: str | Path | None) -> Query:
    """Read a snapshot file (``{"observed": TIME, "state": {KEY: VALUE}}``) as a query."""
    if path is None:
        return Query()
    where = Location(str(path), 1)
    inputs.note(path)
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as exc:
        raise InputError(f"cannot read snapshot: {exc.strerror}", where) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 text ({exc.reason} at byte {exc.start})", where) from None
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON: {exc.msg}", Location(str(path), exc.lineno)) from None
    except RecursionError:
        raise InputError("invalid JSON: nested too deeply", where) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise InputError("invalid JSON: an integer with too many digits", where) from None
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise InputError(
            "a string holds a lone surrogate escape, which is not UTF-8", where
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict):
        raise InputError('expected {"observed": TIME, "state": {KEY: VALUE}}', where)
    if "observed" in data:
        try:
            times.parse_time(str(data["observed"]))
        except times.TimeFormatError as exc:
            raise InputError(f"observed: {exc}", where) from None
    interner = prepared.facts.interner
    pairs = []
    for key, value in sorted(data["state"].items()):
        if not isinstance(value, str | int | bool) or (
            isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 2**31
        ):
            raise InputError(f"state value of {key!r} must be a string, integer or boolean", where)
        k = interner.intern(("key", key))
        v = interner.intern(("value", type(value).__name__, value))
        pairs.append((k, v))
    return Query(snapshot=tuple(pairs))


def status(
    prepared: Prepared,
    at: str | int | None = None,
    known: str | int | None = None,
    snapshot: str | Path | None = None,
    reasons: bool = True,
    every_reason: bool = True,
) -> Resolution:
    """Every verdict at one standpoint; ``reasons=False`` skips the reasons (faster), and
    ``every_reason=False`` reads only the key reasons and counts the rest (what ``status``
    prints by default; much less to read on a real history)."""
    query = replace(snapshot_facts(prepared, snapshot), every_reason=every_reason)
    return resolve(prepared, standpoint(at, known), query, reasons=reasons)


def status_of(
    paths: Sequence[str | Path],
    at: str | int | None = None,
    known: str | int | None = None,
    snapshot: str | Path | None = None,
    jobs: int | None = None,
    cluster: str | None = None,
    every_reason: bool = True,
) -> tuple[Resolution, Project]:
    """Load, then every verdict at one standpoint; the resolution and the project faces read.

    By default from the store (:mod:`resolver.store`): the same inputs are prepared once, and a
    standpoint of a default family already answered is a lookup. With ``jobs`` or ``cluster``
    given, in independent parts (:mod:`resolver.engine.partition`: ``jobs`` processes, or a
    dask ``cluster``), from the files. The verdicts are the same either way.
    ``every_reason=False``: only the key reasons and a count of the rest (see :func:`status`)."""
    point = standpoint(at, known)
    if jobs is None and cluster is None:
        prepared = prepare(paths, store=True)
    else:
        project = load(paths)
        if partition.wanted(project, jobs, cluster):
            resolution = partition.resolve_parts(
                project, point, snapshot, jobs, cluster, every_reason=every_reason
            )
            return resolution, project
        prepared = Prepared(project)
    query = replace(snapshot_facts(prepared, snapshot), every_reason=every_reason)
    return resolve(prepared, point, query), prepared.project


#: ``openloop check``'s exit code for each result of the rules' gate (``rules/query/gate.lp``).
GATE_EXIT = {"pass": 0, "fail": 1, "unknown": 3}


def gate_facts(prepared: Prepared, task: str | None, before: str | None) -> Query:
    """The gate's scope as integer query facts (every expectation, a task's obligations, or
    those bounded by ``before``); unknown ids are input errors."""
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


@dataclass(frozen=True)
class GateReading:
    """What the rules' gate derived (``gate_result``, ``gate_scope``, ``gate_outstanding``,
    ``gate_unknown``), read once, ids sorted."""

    result: str
    scope: list[str]
    outstanding: list[str]
    unknown: list[str]


def read_gate(prepared: Prepared, resolution: Resolution) -> GateReading:
    """The gate's atoms of a resolution solved with :func:`gate_facts`."""
    atoms, item = resolution.atoms, prepared.facts.item_id
    return GateReading(
        str(atoms.get("gate_result")[0][0]),
        sorted(item(x) for (x,) in atoms.get("gate_scope")),
        sorted(item(x) for (x,) in atoms.get("gate_outstanding")),
        sorted(item(x) for (x,) in atoms.get("gate_unknown")),
    )


def scope_label(task: str | None, before: str | None, size: int) -> str:
    """The scope in words: ``obligations of task T (3 expectations)``."""
    count = f"{size} expectation{'s' if size != 1 else ''}"
    if task:
        return f"obligations of task {task} ({count})"
    if before:
        return f"expectations before {before} ({count})"
    return f"every expectation ({count})"


def key_reason(prepared: Prepared, resolution: Resolution, ident: str) -> str:
    """The one-line key reason of an item (``key_reason`` atom, ``rules/query/explain.lp``)."""
    from resolver.faces.explanation_text import line  # phrasing: only when a reason is asked
    from resolver.verdicts.explanation import key_reason_of

    return line(key_reason_of(prepared, resolution, ident))


def check_json(prepared: Prepared, resolution: Resolution, gate: GateReading, label: str) -> dict:
    """The ``check --format json`` document of a gate's reading."""

    def entry(ident: str) -> dict:
        verdict = resolution.expectation(ident)
        assert verdict is not None
        return {
            "id": ident,
            "status": verdict.status,
            "flags": list(verdict.flags),
            "reason": key_reason(prepared, resolution, ident),
        }

    return {
        "schema_version": 1,
        "kind": "check",
        "result": gate.result.upper(),
        "exit": GATE_EXIT[gate.result],
        "scope": label,
        "checked": gate.scope,
        "outstanding": [entry(x) for x in gate.outstanding],
        "unknown": [entry(x) for x in gate.unknown],
    }


def check_document(
    prepared: Prepared, point: Standpoint, task: str | None, before: str | None
) -> dict:
    """``check --format json`` for a scope, as the CLI, the MCP ``check`` tool and the bench
    ask for it: one solve with the gate, its atoms read once."""
    resolution = resolve(prepared, point, gate_facts(prepared, task, before))
    gate = read_gate(prepared, resolution)
    return check_json(prepared, resolution, gate, scope_label(task, before, len(gate.scope)))
