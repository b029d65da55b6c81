"""One stored history on disk: a SQLite file that holds only data.

What it holds: the prepare part's shown atoms (the work that dominates a first answer) with the
digest of the facts they were derived from, each answered standpoint's shown atoms by (family,
plateau, query) (:mod:`resolver.engine.plateau`), and the stamps of the input files
(:mod:`resolver.store.keys`). The stored atoms serve only facts with that digest, whatever code
path built them (a scope, another version of the fact writer). Atoms are text of integers and
constants, compressed; nothing in the file is ever executed or unpickled, so whoever can write
the cache folder can at worst make openloop solve again, or (writing well-formed atoms under
a matching digest on purpose) answer wrongly, as editing the log itself could.

Reading is defensive: a missing, torn, foreign or tampered entry (another format, another key,
a digest that does not match its text, a character no atom has) is a miss, never an error and
never an answer. A new prepared history is written whole to a temporary file and renamed into
place; an answer is added in one SQLite transaction. Writing is best effort: a read-only or
full cache folder costs the next call a solve, nothing more.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import sqlite3
import tempfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from resolver.store.keys import FORMAT, Stamp

#: Only these characters occur in shown atoms (integers, constants, nested terms, separators):
#: a stored text with any other (a quote, a ``#``, a period) is refused unread, so no program
#: text can reach clingo from the cache.
_FOREIGN = re.compile(r"[^A-Za-z0-9_(),\- ]")
#: Seconds a writer waits for another's transaction before giving up (best effort).
_BUSY = 0.5
#: Answers an entry keeps (the most recent): a long-lived server or a user asking many
#: standpoints and queries of the same inputs keeps the file bounded.
ANSWERS_KEPT = 256

_SCHEMA = """
CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files (position INTEGER PRIMARY KEY, path TEXT NOT NULL, size INTEGER NOT NULL,
                    digest TEXT NOT NULL);
CREATE TABLE prepared (id INTEGER PRIMARY KEY CHECK (id = 1), atoms BLOB NOT NULL,
                       digest TEXT NOT NULL, ground_rules INTEGER NOT NULL,
                       facts TEXT NOT NULL);
CREATE TABLE names (id INTEGER PRIMARY KEY CHECK (id = 1), names BLOB NOT NULL,
                    names_digest TEXT NOT NULL, thresholds BLOB NOT NULL,
                    thresholds_digest TEXT NOT NULL, derived BLOB NOT NULL,
                    derived_digest TEXT NOT NULL);
CREATE TABLE columns (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL,
                      digest TEXT NOT NULL);
CREATE TABLE standpoint (id INTEGER PRIMARY KEY CHECK (id = 1), data BLOB NOT NULL,
                         digest TEXT NOT NULL);
CREATE TABLE carried (family TEXT NOT NULL, plateau INTEGER NOT NULL, query TEXT NOT NULL,
                      atoms BLOB NOT NULL, digest TEXT NOT NULL, ground_rules INTEGER NOT NULL,
                      added TEXT NOT NULL);
CREATE TABLE answers (family TEXT NOT NULL, plateau INTEGER NOT NULL, query TEXT NOT NULL,
                      atoms BLOB NOT NULL, digest TEXT NOT NULL, ground_rules INTEGER NOT NULL,
                      verdicts BLOB, verdicts_digest TEXT,
                      PRIMARY KEY (family, plateau, query));
