"""A loaded event log as data: the columns of :class:`EventColumns`, kept beside the atoms.

Reading a log is most of what a command on unchanged files still pays (at 100k events the JSON
lines are parsed, checked and interned in about 0.7 s of CPU). The loaded columns are parallel
arrays of integers and three lists of strings, so the store keeps them as they are: a JSON
document for the strings (ids, texts, the string table, the typed set values) followed by the
arrays' machine bytes. Reading that back is the JSON module and ``array.frombytes``: data,
never code. What is read back is checked for shape (every row column as long as the ids, every
index inside its table) before it is used; a blob that fails is a miss, and the log is read
again.
"""

from __future__ import annotations

import json
import struct
from array import array

from resolver.language.event_columns import _ENTRY_ARRAYS, _ROW_ARRAYS, EventColumns

#: Row columns that index the string table (``-1`` where absent), and entry columns that do.
_STRING_ROWS = ("channel", "by", "kind", "outcome", "source")
_STRING_ENTRIES = ("set_key", "marker_kind", "marker_target", "file_path", "note_key", "note_text")
#: (start, end) row columns and the entry columns they delimit.
_SPANS = (
    ("set_start", "set_end", ("set_key", "set_value")),
    ("marker_start", "marker_end", ("marker_kind", "marker_target")),
    ("file_start", "file_end", ("file_path",)),
    ("note_start", "note_end", ("note_key", "note_text")),
)
_VALUE_TYPES = {"str": str, "int": int, "float": float, "bool": bool}
_HEAD = struct.Struct("<Q")


def pack(columns: EventColumns) -> bytes | None:
    """The columns as bytes, or None when they hold what this format does not keep (a
    location that is not a plain file position, a value JSON cannot hold exactly)."""
    if columns._odd_locations:
        return None
    names = (*_ROW_ARRAYS, *_ENTRY_ARRAYS)
    arrays = [getattr(columns, name) for name in names]
    document = {
        "strings": columns.strings,
        "values": [[type(v).__name__, v] for v in columns.values],
        "ids": columns.ids,
        "texts": columns.texts,
        "arrays": [[name, a.typecode, len(a)] for name, a in zip(names, arrays, strict=True)],
    }
    try:
        text = json.dumps(document, ensure_ascii=False, allow_nan=False).encode("utf-8")
    except (TypeError, ValueError):
        return None
    return _HEAD.pack(len(text)) + text + b"".join(a.tobytes() for a in arrays)


def unpack(data: bytes) -> EventColumns | None:
    """The columns of ``data``, or None when it is not a well-shaped snapshot."""
    try:
        (size,) = _HEAD.unpack_from(data)
        document = json.loads(data[_HEAD.size : _HEAD.size + size].decode("utf-8"))
        columns = _columns(document)
        offset = _HEAD.size + size
        for name, typecode, length in document["arrays"]:
            known = name in _ROW_ARRAYS or name in _ENTRY_ARRAYS
            if not known or typecode != getattr(columns, name).typecode:
                return None
            column = array(typecode)
            end = offset + length * column.itemsize
            column.frombytes(data[offset:end])
            if len(column) != length:
                return None
            setattr(columns, name, column)
            offset = end
    except (ValueError, TypeError, KeyError, struct.error, UnicodeDecodeError):
        return None
    return columns if offset == len(data) and _well_shaped(columns) else None


def _columns(document: dict) -> EventColumns:
    columns = EventColumns()
    strings, ids, texts = document["strings"], document["ids"], document["texts"]
    if not all(type(s) is str for s in strings) or not all(type(i) is str for i in ids):
        raise TypeError("not a snapshot")
    if len(texts) != len(ids) or not all(t is None or type(t) is str for t in texts):
        raise TypeError("not a snapshot")
    values = []
    for name, value in document["values"]:
        if type(value) is not _VALUE_TYPES[name]:
            raise TypeError("not a snapshot")
        values.append(value)
    columns.strings, columns.ids, columns.texts, columns.values = strings, ids, texts, values
    columns._string_ids = {text: n for n, text in enumerate(strings)}
    columns._value_ids = {(type(v), v): n for n, v in enumerate(values)}
    if len(columns._string_ids) != len(strings) or len(columns._value_ids) != len(values):
        raise TypeError("not a snapshot")
    return columns


def _inside(column: array, low: int, high: int) -> bool:
    return not column or (min(column) >= low and max(column) < high)


def _well_shaped(columns: EventColumns) -> bool:
    """Every row column as long as the ids, every span and index inside its table."""
    rows, strings = len(columns.ids), len(columns.strings)
    if any(len(getattr(columns, name)) != rows for name in _ROW_ARRAYS):
        return False
    for start, end, entries in _SPANS:
        size = len(getattr(columns, entries[0]))
        if any(len(getattr(columns, name)) != size for name in entries):
            return False
        starts, ends = getattr(columns, start), getattr(columns, end)
        if not (_inside(starts, 0, size + 1) and _inside(ends, 0, size + 1)):
            return False
    if not all(_inside(getattr(columns, n), -1, strings) for n in _STRING_ROWS):
        return False
    if not all(_inside(getattr(columns, n), 0, strings) for n in _STRING_ENTRIES):
        return False
    return _inside(columns.set_value, 0, len(columns.values))
