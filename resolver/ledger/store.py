"""Writing one refresh: every check, its log positions and the new current entries, atomically.

A refresh is one ``BEGIN IMMEDIATE ... COMMIT`` transaction. SQLite's write-ahead log makes it all
or nothing: a process killed at any instant leaves the previous refresh as it was, and readers
(each list is one read transaction) see either the previous refresh or this one, whole.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from dataclasses import astuple, replace

from resolver.ledger.model import VERDICT_COLUMNS, LogPosition, Refresh, RefreshSummary, Verdict


def write(
    conn: sqlite3.Connection,
    kind: str,
    checked_at: int,
    at: int,
    known: int | None,
    verdicts: Sequence[Verdict],
    sources: Sequence[LogPosition],
    db: str,
    paths: Sequence[str] = (),
) -> RefreshSummary:
    """Record one refresh (``kind`` ``rebuild`` first forgets every earlier refresh)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        previous = {
            row[0]: tuple(row[1:])
            for row in conn.execute(
                "SELECT e.expectation, c.status, c.confidence, c.closed_by, c.tier, c.flags "
                "FROM entry e JOIN check_ c ON c.id = e.check_id"
            )
        }
        changed = tuple(v.id for v in verdicts if previous.get(v.id) != _signature(v))
        current = {v.id for v in verdicts}
        removed = tuple(sorted(x for x in previous if x not in current))
        open_count = sum(1 for v in verdicts if v.open)
        if kind == "rebuild":
            for table in ("entry", "check_", "source", "refresh"):
                conn.execute(f"DELETE FROM {table}")  # ids keep counting: AUTOINCREMENT
        # The id is the database's: 0 until the row is in.
        refresh = Refresh(
            0,
            kind,
            checked_at,
            at,
            known,
            len(verdicts),
            open_count,
            len(changed),
            tuple(_unique(sources)),
            tuple(paths),
        )
        cursor = conn.execute(
            "INSERT INTO refresh (kind, checked_at, at, known, expectations, open, changed, paths) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (*astuple(refresh)[1:8], json.dumps(list(refresh.paths))),
        )
        refresh_id = int(cursor.lastrowid or 0)
        refresh = replace(refresh, id=refresh_id)
        # A position's fields are the source table's columns after refresh_id, in order.
        conn.executemany(
            "INSERT INTO source VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(refresh_id, *astuple(position)) for position in refresh.sources],
        )
        conn.executemany(
            f"INSERT INTO check_ (refresh_id, {', '.join(VERDICT_COLUMNS)}) "
            f"VALUES (?{', ?' * len(VERDICT_COLUMNS)})",
            [(refresh_id, *v.as_row()) for v in verdicts],
        )
        conn.execute(
            "INSERT OR REPLACE INTO entry (expectation, check_id, refresh_id, is_open) "
            "SELECT expectation, id, refresh_id, is_open FROM check_ WHERE refresh_id = ?",
            (refresh_id,),
        )
        conn.execute("DELETE FROM entry WHERE refresh_id != ?", (refresh_id,))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return RefreshSummary(refresh, db, tuple(sorted(changed)), removed)


def _signature(verdict: Verdict) -> tuple:
    """What a change of verdict means for the ``changed`` count: status, evidence, flags."""
    return (
        verdict.status,
        verdict.confidence,
        verdict.closed_by,
        verdict.tier,
        json.dumps(list(verdict.flags)),
    )


def _unique(sources: Sequence[LogPosition]) -> list[LogPosition]:
    """One position per file (a file named twice is read once)."""
    seen: dict[str, LogPosition] = {}
    for position in sources:
        seen.setdefault(position.resolved, position)
    return list(seen.values())
