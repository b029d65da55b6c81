"""The ledger's SQLite schema, its migrations, and how a connection is opened.

The database is a derived index of the JSON-lines log (which stays the source of truth), kept in
WAL mode so that readers never block a refresh and never see one half written. Each schema
change is a numbered migration, applied in its own transaction and recorded in
``schema_migrations`` with ``PRAGMA user_version`` set to match; a database from a newer
openloop is refused rather than guessed at.

Tables:

- ``refresh``: one row per refresh or rebuild (its standpoint, when it ran, counts);
- ``source``: the log position each refresh read through, one row per file;
- ``check_``: every check of every expectation (the verdict as the rules gave it);
- ``entry``: the current check of each expectation, with ``is_open`` behind a partial index so
  that listing the open set costs the open set, not the history.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from resolver.errors import InputError, Location

_INITIAL = """
CREATE TABLE refresh (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('refresh', 'rebuild')),
    checked_at INTEGER NOT NULL,
    at INTEGER NOT NULL,
    known INTEGER,
    expectations INTEGER NOT NULL,
    open INTEGER NOT NULL,
    changed INTEGER NOT NULL,
    paths TEXT NOT NULL
);
CREATE TABLE source (
    refresh_id INTEGER NOT NULL REFERENCES refresh(id) ON DELETE CASCADE,
    path TEXT NOT NULL,
    resolved TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('jsonl', 'ol')),
    size INTEGER NOT NULL,
    lines INTEGER NOT NULL,
    tail_offset INTEGER NOT NULL,
    tail_sha256 TEXT NOT NULL,
    sha256 TEXT,
    mtime_ns INTEGER NOT NULL,
    PRIMARY KEY (refresh_id, resolved)
);
CREATE TABLE check_ (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    refresh_id INTEGER NOT NULL REFERENCES refresh(id) ON DELETE CASCADE,
    expectation TEXT NOT NULL,
    title TEXT,
    task TEXT,
    status TEXT NOT NULL,
    confidence TEXT,
    flags TEXT NOT NULL,
    closed_by TEXT,
    tier TEXT,
    closed_at INTEGER,
    opened_at INTEGER,
    bound INTEGER,
    footprint TEXT NOT NULL,
    is_open INTEGER NOT NULL
);
CREATE INDEX check_by_expectation ON check_(expectation, refresh_id);
CREATE TABLE entry (
    expectation TEXT PRIMARY KEY,
    check_id INTEGER NOT NULL REFERENCES check_(id),
    refresh_id INTEGER NOT NULL REFERENCES refresh(id),
    is_open INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX entry_open ON entry(expectation, check_id, refresh_id) WHERE is_open = 1;
"""

#: Every migration, in order: (version, name, SQL). Append; never edit a released one.
MIGRATIONS: tuple[tuple[int, str, str], ...] = ((1, "initial schema", _INITIAL),)
VERSION = MIGRATIONS[-1][0]


def connect(db: str | Path, create: bool = True) -> sqlite3.Connection:
    """Open the ledger at ``db`` in WAL mode, migrating it to :data:`VERSION`.

    ``create=False`` refuses a missing file (reading commands must not invent an empty ledger).
    Transactions are explicit (``isolation_level=None``): the caller says BEGIN and COMMIT.
    """
    path = Path(db)
    if not path.exists():
        if not create:
            raise InputError(
                "no ledger here; run 'openloop ledger refresh PATH... --db FILE' first",
                whole_file(db),
            )
        path.parent.mkdir(parents=True, exist_ok=True)
    try:
        conn = sqlite3.connect(str(path), timeout=60.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise InputError(f"cannot open the ledger: {exc}", whole_file(db)) from None
    try:
        conn.execute("PRAGMA busy_timeout = 60000")
        if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash loses no committed refresh
        conn.execute("PRAGMA foreign_keys = ON")
        migrate(conn, str(db))
    except sqlite3.OperationalError as exc:
        conn.close()
        raise InputError(f"cannot open the ledger: {exc}", whole_file(db)) from None
    except sqlite3.DatabaseError as exc:
        conn.close()
        raise InputError(f"not an openloop ledger ({exc})", whole_file(db)) from None
    except BaseException:
        conn.close()
        raise
    return conn


def version(conn: sqlite3.Connection) -> int:
    """The schema version the database is at."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, name: str = "ledger") -> None:
    """Apply every migration the database lacks, each in its own transaction."""
    if version(conn) == VERSION:
        return
    for number, title, sql in MIGRATIONS:
        conn.execute("BEGIN IMMEDIATE")
        try:
            current = version(conn)  # another process may have migrated meanwhile
            if current > VERSION:
                raise InputError(
                    f"schema version {current} is newer than this openloop's {VERSION}; "
                    "upgrade openloop or run 'openloop ledger rebuild'",
                    whole_file(name),
                )
            if current >= number:
                conn.execute("ROLLBACK")
                continue
            if number == 1:
                _refuse_foreign(conn, name)
                conn.execute(
                    "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, "
                    "name TEXT NOT NULL, applied_at INTEGER NOT NULL)"
                )
            for statement in sql.split(";"):
                if statement.strip():
                    conn.execute(statement)
            conn.execute(
                "INSERT INTO schema_migrations VALUES (?, ?, ?)", (number, title, int(time.time()))
            )
            conn.execute(f"PRAGMA user_version = {int(number)}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise


def _refuse_foreign(conn: sqlite3.Connection, name: str) -> None:
    """A version-0 database with tables of its own is somebody else's: never write into it."""
    tables = conn.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
    if tables:
        raise InputError("not an openloop ledger (it holds other tables)", whole_file(name))


def whole_file(name: str | Path) -> Location:
    """A location naming the whole file, for messages ``FILE: error: ...``."""
    return _WholeFile(str(name), 0)


class _WholeFile(Location):
    """A location that is a whole file: prints as ``FILE`` alone."""

    def __str__(self) -> str:
        return self.file
