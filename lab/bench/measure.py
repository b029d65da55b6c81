"""Inside the measuring process: floor, cold, warm and the user-facing rows of one size.

:mod:`lab.bench.harness` runs :func:`measure` in a fresh interpreter per size, so that peak
RSS belongs to that size alone; ``profile`` adds cProfile files of one cold run and two warm
standpoints when asked.
"""

from __future__ import annotations

import cProfile
import gc
import io
import json
import pstats
import random
import resource
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from lab.bench import rows as user_facing


def log(label: str, message: str) -> None:
    """Progress on stderr: long sizes take minutes, and stdout is kept for results."""
    print(f"[bench {label}] {message}", file=sys.stderr, flush=True)


def label_of(events: int) -> str:
    """``10k``, ``1M``, or the plain number."""
    if events % 1_000_000 == 0:
        return f"{events // 1_000_000}M"
    if events % 1000 == 0:
        return f"{events // 1000}k"
    return str(events)


def _median(values: Sequence[float]) -> float:
    return round(statistics.median(values), 6)


def _peak_rss_mb() -> float:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


def read_floor(path: str) -> int:
    """Parse a JSON-lines file with the standard library; returns the number of objects."""
    objects = []
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            if line.strip():
                objects.append(json.loads(line))
    return len(objects)


def measure(spec: dict, partial: dict | None = None) -> dict:
    """Floor, cold and warm timings with their phases, inside one fresh process.

    ``partial`` is kept up to date with what has been measured so far and the phase under way,
    so that a size that runs out of memory still reports how far it got.
    """
    partial = {} if partial is None else partial
    phases = partial.setdefault("phases", {})
    from resolver.engine.prepared import Prepared, Standpoint
    from resolver.facts.writer import build
    from resolver.language.loader import load
    from resolver.verdicts.resolution import read, resolve

    label, runs = spec["label"], spec["runs"]
    if spec.get("memory_limit_mb"):
        limit = spec["memory_limit_mb"] * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    paths = spec["paths"]
    jsonl = next(p for p in paths if p.endswith(".jsonl"))
    baseline = _peak_rss_mb()

    floors, floor_cpu = [], []
    for r in range(runs):
        started, cpu = time.perf_counter(), time.process_time()
        read_floor(jsonl)
        floors.append(time.perf_counter() - started)
        floor_cpu.append(time.process_time() - cpu)
        log(label, f"floor {r + 1}/{runs}: {floors[-1]:.3f} s")
        gc.collect()
    partial.update(runs=runs, floor_s=_median(floors))

    colds, cold_cpu, loads, prepares, firsts = [], [], [], [], []
    prepared = resolution = project = None
    for r in range(runs):
        prepared = resolution = project = None  # free the previous run before measuring
        gc.collect()
        started, cpu = time.perf_counter(), time.process_time()
        partial["failed_in"] = "load"
        project = load(paths)
        loaded = time.perf_counter()
        phases.setdefault("load_s", round(loaded - started, 6))
        partial["failed_in"] = "prepare"
        prepared = Prepared(project)
        ready = time.perf_counter()
        phases.setdefault("prepare_s", round(ready - loaded, 6))
        partial["failed_in"] = "first resolve"
        end = max(e.at for e in project.events)
        resolution = resolve(prepared, Standpoint(end, end))
        done = time.perf_counter()
        cold_cpu.append(time.process_time() - cpu)
        loads.append(loaded - started)
        prepares.append(ready - loaded)
        firsts.append(done - ready)
        colds.append(done - started)
        log(
            label,
            f"cold {r + 1}/{runs}: {colds[-1]:.2f} s (load {loads[-1]:.2f}, prepare "
            f"{prepares[-1]:.2f}, resolve {firsts[-1]:.2f})",
        )
    assert prepared is not None and resolution is not None
    project = prepared.project
    partial.update(cold_s=_median(colds), failed_in="warm")

    started = time.perf_counter()
    facts = build(project)
    facts_s = time.perf_counter() - started
    log(label, f"facts alone (inside prepare): {facts_s:.2f} s")
    del facts

    first = min(e.at for e in project.events)
    last = max(e.at for e in project.events)
    rng = random.Random(spec["seed"] + 1)
    instants = [rng.randrange(first, last + 1) for _ in range(spec["standpoints"])]
    warms, warm_cpu, solves, reads = [], [], [], []
    for k, instant in enumerate(instants):
        standpoint = Standpoint(instant, instant)
        started, cpu = time.perf_counter(), time.process_time()
        atoms = prepared.solve(standpoint)
        solved = time.perf_counter()
        read(prepared, standpoint, atoms)
        done = time.perf_counter()
        warm_cpu.append(time.process_time() - cpu)
        solves.append(solved - started)
        reads.append(done - solved)
        warms.append(done - started)
        log(label, f"warm {k + 1}/{len(instants)}: {warms[-1] * 1000:.1f} ms")

    if spec.get("profile"):
        profile(spec, prepared, instants)

    partial["failed_in"] = "rows"
    user_rows = user_facing.measure(
        spec, prepared, _median(floor_cpu), lambda m: log(label, m), partial.setdefault("rows", {})
    )

    return {
        "runs": runs,
        "standpoints": len(instants),
        "floor_s": _median(floors),
        "cold_s": _median(colds),
        "warm_s": _median(warms),
        "peak_rss_mb": _peak_rss_mb(),
        "phases": {
            "load_s": _median(loads),
            "prepare_s": _median(prepares),
            "facts_s": round(facts_s, 6),
            "first_resolve_s": _median(firsts),
            "warm_solve_s": _median(solves),
            "warm_read_s": _median(reads),
            "baseline_rss_mb": baseline,
            "floor_cpu_s": _median(floor_cpu),
            "cold_cpu_s": _median(cold_cpu),
            "warm_cpu_s": _median(warm_cpu),
        },
        "sizes": _sizes(prepared),
        "statuses": dict(sorted(Counter(x.status for x in resolution.expectations).items())),
        "rows": user_rows,
    }


