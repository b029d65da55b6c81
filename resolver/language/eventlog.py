"""Reading events from JSON lines (``.jsonl`` files, SPEC §2.2).

Each non-blank line is one JSON object with the fields of an ``event`` block, by the same names:
``id``, ``channel`` and ``at`` are required; ``seq`` is an integer; ``at`` and ``recorded`` are
times as the language writes them (``recorded`` defaults to ``at``); ``set`` is an object of
key to string, integer or boolean; each marker (``completes``, ``cancels``, ...) is a list of
names or a single name, and so is ``files`` (the paths the event touched); ``outcome`` is
``confirmed`` (the default), ``unknown`` or ``failed``; ``notes`` is an object of key to text
(one line each), the words an importer attaches to a key for a policy title's ``$note``.

The reader is strict because a log is evidence: an unknown field (often a typo such as
``complete``), a value of the wrong type or a key given twice is an error, never silently
dropped. ``null`` stands for an absent optional field, as tools that export logs often write it.
Errors read ``FILE:LINE: error: ...`` (JSON lines have no useful column).

Lines are read straight into columns (:class:`~resolver.language.event_columns.EventColumns`),
building no :class:`Event`. Each line first takes a fast path: one C-level decode (objects as
tuples of pairs, so that a repeated key is a count away) and straight-line checks that accept
only what the complete checks accept. Anything the fast path does not accept outright (a bad
value, a repeated key, a surrogate escape, a ``null`` where a name belongs) is read again by the
complete checks, which either accept it the same way or raise the one message they always did.
A log's lines with no set, marker, file or note (most of them) wait in a batch that is added a
column at a time (:meth:`~resolver.language.event_columns.EventColumns.extend_plain`): the
columns and their string table come out as appending each line in turn would make them.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from resolver.errors import InputError, Location
from resolver.language.event_columns import EventColumns
from resolver.language.eventlog_checks import (
    FIELD_SET,
    FIELDS,
    IDENTIFIER,
    MAX_INT,
    MAX_SEQ,
    SURROGATE_ESCAPE,
    checked_line,
    is_one_line,
)
from resolver.language.model import MARKER_KINDS, OUTCOMES
from resolver.times import TimeFormatError, parse_time

__all__ = ["FIELDS", "read_jsonl", "read_jsonl_into", "read_jsonl_text"]


def read_jsonl(path: str | Path, into: EventColumns | None = None) -> EventColumns:
    """Read one ``.jsonl`` file (UTF-8); locations name it as ``str(path)``.

    The events are appended to ``into`` (a new store by default), which is returned.
    """
    name = str(path)
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise InputError(
            f"not UTF-8 text ({exc.reason} at byte {exc.start})", Location(name, line)
        ) from None
    columns = EventColumns() if into is None else into
    read_jsonl_into(text, name, columns)
    return columns


def read_jsonl_text(text: str, filename: str) -> EventColumns:
    """Parse JSON-lines text into events, in file order; blank lines are skipped."""
    columns = EventColumns()
    read_jsonl_into(text, filename, columns)
    return columns


def read_jsonl_into(text: str, filename: str, columns: EventColumns, first_line: int = 1) -> None:
    """Append the events of JSON-lines text to ``columns``, in file order.

    Lines are split on ``\\n`` only: JSON strings may hold a raw U+2028, which
    :meth:`str.splitlines` would wrongly treat as a line break. When a line is bad, the rows
    this text added are taken back before the error is raised. ``first_line``: the number of
    the text's first line in its file, when the text is the lines appended to a log read
    before (:mod:`resolver.store.appends`); only a file's first line may begin with a BOM.
    """
    if first_line == 1 and text.startswith("\ufeff"):
        text = text[1:]
    mark = columns.mark()
    fast, flush = _fast_reader(filename, columns)
    try:
        for number, line in enumerate(text.split("\n"), start=first_line):
            if line[:1] == "{" and fast(line, number):
                continue
            if not line.strip():
                continue
            location = Location(filename, number)
            event = checked_line(line, location)
            flush()
            columns.append_event(event)
        flush()
    except InputError:
        columns.rollback(mark)
        raise


#: The fast path's decoder: objects come back as tuples of (key, value) pairs, arrays as lists.
_SCAN = json.JSONDecoder(object_pairs_hook=tuple).scan_once
#: The fields of most lines: a line holding no other field has no set, marker, file or note.
_PLAIN = frozenset(("id", "channel", "seq", "at", "recorded", "by", "kind", "text", "outcome"))


def _fast_reader(
    filename: str, columns: EventColumns
) -> tuple[Callable[[str, int], bool], Callable[[], None]]:
    """The fast path for the lines of one file: ``read(line, number)`` takes the event of a
    well-formed line and returns True, or returns False when the complete checks must read the
    line (to accept it after all, or to say what is wrong with it); ``flush()`` appends the
    events taken so far to ``columns``, before a line read otherwise and at the end. Events with
    no set, marker, file or note wait in a batch (:meth:`EventColumns.extend_plain`).

    Every test here is one the complete checks make, or a stricter one. A log repeats its
    channels, authors, kinds and days on line after line, so each is checked once per file and
    remembered (the checks are of the text alone); the rare fields (``set``, markers, ``files``,
    ``notes``) are looked at only on a line that has a field outside :data:`_PLAIN`.
    """
    batch: list[tuple[Any, ...]] = []
    days: dict[str, int] = {}
    identifiers: set[str] = set()  # channels that passed _is_identifier
    names: set[str] = set()  # authors and kinds that passed _is_name
    scan, plain, fields, outcomes = _SCAN, _PLAIN, FIELD_SET, OUTCOMES

    def read(line: str, number: int) -> bool:
        try:
            pairs, end = scan(line, 0)
        except Exception:  # any problem at all: the complete checks name it
            return False
        if end != len(line) and line[end:].strip(" \t\r"):
            return False
        record = dict(pairs)
        keys = record.keys()
        if len(record) != len(pairs):
            return False
        rare = not keys <= plain
        if rare and (not keys <= fields or "evidence" in record):
            return False  # an unknown field; or evidence, rare (a claim citing events)
        if "\\u" in line and SURROGATE_ESCAPE.search(line):
            return False
        get = record.get
        ident, channel, at_text = get("id"), get("channel"), get("at")
        if type(channel) is not str or type(at_text) is not str or not _is_identifier(ident):
            return False
        if channel not in identifiers:
            if not _is_identifier(channel):
                return False
            identifiers.add(channel)
        recorded_text, seq, text = get("recorded"), get("seq"), get("text")
        by, kind, outcome = get("by"), get("kind"), get("outcome")
        if seq is not None and (type(seq) is not int or not 0 <= seq <= MAX_SEQ):
            return False
        for name in (by, kind):
            if name is not None and (type(name) is not str or name not in names):
                if not _is_name(name):
                    return False
                names.add(name)
        if text is not None and type(text) is not str:
            return False
        if outcome is None:
            outcome = "confirmed"
        elif type(outcome) is not str or (outcome := outcome.lower()) not in outcomes:
            return False
        try:
            at = _instant(at_text, days)
            if recorded_text is None:
                recorded = at
            elif type(recorded_text) is str:
                recorded = _instant(recorded_text, days)
            else:
                return False
        except TimeFormatError:
            return False
        if rare:
            sets = _fast_sets(get("set"))
            markers = _fast_markers(get)
            files = _fast_files(get("files"))
            notes = _fast_notes(get("notes"))
            if sets is None or markers is None or files is None or notes is None:
                return False
            flush()
            columns.append_row(
                *(ident, channel, at, recorded, filename, number, None, seq, by, kind, text),
                *(sets, markers, outcome, files, notes),
            )
        else:
            batch.append((ident, channel, at, recorded, number, seq, by, kind, text, outcome))
        return True

    def flush() -> None:
        columns.extend_plain(filename, batch)
        batch.clear()

    return read, flush


#: The two digits of an hour, a minute, a second of the usual time form, and their seconds:
#: a lookup is both the check (only "00" to "23", "00" to "59") and the value.
_HOURS = {f"{n:02d}": n * 3600 for n in range(24)}
_MINUTES = {f"{n:02d}": n * 60 for n in range(60)}
_SECONDS = {f"{n:02d}": n for n in range(60)}


def _instant(text: str, days: dict[str, int]) -> int:
    """:func:`parse_time` of ``text``; the usual ``YYYY-MM-DDTHH:MM:SSZ`` form is read as its
    day (parsed once per day, with every check) plus a checked time of day."""
    if (
        len(text) == 20
        and text[19] == "Z"
        and text[10] == "T"
        and text[13] == ":"
        and text[16] == ":"
        and text.isascii()
    ):
        hours = _HOURS.get(text[11:13])
        minutes = _MINUTES.get(text[14:16])
        seconds = _SECONDS.get(text[17:19])
        if hours is not None and minutes is not None and seconds is not None:
            day = days.get(text[:10])
            if day is None:
                try:
                    day = days[text[:10]] = parse_time(text[:10])
                except TimeFormatError:
                    return parse_time(text)  # raises, naming the whole time
            return day + hours + minutes + seconds
    return parse_time(text)


def _is_identifier(value: Any) -> bool:
    return type(value) is str and IDENTIFIER.fullmatch(value) is not None and is_one_line(value)


def _is_name(value: Any) -> bool:
    return type(value) is str and value != "" and is_one_line(value)


def _fast_sets(value: Any) -> list[tuple[str, Any]] | None:
    if value is None:
        return []
    if type(value) is not tuple or len(dict(value)) != len(value):
        return None  # not an object, or a key given twice
    for key, item in value:
        kind = type(item)
        if key == "" or not is_one_line(key):
            return None
        if kind is int:
            if not -MAX_INT - 1 <= item <= MAX_INT:
                return None
        elif kind is not str and kind is not bool:
            return None
    return list(value)


def _fast_markers(get: Any) -> list[tuple[str, str]] | None:
    found: dict[tuple[str, str], None] = {}
    for kind in MARKER_KINDS:
        value = get(kind)
        if value is None:
            continue
        if type(value) is str:
            targets = [value]
        elif type(value) is list:
            targets = value
        else:
            return None
        for target in targets:
            if not _is_name(target):
                return None
            found[(kind, target)] = None
    return list(found)


def _fast_files(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return ()
    paths = [value] if type(value) is str else value
    if type(paths) is not list:
        return None
    for path in paths:
        if type(path) is not str or path == "":
            return None
    return tuple(dict.fromkeys(paths))


def _fast_notes(value: Any) -> list[tuple[str, str]] | None:
    if value is None:
        return []
    if type(value) is not tuple or len(dict(value)) != len(value):
        return None  # not an object, or a key given twice
    for key, text in value:
        if key == "" or type(text) is not str or not is_one_line(key) or not is_one_line(text):
            return None
    return list(value)
