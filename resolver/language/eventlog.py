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
"""

from __future__ import annotations

import json
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
    fast = _fast_row
    days: dict[str, int] = {}
    try:
        for number, line in enumerate(text.split("\n"), start=first_line):
            if line[:1] == "{" and fast(line, filename, number, columns, days):
                continue
            if not line.strip():
                continue
            location = Location(filename, number)
            columns.append_event(checked_line(line, location))
    except InputError:
        columns.rollback(mark)
        raise


#: The fast path's decoder: objects come back as tuples of (key, value) pairs, arrays as lists.
_SCAN = json.JSONDecoder(object_pairs_hook=tuple).scan_once


def _fast_row(
    line: str, filename: str, number: int, columns: EventColumns, days: dict[str, int]
) -> bool:
    """Append the event of a well-formed line and return True; False when the complete checks
    must read the line (to accept it after all, or to say what is wrong with it).

    Every test here is one the complete checks make, or a stricter one.
    """
    try:
        pairs, end = _SCAN(line, 0)
    except Exception:  # any problem at all: the complete checks name it
        return False
    if end != len(line) and line[end:].strip(" \t\r"):
        return False
    record = dict(pairs)
    if len(record) != len(pairs) or not record.keys() <= FIELD_SET:
        return False
    if "\\u" in line and SURROGATE_ESCAPE.search(line):
        return False
    if "evidence" in record:  # rare (a claim citing events): the complete checks read it
        return False
    get = record.get
    ident, channel, at_text = get("id"), get("channel"), get("at")
    if not (_is_identifier(ident) and _is_identifier(channel) and type(at_text) is str):
        return False
    recorded_text, seq, text = get("recorded"), get("seq"), get("text")
    by, kind, outcome = get("by"), get("kind"), get("outcome")
    if seq is not None and (type(seq) is not int or not 0 <= seq <= MAX_SEQ):
        return False
    if (by is not None and not _is_name(by)) or (kind is not None and not _is_name(kind)):
        return False
    if text is not None and type(text) is not str:
        return False
    if outcome is None:
        outcome = "confirmed"
    elif type(outcome) is not str or (outcome := outcome.lower()) not in OUTCOMES:
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
    sets = _fast_sets(get("set"))
    markers = _fast_markers(get)
    files = _fast_files(get("files"))
    notes = _fast_notes(get("notes"))
    if sets is None or markers is None or files is None or notes is None:
        return False
    columns.append_row(
        ident,
        channel,
        at,
        recorded,
        filename,
        number,
        None,
        seq,
        by,
        kind,
        text,
        sets,
        markers,
        outcome,
        files,
        notes,
    )
    return True


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
        hours, minutes, seconds = text[11:13], text[14:16], text[17:19]
        if hours.isdigit() and minutes.isdigit() and seconds.isdigit():
            clock = int(hours) * 3600 + int(minutes) * 60 + int(seconds)
            if hours < "24" and minutes < "60" and seconds < "60":
                day = days.get(text[:10])
                if day is None:
                    try:
                        day = days[text[:10]] = parse_time(text[:10])
                    except TimeFormatError:
                        return parse_time(text)  # raises, naming the whole time
                return day + clock
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
