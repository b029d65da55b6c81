"""Random small histories for the property tests: one generator, with the knobs each test needs.

Three tests compare two ways of answering on random projects, and each needs histories that
reach what it guards:

- the store's equivalence tests (:mod:`tests.store.histories`, the defaults, :data:`STORE`):
  every clause a standpoint compares against a time (openings at an instant, deadlines,
  `before`, windows, `within`, the next event of a kind, late records, gaps), so that a
  plateau drawn too wide shows as a difference;
- the optimised path against the plain one (``tests/properties/test_reduction.py``, whose
  histories ``tests/properties/test_explain_items.py`` explains too, :data:`REDUCTION`): the
  same, plus outcomes (unconfirmed effects), `search` lists and the `reports_pending` claim,
  on a few more events, with one task `t`;
- partitions against one solve (``tests/perf/test_partition.py``, :data:`PARTITION`): every
  item opened by an event, with `requires`, tasks and markers linking items across parts.

A :class:`Shape` holds the knobs; :func:`events`, :func:`declarations` and :func:`histories`
draw from it.
"""

from __future__ import annotations

from dataclasses import dataclass

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
TASKS = ("t0", "t1")
WORDS = ("backup", "postgres", "move", "done", "rotate", "token", "docs", "fixed", "cache")
KEYS = ("backup.backend", "flag.x", "token.version", "cache.size", "docs.page")
VALUES = ("PostgreSQL", "SQLite", "on", "off", "2")
MARKERS = ("completes", "cancels", "waives", "reopens", "supersedes", "claims_complete")
CHANNELS = ("commits", "issues", "sessions")
TITLES = ("Move backup to postgres", "Rotate token", "Docs")
#: Standpoint times are drawn over the history's span and a little beyond it.
SPAN = 26 * DAY


@dataclass(frozen=True)
class Shape:
    """What a random history is drawn from."""

    #: The fewest and the most events.
    sizes: tuple[int, int] = (3, 20)
    #: Events fall on whole or half days, from ``START`` to this many half days after it.
    half_days: int = 48
    #: How late a record may be (drawn from, so repeats weigh).
    delays: tuple[int, ...] = (0, 0, 0, 3600, 2 * DAY, 5 * DAY)
    #: How many markers an event carries (drawn from), of which kinds, naming which items.
    marker_counts: tuple[int, ...] = (0, 0, 0, 1, 2)
    marker_kinds: tuple[str, ...] = MARKERS
    marker_items: tuple[str, ...] = ITEMS
    #: An event's kind (for `before_next_kind`) and outcome.
    kinds: tuple[str | None, ...] = (None, None, "deploy")
    outcomes: tuple[str, ...] = ("confirmed",)
    #: How many expectations (``x0``, ``x1``, ...), and the tasks each may be part of.
    expectations: int = 5
    tasks: tuple[str, ...] = TASKS
    #: The clauses about time: an opening at an instant instead of an event, a deadline, a
    #: window, `within` and the next event of a kind. Without them every item is opened by
    #: an event.
    timed: bool = True
    #: An expectation's `search` list (drawn from).
    searches: tuple[tuple[str, ...], ...] = ((),)


#: The store's equivalence tests: the defaults.
STORE = Shape()
#: The optimised path against the plain one.
REDUCTION = Shape(
    sizes=(3, 28),
    half_days=40,
    delays=(0, 0, 0, 3600, 5 * DAY),
    marker_counts=(1, 0, 0, 0, 0),
    marker_kinds=(*MARKERS, "reports_pending"),
    marker_items=("x0", "x1", "x2", "t"),
    kinds=(None,),
    outcomes=("confirmed", "confirmed", "confirmed", "unknown", "failed"),
    expectations=3,
    tasks=("t",),
    searches=((), ("commits",), ("commits", "issues")),
)
#: Partitions against one solve.
PARTITION = Shape(
    sizes=(3, 24), half_days=40, delays=(0, 0, 3600, 5 * DAY), kinds=(None,), timed=False
)


