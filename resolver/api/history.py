"""A history and its verdicts: prepare once, then ask at any standpoint.

Every other command's function (:mod:`resolver.api`) starts from what these return: a prepared
history (:func:`prepare`), a standpoint (:func:`standpoint`), and a solve of it (:func:`status`,
or :func:`explained` when some items' whole explanations are wanted too).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from resolver import inputs, times
from resolver.engine.groups import scoped
from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.errors import InputError, Location
from resolver.language.loader import load
from resolver.language.model import Project
from resolver.verdicts.resolution import Resolution, resolve

__all__ = [
    "explained",
    "prepare",
    "scoped",
    "snapshot_facts",
    "standpoint",
    "status",
    "status_of",
]


def prepare(paths: Sequence[str | Path], scope: str | None = None, store: bool = False) -> Prepared:
    """Load ``.ol`` and ``.jsonl`` files (or folders) and do the standpoint-independent work;
    with ``scope`` (an item id), only for the declarations of its group
    (:func:`~resolver.engine.groups.scoped`).

    ``store``: read and keep the prepared history in the user's cache folder
    (:mod:`resolver.store`: keyed by the files' content; what the commands do), so that the
    same inputs are prepared once and a standpoint already answered is a lookup.
    """
    if store:
        from resolver.store import load_prepared

        return load_prepared(paths, scope)
    return Prepared(scoped(load(paths), scope))


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
    given, in independent parts (:mod:`resolver.api.parallel`: ``jobs`` processes, or a dask
    ``cluster``), from the files. The verdicts are the same either way.
    ``every_reason=False``: only the key reasons and a count of the rest (see :func:`status`)."""
    point = standpoint(at, known)
    if jobs is None and cluster is None:
        prepared = prepare(paths, store=True)
    else:
        from resolver.api import parallel  # a process pool or a cluster: only when asked

        project = load(paths)
        if parallel.wanted(project, jobs, cluster):
            resolution = parallel.resolve_parts(
                project, point, snapshot, jobs, cluster, every_reason=every_reason
            )
            return resolution, project
        prepared = Prepared(project)
    query = replace(snapshot_facts(prepared, snapshot), every_reason=every_reason)
    return resolve(prepared, point, query), prepared.project


def explained(
    prepared: Prepared,
    point: Standpoint,
    items: Iterable[str],
    why_not: str | None = None,
    every_reason: bool = True,
) -> Resolution:
    """Every verdict at ``point``, with the whole explanation of ``items`` (expectations or
    tasks; unknown ids are input errors) in the same solve: what a receipt, a hook's refusal or
    a claim's judgment reads. ``why_not`` (a status word) also asks what keeps them from it;
    ``every_reason=False`` reads only the key reasons of every other item."""
    from resolver.verdicts.explanation import query_facts

    query = query_facts(prepared, list(items), why_not, every_reason=every_reason)
    return resolve(prepared, point, query)
