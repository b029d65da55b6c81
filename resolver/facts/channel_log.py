"""The per-channel log in blocks, so that a standpoint reads summaries instead of every event.

Footprints and gaps need, per channel, only which events are visible and which are known: their
latest ``at``, and the runs of sequence numbers that visible or known records hold (a known
record of a later event fills its number: SPEC §3, Absence). Consecutive events are summarised
in blocks (least and greatest ``at`` and ``recorded``); at a standpoint
``rules/standpoint/blocks.lp`` finds each block whole (alike at the standpoint) or partial, and
``rules/standpoint/channel_log.lp`` reads the events of partial blocks one by one. This module
only groups events (read from the event columns, building no ``Event``) and, per query,
supplies the events of the blocks whose bounds straddle the standpoint; an integrity constraint
in the rules refuses an answer if a partial block lacks them. With ``block_size=1`` every block
is one event and none is ever partial: the plain path that
``tests/properties/test_reduction.py`` compares with.
"""

from __future__ import annotations

from array import array
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate

from resolver.language.event_columns import NO_SEQ

#: Events per block on the optimised path.
DEFAULT_BLOCK_SIZE = 128


@dataclass(frozen=True)
class _Block:
    channel: int
    number: int
    at_min: int
    at_max: int
    rec_min: int
    rec_max: int
    events: Sequence[tuple[int, int, int]]  # (seq or 0, at, rec)


class _Rows(Sequence[tuple[int, int, int]]):
    """A block's events as :meth:`ChannelLog.unpack` found them: ``count`` triples of a flat
    array from ``start``, made into tuples only when read (a standpoint reads a few blocks)."""

    __slots__ = ("_count", "_numbers", "_start")

    def __init__(self, numbers: array, start: int, count: int) -> None:
        self._numbers, self._start, self._count = numbers, start, count

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return list(self)[index]
        if index < 0:
            index += self._count
        if not 0 <= index < self._count:
            raise IndexError(index)
        at = self._start + 3 * index
        return (self._numbers[at], self._numbers[at + 1], self._numbers[at + 2])

    def __iter__(self):
        row = self._numbers[self._start : self._start + 3 * self._count]
        return zip(row[0::3], row[1::3], row[2::3], strict=True)


