"""Crash safety: a refresh killed at any instant leaves the previous refresh whole, and readers
running beside a refresh only ever see one refresh, whole.

The writer is a real child process (forked from the test, which has already read and resolved
the history, so that each kill costs milliseconds rather than an interpreter's start-up) writing
refreshes of 1,000 expectations at alternating standpoints through the ledger's own transaction;
it is killed with SIGKILL at random instants, 50 times. One more test kills the real
``openloop ledger refresh`` command.
"""

from __future__ import annotations

import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import ledger_helpers as h
import pytest

from resolver import api, ledger
from resolver.ledger import schema, update

EXPECTATIONS = 1000
STANDPOINTS = ("2024-02-05", "2024-02-15", "2024-02-25")

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs fork()")


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory):
    """The big history, read once, with the verdicts of each standpoint derived once."""
    folder = h.big_history(tmp_path_factory.mktemp("big"), EXPECTATIONS)
    history = ledger.read([folder])
    points = [api.standpoint(at) for at in STANDPOINTS]
    derived = {p.at: update.verdicts(history.prepared, p) for p in points}
    return folder, history, points, derived


def _fork(work: Callable[[], None]) -> int:
    pid = os.fork()
    if pid == 0:  # the child: never return into pytest
        code = 0
        try:
            work()
        except BaseException:
            code = 1
        os._exit(code)
    return pid


def _writer(db: Path, history, points, derived, progress: int | None = None) -> Callable[[], None]:
    """Refresh at the standpoints in turn; on ``progress`` (a pipe) write ``b`` before each
    refresh's write and ``c`` after its commit, so the parent knows where each kill landed."""

    def work() -> None:
        for k in range(10_000):
            point = points[k % len(points)]
            if progress is not None:
                os.write(progress, b"b")
            update.record(db, "refresh", point, derived[point.at], history.sources, 1000 + k)
            if progress is not None:
                os.write(progress, b"c")

    return work


