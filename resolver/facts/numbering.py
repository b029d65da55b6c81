"""Event numbers that an append only adds to: the log's reading order.

The loader gives the events in id order, so numbering them by the rank of their ids (as the
fact writer once did) renumbered every event after an appended id that sorts among the others.
Numbered in the order the files were read (a file's rank among the files, then the line of the
record in it), an appended line only adds a number after the last one: the numbers of the
history before it stand (what lets stage 3 of ``docs/design/increments.md`` keep stored atoms).
Events without such a place (built in memory, or two on one line) keep the order the columns
hold them in, which is then the reading order.

Numbers are even (2, 4, ...; :mod:`resolver.facts.interning`): every other name is odd, so a new
event and a new name never shift each other.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice, repeat
from operator import eq, lt
from typing import cast

from resolver.facts.interning import Interner
from resolver.language.event_columns import EventColumns

__all__ = ["event_numbers", "reading_order"]

#: A file's rank times this plus a line: one integer per record that sorts in reading order.
_FILE_STRIDE = 1 << 40


def reading_order(columns: EventColumns, sources: Sequence[str]) -> list[int] | None:
    """The rows of ``columns`` in the order their records were read (``sources``: the files in
    the order read); None when the rows are in that order already (one test in C over the
    rows: the usual case of a log whose ids grow with its lines) or have no distinct places."""
    count = len(columns.ids)
    if count < 2:
        return None
    places = _places(columns, sources)
    if places is None or all(map(lt, places, islice(places, 1, None))):
        return None
    order = sorted(range(count), key=places.__getitem__)
    placed = [places[row] for row in order]
    if any(map(eq, placed, islice(placed, 1, None))):
        return None  # two records at one place: the columns' order is the only one there is
    return order


def _places(columns: EventColumns, sources: Sequence[str]) -> list[int] | None:
    """Each row's place in reading order as one integer (file rank, then line), or None when a
    row's file is not among ``sources``."""
    source = columns.source
    ranks = {}
    for rank, name in enumerate(sources):
        code = columns.find_string(name)
        if code is not None:
            ranks.setdefault(code, rank)
    if len(ranks) == 1:
        (code,) = ranks
        if source.count(code) == len(source):
            return list(columns.line)
    try:
        offsets = [_FILE_STRIDE * ranks[code] for code in source]
    except KeyError:
        return None
    return [offset + line for offset, line in zip(offsets, columns.line, strict=True)]


def event_numbers(columns: EventColumns, order: list[int] | None) -> tuple[Interner, Sequence[int]]:
    """The interner with every event numbered 2, 4, ... in reading order (``order``: the rows
    in that order, None when the rows are), and each row's event number."""
    ids = columns.ids
    count = len(ids)
    in_order = ids if order is None else map(ids.__getitem__, order)
    keys = list(zip(repeat("event"), in_order))
    try:
        interner = Interner.of_events(keys)
    except ValueError:  # an id recorded twice: numbered once, at its first place
        interner = Interner.of_events(list(dict.fromkeys(keys)))
        get = interner.get
        return interner, [cast(int, get(("event", ident))) for ident in ids]
    numbers: Sequence[int]
    if order is None:
        numbers = range(2, 2 * count + 1, 2)
    else:
        numbers = [0] * count
        for number, row in enumerate(order, 1):
            numbers[row] = 2 * number
    if all(map(lt, ids, islice(ids, 1, None))):  # rows in id order, as the loader gives them
        interner.by_id = numbers
    return interner, numbers
