"""``Project.events`` as columns: a sequence of ``Event`` for every consumer, built lazily.

The fact writer, the channel log and the text linker read the columns and build no ``Event``;
lookups by id build only the event asked for; the merge of several files keeps the semantics of
SPEC §2.2; a project pickles (process pools, clusters) and stays equal.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from resolver import api
from resolver.errors import InputError, Location
from resolver.facts.writer import build
from resolver.language.event_columns import EventColumns
from resolver.language.loader import load
from resolver.language.model import Assignment, Event, Marker, Project

LOG = "\n".join(
    [
        '{"id": "c2", "channel": "commits", "seq": 2, "at": "2024-08-02", "by": "bob",'
        ' "text": "Move backups to pg", "set": {"backup.backend": "PostgreSQL", "n": 1,'
        ' "flag": true}, "completes": "x", "files": ["a.py", "b.py", "a.py"]}',
        "",
        '{"id": "c1", "channel": "commits", "seq": 1, "at": "2024-08-01T10:00:00Z",'
        ' "recorded": "2024-08-03", "kind": "merge", "outcome": "Failed", "text": "merge"}',
        '{"id": "s1", "channel": "sessions", "at": "2024-07-30", "by": null}',
    ]
)
PROJECT = (
    "channel commits work\nchannel sessions mention\n"
    'expectation x { title "Move backups" opened_by s1 want backup.backend = "PostgreSQL" }\n'
    'event e0 { channel commits seq 0 at 2024-07-31 text "start" cancels y }\n'
)


@pytest.fixture
def history(tmp_path: Path) -> list[str]:
    (tmp_path / "project.ol").write_text(PROJECT, encoding="utf-8")
    (tmp_path / "events.jsonl").write_text(LOG, encoding="utf-8")
    return [str(tmp_path / "project.ol"), str(tmp_path / "events.jsonl")]


def test_events_behave_as_the_tuple_they_replace(history) -> None:
    project = load(history)
    events = project.events
    assert isinstance(events, EventColumns)
    assert [e.id for e in events] == ["c1", "c2", "e0", "s1"]  # by id, as SPEC §2.2 orders
    assert len(events) == 4 and events[-1] == events[3] and events[1:3] == (events[1], events[2])
    with pytest.raises(IndexError):
        events[4]
    c2 = events[1]
    assert c2.sets == (
        Assignment("backup.backend", "PostgreSQL"),
        Assignment("n", 1),
        Assignment("flag", True),
    )
    assert type(c2.sets[2].value) is bool and type(c2.sets[1].value) is int
    assert (c2.markers, c2.files, c2.by, c2.seq) == (
        (Marker("completes", "x"),),
        ("a.py", "b.py"),
        "bob",
        2,
    )
    c1 = events[0]
    assert (c1.outcome, c1.kind, c1.by, c1.recorded - c1.at) == ("failed", "merge", None, 38 * 3600)
    assert c1.location == Location(history[1], 3)
    e0 = project.event("e0")
    assert e0 is not None and e0.location.column is not None  # .ol locations keep the column
    assert e0.markers == (Marker("cancels", "y"),)
    assert project.event("missing") is None
    assert events == tuple(events) and tuple(events) == events
    assert events[0] == Event(**{**vars(events[0])})  # a frozen value: built twice, equal
    assert events[0].content() == events[0].content()


def test_hot_consumers_build_no_event(history, monkeypatch: pytest.MonkeyPatch) -> None:
    project = load(history)
    built: list[int] = []
    real = EventColumns.event_at

    def counting(self: EventColumns, row: int) -> Event:
        built.append(row)
        return real(self, row)

    monkeypatch.setattr(EventColumns, "event_at", counting)
    facts = build(project)
    assert built == []
    assert "event(" in facts.events and "sblock(" in facts.channel_log.static_text
    assert "overlap(" in facts.links
    assert [e.id for e in project.marked_events()] == ["c2", "e0"]
    assert project.event("s1") is not None
    assert len(built) == 3  # the two marked events and the one looked up


def test_status_reads_the_events_it_reports_only(history, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    real = EventColumns.event_at
    monkeypatch.setattr(
        EventColumns, "event_at", lambda self, row: built.append(row) or real(self, row)
    )
    prepared = api.prepare(history)
    resolution = api.status(prepared, at="2024-09-01")
    assert resolution.expectation("x").status == "SATISFIED"
    assert len(built) == 1  # only the .ol file's event, on its way into the merged columns


def test_a_project_pickles_with_its_columns(history) -> None:
    project = load(history)
    project.event("c1")  # the id index is not pickled: it is rebuilt on use
    again = pickle.loads(pickle.dumps(project))
    assert again == project and tuple(again.events) == tuple(project.events)
    assert again.event("c2") == project.event("c2")
    assert build(again).events == build(project).events


def test_identical_records_in_two_files_are_one_event(tmp_path: Path, history) -> None:
    copy = tmp_path / "copy.jsonl"
    copy.write_text(LOG.split("\n")[0] + "\n", encoding="utf-8")
    project = load([*history, str(copy)])
    assert [e.id for e in project.events] == ["c1", "c2", "e0", "s1"]
    assert project.event("c2").location == Location(history[1], 1)  # the first record kept


def test_a_conflicting_record_names_both_places(tmp_path: Path, history) -> None:
    other = tmp_path / "other.jsonl"
    other.write_text('\n{"id": "e0", "channel": "commits", "at": "2024-07-31"}\n', "utf-8")
    with pytest.raises(InputError) as caught:
        load([*history, str(other)])
    assert str(caught.value) == (
        f"{other}:2: error: event 'e0' conflicts with its earlier record at {history[0]}:4:1"
    )


def test_a_bad_line_leaves_the_columns_as_they_were(tmp_path: Path) -> None:
    from resolver.language.eventlog import read_jsonl_into

    columns = EventColumns.from_events(
        [Event("a", "c", 0, 0, Location("x.ol", 1, 1), sets=(Assignment("k", 1),))]
    )
    good = '{"id": "b", "channel": "c", "at": "2024-01-01", "set": {"k": 2}, "files": "p"}'
    with pytest.raises(InputError, match=r"^l.jsonl:2: error: field 'seq'"):
        read_jsonl_into(
            good + '\n{"id": "c", "channel": "c", "at": "2024-01-01", "seq": -1}',
            "l.jsonl",
            columns,
        )
    assert len(columns) == 1 and len(columns.set_key) == 1 and len(columns.file_end) == 1
    read_jsonl_into(good, "l.jsonl", columns)
    assert [(e.id, e.sets, e.files) for e in columns] == [
        ("a", (Assignment("k", 1),), ()),
        ("b", (Assignment("k", 2),), ("p",)),
    ]


def test_events_given_as_objects_are_converted_and_kept_equal() -> None:
    event = Event("e", "c", 10, 20, Location("f.ol", 3, 5), seq=7, files=("z",))
    project = Project(events=(event,))
    assert isinstance(project.events, EventColumns)
    assert project.events[0] == event and project.event("e") == event
    assert project == Project(events=[event])


def test_events_out_of_id_order_are_numbered_in_the_order_read() -> None:
    def event(ident: str, channel: str, day: int) -> Event:
        return Event(
            ident,
            channel,
            1_700_000_000 + day * 86400,
            1_700_000_000 + day * 86400,
            Location("f.ol", day, 1),
            markers=(Marker("completes", "x"),),
        )

    a, b = event("a", "one", 2), event("b", "one", 1)
    ordered, reversed_ = build(Project(events=(a, b))), build(Project(events=(b, a)))
    # Numbered as the rows come (no file gives them a place), events even; the tie order of
    # one instant is the fact writer's same_instant_rank/2, not the numbers.
    numbers = [facts.interner.get(("event", i)) for facts in (ordered, reversed_) for i in "ab"]
    assert numbers == [2, 4, 4, 2]
    swapped = reversed_.events.replace("(2,", "(b,").replace("(4,", "(2,").replace("(b,", "(4,")
    assert set(ordered.events.splitlines()) == set(swapped.splitlines())
