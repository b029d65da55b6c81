"""Shared fixtures of the hardening tests: a private copy of the release history."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def release(tmp_path: Path) -> Path:
    """A copy of ``fixtures/release`` that a test may damage."""
    copy = tmp_path / "rel"
    shutil.copytree(FIXTURES / "release", copy)
    return copy
