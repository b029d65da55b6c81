"""The per-channel log in blocks, so that a standpoint reads summaries instead of every event.

Footprints and gaps need, per channel, only which events are visible: their latest ``at`` and
the runs of visible sequence numbers. Consecutive events are summarised in blocks (least and
greatest ``at`` and ``recorded``); at a standpoint ``rules/standpoint/channel_log.lp`` finds
each block wholly visible, wholly invisible, or partial, and reads the events of partial blocks
one by one. This module only groups events (read from the event columns, building no ``Event``)
and, per query, supplies the events of the blocks whose bounds straddle the standpoint; an
integrity constraint in the rules refuses an answer if a partial block lacks them. With
``block_size=1`` every block is one event and none is ever partial: the
plain path that ``tests/test_reduction.py`` compares with.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

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
    events: tuple[tuple[int, int, int], ...]  # (seq or 0, at, rec)


class ChannelLog:
    """Blocks of one history's channel log, and the details a standpoint needs."""

    def __init__(
        self, entries: Iterable[tuple[int, int | None, int, int]], block_size: int = 1
    ) -> None:
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
        if block_size < 1:
            raise ValueError("block_size must be at least 1")
        self.block_size = block_size
        self._time_blocks: list[_Block] = []
        self._seq_blocks: list[_Block] = []
        lines: list[str] = []
        for channel in sorted(by_time):
            rows = sorted(by_time[channel])
            for start in range(0, len(rows), block_size):
                chunk = rows[start : start + block_size]
                block = _Block(
                    channel,
                    len(self._time_blocks) + 1,
                    min(a for a, _ in chunk),
                    max(a for a, _ in chunk),
                    min(r for _, r in chunk),
                    max(r for _, r in chunk),
                    tuple((0, a, r) for a, r in chunk),
                )
                self._time_blocks.append(block)
                lines.append(
                    f"tblock({channel},{block.number},{block.at_min},{block.at_max},"
                    f"{block.rec_min},{block.rec_max})."
                )
        for channel in sorted(by_seq):
            previous = None
            for run in _seq_runs(sorted(by_seq[channel]), block_size):
                number = len(self._seq_blocks) + 1
                block = _Block(
                    channel,
                    number,
                    min(a for _, a, _ in run),
                    max(a for _, a, _ in run),
                    min(r for _, _, r in run),
                    max(r for _, _, r in run),
                    tuple(run),
                )
                self._seq_blocks.append(block)
                first, last = run[0][0], run[-1][0]
                lines.append(
                    f"sblock({channel},{number},{first},{last},{run[0][1]},{block.at_min},"
                    f"{block.at_max},{block.rec_min},{block.rec_max})."
                )
                if previous is not None:
                    lines.append(f"sblock_next({channel},{previous},{number}).")
                previous = number
        self.static_text = "\n".join(lines) + "\n"

    def details(self, at: int, known: int) -> str:
        """Facts for the events of every block that straddles the standpoint ``(at, known)``."""
        lines: list[str] = []
        for block in self._time_blocks:
            if _straddles(block, at, known):
                lines.extend(
                    f"tdetail({block.channel},{block.number},{a},{r})." for _, a, r in block.events
                )
        for block in self._seq_blocks:
            if _straddles(block, at, known):
                lines.extend(
                    f"sdetail({block.channel},{block.number},{s},{a},{r})."
                    for s, a, r in block.events
                )
        return "\n".join(lines) + "\n"


def _straddles(block: _Block, at: int, known: int) -> bool:
    whole = block.at_max <= at and block.rec_max <= known
    none = block.at_min > at or block.rec_min > known
    return not whole and not none


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


class CandidateLog:
    """Each expectation's candidates per channel in blocks, for the footprint's candidate count.

    The count of visible candidates is all a verdict needs of the (many) candidates that make no
    transition; blocks give it without reading every candidate at every standpoint, exactly as
    for the channel log (``rules/standpoint/channel_log.lp``).
    """

    def __init__(
        self, entries: Iterable[tuple[int, int, int, int, int]], block_size: int = 1
    ) -> None:
        groups: dict[tuple[int, int], list[tuple[int, int, int]]] = defaultdict(list)
        for x, channel, event, at, rec in entries:
            groups[(x, channel)].append((at, rec, event))
        self._blocks: list[tuple[int, int, int, int, int, tuple[tuple[int, int, int], ...]]] = []
        lines = []
        for (x, channel), rows in sorted(groups.items()):
            rows.sort()
            for start in range(0, len(rows), block_size):
                chunk = rows[start : start + block_size]
                number = len(self._blocks) + 1
                at_min, at_max = chunk[0][0], chunk[-1][0]
                rec_min, rec_max = min(r for _, r, _ in chunk), max(r for _, r, _ in chunk)
                self._blocks.append((number, at_min, at_max, rec_min, rec_max, tuple(chunk)))
                lines.append(
                    f"cblock({x},{channel},{number},{len(chunk)},{at_min},{at_max},"
                    f"{rec_min},{rec_max})."
                )
        self.static_text = "\n".join(lines) + "\n"

    def details(self, at: int, known: int) -> str:
        """Facts for the candidates of every block that straddles ``(at, known)``."""
        lines = []
        for number, at_min, at_max, rec_min, rec_max, rows in self._blocks:
            whole = at_max <= at and rec_max <= known
            none = at_min > at or rec_min > known
            if not whole and not none:
                lines.extend(f"cdetail({number},{e},{a},{r})." for a, r, e in rows)
        return "\n".join(lines) + "\n"
