"""The optimised path changes no verdict: reduced events and blocked channel logs versus the plain
path (every event in the prepare part, one event per block), on random small histories."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.query import Query
from resolver.language.model import (
    Actor,
    Assignment,
    Channel,
    Event,
    Expectation,
    Marker,
    Project,
    Task,
)
from resolver.verdicts.resolution import resolve
from tests.store.histories import DAY, HERE, START, VALUES

CHANNELS = ("commits", "issues", "sessions")
WORDS = ("backup", "postgres", "move", "done", "rotate", "token", "docs", "cleanup", "fixed")
KEYS = ("backup.backend", "flag.x", "token.version")


@st.composite
def histories(draw) -> Project:
    count = draw(st.integers(min_value=3, max_value=28))
    events = []
    for index in range(count):
        at = START + draw(st.integers(min_value=0, max_value=40)) * DAY // 2
        late = draw(st.sampled_from([0, 0, 0, 3600, 5 * DAY]))
        channel = draw(st.sampled_from(CHANNELS))
        seq = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=30)))
        sets = ()
        if draw(st.booleans()):
            sets = (Assignment(draw(st.sampled_from(KEYS)), draw(st.sampled_from(VALUES))),)
        markers = ()
        if draw(st.integers(min_value=0, max_value=4)) == 0:
            kind = draw(
                st.sampled_from(
                    [
                        "completes",
                        "cancels",
                        "waives",
                        "reopens",
                        "supersedes",
                        "claims_complete",
                        "reports_pending",
                    ]
                )
            )
            markers = (Marker(kind, draw(st.sampled_from(["x0", "x1", "x2", "t"]))),)
        text = " ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4)))
        events.append(
            Event(
                id=f"e{index:02d}",
                channel=channel,
                at=at,
                recorded=at + late,
                location=HERE,
                seq=seq,
                by=draw(st.sampled_from([None, "alice", "bot", "dev"])),
                text=text or None,
                sets=sets,
                markers=markers,
                outcome=draw(
                    st.sampled_from(["confirmed", "confirmed", "confirmed", "unknown", "failed"])
                ),
            )
        )
    expectations = []
    for index in range(3):
        opener = draw(st.sampled_from([e.id for e in events]))
        expectations.append(
            Expectation(
                id=f"x{index}",
                location=HERE,
                title=draw(
                    st.sampled_from(["Move backup to postgres", "Rotate token", "Update docs"])
                ),
                opened_by=opener if index != 2 else None,
                opened=START + DAY if index == 2 else None,
                want=Assignment(KEYS[index], draw(st.sampled_from(VALUES))),
                deadline=draw(st.one_of(st.none(), st.just(START + 10 * DAY))),
                before=draw(st.one_of(st.none(), st.sampled_from([e.id for e in events]))),
                verify=draw(st.sampled_from([None, "state", "textual"])),
                search=draw(st.sampled_from([(), ("commits",), ("commits", "issues")])),
                requires=("x0",) if index == 1 else (),
                part_of="t" if index < 2 else None,
                window=draw(st.one_of(st.none(), st.just(3 * DAY))),
            )
        )
    return Project(
        channels=(Channel("sessions", "mention", False, HERE),),
        actors=(Actor("alice", "principal", HERE), Actor("bot", "agent", HERE)),
        tasks=(Task(id="t", location=HERE, principals=("alice",), obligations=("x0", "x1")),),
        expectations=tuple(expectations),
        events=tuple(events),
    )


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
