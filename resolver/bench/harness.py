"""Measuring openloop on synthetic histories: floor, cold, warm, peak memory, and the targets.

For each size, the parent process generates (or reuses) a history with
:mod:`resolver.bench.generate`, then runs the measurement in a fresh interpreter
(``python -m resolver.bench.harness SPEC``) so that peak RSS belongs to that size alone and no
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
"""

from __future__ import annotations

import cProfile
import gc
import hashlib
import io
import json
import os
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import resolver
from resolver.bench import ingest_bench, ledger_bench, policy_bench
from resolver.bench import rows as user_facing
from resolver.bench.generate import default_expectations, ensure

COLD_LIMIT = 2.0  # cold <= 2 x floor, at every size
WARM_LIMIT = 0.02  # warm <= 0.02 x floor, up to 100k events
WARM_UP_TO = 100_000
RSS_LIMIT_MB = 2048.0  # under 2 GB, at 1M events
RSS_FROM = 1_000_000
TARGETS = (
    ("cold_le_2x_floor", "cold <= 2 x floor"),
    ("warm_le_0.02x_floor", "warm <= 0.02 x floor (<= 100k)"),
    ("rss_under_2gb", "peak RSS < 2 GB (1M)"),
)
DEFAULT_SIZES = (10_000, 100_000)
MILLION = 1_000_000


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
    #: The user-facing rows (resolver/bench/rows.py): warm queries, and the SQLite comparison.
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
            results.append(ingest_bench.measure(base, commits, options.seed))
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
            [sys.executable, "-m", "resolver.bench.harness", json.dumps(spec)],
            stdout=subprocess.PIPE,
            text=True,
            timeout=options.timeout,
            env=_child_env(),
            check=False,
        )
    except subprocess.TimeoutExpired:
        log(label, f"timed out after {options.timeout:.0f} s")
        return _failed(shell, f"timed out after {options.timeout:.0f} s")
    lines = child.stdout.strip().splitlines()
    if child.returncode not in (0, 3) or not lines:
        return _failed(shell, f"measuring process exited with {child.returncode}")
    measured = json.loads(lines[-1])
    if child.returncode == 3:  # ran out of memory or failed: keep what it measured
        return settle({**_failed(shell, measured.pop("error")), **measured})
    return finish({**shell, **measured})


