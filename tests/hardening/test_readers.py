"""The readers refuse what they cannot hold, at its line, instead of crashing later.

Regressions of issue 17, items 5, 6, 7, 13 and 15: integers of more than 4,300 digits and deep
JSON nesting escaped as ``ValueError`` and ``RecursionError``; lone-surrogate escapes passed the
reader and crashed every output; ``seq 2147483647`` failed later with no location; invalid
UTF-8 was reported at 1:1; Unicode digits were read as numbers; JSON ids and channels could be
any string (spaces, newlines, ESC sequences included).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from resolver.cli.main import main

AT = ("--at", "2024-08-23")
PREAMBLE = "channel commits work\nactor alice principal\n"
EVENT = {"id": "e1", "channel": "commits", "seq": 1, "at": "2024-01-02T00:00:00Z"}


def _history(folder: Path, ol: str = "", lines: list[str] | None = None) -> Path:
    (folder / "h.ol").write_text(PREAMBLE + ol, encoding="utf-8")
    if lines is not None:
        (folder / "events.jsonl").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return folder


def _error(capsys, folder: Path, command: str = "lint") -> str:
    args = [command, str(folder)] + (list(AT) if command != "lint" else [])
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error:" in err, err
    return err


def _line(**fields) -> str:
    return json.dumps({**EVENT, **fields})


# ---- item 5: integers past 4,300 digits, at their token ----------------------------------------


@pytest.mark.parametrize(
    ("clause", "column"),
    [
        ("expectation x { opened 2024-01-01 window " + "9" * 5000 + "d }", 42),
        ("expectation x { opened 2024-01-01 want k = 1" + "0" * 5000 + " }", 44),
        ("event e { channel commits at 2024-01-01 seq " + "9" * 5000 + " }", 45),
        ("event e { channel commits at 2024-01-01 set k = -" + "9" * 5000 + " }", 49),
    ],
)
def test_huge_integer_literals_are_bad_input_at_their_token(tmp_path, capsys, clause, column):
    err = _error(capsys, _history(tmp_path, clause))
    assert err.startswith(f"{tmp_path / 'h.ol'}:3:{column}: error: ")
    assert len(err) < 300, "the message quotes a short prefix, not 5,000 digits"


@pytest.mark.parametrize("field", ["seq", "set"])
def test_huge_json_integers_are_bad_input_at_their_line(tmp_path, capsys, field):
    number = "9" * 5000
    raw = f'"seq": {number}' if field == "seq" else f'"set": {{"k": {number}}}'
    line = '{"id": "e2", "channel": "commits", "at": "2024-01-01", ' + raw + "}"
    err = _error(capsys, _history(tmp_path, "", [_line(), line]))
    assert err.startswith(f"{tmp_path / 'events.jsonl'}:2: error: invalid JSON: an integer")


@pytest.mark.parametrize(
    ("clause", "message"),
    [
        ("set k = 2147483648", "integer must be between -2147483648 and 2147483647"),
        ("set k = -2147483649", "integer must be between -2147483648 and 2147483647"),
        ("seq 2147483647", "seq must be between 0 and 2147483646, got 2147483647"),
        ("seq ٣", "seq must be written with the digits 0-9"),
        ("set k = ٣", "integer must be written with the digits 0-9"),
    ],
)
def test_integer_range_and_digits_at_the_token(tmp_path, capsys, clause, message):
    err = _error(
        capsys, _history(tmp_path, f"event e {{ channel commits at 2024-01-01 {clause} }}")
    )
    assert err.startswith(f"{tmp_path / 'h.ol'}:3:") and message in err


def test_json_seq_at_the_32_bit_edge_is_refused_at_its_line(tmp_path, capsys):
    err = _error(capsys, _history(tmp_path, "", [_line(seq=2**31 - 1)]), "status")
    assert err.startswith(f"{tmp_path / 'events.jsonl'}:1: error: field 'seq' must be between")


def test_json_set_integer_out_of_range_is_refused(tmp_path, capsys):
    err = _error(capsys, _history(tmp_path, "", [_line(set={"k": 2**31})]))
    assert "field 'set': the value of 'k' must be between" in err


# ---- item 6: deep nesting ---------------------------------------------------------------------


def test_deeply_nested_json_line_is_bad_input(tmp_path, capsys):
    deep = '{"id": "e2", "channel": "commits", "at": "2024-01-01", "text": ' + "[" * 100_000
    deep += "]" * 100_000 + "}"
    err = _error(capsys, _history(tmp_path, "", [_line(), deep]))
    assert err.startswith(f"{tmp_path / 'events.jsonl'}:2: error: invalid JSON: nested too deeply")


def test_deeply_nested_snapshot_is_bad_input(release, tmp_path, capsys):
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text('{"state": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    assert main(["status", str(release), *AT, "--snapshot", str(snapshot)]) == 2
    assert capsys.readouterr().err == f"{snapshot}:1: error: invalid JSON: nested too deeply\n"


# ---- item 7: lone surrogates ------------------------------------------------------------------


@pytest.mark.parametrize(
    "fields",
    [
        {"text": "done \ud800"},
        {"by": "bot\udfff"},
        {"set": {"k": "v\ud800"}},
        {"set": {"k\ud800": "v"}},
        {"completes": ["x\ud800"]},
        {"kind": "\ud800"},
    ],
)
def test_lone_surrogates_are_refused_at_their_line(tmp_path, capsys, fields):
    line = json.dumps({**EVENT, "id": "e2", **fields})  # json.dumps writes them as \\udXXX
    assert "\\ud" in line
    err = _error(capsys, _history(tmp_path, "", [_line(), line]))
    assert err.startswith(f"{tmp_path / 'events.jsonl'}:2: error: ")
    assert "surrogate" in err


def test_a_surrogate_pair_is_text(tmp_path, capsys):
    line = json.dumps({**EVENT, "text": "shipped \U0001f680"})  # written as \\ud83d\\ude80
    assert main(["status", str(_history(tmp_path, "", [line])), *AT, "--format", "json"]) == 0
    assert "\U0001f680" not in capsys.readouterr().err


def test_surrogate_in_a_snapshot_is_refused(release, tmp_path, capsys):
    snapshot = tmp_path / "snapshot.json"
    snapshot.write_text('{"state": {"backup.backend": "pg\\ud800"}}', encoding="utf-8")
    assert main(["status", str(release), *AT, "--snapshot", str(snapshot)]) == 2
    assert "surrogate" in capsys.readouterr().err


# ---- item 13: JSON ids and channels are identifiers; names are one line -----------------------


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("id", "e 1"),
        ("id", "e\n1"),
        ("id", "e\x1b[1A\x1b[2Kx"),
        ("id", "1e"),
        ("id", "-e"),
        ("channel", "com mits"),
        ("channel", "commits\n"),
    ],
)
def test_json_ids_and_channels_follow_the_identifier_grammar(tmp_path, capsys, field, value):
    err = _error(capsys, _history(tmp_path, "", [_line(**{field: value})]))
    assert f"field '{field}' must be an identifier" in err
    assert "\x1b" not in err and err.count("\n") == 1


@pytest.mark.parametrize("ident", ["alice@example.com", "support-88/deploy", "a+b:c.d_e", "é1"])
def test_json_identifiers_of_the_grammar_are_accepted(tmp_path, capsys, ident):
    folder = _history(tmp_path, "", [_line(id=ident)])
    assert main(["lint", str(folder)]) == 0


@pytest.mark.parametrize("field", ["by", "kind"])
def test_json_names_hold_no_control_characters(tmp_path, capsys, field):
    err = _error(capsys, _history(tmp_path, "", [_line(**{field: "bot\nFORGED"})]))
    assert f"field '{field}' must not hold control characters" in err


def test_json_text_may_hold_newlines(tmp_path, capsys):
    folder = _history(tmp_path, "", [_line(text="line one\nline two")])
    assert main(["lint", str(folder)]) == 0


# ---- item 15: invalid UTF-8 at its real line and column --------------------------------------


def test_invalid_utf8_in_an_ol_file_is_reported_at_its_line_and_column(tmp_path, capsys):
    (tmp_path / "h.ol").write_bytes(
        PREAMBLE.encode() + 'expectation x { title "déjà '.encode() + b'\xff" }\n'
    )
    err = _error(capsys, tmp_path)
    assert err.startswith(f"{tmp_path / 'h.ol'}:3:29: error: not UTF-8 text")


def test_invalid_utf8_in_a_jsonl_file_is_reported_at_its_line(tmp_path, capsys):
    (tmp_path / "h.ol").write_text(PREAMBLE, encoding="utf-8")
    data = (_line() + "\n" + _line(id="e2") + "\n").encode() + b'{"id": "\xff"}\n'
    (tmp_path / "events.jsonl").write_bytes(data)
    err = _error(capsys, tmp_path)
    assert err.startswith(f"{tmp_path / 'events.jsonl'}:3: error: not UTF-8 text")
