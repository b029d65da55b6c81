"""The one write path into a JSON-lines log (SPEC §6.3): ``openloop record`` and its importers.

Agents, hooks, scripts and ``ingest --append`` all append through :func:`append_event` or
:func:`append_lines`, which make every append safe while other writers and readers run:

- the event is validated by the JSON-lines reader itself (``resolver.language.eventlog``), so what
  is written is exactly what ``status`` will accept;
- the log is held under an exclusive ``fcntl.flock`` while the next ``seq`` of the channel is read
  and the line is written, so concurrent writers never interleave, lose a line or reuse a ``seq``;
- the line goes out in one ``write`` on an ``O_APPEND`` descriptor, then ``fsync`` before success
  is reported: a writer killed at any moment leaves the file without the event or with it whole;
- a last line without its newline (a torn write by some other tool) or a line that is not JSON is
  reported as ``LOG:LINE: error: ...`` and the log is left untouched, never silently repaired;
- a record cannot rewrite what the log knew: a given ``recorded`` earlier than the latest
  ``recorded`` already in the log (an event without one was recorded at its ``at``), or a given
  ``seq`` other than the channel's next, is refused. Otherwise a writer could slip an event into
  the past of a standpoint someone already read, or fill a sequence gap that the rules reported.

The existing lines are checked for JSON well-formedness only (full validation of a long log on
every append would make each record cost as much as a ``status``); the new line is checked fully.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable, Iterator, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.ingest import kept_scan
from resolver.ingest.writer import canonical, dumps
from resolver.language.eventlog import read_jsonl_text
from resolver.times import TimeFormatError, format_time, now, parse_time
from resolver.vocabulary import MARKERS

__all__ = ["LogState", "append_event", "append_lines", "locked_log"]

_CHUNK = 1 << 20
#: List fields (``files`` and the markers): a single name given for one is written as a
#: one-element list.
_LIST_FIELDS = ("files", "evidence", *MARKERS)


@dataclass
class LogState:
    """What an append needs to know about the log as it stands under the lock."""

    name: str
    lines: int = 0  # number of lines in the file (the next line is lines + 1)
    #: id -> line number: a dict, or a kept scan's or the loaded columns' lists (kept_scan.LineIds)
    ids: MutableMapping[str, int] = field(default_factory=dict)
    last_seq: dict[str, int] = field(default_factory=dict)  # channel -> highest seq
    #: The latest ``recorded`` (else ``at``) of any line, as Unix seconds; None for a new log or
    #: when no line holds a readable time (the reader reports those lines, not the writer).
    last_recorded: int | None = None

    def next_seq(self, channel: str) -> int:
        """The channel's next number: one past its highest ``seq`` (1 for a new channel)."""
        return self.last_seq.get(channel, 0) + 1

    def note(self, record: dict[str, Any]) -> None:
        """Account for one more line holding ``record``."""
        self.lines += 1
        self.ids.setdefault(str(record.get("id")), self.lines)
        seq, channel = record.get("seq"), record.get("channel")
        if isinstance(seq, int) and isinstance(channel, str):
            self.last_seq[channel] = max(seq, self.last_seq.get(channel, 0))
        known = record.get("recorded") or record.get("at")
        if isinstance(known, str):
            try:
                instant = parse_time(known)
            except TimeFormatError:
                return
            if self.last_recorded is None or instant > self.last_recorded:
                self.last_recorded = instant


def scan(name: str, data: bytes, state: LogState | None = None) -> LogState:
    """Read ids and per-channel ``seq`` from a log's bytes (continuing ``state`` if given).

    A last line without its newline or a line that is not a JSON object is an error.
    """
    state = state if state is not None else LogState(name)
    if not data:
        return state
    parts = data.split(b"\n")
    if parts[-1]:
        raise InputError(
            "the last line is incomplete (no newline at its end, perhaps a torn write); "
            "repair or remove it before appending",
            Location(name, state.lines + len(parts)),
        )
    for raw in parts[:-1]:
        if not raw.strip():
            state.lines += 1
            continue
        try:
            record = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as exc:
            detail = exc.msg if isinstance(exc, json.JSONDecodeError) else "not UTF-8 text"
            raise InputError(
                f"invalid JSON ({detail}); the log must hold one whole event a line",
                Location(name, state.lines + 1),
            ) from None
        if not isinstance(record, dict):
            raise InputError("expected a JSON object (one event)", Location(name, state.lines + 1))
        state.note(record)
    return state


#: Per process, what has been scanned of each log (by device and inode): its size then, its last
#: bytes, the state and a running SHA-256 of the bytes read. A log only grows, so a later append
#: reads only the lines added since; if the file is shorter or its bytes before that point
#: differ, it was rewritten: scan it anew.
_SCANNED: dict[tuple[int, int], tuple[int, bytes, LogState, Any]] = {}
_TAIL = 64


