"""Timing tests of this folder that must be slow run only when asked: ``pytest -m slow``."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip this folder's ``slow`` tests unless the marker expression names ``slow``."""
    if "slow" in (config.option.markexpr or ""):
        return
    skip = pytest.mark.skip(reason="prepares a 100k history: run with -m slow")
    here = __file__.rsplit("/", 1)[0]
    for item in items:
        if item.get_closest_marker("slow") and str(item.fspath).startswith(here):
            item.add_marker(skip)
