"""Reading the ledger: the open list and the checks of one expectation, from the database alone.

Each read is one transaction, so it sees one refresh whole even while another process writes
the next. The open list walks the partial index ``entry_open``: its cost is the open set (plus a
``stat`` and one line's read per source file for the log-growth check), never the history.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from resolver.ledger import positions
from resolver.ledger.model import (
    VERDICT_COLUMNS,
    Check,
    Entry,
    LedgerState,
    LogPosition,
    Refresh,
    Verdict,
)

_CHECK_COLUMNS = ", ".join(f"c.{name}" for name in ("id", "refresh_id", *VERDICT_COLUMNS))
#: The open list's query; ``tests/ledger`` checks its plan uses the partial index, never a scan.
OPEN_QUERY = (
    f"SELECT {_CHECK_COLUMNS} FROM entry e INDEXED BY entry_open "
    "JOIN check_ c ON c.id = e.check_id WHERE e.is_open = 1 ORDER BY e.expectation"
)


def read_state(
    conn: sqlite3.Connection,
    stale_after: int | None = None,
    now: int | None = None,
    paths: Sequence[str | Path] | None = None,
    check_log: bool = True,
) -> LedgerState:
    """The latest refresh and the open entries, each marked fresh or stale, in one transaction.

    An entry is stale when ``now - last_checked > stale_after`` or, with ``check_log``, when a
    file its check read has changed past the recorded position, or a file was added to the paths
    the refresh read (or to ``paths``, when given) that the check did not read.
    """
    conn.execute("BEGIN")
    try:
        latest = _latest(conn)
        rows = conn.execute(OPEN_QUERY).fetchall()
        refreshes = {r: _refresh(conn, r) for r in sorted({row[1] for row in rows})}
    finally:
        conn.execute("COMMIT")
    moved = {
        r: tuple(positions.changes(refresh.sources, _where(refresh, paths))) if check_log else ()
        for r, refresh in refreshes.items()
    }
    entries = []
    for row in rows:
        check = _check(row, refreshes[row[1]])
        reasons = list(moved[row[1]])
        if stale_after is not None and now is not None and now - check.last_checked > stale_after:
            reasons.insert(0, f"not re-verified for {_span(now - check.last_checked)}")
        entries.append(Entry(check, not reasons, tuple(reasons)))
    return LedgerState(latest, tuple(entries))


def _where(refresh: Refresh, paths: Sequence[str | Path] | None) -> list[str | Path]:
    """Where to look for files the check did not read: ``paths``, else the refresh's own
    (those that still exist: a vanished file is reported through its recorded position)."""
    if paths is not None:
        return list(paths)
    return [p for p in refresh.paths if Path(p).exists()]


def history(conn: sqlite3.Connection, expectation: str) -> list[Check]:
    """Every recorded check of one expectation, oldest first."""
    conn.execute("BEGIN")
    try:
        rows = conn.execute(
            f"SELECT {_CHECK_COLUMNS} FROM check_ c WHERE c.expectation = ? ORDER BY c.id",
            (expectation,),
        ).fetchall()
        refreshes = {r: _refresh(conn, r) for r in {row[1] for row in rows}}
    finally:
        conn.execute("COMMIT")
    return [_check(row, refreshes[row[1]]) for row in rows]


def latest(conn: sqlite3.Connection) -> Refresh | None:
    """The most recent refresh, with its sources."""
    conn.execute("BEGIN")
    try:
        return _latest(conn)
    finally:
        conn.execute("COMMIT")


def _latest(conn: sqlite3.Connection) -> Refresh | None:
    row = conn.execute("SELECT id FROM refresh ORDER BY id DESC LIMIT 1").fetchone()
    return None if row is None else _refresh(conn, row[0])


def _refresh(conn: sqlite3.Connection, refresh_id: int) -> Refresh:
    row = conn.execute(
        "SELECT id, kind, checked_at, at, known, expectations, open, changed, paths "
        "FROM refresh WHERE id = ?",
        (refresh_id,),
    ).fetchone()
    sources = tuple(
        LogPosition(*source)
        for source in conn.execute(
            "SELECT path, resolved, kind, size, lines, tail_offset, tail_sha256, sha256, mtime_ns "
            "FROM source WHERE refresh_id = ? ORDER BY path",
            (refresh_id,),
        )
    )
    return Refresh(*row[:8], sources=sources, paths=tuple(json.loads(row[8])))


def _check(row: tuple, refresh: Refresh) -> Check:
    return Check(row[0], refresh, Verdict.from_row(row[2:]))


def _span(seconds: int) -> str:
    """``3d 4h``-style age for messages."""
    days, rest = divmod(max(seconds, 0), 86_400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return f"{days}d {hours}h" if hours else f"{days}d"
    if hours:
        return f"{hours}h {minutes}m" if minutes else f"{hours}h"
    return f"{minutes}m" if minutes else f"{seconds}s"
