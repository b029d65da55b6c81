"""The JSON-lines fast path accepts exactly what the complete checks accept, with the same result.

Every line is compared with the complete checks of ``eventlog_checks.py`` (the reader as it was
before columns): both accept it with equal events, or both refuse it with the same message.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.errors import InputError, Location
from resolver.language import eventlog
from resolver.language.event_columns import EventColumns
from resolver.language.eventlog import read_jsonl_into, read_jsonl_text
from resolver.language.eventlog_checks import FIELDS, checked_line
from resolver.language.model import MARKER_KINDS
from resolver.times import MAX_UNIX, MIN_UNIX, TimeFormatError, format_time, parse_time


def _outcome(line: str) -> tuple[str, object]:
    try:
        return "events", tuple(read_jsonl_text(line, "l.jsonl"))
    except InputError as exc:
        return "error", str(exc)


def _reference(line: str) -> tuple[str, object]:
    if not line.strip():
        return "events", ()
    try:
        return "events", (checked_line(line, Location("l.jsonl", 1)),)
    except InputError as exc:
        return "error", str(exc)


_TEXT = st.text(
    alphabet=st.sampled_from(
        ["a", "b", "Z", "_", "-", ".", "1", " ", "é", "\x1b", "\u2028", "\u00a0"]
    ),
    max_size=6,
)
_TIME = st.sampled_from(
    [
        *("2024-08-27", "2024-08-27T10:00", "2024-08-27T10:00:00Z", "2024-02-30", "2101-01-01"),
        *("2024-08-27T10:00+02:00", "2024-08-27T10:00+24:00", "27/08/2024", " 2024-08-27"),
        *("2024-08-27T24:00:00Z", "2024-08-27T23:59:60Z", "2024-08-27T09:60:00Z"),
        *("2024-02-29T10:00:00Z", "2023-02-29T10:00:00Z", "1969-12-31T23:59:59Z"),
        *("2100-12-31T23:59:59Z", "2101-01-01T00:00:00Z", "2024-08-27T10:00:00z"),
        *("2024-08-27T1\u0663:00:00Z", "2024-08-27 10:00:00Z", "2024-13-01T00:00:00Z"),
        *("1970-01-01T00:00:00Z", "2024-08-27T-1:00:00Z", "2024-08-27T+1:00:00Z"),
    ]
)
_SCALAR = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**33), max_value=2**33),
    st.sampled_from([2**31 - 2, 2**31 - 1, 2**31, -(2**31), -(2**31) - 1, 0, -1]),
    st.floats(allow_nan=False, allow_infinity=False),
    _TEXT,
    _TIME,
    st.sampled_from(["confirmed", "UNKNOWN", "Failed", "maybe", "commits", "x1", "1x"]),
)
_VALUE = st.one_of(
    _SCALAR,
    st.lists(_SCALAR, max_size=3),
    st.dictionaries(_TEXT, _SCALAR, max_size=3),
)
_KEYS = st.sampled_from([*FIELDS, "complete", "extra"])
_NAME = st.sampled_from(["bob", "", "a\x1b", "a\u00a0b", "x\u2028", "ü", 1, None, True])
_NAMES = st.one_of(_NAME, st.lists(_NAME, max_size=3))
#: Per field, values at the edges of what it accepts.
_EDGES = {
    "seq": st.sampled_from([0, 1, 2**31 - 2, 2**31 - 1, -1, -5, True, 1.0, "1", None]),
    "set": st.dictionaries(
        st.sampled_from(["k", "", "a\x1b", "b\u00a0", "\u2029"]),
        st.sampled_from([1, True, False, "v", "", 2**31 - 1, 2**31, -(2**31), -(2**31) - 1])
        | st.sampled_from([None, 1.5, [1], {"n": 1}]),
        max_size=3,
    ),
    "files": st.one_of(
        st.sampled_from(["a", "", None, 3]),
        st.lists(st.sampled_from(["a", "b", "", 1, "\x1b"]), max_size=3),
    ),
    "by": _NAME,
    "kind": _NAME,
    "id": _NAME,
    "channel": _NAME,
    "outcome": st.sampled_from(["confirmed", "FAILED", "unknown", "no", "", 1, None]),
    "at": _TIME,
    "recorded": _TIME | st.sampled_from([None, 1]),
    "text": st.sampled_from(["", "done", "\x1b", None, 1, ["t"]]),
    **{kind: _NAMES for kind in MARKER_KINDS},
}


@st.composite
def _lines(draw: st.DrawFn) -> str:
    """A valid record with a few fields changed, added or dropped (each change alone decides
    the outcome), or now and then a record of random fields only."""
    if draw(st.integers(0, 9)) == 9:  # (hypothesis favours small numbers and first choices)
        record = draw(st.dictionaries(_KEYS, _VALUE, max_size=8))
    else:
        record = {
            "id": draw(st.sampled_from(["e1", "café-2", "a.b:c/d@e+f"])),
            "channel": "commits",
            "at": "2024-08-27T10:00:00Z",
        }
        for _ in range(draw(st.integers(0, 3))):
            key = draw(_KEYS)
            if draw(st.integers(0, 5)) == 5:
                record.pop(key, None)
            else:
                record[key] = draw(_VALUE if draw(st.booleans()) else _EDGES.get(key, _VALUE))
    line = json.dumps(record, ensure_ascii=draw(st.booleans()))
    damage = draw(st.sampled_from([*[""] * 20, "dup", "tail", "space", "surrogate", "cut"]))
    if damage == "dup" and len(line) > 2:
        line = line[:-1] + ', "id": "e1"}'
    elif damage == "tail":
        line += draw(st.sampled_from([" ", "\t\r", " x", "{}", "\x0b"]))
    elif damage == "space":
        line = " " + line
    elif damage == "surrogate":
        line = line[:-1] + ', "text": "\\ud800"}' if len(line) > 2 else line
    elif damage == "cut":
        line = line[: draw(st.integers(0, len(line)))]
    return line


@settings(max_examples=600, deadline=None)
@given(_lines())
def test_the_fast_path_agrees_with_the_complete_checks(line: str) -> None:
    assert _outcome(line) == _reference(line)


@pytest.mark.parametrize(
    "line",
    [
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"k": 1, "k": 2}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "seq": 1.0}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "by": ""}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "text": "\\ud83d\\ude00"}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "by": "a\\u00a0b"}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"k": {"nested": 1}}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "completes": {"x": 1}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "files": [""]}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"k": 3000000000}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01"} trailing',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "id": "f"}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"a\\u001b": 1}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"k": 1.5}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"k": -2147483649}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "set": {"k": -2147483648}}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "completes": ["a", "b\\u2028"]}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "cancels": ""}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "seq": -1}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "outcome": "done"}',
        "[1, 2]",
    ],
)
def test_lines_the_fast_path_leaves_to_the_complete_checks(line: str) -> None:
    assert _outcome(line) == _reference(line)


def test_ordinary_lines_never_need_the_complete_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(line: str, location: Location) -> None:
        raise AssertionError(f"the fast path left line {location.line} to the complete checks")

    monkeypatch.setattr(eventlog, "checked_line", refuse)
    lines = [
        '{"id": "commit-118", "channel": "commits", "seq": 118, "at": "2024-08-27T10:00:00Z",'
        ' "recorded": "2024-08-27T10:05:00Z", "by": "bob", "kind": "commit", "text": "Switch",'
        ' "set": {"backup.backend": "PostgreSQL", "n": -3, "on": false}, "completes":'
        ' ["intent-401", "intent-401"], "waives": "w", "outcome": "UNKNOWN", "files": "a.py"}',
        '{"id": "e", "channel": "c", "at": "2024-01-01", "by": null, "set": null, "seq": null}',
        '{"id": "\u00e9", "channel": "c", "at": "2024-01-01T10:00+02:00", "text": "\u2028"} \t',
        "",
    ]
    events = read_jsonl_text("\ufeff" + "\n".join(lines), "l.jsonl")
    assert len(events) == 3
    first = events[0]
    assert first.outcome == "unknown" and [m.target for m in first.markers] == ["intent-401", "w"]
    assert events[1].by is None and events[1].sets == () and events[1].seq is None


@settings(max_examples=300, deadline=None)
@given(st.integers(min_value=-86400, max_value=MAX_UNIX + 86400), st.booleans())
def test_the_usual_time_form_reads_as_parse_time_does(unix: int, canonical: bool) -> None:
    text = (
        datetime.fromtimestamp(unix, tz=UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
        if canonical or not MIN_UNIX <= unix <= MAX_UNIX
        else format_time(unix)[:-1] + "+00:00"
    )
    try:
        expected: object = parse_time(text)
    except TimeFormatError as exc:
        expected = str(exc)
    try:
        got: object = eventlog._instant(text, {})
    except TimeFormatError as exc:
        got = str(exc)
    assert got == expected


_PLAIN_NAMES = st.sampled_from(["ann", "bob", "café", "a\u00a0b", None])
_RECORD_LINES = st.builds(
    lambda ident, channel, by, kind, rare, slow: json.dumps(
        {
            "id": f"e{ident}",
            "channel": channel,
            "at": f"2024-08-{10 + ident % 17}T{ident % 24:02d}:{ident % 60:02d}:07Z",
            **({"by": by} if by is not None else {}),
            **({"kind": kind} if kind is not None else {}),
            **rare,
            **({"evidence": ["e1"]} if slow == 1 else {}),
            **({"text": "\ud83d\ude00"} if slow == 2 else {}),
        },
        ensure_ascii=slow == 2,
    ),
    st.integers(0, 400),
    st.sampled_from(["commits", "ci", "review"]),
    _PLAIN_NAMES,
    _PLAIN_NAMES,
    st.sampled_from(
        [{}] * 4
        + [{"set": {"k": 1, "ann": "v"}}, {"completes": ["x", "ci"]}, {"files": ["a.py", "b"]}]
        + [{"notes": {"k": "bob"}}, {"outcome": "FAILED", "seq": 3, "recorded": "2025-01-01"}]
    ),
    st.sampled_from([0, 0, 0, 0, 1, 2]),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(_RECORD_LINES | st.just(""), max_size=25), st.integers(0, 5))
def test_the_columns_are_those_of_reading_line_by_line(lines: list[str], split: int) -> None:
    """Plain lines go in batches, the others one by one, the string table in reading order:
    every column, and the table, as the complete checks' events appended one at a time give
    them, also when a log's later lines are read into the columns of its earlier ones."""
    reference = EventColumns()
    for number, line in enumerate(lines, start=1):
        if line.strip():
            reference.append_event(checked_line(line, Location("l.jsonl", number)))
    read = EventColumns()
    split = min(split, len(lines))
    read_jsonl_into("\n".join(lines[:split]), "l.jsonl", read)
    if split < len(lines):
        read_jsonl_into("\n".join(lines[split:]), "l.jsonl", read, first_line=split + 1)
    assert read.__getstate__() == reference.__getstate__()


def test_a_bad_line_takes_back_the_batch(tmp_path) -> None:
    good = '{"id": "e1", "channel": "c", "at": "2024-01-01T10:00:00Z", "by": "new-name"}'
    columns = EventColumns()
    read_jsonl_into(good.replace("e1", "e0").replace("new-name", "ann"), "l.jsonl", columns)
    before = columns.__getstate__()
    with pytest.raises(InputError, match=r"l\.jsonl:3"):
        read_jsonl_into(f"{good}\n{good.replace('e1', 'e2')}\n{{", "l.jsonl", columns)
    after = columns.__getstate__()
    assert {k: v for k, v in after.items() if k not in ("strings", "_string_ids")} == {
        k: v for k, v in before.items() if k not in ("strings", "_string_ids")
    }
