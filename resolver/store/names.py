"""The names of a prepared history as data: its interner, kept as JSON beside the atoms.

The interner maps each interned integer back to its key (``("item", id)``, ``("value", type,
raw)``, ...). Event ids come first, in sorted order (:mod:`resolver.facts.writer`), so only
their count is kept: they are the sorted distinct ids of the loaded log, which the command
reads anyway. The rest is a JSON array of keys (arrays for tuples), read back with the JSON
module: data, never code. A table that does not read back to exactly the keys it was written
from (a value JSON cannot hold) is not kept, and the next command builds the facts.
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Sequence

from resolver.facts.interning import Interner


def _as_key(value: object) -> Hashable:
    if isinstance(value, list):
        return tuple(_as_key(part) for part in value)
    return value  # type: ignore[return-value]


def _events_first(keys: Sequence[Hashable]) -> int:
    """How many keys at the start are event keys."""
    count = 0
    for key in keys:
        if not (isinstance(key, tuple) and len(key) == 2 and key[0] == "event"):
            break
        count += 1
    return count


def pack(interner: Interner) -> str | None:
    """The interner as text (event count, then the other keys), or None if JSON cannot hold it
    exactly."""
    keys = interner.keys()
    events = _events_first(keys)
    rest = keys[events:]
    try:
        text = json.dumps([events, rest], ensure_ascii=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
    back = [_as_key(k) for k in json.loads(text)[1]]
    # Equal is not enough: 1, 1.0 and True compare equal and are different values.
    return text if _typed(back) == _typed(rest) else None


def _typed(value: object) -> object:
    if isinstance(value, (tuple, list)):
        return tuple(_typed(part) for part in value)
    return (type(value).__name__, value)


def unpack(text: str, event_ids: Sequence[str]) -> Interner | None:
    """The interner of ``text``, given the sorted distinct event ids of the loaded log; None
    when the text is not such a table or names another number of events."""
    try:
        events, rest = json.loads(text)
    except (ValueError, TypeError):
        return None
    if type(events) is not int or events != len(event_ids) or not isinstance(rest, list):
        return None
    keys: list[Hashable] = [("event", ident) for ident in event_ids]
    keys.extend(_as_key(k) for k in rest)
    try:
        interner = Interner.of_keys(keys)
    except (TypeError, ValueError):  # an unhashable or repeated key: not a table written here
        return None
    return interner
