"""Benchmarking openloop on synthetic histories.

``generate`` writes a deterministic synthetic project (an ``.ol`` file of declarations and a
``.jsonl`` event log) of any size; ``harness`` measures reading, loading, preparing and resolving
it, each size in a fresh process so that peak memory is per size. ``python -m lab bench`` is the
command line front of both.

>>> from lab.bench import generate
>>> history = generate("bench/data/demo", events=1000, seed=1)   # doctest: +SKIP
>>> [p.name for p in history.paths]                             # doctest: +SKIP
['project.ol', 'events.jsonl']
"""

from lab.bench.generate import History, generate, history_paths

__all__ = ["History", "generate", "history_paths"]
