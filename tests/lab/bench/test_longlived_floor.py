"""The long-lived solver's yardstick: its externals stand for the standpoint they are set for.

The yardstick (``lab/bench/longlived_floor.py``) is a bound, not a second engine, so its
statuses are not openloop's; what must hold is that one Control, grounded once, answers every
standpoint with exactly the visibility of that standpoint, in any order of queries, and that
its statuses follow from it.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from lab.bench import longlived_floor
from lab.bench.generate import ensure
from resolver import api, times


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory):
    history = ensure(tmp_path_factory.mktemp("floor") / "h", 400, 6, 3)
    return api.prepare(history.paths)


def _answer(shown) -> tuple[set[int], set[int], dict[int, str]]:
    visible = {s.arguments[0].number for s in shown if s.name == "visible"}
    seen = {s.arguments[0].number for s in shown if s.name == "seen"}
    status = {s.arguments[0].number: s.arguments[1].name for s in shown if s.name == "status"}
    return visible, seen, status


def test_each_query_sees_exactly_its_standpoint(prepared):
    floor = longlived_floor.LonglivedFloor(prepared, show_visible=True)
    events = {e: (at, rec) for e, at, rec, _ in prepared.core.get("evt")}
    events.update({e: (at, rec) for e, at, rec, _ in prepared.reason_inputs.get("evt")})
    # Every event of a work channel is judged: those the prepared atoms name, and the others.
    work = {c for (c,) in prepared.core.get("work")}
    on_work = Counter((a, r) for c, a, r in prepared.facts.channel_log.events() if c in work)
    assert len(floor.logged) == sum((on_work - Counter(events.values())).values()) > 0
    candidates = {(x, e) for x, e, *_ in prepared.core.get("close")}
    first = min(e.at for e in prepared.project.events)
    last = max(e.at for e in prepared.project.events)
    rng = random.Random(7)
    # Before the first event, at random instants (late records and known earlier included),
    # and known latest: the same Control, queried in no particular order.
    points = [(first - 1, None), (last, None), (last, first)]
    points += [(rng.randint(first, last), rng.randint(first, last + 86400)) for _ in range(12)]
    for at, known in points:
        visible, seen, status = _answer(floor.query(at, known))
        t = times.encode(at)
        k = times.LATEST if known is None else times.encode(known)
        assert visible == {e for e, (a, r) in events.items() if a <= t and r <= k}, (at, known)
        assert seen == {i for i, (a, r) in enumerate(floor.logged) if a <= t and r <= k}
        closed = {x for x, e in candidates if e in visible}
        assert {x for x, s in status.items() if s == "closed"} == closed
        assert set(status) >= {x for x, _ in candidates}
    assert 0 < len(visible) < len(events)  # the last point saw some records, not all


def test_measure_reports_the_row(prepared):
    first = min(e.at for e in prepared.project.events)
    last = max(e.at for e in prepared.project.events)
    out = longlived_floor.measure(prepared, [first, (first + last) // 2, last], floor_cpu=0.01)
    assert out["longlived_ground_rules"] > len(prepared.project.events)
    assert out["longlived_query_cpu_s"] > 0 and out["longlived_query_over_floor"] > 0
    assert out["longlived_shown"] == len({args[0] for args in prepared.core.get("opening")})
    assert out["longlived_events"] <= len(prepared.project.events)


def test_the_yardstick_holds_only_integer_facts(prepared):
    """No user text reaches the program: every fact argument is an integer."""
    events = {e: (at, rec) for e, at, rec, _ in prepared.core.get("evt")}
    text, _, _ = longlived_floor._facts(events, [(5, 6)], [(1, 2)], [1])
    for line in text.splitlines():
        inner = line[line.index("(") + 1 : line.rindex(")")]
        assert all(part.lstrip("-").isdigit() for part in inner.split(",")), line