def _resume(fd: int, key: tuple[int, int], size: int, name: str) -> tuple[LogState, Any]:
    """The log's state at ``size`` bytes, and a SHA-256 of those bytes (kept between appends,
    so that keeping the scan never reads the log again)."""
    cached = _SCANNED.pop(key, None)
    if cached is not None:
        offset, tail, state, digest = cached
        if offset <= size and os.pread(fd, len(tail), offset - len(tail)) == tail:
            state.name = name
            added = _read(fd, offset, size)
            digest.update(added)
            return scan(name, added, state), digest
    data = _read(fd, 0, size)
    digest = hashlib.sha256(data)
    kept = kept_scan.read(name, data, digest)  # another process's scan (ingest/kept_scan.py)
    if kept is not None:
        offset, fields = kept
        return scan(name, data[offset:], LogState(name, **fields)), digest
    return scan(name, data), digest


def remember(log: str | Path, data: bytes, state: LogState, digest: Any) -> None:
    """Take ``state`` as this process's scan of ``data``, the log's first bytes as the caller
    read and checked them (``digest``: their running SHA-256): the next append to ``log`` in
    this process reads only the lines after them, as after an append of its own."""
    try:
        info = os.stat(log)
    except OSError:
        return
    _SCANNED[(info.st_dev, info.st_ino)] = (len(data), data[-_TAIL:], state, digest)


