"""The database: WAL, migrations recorded, foreign files refused, the open list on an index."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import ledger_helpers as h
import pytest

from resolver import ledger
from resolver.errors import InputError
from resolver.ledger import queries, schema


def test_a_new_ledger_is_wal_and_records_its_migrations(tmp_path: Path) -> None:
    db = tmp_path / "deep" / "ledger.db"
    ledger.refresh(db, [h.write_history(tmp_path / "history")], at="2024-02-01")
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.VERSION
    rows = conn.execute("SELECT version, name FROM schema_migrations").fetchall()
    assert rows == [(number, name) for number, name, _ in schema.MIGRATIONS]
    conn.close()
    schema.connect(db).close()  # opening again applies nothing twice
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT count(*) FROM schema_migrations").fetchone()[0] == len(
        schema.MIGRATIONS
    )
    conn.close()


def test_reading_commands_never_create_a_ledger(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    with pytest.raises(InputError, match="no ledger here"):
        ledger.open_list(missing)
    with pytest.raises(InputError, match="no ledger here"):
        ledger.history(missing, "x")
    assert not missing.exists()


def test_files_that_are_not_ledgers_are_refused_untouched(tmp_path: Path) -> None:
    text = tmp_path / "notes.db"
    text.write_text("this is not a database, just some notes\n" * 20)
    before = text.read_bytes()
    with pytest.raises(InputError, match="not an openloop ledger"):
        ledger.refresh(text, [h.write_history(tmp_path / "history")], at="2024-02-01")
    assert text.read_bytes() == before

    foreign = tmp_path / "app.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE users (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(InputError, match="holds other tables"):
        ledger.open_list(foreign)
    tables = sqlite3.connect(foreign).execute("SELECT name FROM sqlite_master").fetchall()
    assert tables == [("users",)]


def test_a_ledger_from_a_newer_openloop_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    ledger.refresh(db, [h.write_history(tmp_path / "history")], at="2024-02-01")
    conn = sqlite3.connect(db)
    conn.execute(f"PRAGMA user_version = {schema.VERSION + 1}")
    conn.close()
    with pytest.raises(InputError, match="newer than this openloop"):
        ledger.open_list(db)


def test_the_open_list_walks_the_partial_index_not_the_table(tmp_path: Path) -> None:
    db = tmp_path / "ledger.db"
    ledger.refresh(db, [h.write_history(tmp_path / "history")], at="2024-02-01")
    conn = schema.connect(db)
    plan = " | ".join(row[-1] for row in conn.execute(f"EXPLAIN QUERY PLAN {queries.OPEN_QUERY}"))
    conn.close()
    assert "entry_open" in plan
    assert "SCAN c" not in plan and "SCAN check_" not in plan
    assert "SEARCH c USING INTEGER PRIMARY KEY" in plan
