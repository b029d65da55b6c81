"""Measuring openloop on synthetic histories: floor, cold, warm, peak memory, and the targets.

For each size, the parent process generates (or reuses) a history with
:mod:`lab.bench.generate`, then runs the measurement in a fresh interpreter
(``python -m lab.bench.harness SPEC``) so that peak RSS belongs to that size alone and no
clingo symbols or caches leak from one size into the next. Inside that process:

* ``floor``: read the ``.jsonl`` log with the standard ``json`` module, line by line: the cost
  of merely reading the history, which any tool pays;
* ``cold``: ``loader.load`` of the ``.ol`` and ``.jsonl`` files, ``Prepared`` (facts
  and the standpoint-independent grounding), and ``resolve`` at the end of the history with
  every expectation: what one ``openloop status`` does after start-up;
* ``warm``: one more standpoint on the prepared history, at random instants within its span;
* ``peak_rss``: ``ru_maxrss`` of the measuring process.

``floor`` and ``cold`` are the medians of ``runs`` runs, ``warm`` the median over
``standpoints`` standpoints. Ratios to the floor make numbers comparable across machines. The
targets (``TARGETS``) are the project's performance goals, reported as PASS or MISS, never enforced.
Wall-clock times are what the targets speak of; CPU times (``process_time``) are reported beside
them in ``phases`` because on a shared machine they are the steadier number.

This module is the parent's side (generate, spawn, collect) and the measuring process's entry
point; the measurement itself is :mod:`lab.bench.measure`, the targets' verdicts
:mod:`lab.bench.targets`, the text table :mod:`lab.bench.table`.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import lab
import resolver
from lab.bench import ingest_bench, ledger_bench, policy_bench
from lab.bench import rows as user_facing
from lab.bench.generate import default_expectations, ensure
from lab.bench.measure import _peak_rss_mb, label_of, log, measure
from lab.bench.table import table
from lab.bench.targets import TARGETS, failed, finish, settle

#: Re-exported: the command and the tests read these from here.
__all__ = ["DEFAULT_SIZES", "MILLION", "TARGETS", "Options", "finish", "run", "settle", "table"]
_failed = failed

DEFAULT_SIZES = (10_000, 100_000)
MILLION = 1_000_000


@dataclass(frozen=True)
class Options:
    """What to measure; mirrors the command's options."""

    sizes: tuple[int, ...] = DEFAULT_SIZES
    expectations: int | None = None
    runs: int = 3
    standpoints: int = 7
    seed: int = 0
    data: Path | None = None
    timeout: float | None = None
    memory_limit_mb: int | None = 16_384
    profile: Path | None = None
    #: The user-facing rows (lab/bench/rows.py): warm queries, and the SQLite comparison.
    warm_queries: int = user_facing.WARM_QUERIES
    compare: bool = False


# -- the parent: generate, spawn, collect ------------------------------------------------------


def run(options: Options, on_result: Callable[[dict], None] | None = None) -> list[dict]:
    """Measure every size in its own process; ``on_result`` sees each result as it arrives."""
    results = []
    with tempfile.TemporaryDirectory(prefix="openloop-bench-") as scratch:
        base = options.data or Path(scratch)
        for events in options.sizes:
            result = measure_size(events, options, base)
            results.append(result)
            if on_result is not None:
                on_result(result)
        # ingest git speed on a generated repository (20,000 commits at the default sizes)
        commits = min(ingest_bench.COMMITS, max(options.sizes, default=0))
        if commits and ingest_bench.available():
            log("ingest", f"git fast-import of {commits:,} commits, then ingest git")
            ingest = ingest_bench.measure(base, commits, options.seed)
            results.append(ingest)
            if on_result is not None:  # --json prints it too
                on_result({"kind": "ingest", **ingest})
        policies = policy_bench.run(options.sizes, base, options.seed, _child_env())
        if policies is not None:  # 100 policies vs their instances declared by hand (SPEC 5)
            results.append(policies)
            if on_result is not None:
                on_result(policies)
        ledger = ledger_bench.run(options.sizes, base, options.seed, _child_env())
        if ledger is not None:  # the maintained list (SPEC §7), for sizes of 10k and more
            results.append(ledger)
            if on_result is not None:
                on_result(ledger)
    return results


def measure_size(events: int, options: Options, base: Path) -> dict:
    """Generate (or reuse) the history of one size and measure it in a fresh interpreter."""
    label = label_of(events)
    expectations = options.expectations or default_expectations(events)
    folder = base / f"events-{events}-x-{expectations}-seed-{options.seed}"
    log(label, f"history: {events} events, {expectations} expectations in {folder}")
    started = time.perf_counter()
    history = ensure(folder, events, expectations, options.seed)
    log(label, f"history ready in {time.perf_counter() - started:.1f} s")
    spec = {
        "label": label,
        "paths": [str(p) for p in history.paths],
        "runs": options.runs,
        "standpoints": options.standpoints,
        "seed": options.seed,
        "memory_limit_mb": options.memory_limit_mb,
        "profile": str(options.profile / label) if options.profile else None,
        "warm_queries": options.warm_queries,
        "compare": options.compare,
    }
    shell = {
        "events": events,
        "expectations": expectations,
        "tasks": history.tasks,
        "seed": options.seed,
        "code": fingerprint(),
    }
    try:
        child = subprocess.run(
            [sys.executable, "-m", "lab.bench.harness", json.dumps(spec)],
            stdout=subprocess.PIPE,
            text=True,
            timeout=options.timeout,
            env=_child_env(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        log(label, f"timed out after {options.timeout:.0f} s")
        return failed(shell, f"timed out after {options.timeout:.0f} s")
    lines = child.stdout.strip().splitlines()
    if child.returncode not in (0, 3) or not lines:
        return failed(shell, f"measuring process exited with {child.returncode}")
    measured = json.loads(lines[-1])
    if child.returncode == 3:  # ran out of memory or failed: keep what it measured
        return settle({**failed(shell, measured.pop("error")), **measured})
    return finish({**shell, **measured})


def fingerprint() -> str:
    """A short hash of the measured code and of the code that measured it: every module of
    ``resolver/`` and of the lab (``lab/``), and the rules.

    The engine changes often, and so does the bench; a number means little without the code
    it was measured on and by.
    """
    from resolver.resources import rule_files

    sources = [
        path
        for package in (_package_of(resolver), _package_of(lab))
        for path in sorted(package.rglob("*.py"))
    ]
    digest = hashlib.sha256()
    for path in [*sources, *rule_files()]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _package_of(module) -> Path:
    return Path(module.__file__).resolve().parent


def _child_env() -> dict[str, str]:
    """The environment of a measuring process: it must import this very ``resolver`` and
    this very ``lab`` (both sit in the checkout's root, unless ``resolver`` is installed)."""
    env = dict(os.environ)
    roots = dict.fromkeys(str(_package_of(m).parent) for m in (lab, resolver))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (*roots, env.get("PYTHONPATH")) if p)
    return env


def _child_main(argv: list[str]) -> int:
    """Print the measurement as one JSON line; on failure, what was measured and the error."""
    spec = json.loads(argv[0])
    partial: dict = {}
    try:
        result = measure(spec, partial)
    except (MemoryError, RuntimeError, OSError) as exc:
        phase = partial.pop("failed_in", "?")
        error = f"{type(exc).__name__}: {exc} (during {phase})"
        log(spec["label"], error)
        print(json.dumps({**partial, "peak_rss_mb": _peak_rss_mb(), "error": error}))
        return 3
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
