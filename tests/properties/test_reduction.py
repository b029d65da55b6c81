"""The optimised path changes no verdict: reduced events and blocked channel logs versus the plain
path (every event in the prepare part, one event per block), on random small histories."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.language.model import Project
from resolver.verdicts.resolution import resolve
from tests.random_histories import DAY, REDUCTION, START
from tests.random_histories import histories as random_histories


def histories() -> st.SearchStrategy[Project]:
    """Random projects of the reduction's shape: outcomes, `search` lists and claims too."""
    return random_histories(shape=REDUCTION)


def _answers(prepared: Prepared, points, reasons: bool = True) -> list:
    out = []
    for at, known in points:
        res = resolve(prepared, Standpoint(at, known), reasons=reasons)
        out.append(
            (
                [
                    (
                        v.id,
                        v.status,
                        v.closed_by,
                        v.tier,
                        v.closed_at,
                        v.confidence,
                        v.flags,
                        v.bound,
                        v.footprint_complete,
                        v.channels,
                        v.reasons if reasons else (),
                    )
                    for v in res.expectations
                ],
                [(t.id, t.status, t.outstanding, t.findings) for t in res.tasks],
            )
        )
    return out


# One test per block size, so that parallel workers share the examples (27 in all).
@pytest.mark.parametrize("block_size", [2, 3, 4])
@settings(
    max_examples=9,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(project=histories())
def test_optimised_path_matches_plain_path(project: Project, block_size: int):
    points = [(START + d * DAY, None) for d in (2, 6, 11, 25)]
    points += [(START + 6 * DAY, START + 6 * DAY), (START + 9 * DAY, START + 4 * DAY)]
    plain = _answers(Prepared(project, reduce=False, block_size=1), points)
    fast = Prepared(project, reduce=True, block_size=block_size)
    assert _answers(fast, points) == plain
    # Leaving the rejected candidates out (no reasons asked) changes no verdict either.
    without = _answers(fast, points, reasons=False)
    assert without == [([(*v[:-1], ()) for v in xs], ts) for xs, ts in plain]
    # Asking for the key reasons only (what `status` prints) reads the plain path's key
    # reasons and counts all of its reasons.
    key_only = Query(every_reason=False)
    for at, known in points:
        mine = resolve(fast, Standpoint(at, known), key_only).expectations
        theirs = resolve(fast, Standpoint(at, known)).expectations
        assert [(v.id, v.status, v.reasons, v.reason_total) for v in mine] == [
            (v.id, v.status, v.key_reasons, len(v.reasons)) for v in theirs
        ]
