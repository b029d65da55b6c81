"""Integers back to text: what every face reads of a history's facts.

A verdict's atoms name items, events, channels and actors by the integers the fact writer
interned them as. :class:`Names` turns them back into text through the interner alone, so a
face can read a stored answer with the names the store kept, without the facts being rebuilt
(:mod:`resolver.engine.stored_facts`).
"""

from __future__ import annotations

from resolver.facts.interning import Interner


class Names:
    """The lookups from interned integers to ids and names (``self.interner`` holds them)."""

    interner: Interner

    def event_id(self, number: int) -> str:
        """The event id interned as ``number``."""
        return self._text(number, "event")

    def item_id(self, number: int) -> str:
        """The expectation or task id interned as ``number``."""
        return self._text(number, "item")

    def channel(self, number: int) -> str:
        """The channel name interned as ``number``."""
        return self._text(number, "channel")

    def actor(self, number: int) -> str | None:
        """The actor interned as ``number``; None for the unnamed actor 0."""
        return None if number == 0 else self._text(number, "actor")

    def _text(self, number: int, tag: str) -> str:
        key = self.interner.key(number)
        if not isinstance(key, tuple) or key[0] != tag:
            raise KeyError(f"{number} is not a {tag}")
        return key[1]
