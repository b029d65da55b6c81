"""The append's view of the log read off the loaded events (resolver/agents/log_scan.py) is the
scan's exactly, or none: random logs (blank lines of any ASCII blanks, CRLF lines, repeated
records, channels with and without ``seq``, with and without ``recorded``, a last line without
its line break, rows sorted by id and not by line, loaded alone or with another log), and a claim
after ``status`` writing the same line a scan of the log would."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.agents import log_scan, warm
from resolver.agents.hook import Call, Options, judge
from resolver.errors import InputError
from resolver.ingest import record
from resolver.ingest.record import scan
from resolver.language.loader import load
from resolver.store.keys import Stamp

CLAIM = Call("claim", "TaskCompleted", "s-1")

_TIMES = st.sampled_from(
    ["2024-01-01T00:00:00Z", "2024-01-02T10:00:00Z", "2024-01-02T09:59:59Z", "2023-12-31"]
)


@st.composite
def _records(draw) -> dict:
    record = {"id": f"e-{draw(st.integers(0, 15))}", "channel": draw(st.sampled_from("abc"))}
    record["at"] = draw(_TIMES)
    if draw(st.booleans()):
        record["seq"] = draw(st.integers(0, 9))
    if draw(st.booleans()):
        record["recorded"] = draw(_TIMES)
    return record


#: Blank lines as the scan sees them (``bytes.strip`` leaves nothing), and ones it does not.
_BLANKS = st.sampled_from(["", "  ", "\t", "\r", " \x0c\x0b", "\u00a0"])


@st.composite
def _logs(draw) -> bytes:
    lines = []
    for event in draw(st.lists(_records(), max_size=12)):
        lines.extend([*draw(st.lists(_BLANKS, max_size=2)), json.dumps(event)])
        if draw(st.booleans()):
            lines[-1] += "\r"  # a CRLF line
    lines.extend(draw(st.lists(_BLANKS, max_size=2)))
    text = "".join(line + "\n" for line in lines)
    return text.encode()[: -1 if text and draw(st.booleans()) else None]


def _state(tmp: Path, data: bytes, other: bytes | None = None) -> tuple[dict | None, dict | None]:
    """(the state read off the loaded events, the scan's fields), each None when it refuses;
    with ``other``, the events of a second log are loaded with the first's."""
    log = tmp / "log.jsonl"
    log.write_bytes(data)
    logs = [str(log)]
    if other is not None:
        (tmp / "other.jsonl").write_bytes(other)
        logs.append(str(tmp / "other.jsonl"))
    try:
        scanned = scan(str(log), data)
        fields = {k: getattr(scanned, k) for k in ("lines", "ids", "last_seq", "last_recorded")}
    except InputError:
        fields = None
    try:
        events = load(logs).events
    except InputError:
        return None, fields
    return log_scan.state_of(events, str(log), data), fields  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(data=_logs())
def test_the_state_is_the_scans_or_none(tmp_path_factory, data: bytes):
    built, scanned = _state(tmp_path_factory.mktemp("log"), data)
    if built is not None:
        assert built == scanned
    if b"\xc2\xa0" in data:  # a line the loader finds blank and the scan does not
        assert built is None
        return
    distinct = [json.loads(x) for x in data.split(b"\n") if x.strip()]
    whole = not data or data.endswith(b"\n")
    if whole and len({r["id"] for r in distinct}) == len(distinct):  # nothing merged
        assert built == scanned or scanned is None


@settings(max_examples=100, deadline=None)
@given(data=_logs(), other=_logs())
def test_the_state_of_one_of_several_logs_is_its_scans_or_none(tmp_path_factory, data, other):
    """Loaded with another log, the state holds the rows of this one only."""
    built, scanned = _state(tmp_path_factory.mktemp("log"), data, other)
    if built is not None:
        assert built == scanned
    alone = _state(tmp_path_factory.mktemp("alone"), data)[0]
    try:
        theirs = {event.id for event in load([str(_written(tmp_path_factory, other))]).events}
    except InputError:
        return  # the two cannot be loaded together
    if alone is not None and not theirs & set(alone["ids"]):  # no record merged across them
        assert built == alone


def _written(tmp_path_factory, data: bytes) -> Path:
    log = tmp_path_factory.mktemp("other") / "other.jsonl"
    log.write_bytes(data)
    return log


def test_blank_lines_anywhere_are_counted_as_the_scan_counts_them(tmp_path: Path):
    event = json.dumps({"id": "a", "channel": "c", "seq": 3, "at": "2024-01-01T00:00:00Z"})
    other = json.dumps({"id": "b", "channel": "d", "at": "2024-01-02T00:00:00Z"})
    for text in (
        f"\n \n{event}\n\t\n\r\n{other}\r\n\n",
        f"{event}\n\n\n\n{other}\n",
        f" \x0c\n{other}\n{event}\n",
    ):
        built, scanned = _state(tmp_path, text.encode())
        assert built is not None and built == scanned
        assert _state(tmp_path, text.encode(), b"")[0] == scanned


def test_a_merged_record_or_a_torn_line_keeps_no_state(tmp_path: Path):
    event = json.dumps({"id": "a", "channel": "c", "at": "2024-01-01T00:00:00Z"})
    assert _state(tmp_path, f"{event}\n{event}\n".encode()) == (None, _state_of(event, 2))
    assert _state(tmp_path, event.encode())[0] is None


def _state_of(line: str, times: int) -> dict:
    fields = scan("x", (line + "\n").encode() * times)
    return {k: getattr(fields, k) for k in ("lines", "ids", "last_seq", "last_recorded")}


def test_a_changed_log_keeps_no_state(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(tmp_path / "cache"))
    log = tmp_path / "log.jsonl"
    log.write_text(json.dumps({"id": "a", "channel": "c", "at": "2024-01-01"}) + "\n")
    stamp, events = Stamp.of([str(log)]), load([str(log)]).events
    with log.open("a") as stream:
        stream.write("\n")
    log.write_bytes(log.read_bytes().replace(b'"a"', b'"b"'))  # rewritten, then grown
    assert not log_scan.keep_scan(events, stamp, log)
    assert not list((tmp_path / "cache").glob("scan-*.json"))


def test_a_claim_after_status_appends_as_a_scan_would(history: Path, tmp_path: Path, monkeypatch):
    cache = tmp_path / "cache"
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(cache))
    monkeypatch.setattr(warm, "warm_in_background", lambda *args, **kwargs: None)
    env = {**os.environ, "OPENLOOP_CACHE_DIR": str(cache)}
    command = [sys.executable, "-m", "resolver", "status", str(history)]
    assert subprocess.run(command, env=env, capture_output=True, check=False).returncode in (0, 1)
    log = history / "events.jsonl"
    before = log.read_bytes()
    scanned: list[bytes] = []
    monkeypatch.setattr(
        record, "scan", lambda name, data, *a: scanned.append(data) or scan(name, data, *a)
    )
    decision = judge(CLAIM, Options("release-7", [history], at=1_800_000_000))
    assert scanned == [b""]  # the append read no line: the state was read off the loaded events
    written = _lines(log.read_bytes()[len(before) :])
    log.write_bytes(before)
    for path in cache.glob("scan-*.json"):
        path.unlink()
    plain = judge(CLAIM, Options("release-7", [history], use_cache=False, at=1_800_000_000))
    assert scanned[-1] == before  # this one scanned the log
    assert _lines(log.read_bytes()[len(before) :]) == written  # the same id, seq and times
    assert (decision.claim, decision.reason) == (plain.claim, plain.reason)


