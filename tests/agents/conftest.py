"""Fixtures for the agent and CI faces: a small release history and a private cache."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from agent_helpers import EVENTS, HISTORY


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
