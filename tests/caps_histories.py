"""Small histories for the output caps: one busy expectation, proposals, many expectations."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PREAMBLE = """
channel sessions mention
channel commits work
actor alice principal
"""

BACKUPS = """
expectation backups {
  title "Move the nightly backups to PostgreSQL"
  opened_by s1
  want backup.backend = "PostgreSQL"
}
event s1 { channel sessions at 2024-01-01 by alice text "Move the nightly backups to PostgreSQL" }
"""


def _at(number: int) -> str:
    return f"2024-01-02T{number // 60:02d}:{number % 60:02d}"


def busy(rejected: int, proposals: int = 0, satisfied: bool = False) -> str:
    """``backups`` with ``rejected`` commits that touch it and close nothing (no done-style
    claim), ``proposals`` cancels by bob (no authority), and optionally a closing commit."""
    lines = [PREAMBLE, BACKUPS]
    for n in range(1, rejected + 1):
        lines.append(
            f"event c{n:03d} {{ channel commits seq {n} at {_at(n)} by bob "
            f'text "Tune the nightly backups schedule, step {n}" }}'
        )
    for n in range(1, proposals + 1):
        lines.append(
            f"event p{n:03d} {{ channel commits at {_at(600 + n)} by bob cancels backups }}"
        )
    if satisfied:
        lines.append(
            f'event done {{ channel commits at {_at(900)} by bob text "Switch to pg_dump" '
            'set backup.backend = "PostgreSQL" }'
        )
    return "\n".join(lines) + "\n"


def many(count: int) -> str:
    """``count`` expectations, each opened by its own session and satisfied by its own commit."""
    lines = [PREAMBLE]
    for n in range(count):
        lines.append(
            f'expectation x{n:03d} {{ title "Item {n}" opened_by o{n:03d} want k{n} = "done" }}\n'
            f'event o{n:03d} {{ channel sessions at {_at(n)} by alice text "Item {n}" }}\n'
            f'event d{n:03d} {{ channel commits at {_at(300 + n)} by bob set k{n} = "done" }}'
        )
    return "\n".join(lines) + "\n"


def write(folder: Path, text: str) -> Path:
    """The history in ``folder/history.ol``; the folder is returned."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "history.ol").write_text(text, encoding="utf-8")
    return folder


AT = ["--at", "2024-02-01"]


def openloop(*arguments: str) -> subprocess.CompletedProcess:
    """The real command in a subprocess."""
    return subprocess.run(
        [sys.executable, "-m", "resolver", *arguments], capture_output=True, text=True, check=False
    )


def status_json(folder: Path, *extra: str) -> dict:
    """``openloop status --format json`` of a history, parsed."""
    done = openloop("status", str(folder), *AT, "--format", "json", *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
