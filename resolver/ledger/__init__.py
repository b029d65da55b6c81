"""The maintained ledger (SPEC §7): a fast open list in SQLite, with re-verification provenance.

openloop derives every verdict on demand; the ledger keeps the last derivation of each
expectation, with when it was made, at which standpoint and through which log position, so that
a dashboard or an agent at session start can read "what is open" without resolving, and can tell
"open and freshly checked" from "open but unexamined". The JSON-lines log stays the source of
truth: :func:`rebuild` recreates the database from it at any time.

>>> from resolver import ledger
>>> ledger.refresh("ledger.db", ["fixtures/release"], at="2024-08-23")      # doctest: +SKIP
>>> [e.id for e in ledger.open_list("ledger.db", stale_after=86400)]         # doctest: +SKIP
['intent-401']
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from resolver import times
from resolver.ledger import queries, schema
from resolver.ledger.model import (
    Check,
    Entry,
    LedgerState,
    LogPosition,
    Refresh,
    RefreshSummary,
    Verdict,
)
from resolver.ledger.update import History, read, rebuild, refresh

__all__ = [
    "DEFAULT_DB",
    "Check",
    "Entry",
    "History",
    "LedgerState",
    "LogPosition",
    "Refresh",
    "RefreshSummary",
    "Verdict",
    "history",
    "open_list",
    "read",
    "rebuild",
    "refresh",
    "state",
]

#: Where the ledger lives unless ``--db`` says otherwise: relative to the current folder.
DEFAULT_DB = Path(".openloop") / "ledger.db"


def state(
    db: str | Path,
    stale_after: int | None = None,
    now: int | None = None,
    paths: Sequence[str | Path] | None = None,
    check_log: bool = True,
) -> LedgerState:
    """The latest refresh and the open entries, read in one transaction (see :func:`open_list`)."""
    conn = schema.connect(db, create=False)
    try:
        moment = times.now() if now is None else int(now)
        return queries.read_state(conn, stale_after, moment, paths, check_log)
    finally:
        conn.close()


def open_list(
    db: str | Path,
    stale_after: int | None = None,
    now: int | None = None,
    paths: Sequence[str | Path] | None = None,
    check_log: bool = True,
) -> list[Entry]:
    """The maintained open list, from the database alone, sorted by id.

    Each entry is ``fresh`` unless its check is older than ``stale_after`` seconds at ``now``
    (default: the current time), or a file its check read has changed since (``check_log``);
    with ``paths``, a file found there that the check did not read makes it stale too.
    """
    return list(state(db, stale_after, now, paths, check_log).entries)


def history(db: str | Path, expectation_id: str) -> list[Check]:
    """Every recorded check of one expectation, oldest first (empty if never checked)."""
    conn = schema.connect(db, create=False)
    try:
        return queries.history(conn, expectation_id)
    finally:
        conn.close()
