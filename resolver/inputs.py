"""The files this process has read as input, so that no output ever overwrites one.

``openloop status rel -o rel/events.jsonl`` would otherwise replace the event log with a table.
The readers note every file they open here (the loader its ``.ol`` and ``.jsonl`` files, the
snapshot reader its snapshot); the output writer refuses a target that is one of them. Files are
compared by device and inode, so a symlink, a hard link or another spelling of the same path is
recognised as the same file.
"""

from __future__ import annotations

import os
from pathlib import Path

_READ: dict[tuple[int, int], str] = {}


def note(path: str | Path) -> None:
    """Record that ``path`` is being read as input (missing files are ignored)."""
    try:
        status = os.stat(path)
    except OSError:
        return
    _READ.setdefault((status.st_dev, status.st_ino), str(path))


def read_as(path: str | Path) -> str | None:
    """The name under which the file at ``path`` was read, or None if it was not an input."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return _READ.get((status.st_dev, status.st_ino))


def forget() -> None:
    """Start afresh (the command line does this before each command)."""
    _READ.clear()