def _lines(data: bytes) -> list[dict]:
    """The records of ``data``, without ``recorded`` (when the append ran)."""
    return [{k: v for k, v in json.loads(x).items() if k != "recorded"} for x in data.splitlines()]


def test_a_claim_on_a_stored_group_reads_no_line_either(history: Path, tmp_path: Path, monkeypatch):
    """The task's group answered from the store (its entry written before, no append's scan
    kept): the columns the store kept are those of the log's bytes, so the append's state is
    read off them too, rather than every line decoded again."""
    from resolver.agents.identity import DEFAULT_IDENTITY, prepare_as
    from resolver.ingest import kept_scan

    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(warm, "warm_in_background", lambda *args, **kwargs: None)
    prepare_as([history], DEFAULT_IDENTITY, True, scope="release-7")  # the group's entry
    log = history / "events.jsonl"
    assert not kept_scan.exists(str(log))
    scanned: list[bytes] = []
    monkeypatch.setattr(
        record, "scan", lambda name, data, *a: scanned.append(data) or scan(name, data, *a)
    )
    before = log.read_bytes()
    judge(CLAIM, Options("release-7", [history], at=1_800_000_000))
    assert scanned == [b""]
    written = _lines(log.read_bytes()[len(before) :])
    log.write_bytes(before)
    for path in (tmp_path / "cache").glob("scan-*.json"):
        path.unlink()
    judge(CLAIM, Options("release-7", [history], use_cache=False, at=1_800_000_000))
    assert _lines(log.read_bytes()[len(before) :]) == written
