"""Helpers for the agent and CI tests: a small release history, the real command, recorded
payloads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

PAYLOADS = Path(__file__).parent / "payloads"

#: A task whose deploy went out without confirmation (outcome unknown) and whose notes are done.
HISTORY = """
channel deploys work
channel docs work
channel agent mention       # the agents' claims: can open nothing here, and never close
actor alice principal

task release-7 {
  title "Ship release 7"
  opened 2024-01-01
  principal alice
  obligation release-7/deploy {
    title "Deploy release 7 to production"
    want deploy.prod = "7"
    verify state
    search deploys
  }
  obligation release-7/notes {
    title "Publish the release notes"
    want notes.published = "7"
    verify state
    search docs
    deadline 2024-02-01
  }
}
"""

EVENTS = [
    {
        "id": "notes-1",
        "channel": "docs",
        "seq": 1,
        "at": "2024-01-02T10:00:00Z",
        "set": {"notes.published": "7"},
    },
    {
        "id": "deploy-1",
        "channel": "deploys",
        "seq": 1,
        "at": "2024-01-03T10:00:00Z",
        "set": {"deploy.prod": "7"},
        "outcome": "unknown",
        "text": "deploy request timed out after dispatch",
    },
]


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


def payload(name: str, cwd: Path | None = None) -> str:
    """A recorded hook payload; ``$CWD`` stands for ``cwd`` and ``$TRANSCRIPTS`` for the
    recorded transcripts' folder."""
    text = (PAYLOADS / name).read_text(encoding="utf-8")
    text = text.replace("$TRANSCRIPTS", str(PAYLOADS / "transcripts"))
    return text.replace("$CWD", str(cwd)) if cwd is not None else text


def hook(host: str, history: Path, name: str, env: dict, *extra: str | Path, task="release-7"):
    """``openloop hook HOST --task TASK HISTORY`` fed a recorded payload, run from the
    history's parent folder (the payloads' ``$CWD``), without the prepared copy."""
    cwd = history.parent
    return openloop(
        "hook", host, "--task", task, history, "--no-cache", *extra,
        stdin=payload(name, cwd), env=env, cwd=cwd,
    )  # fmt: skip


def log_lines(history: Path) -> list[dict]:
    """The events of the history's log."""
    text = (history / "events.jsonl").read_text(encoding="utf-8")
    return [json.loads(line) for line in text.splitlines()]


def claims(history: Path) -> list[dict]:
    """The claims the hook recorded."""
    return [e for e in log_lines(history) if e["channel"] == "agent"]


def status_json(*paths: Path, env: dict[str, str] | None = None) -> dict:
    """``status --known latest --format json`` at now."""
    done = openloop("status", *paths, "--known", "latest", "--format", "json", env=env)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)
