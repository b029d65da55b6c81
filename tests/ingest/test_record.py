"""``openloop record`` and ``append_event``: validation, seq, locking, kills and torn lines."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from resolver.cli.main import main
from resolver.errors import InputError
from resolver.ingest.record import append_event, append_lines
from resolver.language.eventlog import read_jsonl

_WRITER = """
import sys
from resolver.ingest.record import append_event
log, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
for i in range(count):
    append_event(log, {"channel": "ch" + str(i % 3), "by": name, "text": name + " " + str(i) * 40})
"""


def _lines(path: Path) -> list[dict]:
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n"), "the log ends in a torn line"
    return [json.loads(line) for line in data.decode("utf-8").splitlines()]


def test_fills_seq_id_and_times_and_validates(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    first = append_event(log, {"channel": "agents", "by": "bot-7", "completes": "x"})
    second = append_event(log, {"channel": "agents", "at": "2024-08-27T10:00+02:00"})
    other = append_event(log, {"channel": "ci", "text": "green"})
    assert (first["id"], first["seq"], first["completes"]) == ("agents-1", 1, ["x"])
    assert (second["id"], second["seq"], second["at"]) == ("agents-2", 2, "2024-08-27T08:00:00Z")
    assert second["recorded"] != second["at"]  # recorded is when the log learned of it: now
    assert (other["id"], other["seq"]) == ("ci-1", 1)
    assert first["at"] == first["recorded"]
    events = read_jsonl(log)
    assert [e.id for e in events] == ["agents-1", "agents-2", "ci-1"]


def test_next_seq_follows_the_highest_in_the_channel(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"id": "c-9", "channel": "c", "seq": 41, "at": "2024-01-01"}\n')
    assert append_event(log, {"channel": "c"})["seq"] == 42


def test_a_log_rewritten_in_place_is_read_anew(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "c"})
    append_event(log, {"channel": "c"})
    with log.open("w") as stream:  # same file, new content (an editor saving in place)
        stream.write('{"id": "x-1", "channel": "c", "seq": 41, "at": "2024-01-01T00:00:00Z"}\n')
    assert append_event(log, {"channel": "c"})["seq"] == 42
    with log.open("a") as stream:  # another writer appends without the lock's help
        stream.write('{"id": "x-2", "channel": "c", "seq": 50, "at": "2024-01-01T00:00:00Z"}\n')
    assert append_event(log, {"channel": "c"})["seq"] == 51


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"channel": "c", "complete": ["x"]}, "unknown field 'complete'"),
        ({"channel": "c", "at": "yesterday"}, "field 'at'"),
        ({"channel": "c", "outcome": "maybe"}, "field 'outcome'"),
        ({"by": "bob"}, "missing required field 'channel'"),
        ({"channel": "c", "seq": 2**40}, "field 'seq'"),
    ],
)
def test_invalid_events_are_refused_and_nothing_is_written(
    tmp_path: Path, event: dict, message: str
) -> None:
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "c"})
    before = log.read_bytes()
    with pytest.raises(InputError) as caught:
        append_event(log, event)
    assert str(caught.value).startswith(f"{log}:2: error: ")
    assert message in str(caught.value)
    assert log.read_bytes() == before


def test_a_retried_append_is_not_written_twice_but_a_conflict_is_an_error(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    event = {"id": "claim-1", "channel": "agents", "at": "2024-08-27T10:00", "by": "bot"}
    written = append_event(log, event)
    assert append_event(log, dict(event)) == written
    assert len(_lines(log)) == 1
    with pytest.raises(InputError, match="already in the log \\(line 1\\) with a different by"):
        append_event(log, {**event, "by": "alice"})


def test_a_torn_last_line_is_reported_never_dropped_or_overwritten(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "c"})
    with log.open("ab") as stream:
        stream.write(b'{"id": "half", "chan')
    before = log.read_bytes()
    with pytest.raises(InputError, match=f"^{log}:2: error: the last line is incomplete"):
        append_event(log, {"channel": "c"})
    assert log.read_bytes() == before


def test_a_line_that_is_not_json_is_reported_with_its_number(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"id": "a", "channel": "c", "at": "2024-01-01"}\n\nnot json\n')
    with pytest.raises(InputError, match=f"^{log}:3: error: invalid JSON"):
        append_event(log, {"channel": "c"})


def test_append_lines_skips_ids_already_present(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    a = {"id": "a", "channel": "c", "seq": 1, "at": "2024-01-01T00:00:00Z"}
    b = {"id": "b", "channel": "c", "seq": 2, "at": "2024-01-02T00:00:00Z"}
    assert append_lines(log, [a]) == ["a"]
    assert append_lines(log, [a, b]) == ["b"]
    with pytest.raises(InputError, match=f"^{log}:4: error: unknown field 'bogus'"):
        append_lines(log, [{**b, "id": "c"}, {**b, "id": "d", "bogus": 1}])
    assert [e["id"] for e in _lines(log)] == ["a", "b"]  # nothing of the bad batch
    assert [e["id"] for e in _lines(log)] == ["a", "b"]


def test_eight_processes_times_two_hundred_lose_and_interleave_nothing(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    writers = [
        subprocess.Popen([sys.executable, "-c", _WRITER, str(log), f"w{n}", "200"], env=env)
        for n in range(8)
    ]
    assert [w.wait(timeout=120) for w in writers] == [0] * 8
    lines = _lines(log)
    assert len(lines) == 1600
    assert Counter(line["by"] for line in lines) == {f"w{n}": 200 for n in range(8)}
    per_channel: dict[str, list[int]] = {}
    for line in lines:
        per_channel.setdefault(line["channel"], []).append(line["seq"])
    for seqs in per_channel.values():
        assert seqs == list(range(1, len(seqs) + 1))  # unique, gapless, in file order
    assert len({line["id"] for line in lines}) == 1600
    assert len(read_jsonl(log)) == 1600  # the reader accepts every line


def test_a_writer_killed_at_random_moments_never_leaves_a_torn_line(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    chance = random.Random(12)
    for round_ in range(12):
        size = log.stat().st_size if log.exists() else 0
        writer = subprocess.Popen(
            [sys.executable, "-c", _WRITER, str(log), f"k{round_}", "100000"], env=env
        )
        deadline = time.monotonic() + 60
        while (log.stat().st_size if log.exists() else 0) == size:  # wait until it writes
            assert writer.poll() is None and time.monotonic() < deadline
            time.sleep(0.01)
        time.sleep(chance.random() * 0.2)  # then kill it at a random moment of its writing
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        lines = _lines(log)  # every line whole, the file ends with its newline
        seqs = [(line["channel"], line["seq"]) for line in lines]
        assert len(seqs) == len(set(seqs))
    assert len(_lines(log)) > 0
    after = append_event(log, {"channel": "ch0"})  # the log stays appendable
    assert after["seq"] == max(x["seq"] for x in _lines(log)[:-1] if x["channel"] == "ch0") + 1


def test_cli_prints_the_id_and_writes_the_options(tmp_path: Path, capsys) -> None:
    log = tmp_path / "events.jsonl"
    code = main(
        [
            "record", str(log), "--channel", "agents", "--by", "bot-7", "--kind", "deploy",
            "--text", "Deployed", "--set", "deploy.staging=done", "--claims-complete", "a,b",
            "--completes", "c", "d", "--at", "2024-08-27T10:00", "--outcome", "unknown",
        ]
    )  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out == "agents-1\n"
    (line,) = _lines(log)
    assert line["set"] == {"deploy.staging": "done"}
    assert line["claims_complete"] == ["a", "b"]
    assert line["completes"] == ["c", "d"]
    assert (line["kind"], line["outcome"], line["at"]) == (
        "deploy",
        "unknown",
        "2024-08-27T10:00:00Z",
    )


def test_cli_bad_input_exits_2_with_a_located_message(tmp_path: Path, capsys) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"id": "a", "channel": "c", "at": "2024-01-01"}\n{"id"')
    assert main(["record", str(log), "--channel", "c", "--by", "x"]) == 2
    assert capsys.readouterr().err.startswith(f"{log}:2: error: the last line is incomplete")
    assert main(["record", str(log), "--channel", "c", "--by", "x", "--set", "novalue"]) == 2


def test_a_record_cannot_rewrite_what_the_log_knew(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    first = {"id": "a", "channel": "c", "at": "2024-01-01T00:00:00Z"}
    append_event(log, {**first, "recorded": "2024-01-05T00:00:00Z"})
    before = log.read_bytes()
    for event, words in [
        ({"channel": "c", "recorded": "2024-01-04T23:59:59Z"}, "earlier than the latest recorded"),
        ({"channel": "c", "seq": 1}, "not the next number of channel 'c' (2)"),
        ({"channel": "c", "seq": 3}, "not the next number of channel 'c' (2)"),
    ]:
        with pytest.raises(InputError, match=re.escape(words)):
            append_event(log, event)
    assert log.read_bytes() == before
    same = append_event(log, {"channel": "c", "seq": 2, "recorded": "2024-01-05T00:00:00Z"})
    assert same["seq"] == 2  # the next seq, and a recorded equal to the latest, are fine
    assert append_event(log, {"channel": "d", "seq": 1})["seq"] == 1  # a new channel starts at 1


def test_a_line_without_recorded_was_recorded_at_its_at(tmp_path: Path) -> None:
    log = tmp_path / "events.jsonl"
    log.write_text('{"id": "x", "channel": "c", "seq": 1, "at": "2030-01-01T00:00:00Z"}\n')
    with pytest.raises(InputError, match="earlier than the latest recorded"):
        append_event(log, {"channel": "c", "recorded": "2029-12-31T00:00:00Z"})


def test_record_evidence_is_written_as_a_list(tmp_path: Path, capsys) -> None:
    log = tmp_path / "events.jsonl"
    args = ["record", str(log), "--channel", "agent", "--by", "bot", "--claims-complete", "t"]
    assert main([*args, "--evidence", "e-1,e-2", "e-3"]) == 0
    assert _lines(log)[0]["evidence"] == ["e-1", "e-2", "e-3"]
