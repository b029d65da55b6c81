"""The ``--compare`` row that bounds a long-lived solver: the least it could cost per standpoint.

The performance issue proposes one clingo Control per history, grounded once, with a standpoint
given as a few ``#external`` atoms over a sorted chain of instants (visible-at-T as a chain
``le_now(I)`` rather than ``At <= T`` in every rule), so that a query flips externals, solves and
reads ``symbols(shown=True)``. Whatever else such a program derives, it must at least decide
the visibility of every event and of every closing candidate at each query. This module grounds
exactly that and nothing more, on the prepared history's own events and candidates:

* ``evt(E, At, Rec)`` for every event the prepared atoms name, and ``logged(I, At, Rec)`` for
  every other event of a work channel (the footprint's ``through`` and the sequence gaps judge
  each of them at a standpoint: ``rules/standpoint/channel_log.lp``); the distinct valid and
  record instants (``tinstant``, ``rinstant``) and their ``tnext``/``rnext`` chains;
* two externals per standpoint (``cut_at(I)``: the latest instant at or before T; ``cut_known``
  likewise for K), visibility propagated down the chains;
* an item is ``closed`` iff one of its closing candidates is visible, ``open`` otherwise.

That is nine rules where the standpoint's rule files hold about 230, with no timeline, gap,
count or reason: a lower bound on the per-query cost of the design, not a second engine. Its
answers are not openloop's and are never compared with them
(``tests/lab/bench/test_longlived_floor.py`` checks only that the chains give the visibility they
stand for). Measuring it on the bench's histories tells whether the warm target (0.05 x the
floor) is reachable by that design at all.
"""

from __future__ import annotations

import multiprocessing
import time
from bisect import bisect_right
from collections import Counter
from itertools import pairwise

import clingo

from lab.bench.cpu import median_cpu
from resolver import times

#: The rules of the yardstick. A standpoint sets one ``cut_at`` and one ``cut_known`` true; the
#: chains carry "at or before the cut" down to every earlier instant, one rule per instant.
PROGRAM = """
#external cut_at(I) : tinstant(I).
#external cut_known(R) : rinstant(R).
le_now(I) :- cut_at(I).
le_now(I) :- le_now(J), tnext(I, J).
le_known(R) :- cut_known(R).
le_known(R) :- le_known(J), rnext(R, J).
visible(E) :- evt(E, At, Rec), le_now(At), le_known(Rec).
seen(I) :- logged(I, At, Rec), le_now(At), le_known(Rec).
closed(X) :- cand(X, E), visible(E).
status(X, closed) :- item(X), closed(X).
status(X, open) :- item(X), not closed(X).
#show status/2.
"""


def _facts(
    events: dict[int, tuple[int, int]],
    logged: list[tuple[int, int]],
    candidates: list[tuple[int, int]],
    items: list[int],
) -> tuple[str, list[int], list[int]]:
    """The yardstick's facts (integers only) and the sorted valid and record instants."""
    times_seen = [*events.values(), *logged]
    ats = sorted({at for at, _ in times_seen})
    recs = sorted({rec for _, rec in times_seen})
    lines = [f"evt({e},{at},{rec})." for e, (at, rec) in events.items()]
    lines += [f"logged({i},{at},{rec})." for i, (at, rec) in enumerate(logged)]
    lines += [f"tinstant({a})." for a in ats]
    lines += [f"rinstant({r})." for r in recs]
    lines += [f"tnext({a},{b})." for a, b in pairwise(ats)]
    lines += [f"rnext({a},{b})." for a, b in pairwise(recs)]
    lines += [f"cand({x},{e})." for x, e in candidates]
    lines += [f"item({x})." for x in items]
    return "\n".join(lines) + "\n", ats, recs


def unnamed_work_events(prepared, named: dict[int, tuple[int, int]]) -> list[tuple[int, int]]:
    """``(at, recorded)`` of the events of work channels that no prepared atom names: the
    channel log's work-channel events less, by their times, those of ``named`` (so an event is
    never counted twice; a coincidence of times can only leave one out)."""
    work = {args[0] for args in prepared.core.get("work")}
    rows = Counter((at, rec) for c, at, rec in prepared.facts.channel_log.events() if c in work)
    rows.subtract(Counter(named.values()))
    return sorted(row for row, count in rows.items() for _ in range(max(count, 0)))


