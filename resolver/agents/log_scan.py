"""The append's view of the log, read off the events a claim's preparation has just loaded.

Every append holds the log's lock and needs the log's ids (with their line numbers), each
channel's highest ``seq``, the latest ``recorded`` and the number of lines
(:class:`resolver.ingest.record.LogState`); without a kept scan it decodes every line of the log
again (0.01 s on the Lark history), right after the claim's preparation loaded those very lines.
So when the preparation read the log (or its columns kept by the store) from exactly the bytes
the store digested, the hook builds that state from the loaded columns and hands it to the
append in memory, as a process's own earlier append would (:func:`resolver.ingest.record.
remember`: the append then reads only the bytes after them, and keeps its scan for other
processes itself, :mod:`resolver.ingest.kept_scan`). The state is the scan's
exactly or not kept at all: each non-blank line of those bytes must be one loaded event of the
log (no line the loader merged into an earlier record), the bytes must end with a line break,
and they must be the digested bytes (read again and checked). Anything else leaves the append
to scan, as before. ``tests/agents/test_agents_log_scan.py`` checks the state equals the scan's.
"""

from __future__ import annotations

import hashlib
import operator
import re
from collections.abc import Sequence
from itertools import islice
from pathlib import Path
from typing import Any

from resolver.ingest.kept_scan import LineIds
from resolver.language.event_columns import NO_SEQ, EventColumns
from resolver.store.keys import Stamp
from resolver.times import EPOCH_UNIX

#: The line break before a blank line (one ``bytes.strip`` leaves empty), and a blank first line.
_BEFORE_BLANK = re.compile(rb"\n(?=[ \t\r\x0b\x0c]*\n)")
_BLANK_FIRST = re.compile(rb"[ \t\r\x0b\x0c]*\n")


def _blank_lines(data: bytes) -> list[int]:
    """The numbers of the blank lines of ``data`` (which ends with a line break), increasing:
    one C-level search over the bytes, and a count of line breaks per blank line found."""
    blank = [1] if _BLANK_FIRST.match(data) else []
    at, breaks = 0, 0
    for found in _BEFORE_BLANK.finditer(data):
        end = found.end()  # the blank line begins here, after ``breaks`` line breaks
        breaks += data.count(b"\n", at, end)
        at = end
        blank.append(breaks + 1)
    return blank


def state_of(events: EventColumns, source: str, data: bytes) -> dict[str, Any] | None:
    """The scan's fields (``lines``, ``ids``, ``last_seq``, ``last_recorded``) of ``data``, the
    bytes of the file the loader read as ``source`` into ``events``; None unless every
    non-blank line is one of its rows and the bytes end with a line break.

    At 100k events every pass over the rows counts (the hook's whole claim aims at 0.1 s), so
    the lines are counted and the blank ones found by C-level searches of the bytes, not split
    and stripped one by one; the rows' lines are sorted as one array, and the ids are handed
    over as the columns hold them (:class:`~resolver.ingest.kept_scan.LineIds`)."""
    if data and not data.endswith(b"\n"):
        return None
    if events._odd_locations:  # a location that is no file position: cannot be matched
        return None
    count = data.count(b"\n")
    named = events.strings.index(source) if source in events.strings else -1
    line_of: Sequence[int] = events.line
    id_of: Sequence[str] = events.ids
    seq_of: Sequence[int] = events.seq
    channel_of: Sequence[int] = events.channel
    recorded_of: Sequence[int] = events.recorded
    if events.source.count(named) != len(events.source):  # not the usual case: one log
        rows = [row for row, s in enumerate(events.source) if s == named]
        line_of, id_of, seq_of, channel_of, recorded_of = (
            [column[row] for row in rows]
            for column in (line_of, id_of, seq_of, channel_of, recorded_of)
        )
    # The loader skips every line ``str.strip`` leaves empty, so every line the scan finds
    # blank: with a row on each line (checked below), none is blank, and the bytes need not be
    # searched for one (6 ms at 100k events).
    blank = _blank_lines(data) if len(line_of) != count else []
    if len(line_of) != count - len(blank):
        return None
    if blank:
        skipped = set(blank)
        filled = [number for number in range(1, count + 1) if number not in skipped]
    else:
        filled = list(range(1, count + 1))
    if sorted(line_of) != filled:
        return None
    # Each line one row: the loader kept every record, so no id repeats (checked all the same:
    # the loader sorts its rows by id, so the ids increase; else they are counted as a set).
    if not all(map(operator.lt, id_of, islice(id_of, 1, None))) and len(set(id_of)) != len(id_of):
        return None
    ids = LineIds(id_of[:], line_of[:])  # copies: the columns may grow later
    highest: dict[int, int] = {}  # by channel's string index: one pass, no string looked up
    for channel, seq in zip(channel_of, seq_of, strict=True):
        if seq != NO_SEQ and seq > highest.get(channel, NO_SEQ):
            highest[channel] = seq
    strings = events.strings
    last_seq = {strings[channel]: seq for channel, seq in highest.items()}  # no seq is < 0
    last = max(recorded_of) + EPOCH_UNIX if len(recorded_of) else None
    return {"lines": count, "ids": ids, "last_seq": last_seq, "last_recorded": last}


def keep_scan(events: object, stamp: Stamp, log: Path) -> bool:
    """Hand this process's next append to ``log`` the scan built from ``events``, loaded from
    the files of ``stamp`` (see the module's docstring); True when it was handed over. The
    append keeps its own scan for other processes afterwards, so nothing is written here."""
    from resolver.ingest.record import LogState, remember

    if not isinstance(events, EventColumns):
        return False
    try:
        target = str(log.resolve())
    except OSError:
        return False
    found = [s for s in stamp.files if s.path == target]
    if len(found) != 1:
        return False
    (file,) = found
    try:
        with open(log, "rb") as stream:
            data = stream.read(file.size)
    except OSError:
        return False
    digest = hashlib.sha256(data)
    if len(data) != file.size or digest.hexdigest() != file.digest:
        return False  # rewritten since it was read: the append scans it
    fields = state_of(events, file.given, data)
    if fields is None:
        return False
    remember(str(log), data, LogState(str(log), **fields), digest)
    return True
