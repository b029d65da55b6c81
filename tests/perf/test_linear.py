"""Rendering grows with the history, not faster: ``status --format json`` of a 20k and a 100k
history, measured in one run, CPU time per event within 1.5x of each other.

A ratio of two measurements taken in one run, never an absolute time (the machine is shared).
Slow (it prepares a 100k history): ``pytest -m slow tests/perf``.
"""

from __future__ import annotations

import gc
import time
from pathlib import Path

import pytest

from lab.bench.generate import default_expectations, ensure
from resolver import api
from resolver.cli.common import keep_loaded
from resolver.engine.prepared import Standpoint
from resolver.faces import json_format
from resolver.verdicts.resolution import read

SIZES = (20_000, 100_000)


def render_cpu(folder: Path, events: int) -> float:
    """Best of three CPU times of reading one standpoint's atoms and rendering the JSON."""
    history = ensure(folder, events, default_expectations(events), 0)
    prepared = api.prepare(history.paths)
    keep_loaded()  # as every command does once the history is loaded
    end = max(e.at for e in prepared.project.events)
    point = Standpoint(end, end)
    atoms = prepared.solve(point)
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        text = json_format.render(read(prepared, point, atoms), prepared.project)
        best = min(best, time.process_time() - started)
    gc.unfreeze()
    assert text.count('"status"') >= default_expectations(events)
    return best


@pytest.mark.slow
def test_status_json_rendering_is_linear(tmp_path: Path):
    small, large = (render_cpu(tmp_path / str(n), n) for n in SIZES)
    ratio_of_ratios = (large / SIZES[1]) / (small / SIZES[0])
    assert ratio_of_ratios <= 1.5, (small, large, ratio_of_ratios)