def fingerprint() -> str:
    """A short hash of the measured code (``resolver/**/*.py`` but the bench, and the rules).

    The engine changes often; a number means little without the code it was measured on.
    """
    from resolver.resources import rule_files

    package = Path(resolver.__file__).resolve().parent
    sources = [p for p in sorted(package.rglob("*.py")) if "bench" not in p.parts]
    digest = hashlib.sha256()
    for path in [*sources, *rule_files()]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _child_env() -> dict[str, str]:
    """The environment of a measuring process: it must import this very ``resolver``."""
    env = dict(os.environ)
    root = str(Path(resolver.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (root, env.get("PYTHONPATH")) if p)
    return env


def _failed(shell: dict, error: str) -> dict:
    empty = dict.fromkeys(
        ("floor_s", "cold_s", "warm_s", "peak_rss_mb", "cold_over_floor", "warm_over_floor")
    )
    return {**shell, **empty, "error": error, "targets": dict.fromkeys(t for t, _ in TARGETS)}


def finish(result: dict) -> dict:
    """Add the ratios to the floor and the verdict of each target that applies (else None)."""
    floor = result["floor_s"]
    result["cold_over_floor"] = round(result["cold_s"] / floor, 3)
    result["warm_over_floor"] = round(result["warm_s"] / floor, 4)
    events = result["events"]
    met = {
        "cold_le_2x_floor": result["cold_over_floor"] <= COLD_LIMIT,
        "warm_le_0.02x_floor": result["warm_over_floor"] <= WARM_LIMIT,
        "rss_under_2gb": result["peak_rss_mb"] < RSS_LIMIT_MB,
    }
    result["targets"] = {t: met[t] if _applies(t, events) else None for t, _ in TARGETS}
    return result


def settle(result: dict) -> dict:
    """For a size that failed, the targets already missed by what it measured before failing.

    Time spent and memory held only grow, so a partial cold time above the limit or a peak RSS
    above it is a definite MISS; anything else stays undecided (None).
    """
    floor, events = result.get("floor_s"), result["events"]
    spent = sum(result.get("phases", {}).get(k, 0.0) for k in ("load_s", "prepare_s"))
    targets = result["targets"]
    if floor and spent > COLD_LIMIT * floor:
        targets["cold_le_2x_floor"] = False
    rss = result.get("peak_rss_mb")
    if rss is not None and rss >= RSS_LIMIT_MB and _applies("rss_under_2gb", events):
        targets["rss_under_2gb"] = False
    return result


# -- the measuring process ---------------------------------------------------------------------


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
    if core is not None:
        sizes["prepared_atoms"] = sum(len(v) for v in core.by_name.values())
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


# -- rendering --------------------------------------------------------------------------------


def _verdict(value: bool | None) -> str:
    return "-" if value is None else "PASS" if value else "MISS"


def _applies(target: str, events: int) -> bool:
    if target.startswith("warm"):
        return events <= WARM_UP_TO
    if target.startswith("rss"):
        return events >= RSS_FROM
    return True


def _failed_verdict(result: dict, target: str) -> str:
    if not _applies(target, result["events"]):
        return "-"
    return "MISS" if result["targets"].get(target) is False else "fail"


def _number(value: float | None, spec: str) -> str:
    return "-" if value is None else format(value, spec)


def table(results: Sequence[dict]) -> str:
    """The results as a fixed-width table, then each size's phases, for humans."""
    head = (
        "events",
        "expect.",
        "floor s",
        "cold s",
        "warm ms",
        "cold/floor",
        "warm/floor",
        "peak RSS MB",
        *(t for t, _ in TARGETS),
    )
    rows = []
    ingest = [r for r in results if r.get("ingest")]
    ledger = [r for r in results if r.get("kind") == "ledger"]
    policies = [r for r in results if r.get("kind") == "policies"]
    results = [
        r for r in results if not r.get("ingest") and r.get("kind") not in ("ledger", "policies")
    ]
    for r in results:
        if r.get("error"):
            # A failed size still shows what it measured; the target it missed reads "fail".
            rows.append(
                (
                    f"{r['events']:,}",
                    str(r["expectations"]),
                    _number(r.get("floor_s"), ".3f"),
                    _number(r.get("cold_s"), ".2f"),
                    "-",
                    "-",
                    "-",
                    _number(r.get("peak_rss_mb"), ".0f"),
                    *(_failed_verdict(r, t) for t, _ in TARGETS),
                )
            )
            continue
        rows.append(
            (
                f"{r['events']:,}",
                str(r["expectations"]),
                f"{r['floor_s']:.3f}",
                f"{r['cold_s']:.2f}",
                f"{r['warm_s'] * 1000:.1f}",
                f"{r['cold_over_floor']:.1f}",
                f"{r['warm_over_floor']:.3f}",
                f"{r['peak_rss_mb']:.0f}",
                *(_verdict(r["targets"][t]) for t, _ in TARGETS),
            )
        )
    widths = [
        max(len(h), *(len(row[i]) for row in rows)) if rows else len(h) for i, h in enumerate(head)
    ]
    lines = ["  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    lines.append("")
    lines.append("targets: " + "; ".join(f"{t}: {d}" for t, d in TARGETS))
    for r in results:
        if r.get("error"):
            done = ", ".join(f"{k} {v:.2f} s" for k, v in r.get("phases", {}).items())
            lines.append(f"{label_of(r['events'])}: {r['error']}" + (f"; {done}" if done else ""))
            continue
        p, z = r["phases"], r["sizes"]
        lines.append(
            f"{label_of(r['events'])}: load {p['load_s']:.2f} s, prepare {p['prepare_s']:.2f} s "
            f"(facts {p['facts_s']:.2f} s), first resolve {p['first_resolve_s']:.2f} s; warm "
            f"solve {p['warm_solve_s'] * 1000:.0f} ms + read {p['warm_read_s'] * 1000:.0f} ms; "
            f"{sum(v for k, v in z.items() if k.endswith('_facts')):,} facts, "
            f"{z.get('prepared_atoms', 0):,} prepared atoms; median of {r['runs']} runs, "
            f"{r['standpoints']} warm standpoints"
        )
    lines.append("")
    lines.append(user_facing.table(results).rstrip("\n"))
    lines += [ingest_bench.row(r) for r in ingest]
    lines += [policy_bench.table(r).rstrip("\n") for r in policies]
    return "\n".join(lines) + "\n" + "".join(ledger_bench.table(r) for r in ledger)


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
