"""Which events' rows the fact writer reads one by one: the relevant ones, found on whole columns.

Most events of a long history matter only to the channel log (footprints and gaps); the rules of
the ``prepare`` part read only the events that could touch an expectation or a task
(:func:`relevant_event_ids`). Both functions here read the event columns whole (``compress``,
``map``, ``min``, ``max``: C loops), so the writer's Python loop runs over the relevant rows
rather than over every event.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress
from operator import ne
from typing import cast

from resolver import times
from resolver.facts.interning import INT_MAX, INT_MIN
from resolver.language.event_columns import NO_SEQ, EventColumns
from resolver.language.model import Project

__all__ = ["relevant_event_ids", "rows_to_read"]

#: The range of encoded instants (the event columns hold times encoded).
_LOWEST, _HIGHEST = times.encode(times.MIN_UNIX), times.encode(times.MAX_UNIX)

#: Up to this many channels, each one's first row is found by ``index`` (a C scan per channel).
_FEW_CHANNELS = 32


def relevant_event_ids(project: Project, linked: set[str]) -> set[str]:
    """Events that could touch some expectation or task: a safe superset for the rules.

    An event the rules could ever read (as an opening, a bound, a candidate or a claim) sets a
    wanted or ``superseded_when`` key, carries a marker, is named by a declaration, or is linked
    by text. Every other event matters only to the channel log (footprints and gaps), so it is
    left out of the ``prepare`` part; ``tests/properties/test_reduction.py`` checks that this
    changes no verdict. The columns are read whole (``compress``, ``map``), not event by event:
    most events are none of these.
    """
    keys = {x.want.key for x in project.expectations if x.want is not None}
    keys |= {x.superseded_when.key for x in project.expectations if x.superseded_when is not None}
    named = {x.opened_by for x in project.expectations} | {x.before for x in project.expectations}
    named |= {t.opened_by for t in project.tasks}
    out = set(linked)
    columns = cast(EventColumns, project.events)
    ids = columns.ids
    out.update(compress(ids, map(ne, columns.marker_start, columns.marker_end)))
    out.update(compress(ids, map(named.__contains__, ids)))
    key_ids = {columns.find_string(k) for k in keys} - {None}
    if key_ids and not key_ids.isdisjoint(columns.set_key):
        set_keys, starts, ends = columns.set_key, columns.set_start, columns.set_end
        setting = compress(zip(ids, starts, ends, strict=True), map(ne, starts, ends))
        out.update(
            ident
            for ident, start, end in setting
            if any(set_keys[j] in key_ids for j in range(start, end))
        )
    return out


def rows_to_read(
    columns: EventColumns,
    relevant: set[str] | None,
    order: Sequence[int] | None = None,
    numbers: Sequence[int] | None = None,
) -> Iterable[int]:
    """The rows the writer reads one by one, in reading order (``order``: the rows in that
    order, None when they are; ``numbers``: each row's event number, which follows it): the
    relevant ones and each channel's first row (where the writer interns the channel) when
    every time and sequence number is in range (checked on whole columns); otherwise every row,
    so that the first row out of range raises. ``relevant`` None: every row."""
    rows = range(len(columns.ids))
    if relevant is None or not in_range(columns):
        return rows if order is None else order
    if order is None:
        wanted = compress(rows, map(relevant.__contains__, columns.ids))
        return sorted(_first_rows(columns.channel).union(wanted))
    firsts = _first_rows(list(map(columns.channel.__getitem__, order)))
    chosen = set(map(order.__getitem__, firsts))
    chosen.update(compress(rows, map(relevant.__contains__, columns.ids)))
    return sorted(chosen, key=cast(Sequence[int], numbers).__getitem__)


def in_range(columns: EventColumns) -> bool:
    """Every instant can be encoded and every sequence number has neighbours in clingo's range:
    what the fact writer checks row by row, read on whole columns."""
    ats, recs, seqs = columns.at, columns.recorded, columns.seq
    if not ats:
        return True
    if not (min(ats) >= _LOWEST and max(ats) <= _HIGHEST):
        return False
    if not (min(recs) >= _LOWEST and max(recs) <= _HIGHEST):
        return False
    high, low = max(seqs), min(filter(NO_SEQ.__ne__, seqs), default=0)
    return (high == NO_SEQ or high < INT_MAX - 1) and low > INT_MIN + 1


def _first_rows(channels: Sequence[int]) -> set[int]:
    """The first row of each channel (where the row-by-row reading interns it)."""
    distinct = set(channels)
    if len(distinct) <= _FEW_CHANNELS:
        return {channels.index(c) for c in distinct}
    first: dict[int, int] = {}
    for row, c in enumerate(channels):
        first.setdefault(c, row)
    return set(first.values())