def _drain(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _assert_whole(db: Path, derived, integrity: bool = True) -> tuple[int, int]:
    """The database opens, and holds exactly one refresh as current, with all of its checks."""
    conn = sqlite3.connect(db)
    try:
        if integrity:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        latest, at, count, opened = conn.execute(
            "SELECT id, at, expectations, open FROM refresh ORDER BY id DESC LIMIT 1"
        ).fetchone()
        assert conn.execute(
            "SELECT count(*) FROM check_ WHERE refresh_id = ?", (latest,)
        ).fetchone() == (count,)
        entries = conn.execute(
            "SELECT e.expectation, e.refresh_id, c.status FROM entry e "
            "JOIN check_ c ON c.id = e.check_id"
        ).fetchall()
        assert {refresh for _, refresh, _ in entries} == {latest}
        expected = {v.id: v.status for v in derived[at]}
        assert {x: s for x, _, s in entries} == expected  # the refresh of that standpoint, whole
        assert sum(1 for v in derived[at] if v.open) == opened
        return latest, len(entries)
    finally:
        conn.close()


def test_a_refresh_killed_at_random_instants_leaves_a_whole_ledger(tmp_path, prepared) -> None:
    _, history, points, derived = prepared
    db = tmp_path / "ledger.db"
    update.record(db, "refresh", points[0], derived[points[0].at], history.sources, 999)
    # How long one refresh write takes here, so that kills land before, inside and after one.
    started = time.perf_counter()
    update.record(db, "refresh", points[1], derived[points[1].at], history.sources, 999)
    span = time.perf_counter() - started
    rng = random.Random(15)
    previous, _ = _assert_whole(db, derived)
    advanced = inside = 0
    for kill in range(50):
        read_end, write_end = os.pipe()
        pid = _fork(_writer(db, history, points, derived, write_end))
        os.close(write_end)
        time.sleep(rng.uniform(0, 2 * span))
        os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
        assert os.WIFSIGNALED(status), "the writer finished before it was killed"
        inside += _drain(read_end).endswith(b"b")  # killed between a write's start and commit
        latest, count = _assert_whole(db, derived, integrity=kill % 10 == 9)
        assert latest >= previous and count == EXPECTATIONS
        advanced += latest > previous
        previous = latest
    assert 0 < advanced < 50  # some kills came after a commit, some before the first
    assert inside >= 10, f"only {inside} of 50 kills landed inside a refresh's write"
    assert [e.id for e in ledger.open_list(db)]  # and the ledger still reads as a list


#: Refreshes the writer makes while the readers watch; each holds its transaction open until
#: both readers have read beside it.
ROUNDS = 3
#: How long a process waits for the other side's signal before it fails (never reached when
#: the protocol works: only a broken reader or writer makes a process wait this long).
STUCK = 120.0


def _signal(fd: int, byte: bytes) -> None:
    os.write(fd, byte)


def _await(fd: int, what: str) -> bytes:
    """One byte from ``fd``; fail (rather than hang) if the other side died."""
    ready, _, _ = select.select([fd], [], [], STUCK)
    byte = os.read(fd, 1) if ready else b""
    if not byte:
        raise AssertionError(f"no signal: {what}")
    return byte


def _holding_commits(opened: list[int], read: int) -> None:
    """In the writer (a forked child): every ledger connection, just before it runs COMMIT,
    tells each reader that a refresh's transaction is open and waits until each has read."""
    connect = schema.connect

    def connect_and_hold(db, *args, **kwargs):
        conn = connect(db, *args, **kwargs)

        def trace(statement: str) -> None:
            if statement.strip().upper().startswith("COMMIT"):
                for fd in opened:
                    _signal(fd, b"o")
                for _ in opened:
                    _await(read, "a reader reading beside the open refresh")

        conn.set_trace_callback(trace)
        return conn

    schema.connect = connect_and_hold


def test_two_readers_beside_a_refresh_never_see_half_of_one(tmp_path, prepared) -> None:
    """Synchronised on events, not on time: the writer holds each refresh's transaction open
    (rows written, COMMIT not yet run) until both readers have read the ledger and proved that a
    write is in progress; in between, the readers read as fast as they can while the writer
    writes. Each read must show one refresh, whole: the last committed one at each signal."""
    _, history, points, derived = prepared
    db = tmp_path / "ledger.db"
    first = update.record(db, "refresh", points[0], derived[points[0].at], history.sources, 999)
    open_ids = {at: sorted(v.id for v in verdicts if v.open) for at, verdicts in derived.items()}
    seen = tmp_path / "seen"
    seen.mkdir()

    def whole() -> int:
        state = ledger.state(db, check_log=False)
        assert state.refresh is not None
        ids = [e.id for e in state.entries]
        assert ids == open_ids[state.refresh.at]
        assert len(ids) == state.refresh.open
        assert {e.check.refresh.id for e in state.entries} == {state.refresh.id}
        return state.refresh.id

    def write_in_progress() -> bool:
        probe = sqlite3.connect(db, timeout=0, isolation_level=None)
        try:
            probe.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            return "locked" in str(exc)
        finally:
            probe.close()
        return False

    def reader(name: str, signals: int, done: int) -> Callable[[], None]:
        def work() -> None:
            refreshes, reads = [], 0
            for round_ in range(ROUNDS + 1):
                while not select.select([signals], [], [], 0)[0]:  # free reads while it writes
                    whole()
                    reads += 1
                byte = _await(signals, "the writer's next refresh")
                current = whole()
                assert current == first.id + round_, "a read at a signal saw the wrong refresh"
                refreshes.append(current)
                if byte == b"o":
                    assert write_in_progress(), "the signal came without an open transaction"
                    _signal(done, b"r")
            (seen / name).write_text(f"{len(set(refreshes))} {reads}")

        return work

    to_readers = [os.pipe() for _ in range(2)]
    from_readers = os.pipe()
    readers = [
        _fork(reader(name, to_readers[n][0], from_readers[1]))
        for n, name in enumerate(("one", "two"))
    ]

    def writer() -> None:
        _holding_commits([w for _, w in to_readers], from_readers[0])
        for k in range(ROUNDS):
            point = points[(k + 1) % len(points)]
            update.record(db, "refresh", point, derived[point.at], history.sources, 1000 + k)
        for _, w in to_readers:
            _signal(w, b"d")  # the last refresh is committed: read it once more

    writing = _fork(writer)
    codes = [os.waitpid(pid, 0)[1] for pid in readers]
    if codes != [0, 0]:
        os.kill(writing, signal.SIGKILL)
    writer_code = os.waitpid(writing, 0)[1]
    assert codes == [0, 0], "a reader saw a refresh half written, or the wrong one"
    assert writer_code == 0, "the writer failed"
    counts = [(seen / name).read_text().split() for name in ("one", "two")]
    assert [int(c[0]) for c in counts] == [ROUNDS + 1] * 2  # each refresh seen, in order
    latest, _ = _assert_whole(db, derived)
    assert latest == first.id + ROUNDS


def test_the_command_killed_mid_refresh_keeps_the_previous_refresh(tmp_path, prepared) -> None:
    folder, _, _, derived = prepared
    db = tmp_path / "ledger.db"
    command = [sys.executable, "-m", "resolver", "ledger", "refresh", str(folder), "--db", str(db)]
    done = subprocess.run([*command, "--at", STANDPOINTS[0]], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    first, _ = _assert_whole(db, derived)
    rng = random.Random(7)
    for _ in range(3):
        child = subprocess.Popen(
            [*command, "--at", rng.choice(STANDPOINTS[1:])],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        time.sleep(rng.uniform(0.2, 1.0))
        child.send_signal(signal.SIGKILL)
        child.wait()
        latest, count = _assert_whole(db, derived)
        assert latest >= first and count == EXPECTATIONS


def test_two_refreshes_at_once_queue_and_both_land_whole(tmp_path, prepared) -> None:
    _, history, points, derived = prepared
    db = tmp_path / "ledger.db"
    update.record(db, "refresh", points[0], derived[points[0].at], history.sources, 999)

    def refresher(point) -> Callable[[], None]:
        def work() -> None:
            for k in range(4):
                update.record(db, "refresh", point, derived[point.at], history.sources, k)

        return work

    writers = [_fork(refresher(p)) for p in points[1:]]
    assert [os.waitpid(pid, 0)[1] for pid in writers] == [0, 0]
    latest, _ = _assert_whole(db, derived)
    conn = sqlite3.connect(db)
    ids = [row[0] for row in conn.execute("SELECT id FROM refresh ORDER BY id")]
    conn.close()
    assert ids == list(range(1, 10)) and latest == 9  # nine refreshes, none lost or merged
