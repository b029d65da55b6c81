"""What an append touches (``resolver/engine/touched.py``) is sound and not trivially everything.

Sound: on random histories and random appended events (ids sorting before, among and after the
kept ones, instants before, among and after theirs, late records, markers, linking texts, keys,
seqs, kinds), every item outside the touched groups has, at random standpoints of both default
families, the same ``status --format json`` entry after the append as before it (its task entry
and the findings about it too). A channel's own summary (searched, ``through``, its gap list),
shared by every item searching it, may differ only on the channels the answer lists.

Useful: a marker-only event on a history of unlinked groups touches exactly the named group.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from resolver.engine.prepared import Prepared, Standpoint
from resolver.engine.touched import DERIVED, Before
from resolver.faces import json_format
from resolver.facts.linker import COMMON_WORD_EVENTS
from resolver.language.loader import load
from resolver.language.model import Assignment, Event, Expectation, Marker, Project, Task
from resolver.verdicts.resolution import resolve
from tests.random_histories import DAY, HERE, START, Shape, histories, instants
from tests.random_histories import events as random_events

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
#: The parts of a channel's footprint that are the channel's, not the item's.
CHANNEL_SUMMARY = ("searched", "through", "gaps", "gaps_omitted", "gaps_after_relevant")

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def answers(project: Project, points: list[Standpoint]) -> list[dict[str, Any]]:
    """The ``status --format json`` document at each standpoint."""
    prepared = Prepared(replace(project, derived={}))
    return [
        json_format.to_dict(resolve(prepared, point), prepared.project, "all") for point in points
    ]


def own(entry: dict[str, Any], changed: frozenset[str]) -> dict[str, Any]:
    """An expectation's entry with the summaries of the ``changed`` channels left out."""
    channels = {}
    for name, footprint in entry["footprint"]["channels"].items():
        kept = footprint
        if name in changed:
            kept = {k: v for k, v in footprint.items() if k not in CHANNEL_SUMMARY}
        channels[name] = kept
    return {**entry, "footprint": {**entry["footprint"], "channels": channels}}


def assert_untouched_alike(
    before: dict[str, Any], after: dict[str, Any], touched: frozenset[str], changed: frozenset[str]
) -> None:
    """Every item outside ``touched`` reads alike in both documents."""
    for kind in ("expectations", "tasks"):
        old = {e["id"]: e for e in before[kind] if e["id"] not in touched}
        new = {e["id"]: e for e in after[kind] if e["id"] not in touched}
        assert old.keys() == new.keys()
        for ident, entry in old.items():
            if kind == "expectations":
                assert own(new[ident], changed) == own(entry, changed), ident
            else:
                assert new[ident] == entry, ident
    old_findings = [f for f in before["findings"] if f["target"] not in touched]
    new_findings = [f for f in after["findings"] if f["target"] not in touched]
    assert new_findings == old_findings


#: Event ids the drawn items may name before an event holds them (as ``opened_by``, ``before``).
PENDING = ("zp0", "zp1")
#: Items search one channel, two, or every work channel.
SEARCHING = Shape(searches=((), ("commits",), ("issues",), ("commits", "issues")))
#: The same without tasks: more, smaller groups.
UNTASKED = replace(SEARCHING, tasks=())


@st.composite
def pending(draw, project: Project) -> Project:
    """The project with some items opened or bounded by an event not yet in the log, and some
    of their ``requires`` dropped (more groups)."""
    items = []
    for x in project.expectations:
        if draw(st.booleans()):
            x = replace(x, requires=())
        way = draw(st.sampled_from(["as drawn", "as drawn", "opened_by", "before"]))
        if way == "opened_by":
            x = replace(x, opened_by=draw(st.sampled_from(PENDING)), opened=None)
        elif way == "before":
            x = replace(x, before=draw(st.sampled_from(PENDING)))
        items.append(x)
    return replace(project, expectations=tuple(items))


