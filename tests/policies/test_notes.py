"""Notes on events and a policy title's ``$note`` (SPEC §5.1, §6.1 TODO titles).

An event may attach words to a key (JSON ``"notes": {KEY: TEXT}``, ``.ol`` ``note KEY "TEXT"``);
a policy's title says ``$note`` for the note its trigger attaches to the key its ``when set``
matched, and the key itself when the trigger has none.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver import api
from resolver.errors import InputError
from resolver.language.eventlog import read_jsonl_text
from resolver.language.loader import load
from resolver.language.parser import parse_text

POLICY = """
channel commits work
policy todo-removed {
  title "$note"
  when set todo.* = "open"
  want $key = "removed"
}
"""


def line(**fields: object) -> str:
    base = {"id": "c1", "channel": "commits", "at": "2024-07-01T10:00:00Z"}
    return json.dumps({**base, **fields})


def jsonl_error(text: str) -> str:
    with pytest.raises(InputError) as caught:
        read_jsonl_text(text, "log.jsonl")
    return str(caught.value)


def parse_error(text: str) -> str:
    with pytest.raises(InputError) as caught:
        parse_text(text, "x.ol")
    return str(caught.value)


def test_notes_read_from_json_and_from_an_event_block_alike() -> None:
    (from_json,) = read_jsonl_text(
        line(set={"todo.a": "open"}, notes={"todo.a": "TODO a.py: retry", "todo.b": "b"}), "l"
    )
    (from_block,) = parse_text(
        'event c1 { channel commits at 2024-07-01T10:00:00Z set todo.a = "open" '
        'note todo.a "TODO a.py: retry" note todo.b "b" }',
        "x.ol",
    ).events
    assert from_json.notes == (("todo.a", "TODO a.py: retry"), ("todo.b", "b"))
    assert from_json.note("todo.a") == "TODO a.py: retry" and from_json.note("todo.c") is None
    assert from_block.content() == from_json.content()


def test_two_records_of_one_event_that_differ_only_in_a_note_conflict(tmp_path: Path) -> None:
    (tmp_path / "a.jsonl").write_text(line(notes={"k": "one"}) + "\n", encoding="utf-8")
    (tmp_path / "b.jsonl").write_text(line(notes={"k": "two"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="conflicts with its earlier record"):
        load([tmp_path])


@pytest.mark.parametrize(
    ("notes", "message"),
    [
        (["a"], "field 'notes' must be an object of key to text, got a list"),
        ({"k": 3}, "field 'notes': the note of 'k' must be a string, got 3"),
        ({"": "x"}, "field 'notes' has an empty key"),
        ({"k": "a\u001b[2Jb"}, "the note of 'k' must not hold control characters"),
        ({"k": "two\nlines"}, "the note of 'k' must not hold control characters"),
        ({"k\n": "x"}, "field 'notes': a key must not hold control characters"),
    ],
)
def test_bad_notes_are_refused_at_their_line(notes: object, message: str) -> None:
    error = jsonl_error(
        '{"id": "c0", "channel": "commits", "at": "2024-07-01"}\n' + line(notes=notes)
    )
    assert error.startswith("log.jsonl:2: error: ") and message in error


def test_a_repeated_note_key_in_json_is_refused() -> None:
    text = '{"id": "c1", "channel": "commits", "at": "2024-07-01", "notes": {"k": "a", "k": "b"}}'
    assert "given twice" in jsonl_error(text)


def test_note_clause_errors() -> None:
    assert "two different notes" in parse_error(
        'event e { channel c at 2024-07-01 note k "a" note k "b" }'
    )
    assert "must not hold control characters" in parse_error(
        'event e { channel c at 2024-07-01 note k "a\u001bb" }'
    )
    assert parse_error('event e { channel c at 2024-07-01 note "k" "a" }').startswith("x.ol:1:")


def test_note_names_in_a_policy_are_checked() -> None:
    no_set = parse_error('policy p { title "$note" when channel commits want touches "d/**" }')
    assert "'$note' in 'title' has nothing to stand for" in no_set
    assert "no 'when set' condition" in no_set
    in_want = parse_error('policy p { title "t" when set todo.* = "open" want todo.x = "$note" }')
    assert "'$note' in 'want' has nothing to stand for" in in_want and "title only" in in_want


def test_a_title_says_the_note_of_the_matched_key_else_the_key(tmp_path: Path) -> None:
    (tmp_path / "p.ol").write_text(POLICY, encoding="utf-8")
    (tmp_path / "e.jsonl").write_text(
        line(
            set={"todo.src/a.py:1111": "open", "todo.src/a.py:2222": "open"},
            notes={
                "todo.src/a.py:1111": "TODO src/a.py: retry when the pool is exhausted",
                "todo.src/b.py:3333": "a note on a key this event does not set",
            },
        )
        + "\n",
        encoding="utf-8",
    )
    resolution = api.status(api.prepare([tmp_path]), at="2024-07-02")
    titles = {x.id: x.title for x in resolution.expectations}
    assert titles == {
        "todo-removed/c1/todo.src/a.py:1111": "TODO src/a.py: retry when the pool is exhausted",
        "todo-removed/c1/todo.src/a.py:2222": "todo.src/a.py:2222",
    }
