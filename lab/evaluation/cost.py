"""Derivation cost per query, measured on the benchmark's synthetic histories.

The open-loops study reports that deriving status from the full history costs about 22 ms per
query at ten thousand events, growing linearly. Here a query is what ``openloop status``
asks at one standpoint: every verdict with its key reasons and a count of the rest. It is
measured two ways: over a prepared history (the standpoint part only, what a long-running
service pays per question) and from scratch (load, prepare and resolve: what a one-shot command
pays). Both are CPU seconds of this process, the clock ``python -m lab bench`` uses
(:mod:`lab.bench.cpu`), so the two commands report the same figure for the same work on a
shared machine, where wall time moves with other jobs. Sizes below the largest show how the
cost grows. The figures are whatever this machine measures; nothing is asserted about them.
"""

from __future__ import annotations

import random
import statistics
import tempfile
from collections.abc import Sequence
from pathlib import Path

from lab.bench.cpu import cpu_seconds
from lab.bench.generate import ensure
from lab.evaluation.rows import Row
from resolver import api

#: The study's figure, in milliseconds per query at 10k events.
SEED_MS = 22.0
SIZES = (2_500, 5_000, 10_000)


def measure(events: int, folder: Path, queries: int = 5, seed: int = 0) -> dict[str, float]:
    """Milliseconds per query (prepared and from scratch) on a generated history."""
    history = ensure(folder / f"h{events}", events, seed=seed)
    prepared = None

    def from_scratch() -> None:
        nonlocal prepared
        prepared = api.prepare(history.paths)
        api.status(prepared, at=history.last_at, every_reason=False)

    cold = cpu_seconds(from_scratch)
    rng = random.Random(seed + 1)
    warm = []
    for _ in range(queries):
        instant = rng.randrange(history.first_at, history.last_at + 1)
        warm.append(cpu_seconds(lambda i=instant: api.status(prepared, at=i, every_reason=False)))
    return {
        "events": events,
        "expectations": history.expectations,
        "query_ms": statistics.median(warm) * 1000,
        "scratch_ms": cold * 1000,
    }


def row(sizes: Sequence[int] = SIZES, queries: int = 5) -> Row:
    """The cost row: per-query time at the largest size, and its growth from the smallest."""
    with tempfile.TemporaryDirectory(prefix="openloop-eval-") as folder:
        figures = [measure(n, Path(folder), queries) for n in sizes]
    largest, smallest = figures[-1], figures[0]
    growth = largest["query_ms"] / smallest["query_ms"] if smallest["query_ms"] else 0.0
    size_growth = largest["events"] / smallest["events"]
    measured = (
        f"{largest['query_ms']:.0f} ms CPU per query prepared, "
        f"{largest['scratch_ms']:.0f} ms CPU from scratch (key reasons, as status asks)"
    )
    notes = tuple(
        f"{f['events']:,} events, {f['expectations']} expectations: "
        f"{f['query_ms']:.1f} ms CPU per query, {f['scratch_ms']:.0f} ms CPU from scratch"
        for f in figures
    )
    notes += (
        "CPU seconds of one process (the clock python -m lab bench uses), median of the queries; "
        f"the study's {SEED_MS:.0f} ms is its own machine's figure for its own encoding",
    )
    if len(figures) > 1:
        notes += (f"per-query time grew {growth:.1f}x while the history grew {size_growth:.0f}x",)
    return Row(
        "Maintained vs derived",
        f"Derivation cost per query at {largest['events']:,} events",
        f"about {SEED_MS:.0f} ms, linear",
        measured,
        "synthetic (the lab bench's generator, seed 0)",
        None,
        largest["query_ms"],
        notes,
    )
