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
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from itertools import chain

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

    def numbers(self) -> array:
        """The events' numbers, flat, as :meth:`ChannelLog.pack` writes them."""
        return self._numbers[self._start : self._start + 3 * self._count]

    def __iter__(self):
        row = self.numbers()
        return zip(row[0::3], row[1::3], row[2::3], strict=True)


class ChannelLog:
    """Blocks of one history's channel log, and the details a standpoint needs."""

    def __init__(
        self, entries: Iterable[tuple[int, int | None, int, int]], block_size: int = 1
    ) -> None:
        if block_size < 1:
            raise ValueError("block_size must be at least 1")
        self._build(*_by_channel(entries), block_size)

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
        time_blocks = [
            block
            for channel in sorted(by_time)
            for block in _time_chunks(channel, sorted(by_time[channel]), block_size)
        ]
        seq_blocks = [
            block
            for channel in sorted(by_seq)
            for block in _seq_chunks(channel, sorted(by_seq[channel]), block_size)
        ]
        self._set_blocks(_numbered(time_blocks), _numbered(seq_blocks), block_size)

    def extended(self, entries: Iterable[tuple[int, int | None, int, int]]) -> ChannelLog:
        """This log with more records ``(channel, seq or None, at, recorded)``: the log of all
        of them, as :class:`ChannelLog` would make it. Only the blocks from the first that a new
        record sorts into are made again, channel by channel (an append's records usually sort
        after every kept one: then only each channel's last block and what follows)."""
        by_time, by_seq = _by_channel(entries)
        size = self.block_size
        times = _regrown(self._time_blocks, by_time, size, _time_chunks, lambda e: e[1:])
        seqs = _regrown(self._seq_blocks, by_seq, size, _seq_chunks, lambda e: e)
        log = ChannelLog.__new__(ChannelLog)
        log._set_blocks(_numbered(times), _numbered(seqs), size)
        return log

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
        flat = array("q")
        for block in (*self._time_blocks, *self._seq_blocks):
            heads.extend((block.channel, block.at_min, block.at_max, block.rec_min, block.rec_max))
            heads.append(len(block.events))
            events = block.events
            if isinstance(events, _Rows):  # unpacked: its numbers as they are
                flat.extend(events.numbers())
            else:
                flat.extend(chain.from_iterable(events))
        return array("q", heads).tobytes() + flat.tobytes()

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


def _by_channel(
    entries: Iterable[tuple[int, int | None, int, int]],
) -> tuple[dict[int, list[tuple[int, int]]], dict[int, list[tuple[int, int, int]]]]:
    """Records ``(channel, seq or None, at, recorded)`` by channel: their times, and their
    sequence numbers with their times."""
    by_time: dict[int, list[tuple[int, int]]] = defaultdict(list)
    by_seq: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for channel, seq, at, rec in entries:
        by_time[channel].append((at, rec))
        if seq is not None:
            by_seq[channel].append((seq, at, rec))
    return by_time, by_seq


def _time_chunks(channel: int, rows: list[tuple[int, int]], size: int) -> list[_Block]:
    """The time blocks of one channel's records, sorted (numbered 0: :func:`_numbered`)."""
    found = []
    for start in range(0, len(rows), size):
        chunk = rows[start : start + size]
        ats, recs = zip(*chunk, strict=True)
        events = tuple((0, a, r) for a, r in chunk)
        found.append(_Block(channel, 0, min(ats), max(ats), min(recs), max(recs), events))
    return found


def _seq_chunks(channel: int, rows: list[tuple[int, int, int]], size: int) -> list[_Block]:
    """The sequence blocks of one channel's numbered records, sorted."""
    found = []
    for run in _seq_runs(rows, size):
        _, ats, recs = zip(*run, strict=True)
        found.append(_Block(channel, 0, min(ats), max(ats), min(recs), max(recs), tuple(run)))
    return found


def _numbered(blocks: list[_Block]) -> list[_Block]:
    """The blocks numbered 1, 2, ... in order."""
    return [
        block if block.number == n else replace(block, number=n)
        for n, block in enumerate(blocks, 1)
    ]


def _regrown(blocks: list[_Block], added: dict, size: int, chunks, key) -> list[_Block]:
    """``blocks`` (channel by channel, each channel's in order) with the rows ``added`` per
    channel: a channel's blocks from the first whose rows a new one sorts before are made
    again from their rows and the new ones (``key``: a block event as a row); the rest kept.
    A block before that one holds the same rows as a fresh chunking gives it: the chunks are
    cut from the channel's first row, and a sequence run's end depends only on what it holds."""
    by_channel: dict[int, list[_Block]] = defaultdict(list)
    for block in blocks:
        by_channel[block.channel].append(block)
    found: list[_Block] = []
    for channel in sorted(by_channel.keys() | added.keys()):
        kept = by_channel.get(channel, [])
        rows = added.get(channel)
        if not rows:
            found.extend(kept)
            continue
        rows = sorted(rows)
        first = len(kept)
        while first and key(kept[first - 1].events[-1]) > rows[0]:
            first -= 1
        if first:  # the last kept block is made again too (it may not be full)
            first -= 1
        again = [key(event) for block in kept[first:] for event in block.events]
        found.extend(kept[:first])
        found.extend(chunks(channel, sorted(again + rows), size))
    return found
