"""Helpers for the agent and CI tests: run the real command, read recorded payloads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PAYLOADS = Path(__file__).parent / "payloads"


def openloop(
    *args: str | Path, stdin: str | None = None, env: dict[str, str] | None = None, cwd=None
) -> subprocess.CompletedProcess:
    """Run the real command in a fresh process."""
    return subprocess.run(
        [sys.executable, "-m", "resolver", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
    )


def payload(name: str) -> str:
    """A recorded hook payload."""
    return (PAYLOADS / name).read_text(encoding="utf-8")


def status_json(*paths: Path, env: dict[str, str] | None = None) -> dict:
    """``status --known latest --format json`` at now."""
    done = openloop("status", *paths, "--known", "latest", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