def _sizes(prepared) -> dict[str, int]:
    """How many facts each text of the fact base holds, and how many atoms prepare derived.

    Read defensively: the fact base's layout is the engine's to change.
    """
    sizes = {}
    for name in ("declarations", "links", "events", "channel_log"):
        text = getattr(prepared.facts, name, None)
        text = getattr(text, "static_text", text)
        if isinstance(text, str):
            sizes[f"{name}_facts"] = text.count("\n")
    core = getattr(prepared, "core", None)
    if core is not None:  # the atoms every standpoint reads, and those only reasons read
        reasons = getattr(prepared, "reason_inputs", None)
        sizes["prepared_atoms"] = len(core.text.split()) + (
            len(reasons.text.split()) if reasons is not None else 0
        )
    return sizes


def profile(spec: dict, prepared, instants: list[int]) -> None:
    """Profile one more cold run and two warm standpoints; write ``.prof`` files and summaries."""
    from resolver.engine.prepared import Prepared, Standpoint
    from resolver.language.loader import load
    from resolver.verdicts.resolution import resolve

    folder = Path(spec["profile"])
    folder.mkdir(parents=True, exist_ok=True)
    label = spec["label"]

    def cold() -> None:
        project = load(spec["paths"])
        fresh = Prepared(project)
        end = max(e.at for e in project.events)
        resolve(fresh, Standpoint(end, end))

    def warm() -> None:
        for instant in instants[:2]:  # enough to see where a standpoint's time goes
            resolve(prepared, Standpoint(instant, instant))

    for name, work in (("cold", cold), ("warm", warm)):
        gc.collect()
        profiler = cProfile.Profile()
        profiler.runcall(work)
        profiler.dump_stats(folder / f"{name}.prof")
        text = io.StringIO()
        pstats.Stats(profiler, stream=text).sort_stats("cumulative").print_stats(25)
        (folder / f"{name}.txt").write_text(text.getvalue(), encoding="utf-8")
        log(label, f"profile of {name} written to {folder / (name + '.txt')}")
