"""Refreshing the ledger: resolve every expectation at one standpoint and record the verdicts.

The resolving goes through :mod:`resolver.api` like every command; the ledger stores what each
verdict says and never decides a status. Whether an expectation is on the open list is read
from the rules' atoms as well: it is open when the rules showed its opening (``opened_at``) and
no closing transition (``closed``), which is the rules' own ``is_open`` (OPEN or UNKNOWN).

The log position is measured *before* the history is loaded: if the log grows while a refresh
reads it, the position recorded is the smaller one, so the next ``list`` calls the entries stale
rather than wrongly fresh.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from resolver import api, times
from resolver.engine.prepared import Prepared, Standpoint
from resolver.errors import InputError
from resolver.faces.json_format import expectation_dict
from resolver.language.loader import collect_files
from resolver.language.model import Project
from resolver.ledger import positions, schema, store
from resolver.ledger.model import LogPosition, RefreshSummary, Verdict
from resolver.verdicts.resolution import ExpectationVerdict, Resolution


@dataclass(frozen=True)
class History:
    """A prepared history and the log positions it was read through (reusable across refreshes)."""

    prepared: Prepared
    sources: tuple[LogPosition, ...]
    paths: tuple[str, ...] = ()


def read(paths: Sequence[str | Path] | str | Path) -> History:
    """Measure the files' positions, then load and prepare them."""
    if isinstance(paths, str | Path):
        paths = [paths]  # one path, not a sequence of one-character names
    files = collect_files(paths)
    before = positions.measure(files)
    asked = tuple(str(Path(p).resolve()) for p in paths)
    return History(api.prepare(files, store=True), before, asked)


def refresh(
    db: str | Path,
    paths: Sequence[str | Path] | History,
    at: str | int | None = None,
    known: str | int | None = None,
    checked_at: int | None = None,
) -> RefreshSummary:
    """Resolve every expectation at ``(at, known)`` and record the checks in one transaction.

    ``paths`` may be a :class:`History` already read (to refresh many standpoints without
    loading again). ``checked_at`` is when the check counts as made (default: now), which a
    simulation of time may set.
    """
    return _record(db, paths, at, known, checked_at, "refresh")


def rebuild(
    db: str | Path,
    paths: Sequence[str | Path] | History,
    at: str | int | None = None,
    known: str | int | None = None,
    checked_at: int | None = None,
) -> RefreshSummary:
    """Recreate the ledger from the log: forget every earlier check, then check once, atomically."""
    return _record(db, paths, at, known, checked_at, "rebuild")


def _record(
    db: str | Path,
    paths: Sequence[str | Path] | History,
    at: str | int | None,
    known: str | int | None,
    checked_at: int | None,
    kind: str,
) -> RefreshSummary:
    history = paths if isinstance(paths, History) else read(paths)
    point = api.standpoint(at, known)
    checked = verdicts(history.prepared, point)
    return record(db, kind, point, checked, history.sources, checked_at, history.paths)


def verdicts(prepared: Prepared, point: Standpoint) -> list[Verdict]:
    """What the ledger keeps of every verdict at one standpoint."""
    resolution = resolve(prepared, point)
    return [_verdict(v, prepared.project) for v in resolution.expectations]


def record(
    db: str | Path,
    kind: str,
    point: Standpoint,
    checked: Sequence[Verdict],
    sources: Sequence[LogPosition],
    checked_at: int | None = None,
    paths: Sequence[str] = (),
) -> RefreshSummary:
    """Write verdicts already derived at ``point`` as one refresh (one transaction)."""
    conn = schema.connect(db)
    try:
        moment = times.now() if checked_at is None else int(checked_at)
        return store.write(
            conn, kind, moment, point.at, point.known, checked, sources, str(db), paths
        )
    except sqlite3.Error as exc:  # locked past the timeout, disk full, read-only file...
        raise InputError(f"cannot write the ledger: {exc}", schema.whole_file(db)) from None
    finally:
        conn.close()


def resolve(prepared: Prepared, point: Standpoint) -> Resolution:
    """The verdicts at one standpoint, without reasons (the ledger keeps none)."""
    known = "latest" if point.known is None else point.known
    return api.status(prepared, point.at, known, reasons=False)


def _verdict(verdict: ExpectationVerdict, project: Project) -> Verdict:
    footprint = expectation_dict(verdict, project)["footprint"]
    is_open = verdict.opened_at is not None and verdict.closed_by is None
    return Verdict.of(verdict, footprint, is_open)
