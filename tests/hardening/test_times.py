"""Times are exactly the forms of SPEC §2.1, and bad ones get a clean message.

Regressions of issue 17, item 15: Unicode digits (``٢٠٢٤-01-01``) and surrounding spaces were
accepted, and a bad zone offset leaked Python's ``timedelta`` text.
"""

from __future__ import annotations

import json

import pytest

from resolver.cli.main import main
from resolver.times import TimeFormatError, parse_duration, parse_time


@pytest.mark.parametrize(
    "text",
    [
        "٢٠٢٤-01-01",  # Arabic-Indic digits
        "2024-01-0١",
        "２０２４-01-01",  # full-width digits
        "2024-01-01T1٠:00",
        " 2024-01-01",
        "2024-01-01 ",
        "\t2024-01-01T10:00Z\n",
        "2024-01-01 10:00",  # not one of the forms: the separator is T
        "2024-01-01T10:00:00.5Z",
        "2024-01-01T10:00+0200",
        "2024-01-01+02:00",
    ],
)
def test_forms_outside_the_language_are_refused(text):
    with pytest.raises(TimeFormatError, match="expected a time such as"):
        parse_time(text)


@pytest.mark.parametrize("offset", ["+25:00", "-24:00", "+02:60", "+99:99"])
def test_bad_zone_offset_has_a_clean_message(offset):
    with pytest.raises(TimeFormatError) as caught:
        parse_time(f"2024-01-01T10:00{offset}")
    message = str(caught.value)
    assert "timedelta" not in message
    assert message == (
        f"invalid zone offset '{offset}' in '2024-01-01T10:00{offset}': expected -23:59 to +23:59"
    )


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("2024-02-30", "day is out of range for month"),
        ("2024-13-01T10:00", "month must be in 1..12"),
        ("2024-01-01T24:00", "hour must be in 0..23"),
    ],
)
def test_calendar_errors_name_the_field(text, problem):
    with pytest.raises(TimeFormatError, match=problem):
        parse_time(text)


@pytest.mark.parametrize(
    ("text", "unix"),
    [
        ("2024-08-27", 1724716800),
        ("2024-08-27T10:00", 1724752800),
        ("2024-08-27T10:00:30", 1724752830),
        ("2024-08-27T10:00Z", 1724752800),
        ("2024-08-27T10:00:00Z", 1724752800),
        ("2024-08-27T12:00+02:00", 1724752800),
        ("2024-08-27T05:00:00-05:00", 1724752800),
        ("2024-08-27T10:00+23:59", 1724752800 - 23 * 3600 - 59 * 60),
        ("1970-01-01", 0),
    ],
)
def test_the_forms_of_the_language(text, unix):
    assert parse_time(text) == unix


def test_unicode_digits_in_a_json_time_are_bad_input(tmp_path, capsys):
    record = {"id": "e", "channel": "c", "at": "٢٠٢٤-01-01"}
    (tmp_path / "events.jsonl").write_text(json.dumps(record) + "\n", encoding="utf-8")
    assert main(["status", str(tmp_path), "--at", "2024-08-23"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"{tmp_path / 'events.jsonl'}:1: error: field 'at': expected a time")


def test_standpoint_with_spaces_is_bad_input(release, capsys):
    assert main(["status", str(release), "--at", " 2024-08-23 "]) == 2
    assert "--at: expected a time such as" in capsys.readouterr().err


def test_a_duration_of_5000_digits_is_refused_cleanly():
    with pytest.raises(TimeFormatError, match="too long"):
        parse_duration("9" * 5000 + "d")


@pytest.mark.parametrize("text", ["٢d", " 2d", "2d ", "2 d", "2D"])
def test_duration_forms_outside_the_language_are_refused(text):
    with pytest.raises(TimeFormatError, match="expected a duration"):
        parse_duration(text)
