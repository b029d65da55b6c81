"""The facts of a history the store answered: its names now, the fact texts only if asked.

When the store holds a history's prepared atoms under the key of its files and code
(:mod:`resolver.store`), the facts are a function of that key: rebuilding them (the text linker
over every event, the channel log, the fact texts: about 1 s at 100k events) would only say
again what the stored atoms were derived from. A face reads only the names (interned integers
back to text), which the store keeps beside the atoms. The fact texts are built on first use,
by a standpoint that must be solved, and then checked against the stored names
(:meth:`StoredFacts.full`): a difference means the entry does not describe these facts, and
the caller prepares the history afresh. When the store also kept the facts a standpoint reads
(the declarations, the links, the channel log: :mod:`resolver.facts.standpoint_pack`), those
are read instead and nothing is built: they are kept under the same key as the atoms.
"""

from __future__ import annotations

from collections.abc import Callable

from resolver.facts.channel_log import ChannelLog
from resolver.facts.interning import Interner
from resolver.facts.names import Names
from resolver.facts.standpoint_pack import StandpointFacts, unpack
from resolver.facts.writer import FactBase


class NamesDiffer(Exception):
    """The facts built from the files intern differently from the names the store kept."""


class StoredFacts(Names):
    """Names kept by the store; the fact texts of :class:`FactBase` built on first use, or the
    ones a standpoint reads unpacked from what the store kept beside them."""

    def __init__(
        self,
        interner: Interner,
        build: Callable[[], FactBase],
        standpoint: bytes | StandpointFacts | None = None,
    ) -> None:
        self.interner = interner
        self._build = build
        self._full: FactBase | None = None
        self._standpoint = standpoint if isinstance(standpoint, bytes) else None
        self._kept = standpoint if isinstance(standpoint, StandpointFacts) else None

    @property
    def built(self) -> bool:
        """True once the fact texts were built (and found to agree with the names)."""
        return self._full is not None

    @property
    def ready(self) -> bool:
        """True when a standpoint can be solved without building the facts: they were built,
        or the store kept what a standpoint reads (and it unpacks)."""
        return self._full is not None or self._standpoint_facts() is not None

    def _standpoint_facts(self) -> StandpointFacts | None:
        if self._kept is None and self._standpoint is not None:
            self._kept = unpack(self._standpoint)
            self._standpoint = None  # unpacked once, whatever it held
        return self._kept

    def full(self) -> FactBase:
        """The facts built from the files; :class:`NamesDiffer` when they are not those the
        stored names were kept for."""
        if self._full is None:
            full = self._build()
            if full.interner != self.interner:  # the same keys under the same numbers
                raise NamesDiffer
            self._full = full
        return self._full

    @property
    def declarations(self) -> str:
        kept = self._standpoint_facts()
        return self.full().declarations if kept is None else kept.declarations

    @property
    def events(self) -> str:
        return self.full().events

    @property
    def links(self) -> str:
        kept = self._standpoint_facts()
        return self.full().links if kept is None else kept.links

    @property
    def channel_log(self) -> ChannelLog:
        kept = self._standpoint_facts()
        return self.full().channel_log if kept is None else kept.channel_log
