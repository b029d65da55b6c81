"""Candidates per item and channel in blocks, cut afresh for each standpoint.

The footprint counts each expectation's visible candidates per channel; the rules need the
count, not every candidate, so each ``(X, C)`` chain of candidates is cut per standpoint into a
few blocks judged by their bounds (``rules/standpoint/blocks.lp``), as the channel log is
(:mod:`resolver.facts.channel_log`). The rejection blocks (:mod:`resolver.facts.
rejection_blocks`) cut their chains the same way.
"""

from __future__ import annotations

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from itertools import accumulate


class TimeChain:
    """Rows in ``at`` order, cut afresh for each standpoint ``(T, K)`` into a few blocks.

    The longest prefix whose rows all have ``at <= T`` and ``recorded <= K`` is one block seen
    whole; the rows after it with ``at <= T`` are one or two detailed blocks (late records: their
    rows are given one by one), except a run all recorded after ``K``, which is one unseen block;
    the rows with ``at > T`` are one unseen block. So a chain costs a standpoint a few facts and
    its late records, however long it is. The rules judge every block from its bounds alone, so
    the cut decides nothing: a wrong cut has no answer (a partial block without its rows).
    """

    __slots__ = ("_prefix_max", "_prefix_min", "_suffix_max", "_suffix_min", "ats", "recs")

    def __init__(self, ats: Sequence[int], recs: Sequence[int]) -> None:
        self.ats = tuple(ats)
        self.recs = tuple(recs)
        self._prefix_max = tuple(accumulate(self.recs, max))
        self._prefix_min = tuple(accumulate(self.recs, min))
        self._suffix_min = tuple(accumulate(reversed(self.recs), min))[::-1]
        self._suffix_max = tuple(accumulate(reversed(self.recs), max))[::-1]

    def cut(self, at: int, known: int) -> list[tuple[int, int, bool]]:
        """``(start, stop, detailed)`` for each block of rows ``start`` to ``stop - 1``."""
        count = len(self.ats)
        seen_at = bisect_right(self.ats, at)  # the rows with at <= T
        whole = min(seen_at, bisect_right(self._prefix_max, known))
        blocks = [(0, whole, False)] if whole else []
        if seen_at > whole:
            known_at = min(seen_at, max(whole, bisect_right(self.ats, known)))
            if known_at > whole:
                blocks.append((whole, known_at, True))
            if seen_at > known_at:  # at > K: unseen unless recorded before it happened
                blocks.append((known_at, seen_at, min(self.recs[known_at:seen_at]) <= known))
        if count > seen_at:
            blocks.append((seen_at, count, False))
        return blocks

    def bounds(self, start: int, stop: int) -> tuple[int, int, int, int]:
        """``(at_min, at_max, rec_min, rec_max)`` of rows ``start`` to ``stop - 1``."""
        if start == 0:
            rec_min, rec_max = self._prefix_min[stop - 1], self._prefix_max[stop - 1]
        elif stop == len(self.recs):
            rec_min, rec_max = self._suffix_min[start], self._suffix_max[start]
        else:
            recs = self.recs[start:stop]
            rec_min, rec_max = min(recs), max(recs)
        return self.ats[start], self.ats[stop - 1], rec_min, rec_max


class BlockNumbers:
    """The number of each block a :class:`TimeChain` is cut into, the same at every standpoint.

    clingo keeps every symbol it has seen for the life of the process. Numbered afresh at each
    standpoint, a block's atoms (its number with its bounds and count) were new symbols at
    almost every standpoint: a process answering standpoints at random instants grew by about
    230 KB per standpoint at 10k events. Numbered by what they hold (the chain and the rows),
    the blocks of a chain are at most a few per row over any number of standpoints, so memory
    stops growing once the standpoints asked have cut each chain in the usual places.
    """

    __slots__ = ("_numbers",)

    def __init__(self) -> None:
        self._numbers: dict[tuple[int, int, int], int] = {}

    def number(self, chain: int, start: int, stop: int) -> int:
        """The block of rows ``start`` to ``stop - 1`` of chain ``chain`` (numbered from 1)."""
        key = (chain, start, stop)
        found = self._numbers.get(key)
        if found is None:
            found = self._numbers[key] = len(self._numbers) + 1
        return found


class CandidateLog:
    """Each expectation's candidates per channel in blocks, for the footprint's candidate count.

    The count of visible candidates is all a verdict needs of the (many) candidates that make no
    transition; blocks give it without reading every candidate at every standpoint, exactly as
    for the channel log (``rules/standpoint/channel_log.lp``, judged by ``blocks.lp``). With
    ``block_size`` 1 (the plain path) every candidate is a block of its own; else each
    ``(X, C)`` is a :class:`TimeChain`, cut for each standpoint. ``names`` are the block and
    detail predicates: the same blocks say whether X has a visible touch rejected below
    ``verify`` (``bvblock/8``, ``bvdetail/4``, ``rules/standpoint/reasons.lp``).
    """

    def __init__(
        self,
        entries: Iterable[tuple[int, int, int, int, int]],
        block_size: int = 1,
        names: tuple[str, str] = ("cblock", "cdetail"),
    ) -> None:
        self._block, self._detail = names
        groups: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(list)
        for x, channel, event, at, rec in entries:
            groups[(x, channel)].append((at, rec, event))
        self._plain = block_size == 1
        self._chains: list[tuple[int, int, TimeChain, tuple[int, ...]]] = []
        self._blocks = BlockNumbers()
        lines = []
        for (x, channel), rows in sorted(groups.items()):
            rows.sort()
            if not self._plain:
                chain = TimeChain([a for a, _, _ in rows], [r for _, r, _ in rows])
                self._chains.append((x, channel, chain, tuple(e for _, _, e in rows)))
                continue
            for at, rec, _ in rows:
                number = len(lines) + 1
                lines.append(f"{self._block}({x},{channel},{number},1,{at},{at},{rec},{rec}).")
        self.static_text = "\n".join(lines) + "\n"

    def details(self, at: int, known: int) -> str:
        """The blocks of every chain cut for ``(at, known)``, and the rows of the detailed ones."""
        lines = []
        for index, (x, channel, chain, events) in enumerate(self._chains):
            for start, stop, detailed in chain.cut(at, known):
                number = self._blocks.number(index, start, stop)
                at_min, at_max, rec_min, rec_max = chain.bounds(start, stop)
                lines.append(
                    f"{self._block}({x},{channel},{number},{stop - start},{at_min},{at_max},"
                    f"{rec_min},{rec_max})."
                )
                if detailed:
                    lines.extend(
                        f"{self._detail}({number},{events[i]},{chain.ats[i]},{chain.recs[i]})."
                        for i in range(start, stop)
                    )
        return "\n".join(lines) + "\n"
