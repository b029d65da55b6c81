"""SPEC §3, Absence: a seq is missing only when no record known at K holds it.

A known record whose ``at`` is after T happened later: nothing can hide in its number. The
property compares every channel's gaps, at random standpoints of random logs (seqs with holes,
repeated seqs, records learned late or early), with the spec's sentence computed directly, on
the plain path (a block per event) and on the block path with small blocks (so that blocks are
often partial and their events come one by one).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver import api
from resolver.engine.prepared import Prepared
from resolver.errors import Location
from resolver.language.model import Channel, Event, Expectation, Project

_HERE = Location("known-later.ol", 1)
_START = 1_720_000_000
_HOUR = 3600

#: (seq, at, recorded - at) in hours; recorded never before at.
_row = st.tuples(st.integers(1, 14), st.integers(0, 40), st.sampled_from([0, 0, 1, 5, 30]))


def _project(rows: list[tuple[int, int, int]]) -> Project:
    events = tuple(
        Event(
            f"c{n:02}",
            "commits",
            _START + at * _HOUR,
            _START + (at + late) * _HOUR,
            _HERE,
            seq=seq,
            text="tune the pool",
        )
        for n, (seq, at, late) in enumerate(rows)
    )
    x = Expectation("x", _HERE, title="archive cold partitions", opened=_START - _HOUR)
    channels = (Channel("commits", "work", False, _HERE),)
    return Project(channels=channels, expectations=(x,), events=events)


def _expected(rows: list[tuple[int, int, int]], t: int, k: int) -> tuple[tuple[int, int], ...]:
    """The gaps as SPEC §3 words them: seqs between two visible events of the channel that no
    record known at K holds, as maximal runs."""
    visible = [s for s, at, late in rows if at <= t and at + late <= k]
    held = {s for s, at, late in rows if at + late <= k}
    if not visible:
        return ()
    missing = [s for s in range(min(visible) + 1, max(visible)) if s not in held]
    runs: list[tuple[int, int]] = []
    for s in missing:
        if runs and runs[-1][1] == s - 1:
            runs[-1] = (runs[-1][0], s)
        else:
            runs.append((s, s))
    return tuple(runs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(_row, min_size=1, max_size=12),
    t=st.integers(0, 45),
    ahead=st.sampled_from([0, 0, 3, 20, None]),
)
def test_gaps_are_the_seqs_no_known_record_holds(rows, t, ahead) -> None:
    k = 10**6 if ahead is None else t + ahead
    want = _expected(rows, t, k)
    project = _project(rows)
    at = _START + t * _HOUR
    known = "latest" if ahead is None else _START + k * _HOUR
    for prepared in (Prepared(project, reduce=False), Prepared(project, block_size=2)):
        found = api.status(prepared, at=at, known=known).expectation("x")
        assert found.channels["commits"].gaps == want, (rows, t, k)


def test_a_later_record_between_visible_ones_fills_its_number() -> None:
    """seq 2 happened after T but was known: no gap, so the item is a confident OPEN."""
    rows = [(1, 0, 0), (2, 30, 0), (3, 5, 0)]
    prepared = Prepared(_project(rows))
    hindsight = api.status(prepared, at=_START + 10 * _HOUR, known="latest").expectation("x")
    assert hindsight.channels["commits"].gaps == ()
    assert (hindsight.status, hindsight.confidence) == ("OPEN", "CORROBORATED_OPEN")
    # at K = T seq 2 is not known yet: a relevant gap, the item is UNKNOWN
    now = api.status(prepared, at=_START + 10 * _HOUR).expectation("x")
    assert now.channels["commits"].gaps == ((2, 2),) and now.status == "UNKNOWN"
