"""The names of a prepared history as data: its interner, kept as JSON beside the atoms.

The interner maps each interned integer back to its key (``("item", id)``, ``("value", type,
raw)``, ...). Events are even numbers in the log's reading order
(:mod:`resolver.facts.numbering`), so the table keeps each event's number in the order of the
loaded log's ids (which the command reads anyway; packed as 32-bit integers in base64), or only
their count when the numbers follow the ids (2, 4, ...: a log whose ids grow with its lines).
Every other key is an odd number, kept as a JSON array of keys (arrays for tuples) in number
order, read back with the JSON module: data, never code. A table that does not read back to
exactly the keys it was written from (a value JSON cannot hold) is not kept, and the next
command builds the facts.
"""

from __future__ import annotations

import base64
import json
import sys
from array import array
from collections.abc import Hashable, Sequence
from operator import eq

from resolver.facts.interning import Interner


def _as_key(value: object) -> Hashable:
    if isinstance(value, list):
        return tuple(_as_key(part) for part in value)
    return value  # type: ignore[return-value]


def _event_numbers(interner: Interner) -> int | str:
    """The events' numbers in the order of their ids: their count when those are 2, 4, ...,
    else the base64 of the numbers as unsigned 32-bit little-endian integers (read back in C:
    a JSON list of 100k numbers took 20 ms more to read)."""
    by_id = interner.by_id
    if by_id is None:
        numbered = sorted(interner.numbered())
        by_id = [number for _, number in numbered]
    if isinstance(by_id, range) or all(map(eq, by_id, range(2, 2 * len(by_id) + 1, 2))):
        return len(by_id)
    packed = array("I", by_id)
    if sys.byteorder != "little":
        packed.byteswap()
    return base64.b64encode(packed.tobytes()).decode("ascii")


def _numbers(text: str) -> list[int] | None:
    """The numbers :func:`_event_numbers` encoded, None if ``text`` is no such encoding."""
    try:
        data = base64.b64decode(text, validate=True)
    except ValueError:
        return None
    packed = array("I")
    if len(data) % packed.itemsize:
        return None
    packed.frombytes(data)
    if sys.byteorder != "little":
        packed.byteswap()
    return packed.tolist()


def pack(interner: Interner) -> str | None:
    """The interner as text (the events' numbers, then the other keys), or None if JSON cannot
    hold it exactly."""
    rest = interner.names()
    try:
        text = json.dumps([_event_numbers(interner), rest], ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
    back = [_as_key(k) for k in json.loads(text)[1]]
    # Equal is not enough: 1, 1.0 and True compare equal and are different values.
    return text if _typed(back) == _typed(rest) else None


def _typed(value: object) -> object:
    if isinstance(value, (tuple, list)):
        return tuple(_typed(part) for part in value)
    return (type(value).__name__, value)


def parts(text: str, count: int) -> tuple[Sequence[int], list[Hashable]] | None:
    """The events' numbers (in the order of their ids) and the other keys of ``text``, for a
    log of ``count`` distinct events; None when the text is not such a table. Checked no
    further: :func:`unpack` and whoever builds an interner of them check the numbers."""
    try:
        events, rest = json.loads(text)
    except (ValueError, TypeError):
        return None
    if type(events) is int:
        if events != count:
            return None
        numbers: Sequence[int] | None = range(2, 2 * events + 1, 2)
    elif isinstance(events, str):
        numbers = _numbers(events)
        if numbers is None or len(numbers) != count:
            return None
    else:
        return None
    if not isinstance(rest, list):
        return None
    return numbers, [_as_key(k) for k in rest]


def unpack(text: str, event_ids: Sequence[str]) -> Interner | None:
    """The interner of ``text``, given the sorted distinct event ids of the loaded log; None
    when the text is not such a table or names another number of events."""
    found = parts(text, len(event_ids))
    if found is None:
        return None
    numbers, rest = found
    keys = [("event", ident) for ident in event_ids]
    try:
        interner = Interner.of_numbered(keys, numbers, rest)
    except (TypeError, ValueError, OverflowError):  # not a table written here
        return None
    interner.by_id = numbers
    return interner
