"""Log positions: how far a check read each source file, and whether the files moved on since.

A maintained list is only as good as the log position it was checked through. A refresh records,
for each ``.jsonl`` file it read, its size in bytes, its line count, and where its last line
starts with that line's SHA-256 (so that a log rewritten rather than appended to is caught), and
for each ``.ol`` file the SHA-256 of its text. Comparing later costs a ``stat`` and one line's
read per file, never a pass over the history: ``ledger list`` stays independent of its length.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Sequence
from pathlib import Path

from resolver.errors import InputError, Location
from resolver.language.loader import collect_files
from resolver.ledger.model import LogPosition


def measure(files: Iterable[str]) -> tuple[LogPosition, ...]:
    """The current position of every file (read whole: this is refresh-time work)."""
    return tuple(_measure_one(name) for name in files)


def _measure_one(name: str) -> LogPosition:
    path = Path(name)
    try:
        stat = path.stat()
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", Location(name, 0)) from None
    resolved = str(path.resolve())
    if name.endswith(".jsonl"):
        stripped = data.rstrip(b"\n")
        tail = stripped.rfind(b"\n") + 1 if stripped else 0
        lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
        return LogPosition(
            name,
            resolved,
            "jsonl",
            len(data),
            lines,
            tail,
            hashlib.sha256(data[tail:]).hexdigest(),
            None,
            stat.st_mtime_ns,
        )
    digest = hashlib.sha256(data).hexdigest()
    return LogPosition(name, resolved, "ol", len(data), 0, 0, "", digest, stat.st_mtime_ns)


def same_size(positions: Sequence[LogPosition]) -> bool:
    """True when no file changed size since ``positions`` were measured (a cheap re-check)."""
    for position in positions:
        try:
            if os.stat(position.resolved).st_size != position.size:
                return False
        except OSError:
            return False
    return True


def changes(recorded: Sequence[LogPosition], paths: Sequence[str | Path] = ()) -> list[str]:
    """Why the files differ from the recorded positions (empty: nothing moved on).

    Every recorded file is compared, and files found under ``paths`` that the check did not
    read are reported too (a walk of the folders: it costs the number of files).
    """
    reasons = [reason for position in recorded if (reason := _compare(position)) is not None]
    known = {position.resolved for position in recorded}
    for name in collect_files(paths) if paths else ():
        if str(Path(name).resolve()) not in known:
            reasons.append(f"{name} was not read by the check")
    return reasons


def _compare(position: LogPosition) -> str | None:
    name = position.path
    try:
        stat = os.stat(position.resolved)
    except OSError:
        return f"{name} is gone"
    if position.kind == "ol":
        if stat.st_size != position.size:
            return f"{name} changed (declarations)"
        if stat.st_mtime_ns == position.mtime_ns:
            return None
        digest = hashlib.sha256(Path(position.resolved).read_bytes()).hexdigest()
        return None if digest == position.sha256 else f"{name} changed (declarations)"
    if stat.st_size < position.size:
        return f"{name} was rewritten: {stat.st_size} bytes, the check read {position.size}"
    if _tail_digest(position) != position.tail_sha256:
        return f"{name} was rewritten: line {position.lines} differs from the one checked"
    if stat.st_size > position.size:
        grown = stat.st_size - position.size
        return f"{name} grew by {grown} bytes past line {position.lines}, where the check read to"
    return None


def _tail_digest(position: LogPosition) -> str | None:
    """The SHA-256 of the bytes where the recorded last line was (one line's read)."""
    try:
        with open(position.resolved, "rb") as stream:
            stream.seek(position.tail_offset)
            return hashlib.sha256(stream.read(position.size - position.tail_offset)).hexdigest()
    except OSError:
        return None
