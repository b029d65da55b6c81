"""Random small histories for the store's equivalence tests: every clause a standpoint compares
against a time (openings, `opened`, deadlines, `before`, windows, `within`, late records,
gaps), so that a plateau drawn too wide shows as a difference."""

from __future__ import annotations

from hypothesis import strategies as st

from resolver.engine.prepared import Standpoint
from resolver.errors import Location
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

HERE = Location("random.ol", 1, 1)
DAY = 86400
START = 1_720_000_000
ITEMS = ("x0", "x1", "x2", "x3", "x4", "t0", "t1")
WORDS = ("backup", "postgres", "move", "done", "rotate", "token", "docs", "fixed", "cache")
KEYS = ("backup.backend", "flag.x", "token.version", "cache.size", "docs.page")
VALUES = ("PostgreSQL", "SQLite", "on", "off", "2")
MARKERS = ("completes", "cancels", "waives", "reopens", "supersedes", "claims_complete")
#: Standpoint times are drawn over the history's span and a little beyond it.
SPAN = 26 * DAY


def instants() -> st.SearchStrategy[int]:
    """A time in the history's span, often exactly on a day or half day (where events fall)."""
    return st.one_of(
        st.integers(min_value=0, max_value=52).map(lambda n: START + n * DAY // 2),
        st.integers(min_value=-DAY, max_value=SPAN).map(lambda n: START + n),
    )


@st.composite
def events(draw, count: int, first: int = 0) -> list[Event]:
    """``count`` events with ids from ``e{first}``, on two work channels and a mention one."""
    found = []
    for index in range(first, first + count):
        at = START + draw(st.integers(min_value=0, max_value=48)) * DAY // 2
        markers = tuple(
            Marker(draw(st.sampled_from(MARKERS)), draw(st.sampled_from(ITEMS)))
            for _ in range(draw(st.sampled_from([0, 0, 0, 1, 2])))
        )
        sets = ()
        if draw(st.booleans()):
            sets = (Assignment(draw(st.sampled_from(KEYS)), draw(st.sampled_from(VALUES))),)
        found.append(
            Event(
                id=f"e{index:03d}",
                channel=draw(st.sampled_from(("commits", "issues", "sessions"))),
                at=at,
                recorded=at + draw(st.sampled_from([0, 0, 0, 3600, 2 * DAY, 5 * DAY])),
                location=HERE,
                seq=draw(st.one_of(st.none(), st.integers(min_value=1, max_value=30))),
                by=draw(st.sampled_from([None, "alice", "bot", "dev"])),
                text=" ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4))) or None,
                sets=sets,
                markers=markers,
                kind=draw(st.sampled_from([None, None, "deploy"])),
            )
        )
    return found


@st.composite
def declarations(draw, ids: list[str]) -> tuple[tuple[Expectation, ...], tuple[Task, ...]]:
    """Five expectations (every time-bearing clause drawn) and two tasks over ``ids``."""
    expectations = []
    for index in range(5):
        opened_by = draw(st.one_of(st.none(), st.sampled_from(ids)))
        expectations.append(
            Expectation(
                id=f"x{index}",
                location=HERE,
                title=draw(st.sampled_from(["Move backup to postgres", "Rotate token", "Docs"])),
                opened_by=opened_by,
                opened=None if opened_by else draw(instants()),
                want=Assignment(KEYS[index], draw(st.sampled_from(VALUES))),
                before=draw(st.one_of(st.none(), st.sampled_from(ids))),
                deadline=draw(st.one_of(st.none(), instants())),
                window=draw(st.sampled_from([None, DAY, 3 * DAY + 7])),
                within=draw(st.sampled_from([None, None, 2 * DAY, 5 * DAY + 11])),
                before_next_kind=draw(st.sampled_from([None, None, "deploy"])),
                verify=draw(st.sampled_from([None, "state", "textual"])),
                requires=tuple(draw(st.lists(st.sampled_from(ITEMS[:5]), max_size=1))),
                part_of=draw(st.sampled_from([None, None, "t0", "t1"])),
            )
        )
    tasks = tuple(
        Task(
            id=t,
            location=HERE,
            principals=("alice",),
            obligations=tuple(x.id for x in expectations if x.part_of == t),
        )
        for t in ("t0", "t1")
    )
    return tuple(expectations), tasks


@st.composite
def histories(draw, min_events: int = 3, max_events: int = 20) -> Project:
    """A whole random project."""
    found = draw(events(draw(st.integers(min_value=min_events, max_value=max_events))))
    expectations, tasks = draw(declarations([e.id for e in found]))
    return Project(
        channels=(Channel("sessions", "mention", False, HERE),),
        actors=(Actor("alice", "principal", HERE), Actor("bot", "agent", HERE)),
        tasks=tasks,
        expectations=expectations,
        events=tuple(found),
    )


@st.composite
def standpoints(draw) -> Standpoint:
    """A standpoint of one of the two default families."""
    at = draw(instants())
    return Standpoint(at, None if draw(st.booleans()) else at)