@st.composite
def appended(draw, project: Project, shape: Shape) -> list[Event]:
    """1 to 4 events to append: new ids sorting anywhere (or one the items wait for), instants
    before, among and after the kept ones, late records, no seq, the next one or any."""
    count = draw(st.integers(min_value=1, max_value=4))
    drawn = draw(random_events(count, first=len(project.events), shape=shape))
    used = [e.id for e in project.events]
    taken = set(used)
    top: dict[str, int] = {}
    for e in project.events:
        if e.seq is not None:
            top[e.channel] = max(top.get(e.channel, 0), e.seq)
    out = []
    for event in drawn:
        where = draw(st.sampled_from(["before", "among", "after", "after", "pending"]))
        number = draw(st.integers(min_value=0, max_value=999))
        ident = {"before": f"a{number}", "after": f"z{number}"}.get(where)
        if where == "pending":
            ident = draw(st.sampled_from(PENDING))
        elif where == "among":
            ident = f"{draw(st.sampled_from(used))}m{number}"
        if ident in taken:
            continue
        taken.add(ident)
        when = draw(st.sampled_from(["before", "among", "after", "after"]))
        half_days = {"before": (-4, 0), "among": (0, shape.half_days)}.get(when, (48, 64))
        at = START + draw(st.integers(*half_days)) * DAY // 2
        late = draw(st.sampled_from(shape.delays))
        numbering = draw(st.sampled_from(["none", "none", "next", "next", "any"]))
        seq = {"none": None, "next": top.get(event.channel, 0) + 1}.get(numbering, event.seq)
        if seq is not None:
            top[event.channel] = max(top.get(event.channel, 0), seq)
        out.append(dataclasses.replace(event, id=ident, at=at, recorded=at + late, seq=seq))
    return out


#: A standpoint that sees every event drawn.
AFTER_ALL = Standpoint(START + 40 * DAY, None)