"""


def _pack(text: str) -> tuple[bytes, str]:
    data = text.encode("ascii")
    return zlib.compress(data, 1), hashlib.sha256(data).hexdigest()


def _unpack(blob: bytes, digest: str, foreign: re.Pattern[str] | None = _FOREIGN) -> str | None:
    """The text of a stored blob, or None when it is not what was written (or holds a
    character ``foreign`` refuses)."""
    try:
        data = zlib.decompress(blob)
    except (zlib.error, TypeError):
        return None
    if hashlib.sha256(data).hexdigest() != digest:
        return None
    text = data.decode("ascii", errors="replace")
    return None if foreign is not None and foreign.search(text) else text


def _unpack_bytes(row: tuple | None) -> bytes | None:
    """The bytes of a stored ``(data, digest)`` row, or None when they are not what was
    written. Kept uncompressed: the log's columns are about its own size, and inflating them
    would cost a command on unchanged files more than reading them (40 ms at 100k events)."""
    if row is None or not isinstance(row[0], bytes):
        return None
    data = row[0]
    return data if hashlib.sha256(data).hexdigest() == row[1] else None


#: The thresholds are integers separated by spaces.
_NOT_INTEGERS = re.compile(r"[^0-9\- ]")


@dataclass(frozen=True)
class Found:
    """A current entry's prepared history: the prepare atoms' text, ground rules and facts
    digest, and (when kept) the names' JSON text and the thresholds."""

    text: str
    ground_rules: int
    facts: str
    names: str | None
    thresholds: list[int] | None
    #: The policies' instances as the facts derived them (:func:`resolver.store.parsed.
    #: encode_items`), kept with the names: a face reads their titles.
    derived: str | None = None
    #: The loaded log's columns (:mod:`resolver.store.columns`), checked against their digest.
    columns: bytes | None = None
    #: The facts a standpoint reads beside the atoms (:mod:`resolver.facts.standpoint_pack`),
    #: compressed, checked against their digest.
    standpoint: bytes | None = None


@dataclass(frozen=True)
class Carry:
    """One answer carried over a quiet append, as stored: ``added`` lists (space-separated) the
    thresholds appended since it was solved."""

    family: str
    plateau: int
    query: str
    atoms: bytes
    digest: str
    ground_rules: int
    added: str


def _current(db: sqlite3.Connection) -> tuple[str, str] | None:
    """The key and facts digest an open entry holds."""
    meta = dict(db.execute("SELECT name, value FROM meta WHERE name IN ('key', 'facts')"))
    return (meta["key"], meta["facts"]) if len(meta) == 2 else None


