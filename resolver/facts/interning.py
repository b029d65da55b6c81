"""Interning user text to dense integers, so that no input text ever reaches a clingo program.

Event ids are interned first and in sorted order, which makes "the lower event id" of the spec's
tie order a plain integer comparison inside the rules.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable

#: Largest integer clingo represents; every written integer is checked against it.
INT_MAX = 2**31 - 1
INT_MIN = -(2**31)


def check_int(value: int, what: str) -> int:
    """Refuse integers that clingo's 32-bit text parser would silently wrap."""
    if not INT_MIN < value < INT_MAX:
        raise OverflowError(f"{what} {value} does not fit in clingo's 32-bit integers")
    return value


class Interner:
    """A two-way map between hashable keys (tagged strings and values) and integers from 1."""

    def __init__(self) -> None:
        self._ids: dict[Hashable, int] = {}
        self._keys: list[Hashable] = [None]

    def intern(self, key: Hashable) -> int:
        """The integer for ``key``, allocating the next one on first sight."""
        number = self._ids.get(key)
        if number is None:
            number = len(self._keys)
            check_int(number, "interned id")
            self._ids[key] = number
            self._keys.append(key)
        return number

    def intern_all(self, keys: Iterable[Hashable]) -> None:
        """Intern many keys in the given order."""
        for key in keys:
            self.intern(key)

    def get(self, key: Hashable) -> int | None:
        """The integer for ``key`` if it was interned."""
        return self._ids.get(key)

    def key(self, number: int) -> Hashable:
        """The key interned as ``number``."""
        return self._keys[number]

    def __len__(self) -> int:
        return len(self._keys) - 1

    def keys(self) -> list[Hashable]:
        """Every key, in the order of their integers (from 1)."""
        return self._keys[1:]

    @classmethod
    def of_keys(cls, keys: Iterable[Hashable]) -> Interner:
        """An interner holding ``keys`` as 1, 2, ... (distinct keys, as :meth:`keys` gives;
        ``ValueError`` if one repeats)."""
        interner = cls()
        interner._keys.extend(keys)
        interner._ids = {key: number for number, key in enumerate(interner._keys) if number}
        check_int(len(interner._keys), "interned id")
        if len(interner._ids) != len(interner._keys) - 1:
            raise ValueError("a key is given twice")
        return interner
