"""Shared test histories, and the markers each folder's tests carry.

Tests that read a fixture's verdicts ask for it by name (``release``, ``support_base``) instead
of preparing it again; small made-up histories live in ``tests/helpers.py`` (``prepare_text``)
and, as integer facts, in ``tests/rules/``.

The folders mirror the package (``language/``, ``facts/``, ``engine/``, ``verdicts/``,
``faces/``, ``cli/``, ...), beside ``rules/``, ``golden/``, ``properties/`` and ``hardening/``.
Every test under ``rules/`` is marked ``rules``, and every test under ``properties/`` or driven
by hypothesis anywhere is marked ``properties``, so ``-m rules`` or ``-m "not properties"``
selects by what a test covers rather than by file.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from resolver import api
from resolver.engine.prepared import Prepared

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
TESTS = Path(__file__).resolve().parent
#: Folder under tests/ → the marker its tests carry.
FOLDER_MARKERS = {"rules": "rules", "properties": "properties"}


def pytest_configure(config: pytest.Config) -> None:
    """Give the run a cache folder of its own (each xdist worker its own), removed at the end.

    Commands and hooks keep their store under ``$OPENLOOP_CACHE_DIR``. Without this the suite
    filled the user's ``~/.cache/openloop`` with an entry per temporary history, and a run could
    read an entry a run of other code had left there."""
    folder = tempfile.mkdtemp(prefix="openloop-test-cache-")
    config._openloop_cache = folder  # type: ignore[attr-defined]
    os.environ["OPENLOOP_CACHE_DIR"] = folder


def pytest_unconfigure(config: pytest.Config) -> None:
    """Remove the run's cache folder (a detached warm-up child may still be writing in it)."""
    folder = getattr(config, "_openloop_cache", None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by what it covers: its folder, or hypothesis driving it."""
    for item in items:
        path = Path(str(item.path))
        if path.is_relative_to(TESTS):
            folder = path.relative_to(TESTS).parts[0]
            if folder in FOLDER_MARKERS:
                item.add_marker(FOLDER_MARKERS[folder])
        if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
            item.add_marker("properties")


@pytest.fixture(scope="session")
def release() -> Prepared:
    """``fixtures/release``: backups owed before release 024, a false completion by bot-7."""
    return api.prepare([FIXTURES / "release"])


@pytest.fixture(scope="session")
def support_base() -> Prepared:
    """``fixtures/support-mission/base``: task support-88 with an agent's false "resolved"."""
    return api.prepare([FIXTURES / "support-mission" / "base"])
