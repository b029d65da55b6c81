"""Interning user text to integers, so that no input text ever reaches a clingo program.

Events and every other name live in number spaces of their own: events are even (2, 4, ...,
numbered in the log's reading order by :mod:`resolver.facts.numbering`), every other name (items,
channels, actors, keys, values, ...) odd (1, 3, ..., in the order first met). An appended event
therefore only adds an even number after the others, and a name it brings only adds an odd
number: neither shifts what the history before it was numbered (what lets stored atoms outlive
an append). The spec's tie order (the lower event id wins among equals) does not follow from
the numbers; the fact writer hands it to the rules as ``same_instant_rank/2``.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence

#: Largest integer clingo represents; every written integer is checked against it.
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)


def check_int(value: int, what: str) -> int:
    """Refuse integers that clingo's 32-bit text parser would silently wrap."""
    if not INT_MIN < value < INT_MAX:
        raise OverflowError(f"{what} {value} does not fit in clingo's 32-bit integers")
    return value


_odd = (1).__and__


def _is_event(key: Hashable) -> bool:
    return isinstance(key, tuple) and len(key) == 2 and key[0] == "event"


class Interner:
    """A two-way map between hashable keys (tagged strings and values) and integers from 1:
    events even (placed by the caller), every other key odd (allocated on first sight)."""

    def __init__(self) -> None:
        self._ids: dict[Hashable, int] = {}
        #: The key of each number (None where no key has it).
        self._keys: list[Hashable] = [None]
        self._names = 0
        #: The events' numbers in the order of their ids, when whoever numbered them knew it
        #: (the fact writer, from the loader's rows): the store keeps them so.
        self.by_id: Sequence[int] | None = None

    def intern(self, key: Hashable) -> int:
        """The integer for ``key``, allocating the next odd one on first sight."""
        number = self._ids.get(key)
        if number is None:
            number = 2 * self._names + 1
            check_int(number, "interned id")
            self._names += 1
            self._place(key, number)
        return number

    def _place(self, key: Hashable, number: int) -> None:
        keys = self._keys
        if number >= len(keys):
            keys.extend([None] * (number + 1 - len(keys)))
        if keys[number] is not None or key in self._ids:
            raise ValueError("a key or a number is given twice")
        keys[number] = key
        self._ids[key] = number

    def intern_all(self, keys: Iterable[Hashable]) -> None:
        """Intern many keys in the given order."""
        for key in keys:
            self.intern(key)

    def get(self, key: Hashable) -> int | None:
        """The integer for ``key`` if it was interned."""
        return self._ids.get(key)

    def key(self, number: int) -> Hashable:
        """The key interned as ``number`` (None for a number no key has)."""
        return self._keys[number]

    def __len__(self) -> int:
        return len(self._ids)

    def __eq__(self, other: object) -> bool:
        """The same keys under the same numbers."""
        return isinstance(other, Interner) and self._keys == other._keys

    __hash__ = None  # type: ignore[assignment]

    def keys(self) -> list[Hashable]:
        """Every key, in the order of their integers."""
        return [key for key in self._keys[1:] if key is not None]

    def numbered(self) -> list[tuple[Hashable, int]]:
        """Every event key with its (even) number, in number order."""
        keys = self._keys
        return [(keys[n], n) for n in range(2, len(keys), 2) if keys[n] is not None]

    def names(self) -> list[Hashable]:
        """Every other key, in the order of their (odd) numbers."""
        return self._keys[1::2][: self._names]

    @classmethod
    def of_events(cls, events: Sequence[Hashable]) -> Interner:
        """An interner holding the distinct event keys ``events`` as 2, 4, ... in the given
        order (``ValueError`` if one repeats)."""
        return cls.of_numbered(events, range(2, 2 * len(events) + 1, 2), ())

    @classmethod
    def of_numbered(
        cls, events: Sequence[Hashable], numbers: Sequence[int], names: Sequence[Hashable]
    ) -> Interner:
        """An interner holding each of ``events`` at its number in ``numbers`` (2, 4, ..., in
        any order: the events are numbered densely) and ``names`` as 1, 3, ... in order
        (``ValueError`` if a key repeats or the numbers are not 2, 4, ... once each). Whole
        lists at a time, in C: the store reads a table back this way for every command it
        answers."""
        count = len(events)
        evens = range(2, 2 * count + 1, 2)
        if len(numbers) != count:
            raise ValueError("an event without its number")
        if isinstance(numbers, range) and numbers == evens:
            in_order: Iterable[Hashable] = events
        else:
            if count and (
                set(map(type, numbers)) != {int}  # not bools
                or min(numbers) != 2
                or max(numbers) != 2 * count
                or any(map(_odd, numbers))
            ):
                raise ValueError("the numbers are not 2, 4, ...")
            by_number = dict(zip(numbers, events, strict=True))
            if len(by_number) != count:
                raise ValueError("a number is given twice")
            in_order = map(by_number.__getitem__, evens)
        top = max(2 * count, 2 * len(names) - 1, 0)
        check_int(top, "interned id")
        keys: list[Hashable] = [None] * (top + 1)
        keys[2 : 2 * count + 1 : 2] = in_order
        keys[1 : 2 * len(names) : 2] = names
        ids = dict(zip(events, numbers, strict=True))
        ids.update(zip(names, range(1, 2 * len(names), 2), strict=True))
        if len(ids) != count + len(names):
            raise ValueError("a key is given twice")
        interner = cls()
        interner._keys, interner._ids, interner._names = keys, ids, len(names)
        return interner

    @classmethod
    def of_keys(cls, keys: Iterable[Hashable]) -> Interner:
        """An interner holding ``keys`` as :meth:`keys` lists them: event keys as 2, 4, ...
        and the others as 1, 3, ..., each in the given order (``ValueError`` if one repeats)."""
        keys = list(keys)
        events = [k for k in keys if _is_event(k)]
        names = [k for k in keys if not _is_event(k)]
        return cls.of_numbered(events, range(2, 2 * len(events) + 1, 2), names)