class ChannelLog:
    """Blocks of one history's channel log, and the details a standpoint needs."""

    def __init__(
        self, entries: Iterable[tuple[int, int | None, int, int]], block_size: int = 1
    ) -> None:
        if block_size < 1:
            raise ValueError("block_size must be at least 1")
        by_time: dict[int, list[tuple[int, int]]] = defaultdict(list)
        by_seq: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for channel, seq, at, rec in entries:
            by_time[channel].append((at, rec))
            if seq is not None:
                by_seq[channel].append((seq, at, rec))
        self._build(by_time, by_seq, block_size)

    @classmethod
    def from_columns(
        cls,
        channels: Sequence[int],
        seqs: Sequence[int],
        ats: Sequence[int],
        recs: Sequence[int],
        block_size: int = 1,
    ) -> ChannelLog:
        """The log of parallel columns (one row per event; ``seq`` is ``NO_SEQ`` when absent),
        as the event columns hold them: the same log as the entries of those rows."""
        if block_size < 1:
            raise ValueError("block_size must be at least 1")
        by_time: dict[int, list[tuple[int, int]]] = defaultdict(list)
        by_seq: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for channel, seq, at, rec in zip(channels, seqs, ats, recs, strict=True):
            by_time[channel].append((at, rec))
            if seq != NO_SEQ:
                by_seq[channel].append((seq, at, rec))
        log = cls.__new__(cls)
        log._build(by_time, by_seq, block_size)
        return log

    def _build(
        self,
        by_time: dict[int, list[tuple[int, int]]],
        by_seq: dict[int, list[tuple[int, int, int]]],
        block_size: int,
    ) -> None:
        time_blocks: list[_Block] = []
        seq_blocks: list[_Block] = []
        for channel in sorted(by_time):
            rows = sorted(by_time[channel])
            for start in range(0, len(rows), block_size):
                chunk = rows[start : start + block_size]
                ats, recs = zip(*chunk, strict=True)
                events = tuple((0, a, r) for a, r in chunk)
                number = len(time_blocks) + 1
                time_blocks.append(
                    _Block(channel, number, min(ats), max(ats), min(recs), max(recs), events)
                )
        for channel in sorted(by_seq):
            for run in _seq_runs(sorted(by_seq[channel]), block_size):
                _, ats, recs = zip(*run, strict=True)
                number = len(seq_blocks) + 1
                seq_blocks.append(
                    _Block(channel, number, min(ats), max(ats), min(recs), max(recs), tuple(run))
                )
        self._set_blocks(time_blocks, seq_blocks, block_size)

    def _set_blocks(
        self, time_blocks: list[_Block], seq_blocks: list[_Block], block_size: int
    ) -> None:
        """Take the blocks (numbered from 1, channel by channel) and write their facts."""
        self.block_size = block_size
        self._time_blocks = time_blocks
        self._seq_blocks = seq_blocks
        lines = [
            f"tblock({b.channel},{b.number},{b.at_min},{b.at_max},{b.rec_min},{b.rec_max})."
            for b in time_blocks
        ]
        previous: _Block | None = None
        for block in seq_blocks:
            first, last = block.events[0], block.events[-1]
            lines.append(
                f"sblock({block.channel},{block.number},{first[0]},{last[0]},{first[1]},"
                f"{block.at_min},{block.at_max},{block.rec_min},{block.rec_max})."
            )
            if previous is not None and previous.channel == block.channel:
                lines.append(f"sblock_next({block.channel},{previous.number},{block.number}).")
            previous = block
        self.static_text = "\n".join(lines) + "\n"

    def pack(self) -> bytes:
        """The blocks as 64-bit integers (native order): what the store keeps, so that a
        history answered from it need not group its events again (:meth:`unpack`)."""
        heads = [self.block_size, len(self._time_blocks), len(self._seq_blocks)]
        flat: list[int] = []
        for block in (*self._time_blocks, *self._seq_blocks):
            heads.extend((block.channel, block.at_min, block.at_max, block.rec_min, block.rec_max))
            heads.append(len(block.events))
            for event in block.events:
                flat.extend(event)
        return array("q", heads).tobytes() + array("q", flat).tobytes()

    @classmethod
    def unpack(cls, data: bytes) -> ChannelLog | None:
        """The log :meth:`pack` wrote, or None when ``data`` is not such a log (a torn or
        foreign blob: the caller builds the log from the events instead)."""
        numbers = array("q")
        if len(data) % numbers.itemsize:
            return None
        numbers.frombytes(data)
        if len(numbers) < 3:
            return None
        block_size, times, seqs = numbers[0], numbers[1], numbers[2]
        head_end = 3 + 6 * (times + seqs)
        if block_size < 1 or times < 0 or seqs < 0 or head_end > len(numbers):
            return None
        blocks: list[_Block] = []
        offset = head_end
        for index in range(times + seqs):
            channel, at_min, at_max, rec_min, rec_max, count = numbers[
                3 + 6 * index : 9 + 6 * index
            ]
            stop = offset + 3 * count
            if count < 1 or stop > len(numbers):
                return None
            events = _Rows(numbers, offset, count)  # read only if a standpoint needs them
            number = index + 1 if index < times else index - times + 1
            blocks.append(_Block(channel, number, at_min, at_max, rec_min, rec_max, events))
            offset = stop
        if offset != len(numbers):
            return None
        log = cls.__new__(cls)
        log._set_blocks(blocks[:times], blocks[times:], block_size)
        return log

    def events(self) -> Iterable[tuple[int, int, int]]:
        """``(channel, at, recorded)`` of every event of the log, channel by channel in ``at``
        order: what the footprint's ``through`` and the gaps judge at a standpoint."""
        for block in self._time_blocks:
            for _, at, rec in block.events:
                yield block.channel, at, rec

    def details(self, at: int, known: int) -> str:
        """Facts for the events of every block that straddles the standpoint ``(at, known)``."""
        lines: list[str] = []
        for block in self._time_blocks:
            if _straddles(block, at, known):
                lines.extend(
                    f"tdetail({block.channel},{block.number},{a},{r})." for _, a, r in block.events
                )
        for block in self._seq_blocks:
            if _seq_straddles(block, at, known):
                lines.extend(
                    f"sdetail({block.channel},{block.number},{s},{a},{r})."
                    for s, a, r in block.events
                )
        return "\n".join(lines) + "\n"


def _straddles(block: _Block, at: int, known: int) -> bool:
    whole = block.at_max <= at and block.rec_max <= known
    none = block.at_min > at or block.rec_min > known
    return not whole and not none


def _seq_straddles(block: _Block, at: int, known: int) -> bool:
    """A seq block is partial unless its events are alike: all visible, none known, or all
    known and none visible (known records of later events hold their seqs: SPEC 3, Absence;
    ``rules/standpoint/blocks.lp`` judges the blocks the same way)."""
    visible = block.at_max <= at and block.rec_max <= known
    unknown = block.rec_min > known
    later = block.at_min > at and block.rec_max <= known
    return not (visible or unknown or later)


def _seq_runs(rows: list[tuple[int, int, int]], size: int) -> Iterable[list[tuple[int, int, int]]]:
    """Runs of consecutive, distinct sequence numbers, at most ``size`` long."""
    run: list[tuple[int, int, int]] = []
    for row in rows:
        if run and (row[0] != run[-1][0] + 1 or len(run) == size):
            yield run
            run = []
        run.append(row)
    if run:
        yield run


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
