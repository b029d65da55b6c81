"""Events as JSON lines: the same fields as the event block, strictly checked."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.errors import InputError, Location
from resolver.language.eventlog import read_jsonl, read_jsonl_text
from resolver.language.model import Assignment, Marker
from resolver.language.parser import parse_text
from resolver.times import parse_time

SPEC_LINE = (
    '{"id": "commit-118", "channel": "commits", "seq": 118, "at": "2024-08-27T10:00:00Z",'
    ' "recorded": "2024-08-27T10:05:00Z", "by": "bob", "kind": "commit",'
    ' "text": "Switch the nightly dump job to pg_dump", "set": {"backup.backend": "PostgreSQL"},'
    ' "completes": ["intent-401"], "outcome": "confirmed"}'
)


def error_of(text: str) -> str:
    with pytest.raises(InputError) as caught:
        read_jsonl_text(text, "log.jsonl")
    return str(caught.value)


def test_spec_line_matches_the_event_block() -> None:
    (event,) = read_jsonl_text(SPEC_LINE, "log.jsonl")
    assert event.location == Location("log.jsonl", 1)
    assert event.id == "commit-118"
    assert event.channel == "commits"
    assert event.seq == 118
    assert event.at == parse_time("2024-08-27T10:00:00Z")
    assert event.recorded == parse_time("2024-08-27T10:05:00Z")
    assert (event.by, event.kind) == ("bob", "commit")
    assert event.text == "Switch the nightly dump job to pg_dump"
    assert event.sets == (Assignment("backup.backend", "PostgreSQL"),)
    assert event.markers == (Marker("completes", "intent-401"),)
    assert event.outcome == "confirmed"
    block = parse_text(
        "event commit-118 { channel commits seq 118 at 2024-08-27T10:00 "
        "recorded 2024-08-27T10:05 by bob kind commit "
        'text "Switch the nightly dump job to pg_dump" set backup.backend = "PostgreSQL" '
        "completes intent-401 outcome confirmed }",
        "x.ol",
    ).events[0]
    assert block.content() == event.content()


def test_minimal_line_defaults() -> None:
    (event,) = read_jsonl_text('{"id": "e", "channel": "c", "at": "2024-01-01"}', "l.jsonl")
    assert event.recorded == event.at == parse_time("2024-01-01")
    assert (event.seq, event.by, event.kind, event.text) == (None, None, None, None)
    assert (event.sets, event.markers, event.outcome) == ((), (), "confirmed")


def test_blank_lines_are_skipped_and_lines_counted() -> None:
    text = '\n{"id": "a", "channel": "c", "at": "2024-01-01"}\n   \n\n' + (
        '{"id": "b", "channel": "c", "at": "2024-01-02"}\n'
    )
    events = read_jsonl_text(text, "l.jsonl")
    assert [(e.id, e.location.line) for e in events] == [("a", 2), ("b", 5)]
    assert events[0].location.column is None


def test_single_string_markers_and_every_marker_kind() -> None:
    line = json.dumps(
        {
            "id": "e",
            "channel": "c",
            "at": "2024-01-01",
            "completes": "a",
            "cancels": ["b"],
            "supersedes": ["c", "d"],
            "waives": "e",
            "reopens": [],
            "claims_complete": "f",
            "reports_pending": ["g"],
        }
    )
    (event,) = read_jsonl_text(line, "l.jsonl")
    assert event.markers == (
        Marker("completes", "a"),
        Marker("cancels", "b"),
        Marker("supersedes", "c"),
        Marker("supersedes", "d"),
        Marker("waives", "e"),
        Marker("claims_complete", "f"),
        Marker("reports_pending", "g"),
    )


def test_set_values_keep_their_types() -> None:
    line = json.dumps(
        {"id": "e", "channel": "c", "at": "2024-01-01", "set": {"s": "x", "i": -3, "b": True}}
    )
    (event,) = read_jsonl_text(line, "l.jsonl")
    assert event.sets == (Assignment("s", "x"), Assignment("i", -3), Assignment("b", True))
    assert type(event.sets[2].value) is bool


def test_nulls_are_absent_fields_and_outcome_is_case_insensitive() -> None:
    line = '{"id": "e", "channel": "c", "at": "2024-01-01", "by": null, "seq": null, '
    line += '"outcome": "Unknown"}'
    (event,) = read_jsonl_text(line, "l.jsonl")
    assert (event.by, event.seq, event.outcome) == (None, None, "unknown")


def test_zoned_times() -> None:
    line = '{"id": "e", "channel": "c", "at": "2024-08-27T12:00:00+02:00"}'
    (event,) = read_jsonl_text(line, "l.jsonl")
    assert event.at == parse_time("2024-08-27T10:00:00Z")


@settings(max_examples=200, deadline=None)
@given(st.text())
def test_any_text_survives(text: str) -> None:
    line = json.dumps({"id": "e", "channel": "c", "at": "2024-01-01", "text": text})
    assert read_jsonl_text(line, "l.jsonl")[0].text == text


def test_asp_syntax_quotes_backslashes_and_unicode_in_text() -> None:
    text = 'a :- b. #show. "quoted" back\\slash naïve ✓ \u2028 end'
    line = json.dumps({"id": "e", "channel": "c", "at": "2024-01-01", "text": text})
    assert read_jsonl_text(line, "l.jsonl")[0].text == text
    raw = json.dumps(
        {"id": "e", "channel": "c", "at": "2024-01-01", "text": text}, ensure_ascii=False
    )
    assert read_jsonl_text(raw + "\n", "l.jsonl")[0].text == text


def test_read_jsonl_names_the_file(tmp_path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_text('{"id": "e", "channel": "c", "at": "2024-01-01"}\n', encoding="utf-8")
    (event,) = read_jsonl(path)
    assert event.location == Location(str(path), 1)


def test_not_utf8(tmp_path) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(b'{"id": "\xff"}\n')
    with pytest.raises(InputError, match=r"events\.jsonl:1: error: not UTF-8"):
        read_jsonl(path)


# ------------------------------------------------------------------------------------------------
# Errors: FILE:LINE: error: ...
# ------------------------------------------------------------------------------------------------

GOOD = '{"id": "ok", "channel": "c", "at": "2024-01-01"}\n'


def test_bad_json() -> None:
    assert error_of(GOOD + '{"id": "e", "channel": }\n') == (
        "log.jsonl:2: error: invalid JSON: Expecting value at column 24"
    )
    assert error_of(GOOD + GOOD + "{not json").startswith("log.jsonl:3: error: invalid JSON: ")


def test_not_an_object() -> None:
    assert (
        error_of('["id"]') == "log.jsonl:1: error: expected a JSON object (one event), got a list"
    )


@pytest.mark.parametrize("field", ["id", "channel", "at"])
def test_missing_required_field(field: str) -> None:
    record = {"id": "e", "channel": "c", "at": "2024-01-01"}
    del record[field]
    assert error_of(GOOD + json.dumps(record)) == (
        f"log.jsonl:2: error: missing required field '{field}'"
    )


def test_unknown_field() -> None:
    assert error_of('{"id": "e", "channel": "c", "at": "2024-01-01", "complete": ["x"]}') == (
        "log.jsonl:1: error: unknown field 'complete'; expected one of: id, channel, seq, at, "
        "recorded, by, kind, text, set, files, completes, cancels, supersedes, waives, reopens, "
        "claims_complete, reports_pending, outcome, notes, evidence"
    )


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"seq": "12"}, "field 'seq' must be an integer, got \"12\""),
        ({"seq": 1.5}, "field 'seq' must be an integer, got 1.5"),
        ({"seq": True}, "field 'seq' must be an integer, got true"),
        ({"seq": -1}, "field 'seq' must be between 0 and 2147483646, got -1"),
        ({"id": 7}, "field 'id' must be a non-empty string, got 7"),
        ({"channel": ""}, "field 'channel' must be a non-empty string, got \"\""),
        ({"by": ["a"]}, "field 'by' must be a non-empty string, got a list"),
        ({"at": 1724752800}, "field 'at' must be a time string, got 1724752800"),
        ({"recorded": "soon"}, "field 'recorded': expected a time such as 2024-08-27"),
        ({"at": "2024-02-30"}, "field 'at': invalid time '2024-02-30'"),
        ({"text": 5}, "field 'text' must be a string, got 5"),
        ({"set": ["k", 1]}, "field 'set' must be an object of key to value, got a list"),
        ({"set": {"k": 1.5}}, "field 'set': the value of 'k' must be a string, an integer or"),
        ({"set": {"k": None}}, "field 'set': the value of 'k' must be a string, an integer or"),
        ({"completes": 3}, "field 'completes' must be a name or a list of names, got 3"),
        ({"waives": ["a", 2]}, "field 'waives' must hold non-empty names, got 2"),
        ({"outcome": "maybe"}, "field 'outcome' must be one of confirmed, unknown, failed"),
    ],
)
def test_wrong_types(extra: dict, message: str) -> None:
    record = {"id": "e", "channel": "c", "at": "2024-01-01", **extra}
    assert error_of(json.dumps(record)).startswith(f"log.jsonl:1: error: {message}")


def test_duplicate_key_in_one_object() -> None:
    text = '{"id": "e", "channel": "c", "at": "2024-01-01", "channel": "d"}'
    assert error_of(text) == "log.jsonl:1: error: field 'channel' is given twice"


def test_appended_lines_are_numbered_from_their_place_in_the_file() -> None:
    """The store reads the lines appended to a log alone (resolver/store/appends.py): they keep
    their numbers in the file, and a BOM is a file's first character only."""
    from resolver.language.event_columns import EventColumns
    from resolver.language.eventlog import read_jsonl_into

    whole = '{"id": "a", "channel": "c", "at": "2024-07-01"}\n\n'
    added = '{"id": "b", "channel": "c", "at": "2024-07-02"}\n{"id": "c", "channel": "c"}\n'
    columns = read_jsonl_text(whole, "log.jsonl")
    with pytest.raises(InputError) as fresh:
        read_jsonl_text(whole + added, "log.jsonl")
    with pytest.raises(InputError) as alone:
        read_jsonl_into(added, "log.jsonl", columns, first_line=3)
    assert str(alone.value) == str(fresh.value) and "log.jsonl:4" in str(fresh.value)
    assert len(columns) == 1  # the rows of the refused text are taken back
    read_jsonl_into(added.splitlines()[0], "log.jsonl", columns, first_line=3)
    assert columns.location(1) == Location("log.jsonl", 3)
    bom = "\ufeff" + added.splitlines()[0]
    with pytest.raises(InputError) as fresh:
        read_jsonl_text(whole + bom, "log.jsonl")
    with pytest.raises(InputError) as alone:
        read_jsonl_into(bom, "log.jsonl", EventColumns(), first_line=3)
    assert str(alone.value) == str(fresh.value)
