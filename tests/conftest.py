"""Shared test histories: the bundled fixtures, prepared once per test session.

Tests that read a fixture's verdicts ask for it by name (``release``, ``support_base``) instead
of preparing it again; small made-up histories live in ``tests/helpers.py`` (``prepare_text``)
and, as integer facts, in ``tests/rules/``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from resolver import api
from resolver.engine.prepared import Prepared

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


@pytest.fixture(scope="session")
def release() -> Prepared:
    """``fixtures/release``: backups owed before release 024, a false completion by bot-7."""
    return api.prepare([FIXTURES / "release"])


@pytest.fixture(scope="session")
def support_base() -> Prepared:
    """``fixtures/support-mission/base``: task support-88 with an agent's false "resolved"."""
    return api.prepare([FIXTURES / "support-mission" / "base"])
