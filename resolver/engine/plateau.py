"""Plateaus: standpoints of one default family that the rules cannot tell apart share an answer.

The rules compare the standpoint's ``now(T)`` and ``known(K)`` only against the times the
prepared history lists as ``threshold(V)`` (``rules/prepare/thresholds.lp``) and the times of
the channel log's events (which the engine hands the standpoint part itself). Two standpoints of
the same family, ``known`` = ``at`` (K = T) or ``known latest`` (K fixed), that fall on the same
side of every such time (before it, on it, after it) ground the same program but for the two
numbers T and K, which no shown atom carries: they derive the same atoms. So a standpoint of
those families is a lookup once its plateau was solved: the sorted thresholds, a bisection,
and the stored atoms of the same query.

Any other standpoint (``known`` neither ``at`` nor ``latest``) is solved as before. The memo
keeps the shown atoms, never a rendered text, so every face reads them as it reads a solve;
beside an answer its backing keeps the typed verdicts read from it (:mod:`resolver.verdicts.
kept`: data, decoded by a new process instead of reading the atoms again).
``tests/store/`` holds the memo's answers to fresh solves byte for byte on random histories.
"""

from __future__ import annotations

import threading
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterable
from typing import Protocol

#: The two default families: ``known`` = ``at``, and ``known latest``.
AT = "at"
LATEST = "latest"

#: Answers an in-process memo keeps (least recently used out first): a long-lived server
#: asked about many plateaus stays bounded (an answer of 100k events is a few MB of text).
MEMO_SIZE = 16


class Backing(Protocol):
    """Where answers outlive the process (:mod:`resolver.store`): read and written whole."""

    def answer(self, key: tuple[str, int, str]) -> tuple[str, int] | None: ...

    def keep(self, key: tuple[str, int, str], text: str, ground_rules: int) -> None: ...

    def verdicts(self, key: tuple[str, int, str]) -> str | None:
        """The typed verdicts kept beside the answer of ``key`` (:mod:`resolver.verdicts.
        kept`'s JSON text), if any."""
        ...

    def keep_verdicts(self, key: tuple[str, int, str], text: str) -> None:
        """Keep the typed verdicts read from the answer of ``key`` beside it."""
        ...


class Thresholds:
    """The sorted, distinct times a standpoint's answer can turn on (encoded seconds)."""

    def __init__(self, values: Iterable[int]) -> None:
        self.values = sorted(set(values))

    def plateau(self, encoded: int) -> int:
        """The plateau of ``encoded``: ``2i`` strictly between the ``i-1``-th and ``i``-th
        threshold, ``2i + 1`` exactly on the ``i``-th. Every comparison ``x < T``, ``x <= T``,
        ``T > x``, ``T <= x`` with a threshold ``x`` has the same outcome on one plateau."""
        index = bisect_left(self.values, encoded)
        on = index < len(self.values) and self.values[index] == encoded
        return 2 * index + (1 if on else 0)


def family(at: int, known: int | None) -> str | None:
    """The default family of a standpoint (encoded or not), or None for any other."""
    if known is None:
        return LATEST
    return AT if known == at else None


class Memo:
    """Answers by ``(family, plateau, query)``: in memory, and through a backing if any."""

    def __init__(self, backing: Backing | None = None, size: int = MEMO_SIZE) -> None:
        self.backing = backing
        self.size = size
        self._kept: OrderedDict[tuple[str, int, str], tuple[str, int]] = OrderedDict()
        self._lock = threading.Lock()  # the MCP server's tools may share one prepared history
        #: What a reader made of an answer (typed verdicts), by the answer's key and the
        #: reader's own options: a process asking again on the plateau (the MCP server) reads
        #: the atoms once. Only in memory, never written.
        self._views: OrderedDict[tuple, object] = OrderedDict()
        #: How many answers came from the memo, and how many were solved: for the bench.
        self.hits = 0
        self.misses = 0

    def get(self, key: tuple[str, int, str]) -> tuple[str, int] | None:
        """The stored answer (atoms' text, ground rules) of ``key``, if any."""
        with self._lock:
            found = self._kept.get(key)
            if found is not None:
                self._kept.move_to_end(key)
        if found is None and self.backing is not None:
            found = self.backing.answer(key)
            if found is not None:
                self._remember(key, found)
        if found is None:
            self.misses += 1
        else:
            self.hits += 1
        return found

    def view(self, key: tuple) -> object | None:
        """What a reader kept of an answer under ``key`` (see :meth:`keep_view`)."""
        with self._lock:
            found = self._views.get(key)
            if found is not None:
                self._views.move_to_end(key)
                self.hits += 1
        return found

    def keep_view(self, key: tuple, view: object) -> None:
        """Keep what a reader made of an answer (as many as answers are kept)."""
        with self._lock:
            self._views[key] = view
            self._views.move_to_end(key)
            while len(self._views) > self.size:
                self._views.popitem(last=False)

    def verdicts(self, key: tuple[str, int, str]) -> str | None:
        """The typed verdicts the backing keeps beside the answer of ``key``: a fresh process
        on an answered plateau decodes them instead of reading the atoms into verdicts."""
        if self.backing is None:
            return None
        found = self.backing.verdicts(key)
        if found is not None:
            self.hits += 1
        return found

    def keep_verdicts(self, key: tuple[str, int, str], text: str) -> None:
        """Hand the backing the typed verdicts read from the answer of ``key``."""
        if self.backing is not None:
            self.backing.keep_verdicts(key, text)

    def put(self, key: tuple[str, int, str], text: str, ground_rules: int) -> None:
        """Keep a solved answer (and hand it to the backing)."""
        self._remember(key, (text, ground_rules))
        if self.backing is not None:
            self.backing.keep(key, text, ground_rules)

    def _remember(self, key: tuple[str, int, str], answer: tuple[str, int]) -> None:
        with self._lock:
            self._kept[key] = answer
            self._kept.move_to_end(key)
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