@contextlib.contextmanager
def locked_log(log: str | Path) -> Iterator[tuple[int, LogState]]:
    """Open ``log`` for appending (creating it), hold an exclusive lock, and scan it."""
    path = Path(log)
    name = str(log)
    created = not path.exists()
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o666)
    except OSError as exc:
        raise InputError(
            f"cannot open the log for appending: {exc.strerror}", Location(name, 1)
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        if created:
            _fsync_folder(path)
        info = os.fstat(fd)
        key = (info.st_dev, info.st_ino)
        state, digest = _resume(fd, key, info.st_size, name)
        yield fd, state  # on an exception the state may be ahead of the file: not cached
        size = os.fstat(fd).st_size
        digest.update(_read(fd, info.st_size, size))  # only the lines this append wrote
        kept_scan.keep(name, size, digest.hexdigest(), state)
        _SCANNED[key] = (
            size,
            os.pread(fd, min(size, _TAIL), size - min(size, _TAIL)),
            state,
            digest,
        )
    finally:
        os.close(fd)  # closing releases the lock


def _read(fd: int, offset: int, size: int) -> bytes:
    chunks = []
    while offset < size:
        chunk = os.pread(fd, min(size - offset, 1 << 24), offset)
        if not chunk:
            break
        chunks.append(chunk)
        offset += len(chunk)
    return b"".join(chunks)


def _write_all(fd: int, data: bytes, *, sync: bool = True) -> None:
    """One ``write`` (regular files take it whole); loop only if the kernel ever splits it."""
    view = memoryview(data)
    while view:
        try:
            written = os.write(fd, view)
        except InterruptedError:
            continue
        view = view[written:]
    if sync:
        os.fsync(fd)


def _fsync_folder(path: Path) -> None:
    try:
        folder = os.open(path.parent if str(path.parent) else ".", os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(folder)
    except OSError as exc:  # some filesystems refuse fsync on a directory
        if exc.errno not in (errno.EINVAL, errno.EBADF):
            raise
    finally:
        os.close(folder)


def append_event(log: str | Path, event: dict[str, Any]) -> dict[str, Any]:
    """Append one event to ``log`` and return the full event written.

    Missing ``seq`` becomes the channel's next number, missing ``at`` and ``recorded`` become
    now (``recorded`` is now even when ``at`` is given: it is when the log learned of the event),
    a missing ``id`` becomes ``CHANNEL-SEQ``. An event whose ``id`` is already in the log with the
    same given fields is not written again (a retried append is harmless); with other fields it is
    an error. Raises :class:`InputError` (``LOG:LINE: error: ...``) for an invalid event or log.
    """
    with locked_log(log) as (fd, state):
        record, duplicate = _complete(dict(event), state)
        if duplicate is not None:
            return duplicate
        _write_all(fd, (dumps(record) + "\n").encode("utf-8"))
        state.note(record)
        return canonical(record)


def append_lines(
    log: str | Path, events: Iterable[dict[str, Any]], *, skip_existing: bool = True
) -> list[str]:
    """Append complete events (an importer's) and return the ids written.

    With ``skip_existing``, events whose ``id`` the log already holds are left out, so a re-run
    adds only what is new. Every event is validated like :func:`append_event`'s and spooled to a
    temporary file before the first byte reaches the log, so bad input writes nothing; the spool
    is then appended in chunks of whole lines (a kill mid-way leaves whole lines only, and a
    re-run adds the rest).
    """
    with locked_log(log) as (fd, state), tempfile.TemporaryFile() as spool:
        written: list[str] = []
        for event in events:
            if skip_existing and str(event.get("id")) in state.ids:
                continue
            line = dumps(event)
            _validate(line, state)
            state.note(event)
            written.append(str(event["id"]))
            spool.write(line.encode("utf-8") + b"\n")
        spool.seek(0)
        rest = b""
        while chunk := spool.read(_CHUNK):
            data = rest + chunk
            cut = data.rfind(b"\n") + 1
            if cut:
                _write_all(fd, data[:cut], sync=False)
            rest = data[cut:]
        if rest:
            _write_all(fd, rest, sync=False)
        if written:
            os.fsync(fd)
        return written


def _complete(record: dict[str, Any], state: LogState) -> tuple[dict[str, Any], Any]:
    """Fill the missing fields; returns the record, or the existing one for a retried append."""
    given = {k: v for k, v in record.items() if v is not None}
    for key in _LIST_FIELDS:
        if isinstance(given.get(key), str):
            given[key] = [given[key]]
    record = dict(given)
    channel = record.get("channel")
    if channel is None:
        raise InputError("missing required field 'channel'", Location(state.name, state.lines + 1))
    event_id = record.get("id")
    if isinstance(event_id, str) and event_id in state.ids:
        return record, _existing_or_conflict(event_id, given, state)
    if isinstance(channel, str) and channel and "seq" not in record:
        record["seq"] = state.next_seq(channel)
    stamp = format_time(now())
    record.setdefault("at", stamp)
    record.setdefault("recorded", stamp)
    if "id" not in record and isinstance(channel, str) and channel:
        record["id"] = _fresh_id(f"{channel}-{record.get('seq', state.lines + 1)}", state)
    parsed = _validate(dumps(record), state)
    _refuse_rewrites(given, state)
    record["at"] = format_time(parsed.at)
    record["recorded"] = format_time(parsed.recorded)
    return record, None


def _refuse_rewrites(record: dict[str, Any], state: LogState) -> None:
    """A given ``recorded`` before the log's latest, or a given ``seq`` other than the next."""
    location = Location(state.name, state.lines + 1)
    given = record.get("recorded")
    if isinstance(given, str) and state.last_recorded is not None:
        try:
            instant = parse_time(given)
        except TimeFormatError:
            instant = None  # the reader names the malformed time below
        if instant is not None and instant < state.last_recorded:
            raise InputError(
                f"recorded {given} is earlier than the latest recorded time already in the log "
                f"({format_time(state.last_recorded)}); a record cannot rewrite what the log knew",
                location,
            )
    seq, channel = record.get("seq"), record.get("channel")
    if isinstance(seq, int) and not isinstance(seq, bool) and isinstance(channel, str):
        expected = state.next_seq(channel)
        if seq != expected:
            raise InputError(
                f"seq {seq} is not the next number of channel '{channel}' ({expected}); "
                "leave seq out to have it numbered",
                location,
            )


def _validate(line: str, state: LogState) -> Any:
    """Check one line with the JSON-lines reader, as the line it would become in the log."""
    location = Location(state.name, state.lines + 1)
    if "\n" in line:
        raise InputError("an event must be written on one line", location)
    try:
        (parsed,) = read_jsonl_text(line, state.name)
    except InputError as exc:
        raise InputError(exc.detail, location) from None
    return parsed


def _fresh_id(base: str, state: LogState) -> str:
    candidate, suffix = base, 1
    while candidate in state.ids:
        suffix += 1
        candidate = f"{base}.{suffix}"
    return candidate


def _existing_or_conflict(event_id: str, given: dict[str, Any], state: LogState) -> dict[str, Any]:
    """The logged event when every given field matches it; else the conflict as an error."""
    line = state.ids[event_id]
    existing = _line_record(state, line)
    mismatched = [k for k, v in given.items() if not _same(k, existing.get(k), v)]
    if mismatched:
        raise InputError(
            f"event id '{event_id}' is already in the log (line {line}) with a different "
            f"{', '.join(sorted(mismatched))}",
            Location(state.name, state.lines + 1),
        )
    return canonical(existing)


def _same(key: str, logged: Any, given: Any) -> bool:
    if key in ("at", "recorded") and isinstance(logged, str) and isinstance(given, str):
        try:
            return parse_time(logged) == parse_time(given)
        except TimeFormatError:
            return False
    return bool(logged == given)


def _line_record(state: LogState, number: int) -> dict[str, Any]:
    with open(state.name, "rb") as stream:
        for index, raw in enumerate(stream, start=1):
            if index == number:
                return dict(json.loads(raw))
    return {}
