"""The ``--compare`` row: a hand-rolled SQLite query answering the state tier alone.

What a user who gives up on explanations, footprints, gaps, authority and every other tier
would write instead: load each ``set`` of the log into a table with its valid and record
times, then ask, for every expectation with a ``want``, whether a visible event after its
opening observed the wanted value. The row times the query alone (the table is built first and
its build timed apart), as a ratio to the floor, so the warm standpoint can be held against it.
It is a yardstick, not a second engine: its answers are not openloop's and are not compared.
"""

from __future__ import annotations

import json
import sqlite3
import time

from lab.bench.cpu import median_cpu
from resolver.language.model import Project

_SCHEMA = """
CREATE TABLE sets (key TEXT, value TEXT, at INTEGER, recorded INTEGER);
CREATE INDEX sets_key_value ON sets (key, value, at);
CREATE TABLE wants (id TEXT PRIMARY KEY, key TEXT, value TEXT, opened INTEGER);
"""

#: Every expectation with a ``want``, satisfied at the standpoint (:at, :known) if a visible
#: event at or after its opening set the wanted value: the state tier, nothing else.
QUERY = """
SELECT w.id,
       EXISTS (SELECT 1 FROM sets s
               WHERE s.key = w.key AND s.value = w.value
                 AND s.at >= w.opened AND s.at <= :at AND s.recorded <= :known) AS satisfied
FROM wants w ORDER BY w.id
"""


def _text(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def load(project: Project) -> sqlite3.Connection:
    """An in-memory database holding the log's ``set`` assignments and the wanted states."""
    connection = sqlite3.connect(":memory:")
    connection.executescript(_SCHEMA)
    connection.executemany(
        "INSERT INTO sets VALUES (?, ?, ?, ?)",
        (
            (a.key, _text(a.value), e.at, e.recorded)
            for e in project.events
            if e.outcome == "confirmed"
            for a in e.sets
        ),
    )
    opened_at = {e.id: e.at for e in project.events}
    connection.executemany(
        "INSERT INTO wants VALUES (?, ?, ?, ?)",
        (
            (x.id, x.want.key, _text(x.want.value), _opening(x, opened_at))
            for x in project.expectations
            if x.want is not None
        ),
    )
    connection.commit()
    return connection


def _opening(expectation, opened_at: dict[str, int]) -> int:
    if expectation.opened is not None:
        return expectation.opened
    return opened_at.get(expectation.opened_by or "", 0)


def measure(project: Project, instants: list[int], floor_cpu: float) -> dict:
    """Build the table, then the median CPU time of the query over ``instants``."""
    started = time.process_time()
    connection = load(project)
    build = time.process_time() - started
    query, rows = median_cpu(
        lambda instant: connection.execute(QUERY, {"at": instant, "known": instant}).fetchall(),
        instants,
    )
    connection.close()
    answered = len(rows or ())
    return {
        "sqlite_build_cpu_s": round(build, 6),
        "sqlite_query_cpu_s": round(query, 6),
        "sqlite_query_over_floor": round(query / floor_cpu, 4) if floor_cpu else None,
        "sqlite_expectations": answered,
    }