class Entry:
    """The stored history of one set of input paths (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        #: The key and facts digest the entry was found (or written) under; answers are read
        #: and kept only while the file holds exactly these (another process may replace it).
        self.key: tuple[str, str] | None = None

    def _connect(self) -> sqlite3.Connection:
        uri = f"file:{self.path}?mode=rw"
        return sqlite3.connect(uri, uri=True, timeout=_BUSY, isolation_level=None)

    def prepared(self, stamp: Stamp) -> Found | None:
        """The stored prepared history for ``stamp``, if current."""
        found = self.held(stamp.key)
        if found is not None:
            self.key = (stamp.key, found.facts)
        return found

    def held(self, key: str, with_columns: bool = True) -> Found | None:
        """The stored prepared history if the entry holds it under ``key`` (an append's
        increment reads the entry of the files before it, without the columns it has read
        already: :mod:`resolver.store.quiet`)."""
        try:
            with contextlib.closing(self._connect()) as db:
                meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
                if meta.get("format") != str(FORMAT) or meta.get("key") != key:
                    return None
                row = db.execute(
                    "SELECT atoms, digest, ground_rules, facts FROM prepared"
                ).fetchone()
                kept = db.execute("SELECT * FROM names").fetchone()
                log = None
                if with_columns:
                    log = db.execute("SELECT data, digest FROM columns").fetchone()
                facts = db.execute("SELECT data, digest FROM standpoint").fetchone()
        except (sqlite3.Error, ValueError):
            return None
        if row is None or not isinstance(row[2], int) or not isinstance(row[3], str):
            return None
        text = _unpack(row[0], row[1])
        if text is None:
            return None
        names = thresholds = derived = None
        if kept is not None:
            names = _unpack(kept[1], kept[2], None)
            numbers = _unpack(kept[3], kept[4], _NOT_INTEGERS)
            thresholds = None if numbers is None else [int(n) for n in numbers.split()]
            derived = _unpack(kept[5], kept[6], None)
        if names is None or thresholds is None or derived is None:
            names = thresholds = derived = None
        found = (names, thresholds, derived, _unpack_bytes(log), _unpack_bytes(facts))
        return Found(text, row[2], row[3], *found)

    def write(
        self,
        stamp: Stamp,
        text: str,
        ground_rules: int,
        facts: str,
        names: str | None = None,
        thresholds: list[int] | None = None,
        columns: bytes | None = None,
        derived: str | None = None,
        standpoint: bytes | None = None,
        carried: list[Carry] | None = None,
    ) -> None:
        """Replace the entry with a new prepared history (written whole, then renamed);
        ``carried``: answers of the history before a quiet append (:meth:`carried`)."""
        blob, digest = _pack(text)
        try:
            self.path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".prepared-")
            os.close(handle)
        except OSError:
            return
        try:
            with contextlib.closing(sqlite3.connect(temporary, isolation_level=None)) as db:
                db.executescript(_SCHEMA)
                db.execute("BEGIN")
                meta = [("format", str(FORMAT)), ("key", stamp.key), ("facts", facts)]
                db.executemany("INSERT INTO meta VALUES (?, ?)", meta)
                db.executemany(
                    "INSERT INTO files VALUES (?, ?, ?, ?)",
                    [(n, f.path, f.size, f.digest) for n, f in enumerate(stamp.files)],
                )
                db.execute(
                    "INSERT INTO prepared VALUES (1, ?, ?, ?, ?)",
                    (blob, digest, ground_rules, facts),
                )
                if names is not None and thresholds is not None and derived is not None:
                    kept = _pack(names) + _pack(" ".join(map(str, thresholds))) + _pack(derived)
                    db.execute("INSERT INTO names VALUES (1, ?, ?, ?, ?, ?, ?)", kept)
                for table, data in (("columns", columns), ("standpoint", standpoint)):
                    if data is not None:  # table: one of two names, never user text
                        digest = hashlib.sha256(data).hexdigest()
                        db.execute(f"INSERT INTO {table} VALUES (1, ?, ?)", (data, digest))
                db.executemany(
                    "INSERT INTO carried VALUES (?, ?, ?, ?, ?, ?, ?)",
                    [
                        (c.family, c.plateau, c.query, c.atoms, c.digest, c.ground_rules, c.added)
                        for c in (carried or [])[-ANSWERS_KEPT:]
                    ],
                )
                db.execute("COMMIT")
            os.replace(temporary, self.path)
            self.key = (stamp.key, facts)
        except (sqlite3.Error, OSError):
            pass
        finally:
            Path(temporary).unlink(missing_ok=True)

    def to_carry(self, key: str) -> list[Carry]:
        """The answers the entry holds under ``key`` (its own, and those it carries), to be
        carried over a quiet append; compressed as stored."""
        try:
            with contextlib.closing(self._connect()) as db:
                if dict(db.execute("SELECT name, value FROM meta")).get("key") != key:
                    return []
                own = db.execute(
                    "SELECT family, plateau, query, atoms, digest, ground_rules, '' FROM answers"
                ).fetchall()
                more = db.execute("SELECT * FROM carried").fetchall()
        except (sqlite3.Error, ValueError):
            return []
        return [Carry(*row) for row in [*more, *own]]

    def carried(self, family: str, query: str) -> list[tuple[int, list[int], str, int]]:
        """The carried answers of ``family`` and ``query`` (see :mod:`resolver.engine.
        composed`): each with its plateau among the thresholds less ``added`` (the times
        quiet appends added since it was solved), its atoms' text and ground rules."""
        if self.key is None:
            return []
        try:
            with contextlib.closing(self._connect()) as db:
                if _current(db) != self.key:
                    return []
                rows = db.execute(
                    "SELECT plateau, added, atoms, digest, ground_rules FROM carried "
                    "WHERE family = ? AND query = ?",
                    (family, query),
                ).fetchall()
        except (sqlite3.Error, ValueError):
            return []
        found = []
        for plateau, added, blob, digest, ground_rules in rows:
            text = _unpack(blob, digest)
            if text is None or _NOT_INTEGERS.search(added) or not isinstance(ground_rules, int):
                continue
            found.append((plateau, [int(n) for n in added.split()], text, ground_rules))
        return found

    def columns(self, stamp: Stamp) -> bytes | None:
        """The loaded log's columns the entry keeps, if it is current for ``stamp``: another
        scope's entry of the same files holds the same log."""
        try:
            with contextlib.closing(self._connect()) as db:
                meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
                if meta.get("format") != str(FORMAT) or meta.get("key") != stamp.key:
                    return None
                return _unpack_bytes(db.execute("SELECT data, digest FROM columns").fetchone())
        except (sqlite3.Error, ValueError):
            return None

    def log_before(self) -> tuple[str, list[tuple[str, int, str]], bytes] | None:
        """Whatever key the entry holds: that key, the stamps of the files it was derived from
        (in reading order) and the log's columns. An append reads the log as an increment of
        these (:mod:`resolver.store.appends`), which checks the key itself."""
        try:
            with contextlib.closing(self._connect()) as db:
                meta = dict(db.execute("SELECT name, value FROM meta").fetchall())
                rows = db.execute("SELECT path, size, digest FROM files ORDER BY position")
                files = [tuple(row) for row in rows.fetchall()]
                log = db.execute("SELECT data, digest FROM columns").fetchone()
        except (sqlite3.Error, ValueError):
            return None
        data = _unpack_bytes(log)
        if meta.get("format") != str(FORMAT) or not isinstance(meta.get("key"), str):
            return None
        return None if data is None else (meta["key"], files, data)  # type: ignore[return-value]

    def _answer_row(self, columns: str, key: tuple[str, int, str]) -> tuple | None:
        """``columns`` (a fixed list, never user text) of the answers table's row for ``key``,
        when the entry is current."""
        if self.key is None:
            return None
        try:
            with contextlib.closing(self._connect()) as db:
                if _current(db) != self.key:
                    return None
                return db.execute(
                    f"SELECT {columns} FROM answers WHERE family = ? AND plateau = ? AND query = ?",
                    key,
                ).fetchone()
        except (sqlite3.Error, ValueError):
            return None

    def answer(self, key: tuple[str, int, str]) -> tuple[str, int] | None:
        """A stored standpoint answer (atoms' text, ground rules), if any."""
        row = self._answer_row("atoms, digest, ground_rules", key)
        if row is None or not isinstance(row[2], int):
            return None
        text = _unpack(row[0], row[1])
        return None if text is None else (text, row[2])

    def keep(self, key: tuple[str, int, str], text: str, ground_rules: int) -> None:
        """Add a standpoint answer (one transaction; best effort)."""
        if self.key is None:
            return
        blob, digest = _pack(text)
        self._while_current(
            (
                "INSERT OR REPLACE INTO answers (family, plateau, query, atoms, digest, "
                "ground_rules) VALUES (?, ?, ?, ?, ?, ?)",
                (*key, blob, digest, ground_rules),
            ),
            (
                "DELETE FROM answers WHERE rowid NOT IN "
                "(SELECT rowid FROM answers ORDER BY rowid DESC LIMIT ?)",
                (ANSWERS_KEPT,),
            ),
        )

    def verdicts(self, key: tuple[str, int, str]) -> str | None:
        """The typed verdicts kept beside a stored answer (JSON text), if any and intact."""
        data = _unpack_bytes(self._answer_row("verdicts, verdicts_digest", key))
        try:
            return None if data is None else zlib.decompress(data).decode("utf-8")
        except (zlib.error, UnicodeDecodeError):
            return None

    def keep_verdicts(self, key: tuple[str, int, str], text: str) -> None:
        """Keep typed verdicts beside the stored answer of ``key`` (best effort): JSON, and
        checked against its SHA-256 when read, like the atoms."""
        if self.key is None:
            return
        data = zlib.compress(text.encode("utf-8"), 1)
        self._while_current(
            (
                "UPDATE answers SET verdicts = ?, verdicts_digest = ? "
                "WHERE family = ? AND plateau = ? AND query = ?",
                (data, hashlib.sha256(data).hexdigest(), *key),
            ),
        )

    def _while_current(self, *statements: tuple[str, tuple]) -> None:
        """Run ``statements`` in one transaction if the entry is still the one this object
        read (another process may have replaced it); best effort: an error writes nothing."""
        try:
            with contextlib.closing(self._connect()) as db:
                db.execute("BEGIN IMMEDIATE")
                if _current(db) == self.key:
                    for sql, parameters in statements:
                        db.execute(sql, parameters)
                db.execute("COMMIT")
        except sqlite3.Error:
            pass
