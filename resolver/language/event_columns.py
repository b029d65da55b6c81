"""The event log held as columns: parallel arrays of integers and strings, one row per event.

A long log (100k events and more) is read once per command but mostly consumed whole by the fact
writer, the channel log and the text linker, which need a few fields of every event and no
per-event object. :class:`EventColumns` keeps those fields in parallel columns (names, keys,
marker targets and paths interned to indexes into one string table; set values into a value
table; times in the project's clingo encoding, ``times.encode``) and builds an :class:`Event`
only when one is asked for, by index or by iteration. Events are not cached: an ``Event`` is a
frozen value, so two builds of one row are equal, and a consumer that reads a handful of events
(an explanation, a finding) pays for that handful only.

Multi-valued fields (``set``, markers, ``files``, ``notes``) are stored flat, each row holding
the span ``[start, end)`` of its entries: reordering rows (the loader sorts them by id) moves two
integers per row and no entry. Every column is a list or an :mod:`array`, so a project pickles
cheaply for process pools and clusters.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Iterator, Sequence
from operator import itemgetter
from typing import Any, overload

from resolver.errors import Location
from resolver.language.model import Assignment, Event, Marker, Value
from resolver.times import EPOCH_UNIX

__all__ = ["NO_SEQ", "EventColumns"]

#: ``seq`` of an event without a sequence number (no valid seq is negative).
NO_SEQ = -(2**63)
#: Index of an absent name (``by``, ``kind``) or an absent location column.
_NONE = -1
#: Columns of one entry per row, and columns of the entries of multi-valued fields.
_ROW_ARRAYS = (
    *("channel", "at", "recorded", "seq", "by", "kind", "outcome", "source", "line", "column"),
    *("set_start", "set_end", "marker_start", "marker_end", "file_start", "file_end"),
    *("note_start", "note_end"),
)
_ENTRY_ARRAYS = (
    *("set_key", "set_value", "marker_kind", "marker_target", "file_path", "note_key"),
    "note_text",
)


class EventColumns(Sequence[Event]):
    """Events as columns; indexable, iterable and sized like the tuple of events it replaces."""

    def __init__(self) -> None:
        #: Interned strings (channels, actors, kinds, outcomes, keys, marker kinds and targets,
        #: paths, file names) and set values; columns hold indexes into these.
        self.strings: list[str] = []
        self._string_ids: dict[str, int] = {}
        self.values: list[Value] = []
        self._value_ids: dict[tuple[type, Value], int] = {}
        self.ids: list[str] = []
        self.texts: list[str | None] = []
        self.channel = array("i")
        self.at = array("q")  # encoded: Unix seconds minus times.EPOCH_UNIX
        self.recorded = array("q")
        self.seq = array("q")  # NO_SEQ when absent
        self.by = array("i")  # _NONE when absent
        self.kind = array("i")
        self.outcome = array("i")
        self.set_start, self.set_end = array("i"), array("i")
        self.set_key = array("i")
        self.set_value = array("i")
        self.marker_start, self.marker_end = array("i"), array("i")
        self.marker_kind = array("i")
        self.marker_target = array("i")
        self.file_start, self.file_end = array("i"), array("i")
        self.file_path = array("i")
        self.note_start, self.note_end = array("i"), array("i")
        self.note_key = array("i")
        self.note_text = array("i")
        self.source = array("i")
        self.line = array("q")
        self.column = array("q")  # _NONE when the location has no column
        #: Locations that are not plain :class:`Location` values, by row (rare).
        self._odd_locations: dict[int, Location] = {}
        self._positions: dict[str, int] | None = None

    # -- building -------------------------------------------------------------------------------

    def string_id(self, text: str) -> int:
        """The index of ``text`` in the string table, added on first sight."""
        number = self._string_ids.get(text)
        if number is None:
            number = self._string_ids[text] = len(self.strings)
            self.strings.append(text)
        return number

    def find_string(self, text: str) -> int | None:
        """The index of ``text`` if some column holds it, else None."""
        return self._string_ids.get(text)

    def value_id(self, value: Value) -> int:
        """The index of a set value; ``1`` and ``true`` are different values."""
        key = (type(value), value)
        number = self._value_ids.get(key)
        if number is None:
            number = self._value_ids[key] = len(self.values)
            self.values.append(value)
        return number

    def append_row(
        self,
        ident: str,
        channel: str,
        at: int,
        recorded: int,
        source: str,
        line: int,
        column: int | None,
        seq: int | None,
        by: str | None,
        kind: str | None,
        text: str | None,
        sets: Iterable[tuple[str, Value]],
        markers: Iterable[tuple[str, str]],
        outcome: str,
        files: Iterable[str],
        notes: Iterable[tuple[str, str]] = (),
    ) -> None:
        """Add one event's fields (times in Unix seconds, as an :class:`Event` holds them; the
        location as file, line and column)."""
        known = self._string_ids.get
        sid = self.string_id
        self.ids.append(ident)
        self.texts.append(text)
        number = known(channel)
        self.channel.append(sid(channel) if number is None else number)
        self.at.append(at - EPOCH_UNIX)
        self.recorded.append(recorded - EPOCH_UNIX)
        self.seq.append(NO_SEQ if seq is None else seq)
        self.by.append(_NONE if by is None else sid(by))
        self.kind.append(_NONE if kind is None else sid(kind))
        number = known(outcome)
        self.outcome.append(sid(outcome) if number is None else number)
        self.set_start.append(len(self.set_key))
        for key, value in sets:
            self.set_key.append(sid(key))
            self.set_value.append(self.value_id(value))
        self.set_end.append(len(self.set_key))
        self.marker_start.append(len(self.marker_kind))
        for marker_kind, target in markers:
            self.marker_kind.append(sid(marker_kind))
            self.marker_target.append(sid(target))
        self.marker_end.append(len(self.marker_kind))
        self.file_start.append(len(self.file_path))
        for path in files:
            self.file_path.append(sid(path))
        self.file_end.append(len(self.file_path))
        self.note_start.append(len(self.note_key))
        for key, note in notes:
            self.note_key.append(sid(key))
            self.note_text.append(sid(note))
        self.note_end.append(len(self.note_key))
        number = known(source)
        self.source.append(sid(source) if number is None else number)
        self.line.append(line)
        self.column.append(_NONE if column is None else column)
        self._positions = None

    def extend_plain(self, source: str, rows: Sequence[tuple[Any, ...]]) -> None:
        """Add rows that hold no set, marker, file or note, read from ``source`` and located by
        line alone: each ``(id, channel, at, recorded, line, seq, by, kind, text, outcome)``
        as :meth:`append_row` takes them. The result is :meth:`append_row`'s, row after row
        (the string table too, in the same order), built a column at a time."""
        if not rows:
            return
        ids, channels, ats, recordeds, lines, seqs, bys, kinds, texts, outcomes = zip(
            *rows, strict=True
        )
        table = self._string_ids
        fresh = {*channels, *bys, *kinds, *outcomes, source}.difference(table)  # walks the set
        fresh.discard(None)
        for row in rows if fresh else ():  # new strings are numbered in reading order
            for text in (row[1], row[6], row[7], row[9], source):
                if text in fresh:
                    self.string_id(text)
                    fresh.discard(text)
            if not fresh:
                break
        number, count, epoch = table.__getitem__, len(rows), EPOCH_UNIX
        self.ids.extend(ids)
        self.texts.extend(texts)
        self.channel.extend(map(number, channels))
        self.at.extend([at - epoch for at in ats])
        self.recorded.extend([at - epoch for at in recordeds])
        self.seq.extend([NO_SEQ if seq is None else seq for seq in seqs])
        self.by.extend([_NONE if by is None else number(by) for by in bys])
        self.kind.extend([_NONE if kind is None else number(kind) for kind in kinds])
        self.outcome.extend(map(number, outcomes))
        spans = ("set", self.set_key), ("marker", self.marker_kind), ("file", self.file_path)
        for field, entries in (*spans, ("note", self.note_key)):
            span = array("i", [len(entries)]) * count
            getattr(self, f"{field}_start").extend(span)
            getattr(self, f"{field}_end").extend(span)
        self.source.extend(array("i", [table[source]]) * count)
        self.line.extend(lines)
        self.column.extend(array("q", [_NONE]) * count)
        self._positions = None

    def append_event(self, event: Event) -> None:
        """Add one :class:`Event` as a row."""
        location = event.location
        if type(location) is not Location:
            self._odd_locations[len(self.ids)] = location
        self.append_row(
            event.id,
            event.channel,
            event.at,
            event.recorded,
            location.file,
            location.line,
            location.column,
            event.seq,
            event.by,
            event.kind,
            event.text,
            ((a.key, a.value) for a in event.sets),
            ((m.kind, m.target) for m in event.markers),
            event.outcome,
            event.files,
            event.notes,
        )

    def mark(self) -> tuple[int, int, int, int, int]:
        """The sizes to go back to with :meth:`rollback`."""
        return (
            len(self.ids),
            len(self.set_key),
            len(self.marker_kind),
            len(self.file_path),
            len(self.note_key),
        )

    def rollback(self, mark: tuple[int, int, int, int, int]) -> None:
        """Drop every row added since ``mark`` (interned strings and values stay, unused)."""
        size, sets, markers, files, notes = mark
        for name in ("ids", "texts", "channel", "at", "recorded", "seq", "by", "kind", "outcome"):
            del getattr(self, name)[size:]
        for name in ("source", "line", "column", "set_start", "set_end", "marker_start"):
            del getattr(self, name)[size:]
        for name in ("marker_end", "file_start", "file_end", "note_start", "note_end"):
            del getattr(self, name)[size:]
        del self.set_key[sets:], self.set_value[sets:]
        del self.marker_kind[markers:], self.marker_target[markers:]
        del self.file_path[files:]
        del self.note_key[notes:], self.note_text[notes:]
        for row in [r for r in self._odd_locations if r >= size]:
            del self._odd_locations[row]
        self._positions = None

    @classmethod
    def from_events(cls, events: Iterable[Event]) -> EventColumns:
        """Columns holding ``events`` in the given order."""
        columns = cls()
        for event in events:
            columns.append_event(event)
        return columns

    def take(self, rows: Sequence[int]) -> EventColumns:
        """A new store of the given rows, in that order (sharing the string and value tables;
        the entries of multi-valued fields are copied whole, and only their spans reordered)."""
        out = EventColumns()
        out.strings, out._string_ids = self.strings, self._string_ids
        out.values, out._value_ids = self.values, self._value_ids
        gather = itemgetter(*rows) if len(rows) > 1 else lambda column: [column[r] for r in rows]
        out.ids, out.texts = list(gather(self.ids)), list(gather(self.texts))
        for name in _ROW_ARRAYS:
            column = getattr(self, name)
            setattr(out, name, array(column.typecode, gather(column)))
        for name in _ENTRY_ARRAYS:
            setattr(out, name, array(getattr(self, name).typecode, getattr(self, name)))
        out._odd_locations = {
            new: self._odd_locations[old]
            for new, old in enumerate(rows)
            if old in self._odd_locations
        }
        return out

    # -- reading whole columns (the hot consumers) ----------------------------------------------

    def has_markers(self, row: int) -> bool:
        """The event of ``row`` carries at least one marker."""
        return self.marker_end[row] > self.marker_start[row]

    def set_rows(self, row: int) -> range:
        """Positions in ``set_key``/``set_value`` of the assignments of ``row``."""
        return range(self.set_start[row], self.set_end[row])

    def marker_rows(self, row: int) -> range:
        """Positions in ``marker_kind``/``marker_target`` of the markers of ``row``."""
        return range(self.marker_start[row], self.marker_end[row])

    def channel_names(self) -> set[str]:
        """Every channel some event is on."""
        strings = self.strings
        return {strings[c] for c in set(self.channel)}

    def actors(self) -> Iterator[str]:
        """Each event's ``by`` in row order, events without one (or with an empty one) skipped."""
        strings = self.strings
        for b in self.by:
            if b != _NONE and strings[b]:
                yield strings[b]

    def position(self, ident: str) -> int | None:
        """The row of the first event with this id, if any (an index built on first use)."""
        if self._positions is None:
            positions: dict[str, int] = {}
            for row, key in enumerate(self.ids):
                positions.setdefault(key, row)
            self._positions = positions
        return self._positions.get(ident)

    # -- the Sequence protocol ------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self.ids)

    @overload
    def __getitem__(self, index: int) -> Event: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...
    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self.event_at(r) for r in range(*index.indices(len(self.ids))))
        size = len(self.ids)
        if index < 0:
            index += size
        if not 0 <= index < size:
            raise IndexError("event index out of range")
        return self.event_at(index)

    def __iter__(self) -> Iterator[Event]:
        for row in range(len(self.ids)):
            yield self.event_at(row)

    def event_at(self, row: int) -> Event:
        """Build the :class:`Event` of ``row`` (a valid, non-negative index)."""
        s = self.strings
        by, kind, seq = self.by[row], self.kind[row], self.seq[row]
        values = self.values
        sets = tuple(
            Assignment(s[self.set_key[j]], values[self.set_value[j]]) for j in self.set_rows(row)
        )
        markers = tuple(
            Marker(s[self.marker_kind[j]], s[self.marker_target[j]]) for j in self.marker_rows(row)
        )
        files = tuple(s[self.file_path[j]] for j in range(self.file_start[row], self.file_end[row]))
        notes = tuple(
            (s[self.note_key[j]], s[self.note_text[j]])
            for j in range(self.note_start[row], self.note_end[row])
        )
        return Event(
            id=self.ids[row],
            channel=s[self.channel[row]],
            at=self.at[row] + EPOCH_UNIX,
            recorded=self.recorded[row] + EPOCH_UNIX,
            location=self.location(row),
            seq=None if seq == NO_SEQ else seq,
            by=None if by == _NONE else s[by],
            kind=None if kind == _NONE else s[kind],
            text=self.texts[row],
            sets=sets,
            markers=markers,
            outcome=s[self.outcome[row]],
            files=files,
            notes=notes,
        )

    def location(self, row: int) -> Location:
        """Where the event of ``row`` was read."""
        odd = self._odd_locations.get(row) if self._odd_locations else None
        if odd is not None:
            return odd
        column = self.column[row]
        return Location(
            self.strings[self.source[row]], self.line[row], None if column == _NONE else column
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, str | bytes):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        return hash(tuple(self.ids))

    def __repr__(self) -> str:
        return f"EventColumns({len(self)} events)"

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_positions"] = None  # rebuilt on first use
        return state