@st.composite
def moments(draw) -> Standpoint:
    """A standpoint of either default family, in the history's span or after it (where the
    appended events lie)."""
    later = st.integers(min_value=0, max_value=66).map(lambda n: START + n * DAY // 2)
    at = draw(st.one_of(instants(), later, later.map(lambda t: t + 3600)))
    return Standpoint(at, None if draw(st.booleans()) else at)


@settings(SETTINGS, max_examples=120)
@given(st.data())
def test_items_outside_the_touched_groups_keep_their_verdicts(data):
    shape = data.draw(st.sampled_from([SEARCHING, UNTASKED]))
    project = data.draw(histories(shape=shape).flatmap(pending))
    added = data.draw(appended(project, shape))
    points = [*data.draw(st.lists(moments(), min_size=1, max_size=2)), AFTER_ALL]
    touched = Before(project).touched(added)
    if touched.everything:
        return
    after = replace(project, events=(*project.events, *added))
    items = touched.items
    for old, new in zip(answers(project, points), answers(after, points), strict=True):
        assert_untouched_alike(old, new, items, touched.channels)


def _unlinked() -> Shape:
    """Histories of items no marker, task or `requires` ties together."""
    return Shape(marker_counts=(0,), tasks=())


@SETTINGS
@given(st.data())
def test_a_marker_only_event_touches_the_named_group_alone(data):
    project = data.draw(histories(shape=_unlinked()))
    project = replace(
        project, expectations=tuple(replace(x, requires=()) for x in project.expectations)
    )
    before = Before(project)
    assert len(before.groups) == len(project.expectations)  # one group per item
    target = data.draw(st.sampled_from([x.id for x in project.expectations]))
    kind = data.draw(st.sampled_from(["completes", "cancels", "waives", "claims_complete"]))
    last = max(project.events, key=lambda e: (e.at, e.recorded))
    event = Event(
        "zz-marker", last.channel, last.at + 60, last.recorded + 60, HERE,
        markers=(Marker(kind, target),),
    )  # fmt: skip
    touched = before.touched([event])
    assert not touched.everything
    assert touched.groups == ((target,),)
    assert touched.channels == {last.channel}


def test_markers_naming_two_groups_merge_and_touch_both():
    project = Project(
        expectations=tuple(Expectation(f"x{n}", HERE, opened=START) for n in range(4)),
        events=(Event("e0", "commits", START, START, HERE, seq=1),),
    )
    before = Before(project)
    assert len(before.groups) == 4
    both = Event(
        "e1", "commits", START + DAY, START + DAY, HERE, seq=2,
        markers=(Marker("completes", "x1"), Marker("cancels", "x3")),
    )  # fmt: skip
    assert before.touched([both]).groups == (("x1",), ("x3",))


def test_a_seq_that_opens_a_gap_or_a_new_channel_touches_their_searchers():
    project = Project(
        expectations=(
            Expectation("a", HERE, opened=START, search=("commits",)),
            Expectation("b", HERE, opened=START, search=("issues",)),
            Expectation("c", HERE, opened=START),
        ),
        events=(
            Event("e0", "commits", START, START, HERE, seq=1),
            Event("e1", "issues", START, START, HERE, seq=1),
        ),
    )
    before = Before(project)
    later = START + DAY

    def touched(**fields: Any) -> set[str]:
        found = before.touched([Event("z", "commits", later, later, HERE, **fields)])
        assert not found.everything
        return set(found.items)

    assert touched(seq=2) == set()  # the next number: no gap opens
    assert touched(seq=4) == {"a", "c"}  # 2 and 3 missing: a gap where commits are searched
    assert touched() == set()
    early = Event("z", "commits", START - DAY, START - DAY, HERE)  # searched earlier than before
    assert set(before.touched([early]).items) == {"a", "c"}
    other = Event("z", "deploys", later, later, HERE)  # a new work channel: default searchers
    assert set(before.touched([other]).items) == {"c"}


def test_a_repeated_id_is_everything():
    project = Project(
        expectations=(Expectation("a", HERE, opened=START),),
        events=(Event("e0", "commits", START, START, HERE),),
    )
    again = Event("e0", "commits", START, START, HERE)
    assert Before(project).touched([again]).everything


def test_the_event_an_item_waits_for_and_the_next_of_its_kind_touch_it():
    project = Project(
        expectations=(
            Expectation("opens", HERE, opened_by="p0"),
            Expectation("bounds", HERE, opened=START, before="p1"),
            Expectation("kind", HERE, opened=START, before_next_kind="deploy"),
            Expectation("obligation", HERE, part_of="t"),
            Expectation("key", HERE, opened=START, want=Assignment("k", "v")),
            Expectation("gone", HERE, opened=START, superseded_when=Assignment("g", "v")),
            Expectation("files", HERE, opened=START, want_touches="docs/**"),
        ),
        tasks=(Task("t", HERE, opened_by="p2", obligations=("obligation",)),),
        events=(Event("e0", "commits", START, START, HERE),),
    )
    before = Before(project)
    later = START + DAY

    def touched(ident: str = "z", **fields: Any) -> set[str]:
        found = before.touched([Event(ident, "commits", later, later, HERE, **fields)])
        return set(found.items)

    assert touched() == set()
    assert touched("p0") == {"opens"}
    assert touched("p1") == {"bounds"}
    assert touched("p2") == {"t", "obligation"}
    assert touched(kind="deploy") == {"kind"}
    assert touched(sets=(Assignment("k", "other"),)) == {"key"}
    assert touched(sets=(Assignment("g", "v"),)) == {"gone"}
    assert touched(files=("docs/a.md",)) == {"files"}
    assert touched(files=("src/a.py",)) == set()


def test_a_linking_text_and_a_word_made_common_touch_the_items_they_link():
    project = Project(
        expectations=(
            Expectation("b1", HERE, title="Move backups to postgres", opened=START),
            Expectation("t1", HERE, title="Rotate the token", opened=START),
            Expectation("p1", HERE, title="Other", opened=START, matches=("nightly dump",)),
        ),
        events=tuple(
            Event(f"e{n:03d}", "commits", START, START, HERE, text=f"rotate {n}")
            for n in range(COMMON_WORD_EVENTS)
        ),
    )
    before = Before(project)
    later = START + DAY

    def touched(text: str) -> set[str]:
        return set(before.touched([Event("z", "commits", later, later, HERE, text=text)]).items)

    assert touched("postgres") == set()  # one shared word is no link
    assert touched("move the backups to postgres") == {"b1"}
    assert touched("fix the nightly dump") == {"p1"}
    assert touched("as t1 asked") == {"t1"}  # names the id
    assert touched("mentions backup-token") == set()
    # "rotate" is in 100 texts: one more and it stops linking, for the old links too.
    assert touched("rotate again") == {"t1"}


def test_the_derived_group_is_touched_when_a_policy_could_trigger_or_an_instance_is_touched():
    project = load([str(FIXTURES / "policies")])
    assert project.policies
    unknown = Before(project)  # the would-be instances not measured yet: any event touches
    later = max(e.at for e in project.events) + DAY
    quiet = Event("zz", "commits", later, later, HERE)
    assert DERIVED in unknown.touched([quiet]).items
    Prepared(project)  # measures the would-be instances
    before = Before(project)
    assert DERIVED not in before.touched([quiet]).items

    def touched(**fields: Any) -> bool:
        return DERIVED in before.touched([replace(quiet, **fields)]).items

    assert touched(files=("src/api/users.py",))  # triggers api-work
    assert touched(sets=(Assignment("todo.cache", "open"),))  # triggers todo-removed
    assert not touched(files=("README.md",), text="more")
    assert touched(channel="issues")  # a new work channel: the instances search every one
