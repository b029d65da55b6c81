"""An appended log read as an increment: the kept columns, and only the lines added.

Appending to a log (``record``, the hook, the MCP ``record``, ``ingest --append``) changes the
file's SHA-256, so the store's entry no longer answers. Reading the whole log again is most of
what a first preparation of the grown history costs in reading (0.9 s at 100k events), yet the
entry already holds the columns a load of its first bytes gave (:mod:`resolver.store.columns`).
So when the entry was derived from files that are byte for byte a prefix of today's, the log is
the kept columns plus the parse of the lines added, giving exactly the columns (the same string
table, the same arrays, rows in id order) a fresh load gives. Exactly means:

- the entry's key is the key today's code and file names give to the stamps it recorded (the
  same code, scope and names), and every file has its recorded size and SHA-256 except one
  ``.jsonl``, which has grown: its first bytes are those recorded (size and SHA-256), ending
  with a line break, so the lines added are whole lines after the last one read;
- nothing read after that file holds events: the loader reads files in order, and a fresh
  load interns the added lines' strings and entries after those of every earlier file, which
  is where the kept columns put them only when no later file added any (a file whose name is in
  the kept string table may have; the check is conservative);
- the bytes parsed are those digested (their size and SHA-256 checked in the same pass);
- the lines added go through the loader's own reader, with their numbers in the file, and no
  added id is already in the log or added twice: then every record is kept, no duplicate can
  conflict, and the rows are the kept ones and the added ones merged by id.

Anything else (a rewritten or truncated line, an edited ``.ol`` file, two logs grown, a bad
added line, a repeated id) is no increment: the files are loaded as a fresh command loads them,
which raises exactly the error a fresh load raises. The prepared history is then derived from
the loaded project as usual (docs/design/increments.md says what a later stage would reuse).
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left
from dataclasses import dataclass
from itertools import pairwise

from resolver.errors import InputError
from resolver.language.event_columns import EventColumns
from resolver.language.eventlog import read_jsonl_into
from resolver.store import columns
from resolver.store.entry import Entry
from resolver.store.keys import FileStamp, Stamp


@dataclass(frozen=True)
class Increment:
    """What the last load through the store read as an increment (for the bench's log line)."""

    #: The grown log's name as given, and how many bytes and lines were added to it.
    name: str
    added_bytes: int
    added_events: int
    #: The key of the entry whose kept columns were grown, and the rows of the grown log that
    #: were added, in the order read: what an append that touches nothing carries the entry
    #: over with (:mod:`resolver.store.quiet`).
    key: str = ""
    added_rows: tuple[int, ...] = ()


#: The increment the last :func:`grown_log` of this process read, or None when it read none.
last: Increment | None = None


def grown_log(entry: Entry, stamp: Stamp) -> EventColumns | None:
    """The events of the files ``stamp`` digested, read as the columns ``entry`` kept plus the
    lines appended since (see the module's docstring), or None when that is not exactly what a
    fresh load would give: then the caller loads the files."""
    global last
    last = None
    kept = entry.log_before()
    if kept is None:
        return None
    key, recorded, data = kept
    grown = _grown_file(key, recorded, stamp)
    if grown is None:
        return None
    position, before = grown
    log = columns.unpack(data)
    if log is None or not _last_with_events(log, stamp, position):
        return None
    now = stamp.files[position]
    added = _added_text(now, before)
    if added is None:
        return None
    text, first_line = added
    size = len(log)
    try:
        read_jsonl_into(text, now.given, log, first_line)
    except InputError:
        return None  # a fresh load says what is wrong, as it always does
    found = _merged(log, size)
    if found is None:
        return None
    merged, order = found
    if order is None:  # every added id sorts after the kept ones: the rows as read
        rows: tuple[int, ...] = tuple(range(size, len(merged)))
    else:
        rows = tuple(
            sorted((n for n, row in enumerate(order) if row >= size), key=order.__getitem__)
        )
    last = Increment(now.given, now.size - before.size, len(merged) - size, key, rows)
    return merged


def _grown_file(
    key: str, recorded: list[tuple[str, int, str]], stamp: Stamp
) -> tuple[int, FileStamp] | None:
    """The position of the one ``.jsonl`` file grown since ``recorded``, with its recorded
    stamp, when the entry's key is the key of ``recorded`` under today's code, scope and names
    and every other file is unchanged."""
    if len(recorded) != len(stamp.files):
        return None
    then = []
    for (path, size, digest), now in zip(recorded, stamp.files, strict=True):
        if path != now.path or type(size) is not int or not isinstance(digest, str):
            return None
        then.append(FileStamp(path, size, digest, now.given))
    if Stamp.of_digested(then, stamp.scope).key != key:
        return None
    changed = [n for n, (a, b) in enumerate(zip(then, stamp.files, strict=True)) if a != b]
    if len(changed) != 1:
        return None
    position = changed[0]
    before, now = then[position], stamp.files[position]
    if not now.given.endswith(".jsonl") or not 0 < before.size < now.size:
        return None
    return position, before


def _last_with_events(log: EventColumns, stamp: Stamp, position: int) -> bool:
    """No file read after the grown one can have added a row (or a string) to the log."""
    return all(log.find_string(later.given) is None for later in stamp.files[position + 1 :])


def _added_text(now: FileStamp, before: FileStamp) -> tuple[str, int] | None:
    """The lines added to the grown log and the number of the first, when the file still holds
    exactly the digested bytes and begins with the recorded ones, up to a line break."""
    try:
        with open(now.given, "rb") as stream:
            data = stream.read()
    except OSError:
        return None
    if len(data) != now.size or data[before.size - 1 : before.size] != b"\n":
        return None
    digest = hashlib.sha256(memoryview(data)[: before.size])
    if digest.hexdigest() != before.digest:
        return None
    digest.update(memoryview(data)[before.size :])
    if digest.hexdigest() != now.digest:
        return None  # the file changed since it was digested
    try:
        text = data[before.size :].decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text, data.count(b"\n", 0, before.size) + 1


def _merged(log: EventColumns, size: int) -> tuple[EventColumns, list[int] | None] | None:
    """The log's rows in id order, rows from ``size`` on being the added ones (the kept rows
    are in id order already), with the rows of ``log`` each holds (None: the rows as they are);
    None when an added id is repeated or already in the log."""
    ids = log.ids
    old = ids[:size]
    added = sorted(range(size, len(ids)), key=ids.__getitem__)
    places = []
    for row in added:
        ident = ids[row]
        place = bisect_left(old, ident)
        if place < size and old[place] == ident:
            return None
        places.append(place)
    for a, b in pairwise(added):
        if ids[a] == ids[b]:
            return None
    if all(place == size for place in places):
        if added == list(range(size, len(ids))):
            return log, None
        order = [*range(size), *added]
        return log.take(order), order
    order: list[int] = []
    start = 0
    for place, row in zip(places, added, strict=True):
        order.extend(range(start, place))
        order.append(row)
        start = place
    order.extend(range(start, size))
    return log.take(order), order
