"""An append in a fresh process reads only the lines added since the last append's scan (kept
in the cache folder), and the kept scan is never trusted for a log that was rewritten."""

from __future__ import annotations

import hashlib
import json
from array import array
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from resolver.ingest import kept_scan, record
from resolver.ingest.record import append_event


@pytest.fixture(autouse=True)
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("OPENLOOP_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _fresh_process(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Forget this process's scans, as a new process would, and count the bytes scanned."""
    record._SCANNED.clear()
    scanned: list[int] = []
    real = record.scan

    def counting(name, data, state=None):
        scanned.append(len(data))
        return real(name, data, state)

    monkeypatch.setattr(record, "scan", counting)
    return scanned


def test_a_new_process_scans_only_the_lines_added(tmp_path, monkeypatch):
    log = tmp_path / "events.jsonl"
    for n in range(20):
        append_event(log, {"channel": "work", "text": f"event {n}"})
    extra = json.dumps({"id": "z1", "channel": "work", "seq": 21, "at": "2030-01-01"}) + "\n"
    with log.open("a", encoding="utf-8") as stream:  # written by another tool
        stream.write(extra)
    scanned = _fresh_process(monkeypatch)
    written = append_event(log, {"channel": "work", "text": "after"})
    assert written["seq"] == 22  # the line the other tool added was read
    assert scanned == [len(extra.encode())]
    kept = kept_scan.read(str(log), log.read_bytes())
    assert kept is not None and kept[0] == log.stat().st_size
    assert kept[1]["ids"]["z1"] == 21 and kept[1]["lines"] == 22  # its id is known too


def test_a_rewritten_log_is_scanned_whole(tmp_path, monkeypatch):
    log = tmp_path / "events.jsonl"
    for n in range(5):
        append_event(log, {"channel": "work", "text": f"event {n}"})
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:2]), encoding="utf-8")  # shorter: the kept scan is too long
    scanned = _fresh_process(monkeypatch)
    assert append_event(log, {"channel": "work"})["seq"] == 3
    assert scanned == [len("".join(lines[:2]).encode())]
    same_size = log.read_bytes().replace(b"event 0", b"event 9")  # same size, other bytes
    log.write_bytes(same_size)
    scanned = _fresh_process(monkeypatch)
    append_event(log, {"channel": "work"})
    assert scanned == [len(same_size)]


@pytest.mark.parametrize(
    "document",
    ["not json", "[]", '{"format": 2, "size": 0, "digest": 5}', '{"format": 99}'],
)
def test_a_foreign_kept_scan_is_no_scan(tmp_path, document):
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "work"})
    kept_scan._path(str(log)).write_text(document, encoding="utf-8")
    assert kept_scan.read(str(log), log.read_bytes()) is None


@pytest.mark.parametrize(
    "change",
    [
        {"format": 1, "ids": {"work-1": 1}},  # the earlier shape: one object
        {"ids": ["work-1", "work-1"], "id_lines": [1, 1]},  # an id twice
        {"ids": ["work-1"], "id_lines": [1, 2]},  # lists of two lengths
        {"ids": ["work-1"], "id_lines": [True]},  # a line number that is no integer
        {"ids": [1], "id_lines": [1]},  # an id that is no string
        {"ids": {"work-1": 1}},
        {"id_lines": None},
        {"lines": "1"},
        {"last_seq": {"work": 1.5}},
        {"last_recorded": "2024"},
    ],
)
def test_a_kept_scan_read_field_by_field(tmp_path, change):
    """The scan an append kept is read back as the append's state; any field of another shape
    leaves it unread (the next append scans the log)."""
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "work"})
    path = kept_scan._path(str(log))
    document = json.loads(path.read_text(encoding="utf-8"))
    kept = kept_scan.read(str(log), log.read_bytes())
    assert kept is not None and kept[1]["ids"] == {"work-1": 1} and kept[1]["lines"] == 1
    assert kept == kept_scan.read(str(log), log.read_bytes(), hashlib.sha256(log.read_bytes()))
    path.write_text(json.dumps({**document, **change}), encoding="utf-8")
    assert kept_scan.read(str(log), log.read_bytes()) is None


def test_a_digest_of_other_bytes_is_no_match(tmp_path):
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "work"})
    assert kept_scan.read(str(log), log.read_bytes(), hashlib.sha256(b"other")) is None


_KEYS = st.sampled_from([f"e-{n}" for n in range(12)])
_STEPS = st.lists(
    st.tuples(st.sampled_from(["in", "get", "setdefault", "set", "del", "lists"]), _KEYS),
    max_size=30,
)


@settings(max_examples=200, deadline=None)
@given(base=st.dictionaries(_KEYS, st.integers(1, 99), max_size=8), steps=_STEPS)
def test_line_ids_behave_as_the_dict(base: dict[str, int], steps: list[tuple[str, str]]):
    """The lists an append's state is handed (kept_scan.LineIds) answer every look-up and
    change as the dict of the same ids would, before and after it builds that dict."""
    lazy, model = kept_scan.LineIds(list(base), array("q", base.values())), dict(base)
    for number, (step, key) in enumerate(steps, start=100):
        if step == "in":
            assert (key in lazy) == (key in model)
        elif step == "get":
            assert lazy.get(key) == model.get(key)
        elif step == "setdefault":
            assert lazy.setdefault(key, number) == model.setdefault(key, number)
        elif step == "set":
            lazy[key] = model[key] = number
        elif step == "del" and key in model:
            del lazy[key], model[key]
        elif step == "lists":
            assert lazy.lists() == (list(model), list(model.values()))
        assert len(lazy) == len(model) and list(lazy) == list(model)
    assert lazy == model and dict(lazy.items()) == model
