"""An append in a fresh process reads only the lines added since the last append's scan (kept
in the cache folder), and the kept scan is never trusted for a log that was rewritten."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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
    ["not json", "[]", '{"format": 1, "size": 0, "digest": 5}', '{"format": 99}'],
)
def test_a_foreign_kept_scan_is_no_scan(tmp_path, document):
    log = tmp_path / "events.jsonl"
    append_event(log, {"channel": "work"})
    kept_scan._path(str(log)).write_text(document, encoding="utf-8")
    assert kept_scan.read(str(log), log.read_bytes()) is None
