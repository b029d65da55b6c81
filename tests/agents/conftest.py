"""Fixtures for the agent and CI faces: a small release history and a private cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

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


@pytest.fixture
def history(tmp_path: Path) -> Path:
    """A folder with ``release.ol`` and ``events.jsonl``."""
    folder = tmp_path / "history"
    folder.mkdir()
    (folder / "release.ol").write_text(HISTORY, encoding="utf-8")
    lines = "".join(json.dumps(e) + "\n" for e in EVENTS)
    (folder / "events.jsonl").write_text(lines, encoding="utf-8")
    return folder


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """The environment for the CLI: a private cache folder, no step summary."""
    values = dict(os.environ)
    values["OPENLOOP_CACHE_DIR"] = str(tmp_path / "cache")
    values.pop("GITHUB_STEP_SUMMARY", None)
    return values
