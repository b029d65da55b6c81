"""Waiting for the hook's detached warm-up children before a measurement moves on.

After a claim (or a stop that claims nothing) the hook leaves a detached child that prepares the
next question and writes the store. A measurement that times the next call, restores a cache
folder or removes its scratch folder must first let that child end: else the next call races
with it, or the child writes into a folder being removed.
"""

from __future__ import annotations

import os
import time
from pathlib import Path


def settle(history: Path, limit: float = 30.0) -> None:
    """Wait until no process works on ``history`` (a warm-up child keeps the hook's command
    line, which names it); on a system without ``/proc``, wait ``limit`` / 10 seconds."""
    proc = Path("/proc")
    if not proc.is_dir():
        time.sleep(limit / 10)
        return
    deadline = time.monotonic() + limit
    mine = str(os.getpid())
    named = str(history).encode()
    while time.monotonic() < deadline:
        busy = False
        for entry in proc.iterdir():
            if not entry.name.isdigit() or entry.name == mine:
                continue
            try:
                line = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if named in line and b"hook" in line:
                busy = True
                break
        if not busy:
            return
        time.sleep(0.05)
    raise SystemExit(f"a warm-up child still runs after {limit} s")
