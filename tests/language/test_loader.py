"""Loading files and folders into one Project: order, duplicates, conflicts, warnings."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from resolver.errors import InputError, Location
from resolver.language.loader import Diagnostic, collect_files, load, load_with_warnings
from resolver.times import parse_time


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def event_line(**fields: object) -> str:
    return json.dumps({"channel": "commits", "at": "2024-08-27T10:00:00Z", **fields}) + "\n"


EVENT_BLOCK = """\
event commit-118 {
  channel commits
  at 2024-08-27T10:00
  text "Switch \\"dump\\" a :- b. #show. naïve \\\\ ✓"
  completes intent-401
}
"""
EVENT_TEXT = 'Switch "dump" a :- b. #show. naïve \\ ✓'


def test_folders_are_read_recursively_in_sorted_order(tmp_path: Path) -> None:
    write(tmp_path / "b" / "z.ol", "channel z work")
    write(tmp_path / "b" / "a" / "deep.ol", "channel deep work")
    write(tmp_path / "a.ol", "channel a work")
    write(tmp_path / "log.jsonl", event_line(id="e1"))
    write(tmp_path / "notes.txt", "not read")
    write(tmp_path / ".hidden" / "x.ol", "this is not parsed")
    write(tmp_path / ".skip.ol", "nor this")
    root = str(tmp_path)
    assert collect_files([tmp_path]) == [
        f"{root}/a.ol",
        f"{root}/b/a/deep.ol",
        f"{root}/b/z.ol",
        f"{root}/log.jsonl",
    ]
    project = load([tmp_path])
    assert [c.name for c in project.channels] == ["a", "deep", "z"]
    assert [e.id for e in project.events] == ["e1"]
    assert project.sources == tuple(collect_files([tmp_path]))


def test_a_file_named_twice_is_read_once(tmp_path: Path) -> None:
    path = write(tmp_path / "a.ol", "channel a work")
    assert collect_files([tmp_path, path, str(path)]) == [str(path)]
    assert load([tmp_path, path]).channels[0].name == "a"


def test_missing_path(tmp_path: Path) -> None:
    missing = tmp_path / "nope.ol"
    with pytest.raises(InputError) as caught:
        load([missing])
    assert str(caught.value) == f"{missing}: error: no such file or directory"


def test_named_file_with_another_extension(tmp_path: Path) -> None:
    path = write(tmp_path / "events.json", "{}")
    with pytest.raises(InputError) as caught:
        load([path])
    assert str(caught.value) == (
        f"{path}: error: cannot read '.json' files; expected .ol or .jsonl"
    )


def test_errors_inside_files_keep_their_locations(tmp_path: Path) -> None:
    bad = write(tmp_path / "d" / "bad.ol", "channel c work\nexpectation x { wnat }")
    with pytest.raises(
        InputError, match=rf"^{re.escape(str(bad))}:2:17: error: unknown clause 'wnat'"
    ):
        load([tmp_path])
    log = write(tmp_path / "e" / "bad.jsonl", "\n{oops}\n")
    with pytest.raises(InputError, match=rf"^{re.escape(str(log))}:2: error: invalid JSON"):
        load([log])


def test_identical_event_in_ol_and_jsonl_is_one_event(tmp_path: Path) -> None:
    write(tmp_path / "a.ol", EVENT_BLOCK)
    write(
        tmp_path / "b.jsonl",
        event_line(id="commit-118", text=EVENT_TEXT, completes="intent-401")
        + event_line(id="commit-118", text=EVENT_TEXT, completes=["intent-401"]),
    )
    project, warnings = load_with_warnings([tmp_path])
    (event,) = project.events
    assert event.text == EVENT_TEXT
    assert event.location == Location(str(tmp_path / "a.ol"), 1, 1)
    assert warnings == []


def test_recorded_defaulting_counts_as_identical(tmp_path: Path) -> None:
    write(tmp_path / "a.ol", "event e { channel commits at 2024-08-27T10:00 }")
    write(tmp_path / "b.jsonl", event_line(id="e", recorded="2024-08-27T10:00:00Z"))
    assert len(load([tmp_path]).events) == 1


def test_conflicting_event_records(tmp_path: Path) -> None:
    first = write(tmp_path / "a.ol", "\n" + EVENT_BLOCK)
    second = write(
        tmp_path / "b.jsonl",
        event_line(id="other") + event_line(id="commit-118", text="something else"),
    )
    with pytest.raises(InputError) as caught:
        load([tmp_path])
    assert str(caught.value) == (
        f"{second}:2: error: event 'commit-118' conflicts with its earlier record at {first}:2:1"
    )


def test_conflicting_events_within_one_jsonl(tmp_path: Path) -> None:
    log = write(tmp_path / "l.jsonl", event_line(id="e", seq=1) + event_line(id="e", seq=2))
    name = re.escape(str(log))
    with pytest.raises(InputError, match=rf"^{name}:2: error: event 'e' conflicts .* at {name}:1$"):
        load([log])


def test_identical_duplicate_declarations_warn(tmp_path: Path) -> None:
    text = (
        "channel commits work\nactor alice principal\nalias pg postgres\n"
        'expectation x {\n  title "X"\n  want k = 1\n}\n'
        'task t { title "T" obligation o { title "O" } }\n'
    )
    first = write(tmp_path / "a.ol", text)
    second = write(tmp_path / "b.ol", "# copy\n" + text)
    project, warnings = load_with_warnings([tmp_path])
    assert [x.id for x in project.expectations] == ["o", "x"]
    assert [t.id for t in project.tasks] == ["t"]
    assert all(isinstance(w, Diagnostic) and w.severity == "warning" for w in warnings)
    messages = [str(w) for w in warnings]
    assert messages == [
        f"{second}:2:1: warning: duplicate declaration of channel 'commits' (identical to the one "
        f"at {first}:1:1)",
        f"{second}:3:1: warning: duplicate declaration of actor 'alice' (identical to the one at "
        f"{first}:2:1)",
        f"{second}:4:1: warning: duplicate declaration of alias 'pg postgres' (identical to the "
        f"one at {first}:3:1)",
        f"{second}:9:1: warning: duplicate declaration of task 't' (identical to the one at "
        f"{first}:8:1)",
        f"{second}:5:1: warning: duplicate declaration of expectation 'x' (identical to the one "
        f"at {first}:4:1)",
    ]
    assert load([tmp_path]) == project


@pytest.mark.parametrize(
    ("one", "two", "what"),
    [
        ('expectation x { title "A" }', 'expectation x { title "B" }', "expectation 'x'"),
        ("channel c work", "channel c mention", "channel 'c'"),
        ("actor a principal", "actor a agent", "actor 'a'"),
        ('task t { title "A" }', 'task t { title "B" }', "task 't'"),
        ("task t { obligation o { } }", "task u { obligation o { } }", "obligation 'o'"),
    ],
)
def test_conflicting_declarations(tmp_path: Path, one: str, two: str, what: str) -> None:
    first = write(tmp_path / "a.ol", one)
    second = write(tmp_path / "b.ol", "\n\n" + two)
    with pytest.raises(InputError) as caught:
        load([first, second])
    message = str(caught.value)
    assert message.startswith(f"{second}:3:")
    assert re.search(
        rf"error: {what} conflicts with its earlier declaration at {re.escape(str(first))}:1:\d+$",
        message,
    )


def test_task_and_expectation_may_not_share_an_id(tmp_path: Path) -> None:
    first = write(tmp_path / "a.ol", "task x { }")
    second = write(tmp_path / "b.ol", "expectation x { }")
    with pytest.raises(InputError) as caught:
        load([first, second])
    assert str(caught.value) == (
        f"{second}:1:1: error: 'x' is already declared as a task at {first}:1:1"
    )
    with pytest.raises(InputError, match="already declared as an expectation"):
        load([second, first])


def test_outputs_are_sorted_and_tasks_list_all_their_obligations(tmp_path: Path) -> None:
    write(
        tmp_path / "a.ol",
        "channel zz work channel aa mention actor zed principal actor ann agent\n"
        "task t { obligation o2 { } obligation o1 { } }\n"
        "expectation z { part_of t } expectation b { part_of t } expectation free { }\n"
        'test "second" { } test "first" { }',
    )
    write(tmp_path / "b.jsonl", event_line(id="e2") + event_line(id="e1", at="2024-01-01"))
    project = load([tmp_path])
    assert [c.name for c in project.channels] == ["aa", "zz"]
    assert [a.name for a in project.actors] == ["ann", "zed"]
    assert [x.id for x in project.expectations] == ["b", "free", "o1", "o2", "z"]
    assert [e.id for e in project.events] == ["e1", "e2"]
    assert project.events[0].at == parse_time("2024-01-01")
    assert [t.name for t in project.tests] == ["second", "first"]
    assert project.task("t").obligations == ("o2", "o1", "b", "z")
    assert project.expectation("o1").is_obligation
    assert not project.expectation("b").is_obligation


def test_empty_inputs(tmp_path: Path) -> None:
    assert load([]).events == ()
    empty = tmp_path / "empty"
    empty.mkdir()
    assert load([empty]).sources == ()


def test_integer_and_boolean_values_are_not_the_same_record(tmp_path: Path) -> None:
    """Python says 1 == True; a log must not."""
    write(tmp_path / "a.ol", "event e { channel commits at 2024-08-27T10:00 set k = 1 }")
    write(tmp_path / "b.jsonl", event_line(id="e", set={"k": True}))
    with pytest.raises(InputError, match="event 'e' conflicts with its earlier record"):
        load([tmp_path])
    write(tmp_path / "b.jsonl", event_line(id="e", set={"k": 1}))
    assert len(load([tmp_path]).events) == 1
    write(tmp_path / "c.ol", "expectation x { want k = 1 }")
    write(tmp_path / "d.ol", "expectation x { want k = true }")
    with pytest.raises(InputError, match="expectation 'x' conflicts"):
        load([tmp_path])
