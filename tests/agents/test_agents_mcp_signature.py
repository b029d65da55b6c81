"""The MCP server tells a changed file from an unchanged one without hashing every byte at
every call: a file's state (inode, size, modification and change times) stands for its bytes,
except while it is too recent for the kernel's clock tick to tell two writes apart."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

pytest.importorskip("mcp")

from resolver.agents import mcp_server
from resolver.agents.mcp_server import History

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture
def history(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, list[int]]:
    folder = tmp_path / "release"
    shutil.copytree(FIXTURES / "release", folder)
    hashed: list[int] = []
    real = mcp_server.signature

    def counting(files):
        hashed.append(len(files))
        return real(files)

    monkeypatch.setattr(mcp_server, "signature", counting)
    return folder, hashed


def test_unchanged_files_are_hashed_once(history, monkeypatch):
    folder, hashed = history
    monkeypatch.setattr(mcp_server, "_RACY_NS", 0)  # the files just written count as settled
    server = History([folder])
    first = server.current()
    assert server.current() is first and server.any_current() is first
    assert len(hashed) == 1


def test_a_same_size_edit_with_its_modification_time_restored_is_seen(history, monkeypatch):
    folder, hashed = history
    monkeypatch.setattr(mcp_server, "_RACY_NS", 0)
    server = History([folder])
    first = server.current()
    log = next(folder.glob("*.jsonl"))
    before = log.stat()
    time.sleep(0.05)  # past the kernel's clock tick
    text = log.read_text(encoding="utf-8")
    log.write_text(text.replace("PostgreSQL", "PostgreSQl", 1), encoding="utf-8")
    os.utime(log, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert log.stat().st_size == before.st_size
    assert server.current() is not first  # the change time moved: hashed, and prepared again
    assert len(hashed) == 2


def test_a_file_changed_within_the_last_moments_is_hashed_at_every_call(history):
    folder, hashed = history
    server = History([folder])
    (folder / "events.jsonl").touch()  # its change time is now
    server.current()
    server.current()
    assert len(hashed) == 3  # at start, and at both calls
