"""Answers composed across a quiet append: the items' atoms from before it, the channels' afresh.

An append that touches no item (:mod:`resolver.store.quiet`) changes no item's verdict at any
standpoint: what it moves is its channels' summaries (``searched``, ``through``, the gaps:
``rules/standpoint/channel_log.lp``), which read only the channel log, ``now`` and ``known``.
So an answer solved before the append, at the plateau the standpoint had among the thresholds
of that history, holds every item's atoms for the history after it; only the summaries are
derived again, by the channel log's own rules over the grown log (a program of a few hundred
facts instead of the whole standpoint program). The store carries such answers over each quiet
append with the thresholds added since (:meth:`resolver.store.entry.Entry.carried`); a
standpoint of a default family with no answer of its own is composed from one when its plateau
among the thresholds less those added is the carried answer's. Only a plain status query is
composed (no explanation, gate, snapshot or extra facts, whose rules read more). The rules
decide every atom of it: this module only picks which solve's atoms make up the answer.
``tests/store/test_quiet.py`` holds composed answers to fresh solves byte for byte.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import cache
from typing import TYPE_CHECKING

from resolver import resources, times
from resolver.engine.atoms import Atoms
from resolver.engine.query import Query

if TYPE_CHECKING:
    from resolver.engine.prepared import Prepared, Standpoint

#: The rule files of a channel's summary at a standpoint, and the atoms they show: everything
#: of an answer that reads the channel log alone (``tests/store/test_quiet.py`` checks the
#: shown atoms against the rule files).
CHANNEL_FILES = (
    "vocabulary.lp",
    "standpoint/blocks.lp",
    "standpoint/channel_log.lp",
    "standpoint/output.lp",
)
SUMMARY = ("searched(", "through(", "gap(")


@cache
def channel_program() -> str:
    """The rules of :data:`CHANNEL_FILES` (their ``base`` and ``standpoint`` sections)."""
    root = resources.data_dir("rules")
    return "\n".join((root / name).read_text(encoding="utf-8") for name in CHANNEL_FILES)


def composable(query: Query) -> bool:
    """A plain status query: its rules read nothing a quiet append changes but the summaries."""
    plain = Query(reasons=query.reasons, every_reason=query.every_reason)
    return query == plain and not query.extra


def compose(
    prepared: Prepared, standpoint: Standpoint, query: Query, key: tuple[str, int, str]
) -> Atoms | None:
    """The answer of ``query`` at ``standpoint`` (memo key ``key``) composed from a carried
    answer, or None when none is on its plateau."""
    memo = prepared.memo
    carried = getattr(None if memo is None else memo.backing, "carried", None)
    if carried is None or not composable(query):
        return None
    rows = carried(key[0], key[2])
    if not rows:
        return None
    at = times.encode(standpoint.at)
    values = prepared.thresholds.values
    index = bisect_left(values, at)
    on = index < len(values) and values[index] == at
    for plateau, added, text, ground_rules in rows:
        below = bisect_left(added, at)
        added_on = below < len(added) and added[below] == at
        if plateau != 2 * (index - below) + (1 if on and not added_on else 0):
            continue
        items = [atom for atom in text.split() if not atom.startswith(SUMMARY)]
        known = times.LATEST if standpoint.known is None else times.encode(standpoint.known)
        log = prepared.facts.channel_log
        facts = [log.static_text, log.details(at, known), f"now({at}).\nknown({known}).\n"]
        from resolver.engine.prepared import _solve  # the engine's one way to run clingo

        summary = _solve(facts, "standpoint", channel_program())
        return Atoms(" ".join([*items, *summary.text.split()]), ground_rules)
    return None