class LonglivedFloor:
    """One Control grounded once over a prepared history; each :meth:`query` flips externals.

    ``show_visible`` also shows ``visible/1`` and ``seen/1``: the test's view of what the chains
    decide.
    """

    def __init__(self, prepared, show_visible: bool = False) -> None:
        #: The events the prepared atoms name, by interned event: ``(at, recorded)``.
        self.events: dict[int, tuple[int, int]] = prepared.event_times
        candidates = {(args[0], args[1]) for args in prepared.core.get("close")}
        items = {args[0] for args in prepared.core.get("opening")}
        items.update(x for x, _ in candidates)
        #: The other events of work channels, by index in ``logged/3``.
        self.logged = unnamed_work_events(prepared, self.events)
        text, self._ats, self._recs = _facts(
            self.events, self.logged, sorted(candidates), sorted(items)
        )
        self.control = clingo.Control(["--warn=none"])
        program = PROGRAM + ("#show visible/1.\n#show seen/1.\n" if show_visible else "")
        self.control.add("base", [], program + text)
        self.control.ground([("base", [])])
        self._on: list[clingo.Symbol] = []

    @property
    def ground_rules(self) -> int:
        """How many ground rules the long-lived program holds (clingo counts them at the first
        solve)."""
        return int(self.control.statistics["problem"]["lp"]["rules"])

    def _cut(self, instants: list[int], bound: int, name: str) -> list[clingo.Symbol]:
        index = bisect_right(instants, bound)
        return [clingo.Function(name, [clingo.Number(instants[index - 1])])] if index else []

    def query(self, at: int, known: int | None) -> list[clingo.Symbol]:
        """The shown atoms at ``(at, known)`` (Unix seconds; ``known`` None: every record)."""
        encoded_at = times.encode(at)
        encoded_known = times.LATEST if known is None else times.encode(known)
        for symbol in self._on:
            self.control.assign_external(symbol, False)
        self._on = self._cut(self._ats, encoded_at, "cut_at") + self._cut(
            self._recs, encoded_known, "cut_known"
        )
        for symbol in self._on:
            self.control.assign_external(symbol, True)
        shown: list[clingo.Symbol] = []
        self.control.solve(on_model=lambda model: shown.extend(model.symbols(shown=True)))
        return shown


def measure(prepared, instants: list[int], floor_cpu: float) -> dict:
    """Ground the yardstick once, then the median CPU time of a query over ``instants``.

    Measured in a forked child (where the platform forks), so that the yardstick's grounding
    never counts in the measuring process's peak RSS, which the bench reports against its own
    target; the child's CPU times are its own.
    """
    if "fork" not in multiprocessing.get_all_start_methods():
        return _measure(prepared, instants, floor_cpu)
    global _FORKED
    _FORKED = prepared
    try:
        with multiprocessing.get_context("fork").Pool(1) as pool:
            return pool.apply(_measure_forked, (instants, floor_cpu))
    finally:
        _FORKED = None


#: The prepared history a forked child measures (set just before the fork, never pickled).
_FORKED = None


def _measure_forked(instants: list[int], floor_cpu: float) -> dict:
    return _measure(_FORKED, instants, floor_cpu)


def _measure(prepared, instants: list[int], floor_cpu: float) -> dict:
    started = time.process_time()
    floor = LonglivedFloor(prepared)
    ground = time.process_time() - started
    query, answer = median_cpu(lambda instant: floor.query(instant, instant), instants)
    shown = len(answer or ())
    return {
        "longlived_ground_cpu_s": round(ground, 6),
        "longlived_ground_rules": floor.ground_rules,
        "longlived_query_cpu_s": round(query, 6),
        "longlived_query_over_floor": round(query / floor_cpu, 4) if floor_cpu else None,
        "longlived_shown": shown,
        "longlived_events": len(floor.events) + len(floor.logged),
    }
