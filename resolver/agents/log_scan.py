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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from resolver.language.event_columns import NO_SEQ, EventColumns
from resolver.store.keys import Stamp
from resolver.times import EPOCH_UNIX


def state_of(events: EventColumns, source: str, data: bytes) -> dict[str, Any] | None:
    """The scan's fields (``lines``, ``ids``, ``last_seq``, ``last_recorded``) of ``data``, the
    bytes of the file the loader read as ``source`` into ``events``; None unless every
    non-blank line is one of its rows and the bytes end with a line break."""
    if data and not data.endswith(b"\n"):
        return None
    lines = data.split(b"\n")[:-1] if data else []
    filled = [number for number, raw in enumerate(lines, start=1) if raw.strip()]
    if events._odd_locations:  # a location that is no file position: cannot be matched
        return None
    named = events.strings.index(source) if source in events.strings else -1
    if events.source.count(named) == len(events.source):  # the usual case: one log
        rows: Sequence[int] = range(len(events.source))
    else:
        rows = [row for row, s in enumerate(events.source) if s == named]
    line_of, id_of, seq_of = events.line, events.ids, events.seq
    if sorted(line_of[row] for row in rows) != filled:
        return None
    # Each line one row: the loader kept every record, so no id repeats (checked all the same).
    ids = {id_of[row]: line_of[row] for row in rows}
    if len(ids) != len(filled):
        return None
    last_seq: dict[str, int] = {}
    strings, channels = events.strings, events.channel
    for row in rows:
        seq = seq_of[row]
        if seq != NO_SEQ:
            channel = strings[channels[row]]
            last_seq[channel] = max(seq, last_seq.get(channel, 0))
    recorded = max((events.recorded[row] for row in rows), default=None)
    last = None if recorded is None else recorded + EPOCH_UNIX
    return {"lines": len(lines), "ids": ids, "last_seq": last_seq, "last_recorded": last}


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