def instants() -> st.SearchStrategy[int]:
    """A time in the history's span, often exactly on a day or half day (where events fall)."""
    return st.one_of(
        st.integers(min_value=0, max_value=52).map(lambda n: START + n * DAY // 2),
        st.integers(min_value=-DAY, max_value=SPAN).map(lambda n: START + n),
    )


@st.composite
def events(draw, count: int, first: int = 0, shape: Shape = STORE) -> list[Event]:
    """``count`` events with ids from ``e{first}``, on two work channels and a mention one."""
    found = []
    for index in range(first, first + count):
        at = START + draw(st.integers(min_value=0, max_value=shape.half_days)) * DAY // 2
        markers = tuple(
            Marker(
                draw(st.sampled_from(shape.marker_kinds)), draw(st.sampled_from(shape.marker_items))
            )
            for _ in range(draw(st.sampled_from(shape.marker_counts)))
        )
        sets = ()
        if draw(st.booleans()):
            sets = (Assignment(draw(st.sampled_from(KEYS)), draw(st.sampled_from(VALUES))),)
        found.append(
            Event(
                id=f"e{index:03d}",
                channel=draw(st.sampled_from(CHANNELS)),
                at=at,
                recorded=at + draw(st.sampled_from(shape.delays)),
                location=HERE,
                seq=draw(st.one_of(st.none(), st.integers(min_value=1, max_value=30))),
                by=draw(st.sampled_from([None, "alice", "bot", "dev"])),
                text=" ".join(draw(st.lists(st.sampled_from(WORDS), max_size=4))) or None,
                sets=sets,
                markers=markers,
                kind=draw(st.sampled_from(shape.kinds)),
                outcome=draw(st.sampled_from(shape.outcomes)),
            )
        )
    return found


@st.composite
def declarations(
    draw, ids: list[str], shape: Shape = STORE
) -> tuple[tuple[Expectation, ...], tuple[Task, ...]]:
    """The expectations (every clause the shape asks for drawn) and the tasks over ``ids``."""
    items = [f"x{index}" for index in range(shape.expectations)]
    expectations = []
    for index, item in enumerate(items):
        if shape.timed:
            opened_by = draw(st.one_of(st.none(), st.sampled_from(ids)))
        else:
            opened_by = draw(st.sampled_from(ids))
        timed = shape.timed
        expectations.append(
            Expectation(
                id=item,
                location=HERE,
                title=draw(st.sampled_from(TITLES)),
                opened_by=opened_by,
                opened=None if opened_by else draw(instants()),
                want=Assignment(KEYS[index], draw(st.sampled_from(VALUES))),
                before=draw(st.one_of(st.none(), st.sampled_from(ids))),
                deadline=draw(st.one_of(st.none(), instants())) if timed else None,
                window=draw(st.sampled_from([None, DAY, 3 * DAY + 7])) if timed else None,
                within=draw(st.sampled_from([None, None, 2 * DAY, 5 * DAY + 11]))
                if timed
                else None,
                before_next_kind=draw(st.sampled_from([None, None, "deploy"])) if timed else None,
                verify=draw(st.sampled_from([None, "state", "textual"])),
                search=draw(st.sampled_from(shape.searches)),
                requires=tuple(draw(st.lists(st.sampled_from(items), max_size=1))),
                part_of=draw(st.sampled_from([None, None, *shape.tasks])),
            )
        )
    tasks = tuple(
        Task(
            id=t,
            location=HERE,
            principals=("alice",),
            obligations=tuple(x.id for x in expectations if x.part_of == t),
        )
        for t in shape.tasks
    )
    return tuple(expectations), tasks


@st.composite
def histories(
    draw, min_events: int | None = None, max_events: int | None = None, shape: Shape = STORE
) -> Project:
    """A whole random project (between ``min_events`` and ``max_events`` events, by default
    the shape's sizes)."""
    least, most = shape.sizes
    count = draw(st.integers(min_value=min_events or least, max_value=max_events or most))
    found = draw(events(count, shape=shape))
    expectations, tasks = draw(declarations([e.id for e in found], shape))
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
