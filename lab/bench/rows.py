"""The rows that measure what a user runs, in CPU seconds and as ratios to the floor.

Measured inside the size's own process (:mod:`lab.bench.harness`), after its cold and warm
runs, on the same history:

* ``status_json``: ``openloop status --format json`` end to end, cold, in a fresh interpreter
  (its CPU time read from ``wait4``, so worker processes count; its own peak RSS
  through :mod:`resolver.benchmark.own_peak`), once with the default ``--jobs`` (the core count)
  and once with ``--jobs 1``;
* ``warm``: ``warm_queries`` standpoints (default 100) on the one prepared history, each at a
  random instant, the median per query (solve and read, with reasons);
* ``explain``: one expectation's explanation tree on the prepared history (the middle id);
* ``check``: the gate over every expectation, with each outstanding item's key reason;
* ``store``: the maintained store's rows (:mod:`lab.bench.store_rows`);
* ``compare`` (with ``--compare``): the hand-rolled SQLite state-tier query
  (:mod:`lab.bench.sqlite_compare`), and the least a long-lived solver with the standpoint
  as externals could cost per query (:mod:`lab.bench.longlived_floor`).

CPU time (``process_time``) is the steady number on a shared machine; wall time is reported for
``status_json`` beside it. :data:`TARGETS` are the project's goals, reported PASS or MISS.
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import tempfile
from collections.abc import Callable

from lab.bench import store_rows
from lab.bench.cpu import cpu_seconds
from resolver import times
from resolver.benchmark import own_peak

#: (key, ratio field, limit, applies to events from, up to, description)
TARGETS = (
    ("cold_json_le_4x", "status_json_over_floor", 4.0, 0, None, "cold status --format json <= 4x"),
    ("warm_le_0.05x", "warm_query_over_floor", 0.05, 0, None, "warm standpoint <= 0.05x"),
    ("explain_le_0.05x", "explain_over_floor", 0.05, 0, 100_000, "explain <= 0.05x (<= 100k)"),
)
#: (events, limit MB, description): judged twice, on the measuring process's peak RSS (it
#: prepares the whole history and answers every row: ``rss_N``) and on the peak of the
#: ``status --format json`` command a user runs, with the default ``--jobs`` (``status_rss_N``).
RSS_TARGETS = ((100_000, 400.0, "peak RSS <= 400 MB (100k)"), (1_000_000, 2048.0, "<= 2 GB (1M)"))
WARM_QUERIES = 100


def status_json(paths: list[str], instant: int, jobs: int | None) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one ``openloop status --format json`` in a fresh
    interpreter."""
    extra = ["--format", "json"] + ([] if jobs is None else ["--jobs", str(jobs)])
    return command_cpu(["status", *paths], instant, extra)


def command_cpu(argv: list[str], instant: int, extra: list[str]) -> tuple[float, float, float]:
    """(wall s, CPU s, peak RSS MB) of one ``openloop ARGV --at INSTANT EXTRA`` in a fresh
    interpreter, its output thrown away: what a user waits for, start-up included. The RSS is
    the command's own (the largest of it and the workers it waited for, as
    :mod:`resolver.benchmark.own_peak` reads it), not the measuring process's."""
    stamp = times.format_time(instant)
    full = [*argv, "--at", stamp, *extra, "-o", os.devnull]
    done = own_peak.run(full, stdout=subprocess.DEVNULL)
    if done.returncode:
        raise subprocess.CalledProcessError(done.returncode, ["openloop", *full])
    return done.wall_s, done.cpu_s, done.peak_mb


def measure(
    spec: dict,
    prepared,
    floor_cpu: float,
    log: Callable[[str], None],
    partial: dict | None = None,
) -> dict:
    """Every row for one prepared history; ``partial`` follows what is done so far."""
    from resolver.api import check_document
    from resolver.engine.prepared import Standpoint
    from resolver.engine.query import Query
    from resolver.faces.explanation.text import render_text
    from resolver.verdicts.explanation import explain_at
    from resolver.verdicts.resolution import resolve

    out: dict = {} if partial is None else partial
    project = prepared.project
    first = min(e.at for e in project.events)
    end = max(e.at for e in project.events)

    for name, jobs in (("status_json", None), ("status_json_jobs1", 1)):
        with tempfile.TemporaryDirectory() as cache, store_rows.cache_folder(cache):
            wall, cpu, rss = status_json(spec["paths"], end, jobs)  # cold: an empty store
        out[f"{name}_s"], out[f"{name}_cpu_s"] = round(wall, 4), round(cpu, 4)
        out[f"{name}_over_floor"] = round(cpu / floor_cpu, 3)
        out[f"{name}_rss_mb"] = round(rss, 1)
        log(
            f"{name}: {wall:.2f} s wall, {cpu:.2f} s CPU ({out[f'{name}_over_floor']:.1f}x), "
            f"peak RSS {rss:.0f} MB"
        )

    rng = random.Random(spec["seed"] + 2)
    count = spec.get("warm_queries") or WARM_QUERIES
    instants = [rng.randrange(first, end + 1) for _ in range(count)]
    # What `status` asks at each standpoint: every verdict, its key reasons and their count.
    asked = Query(every_reason=False)
    warm = []
    for k, instant in enumerate(instants):
        warm.append(cpu_seconds(lambda i=instant: resolve(prepared, Standpoint(i, i), asked)))
        if (k + 1) % 10 == 0:
            log(f"warm {k + 1}/{count}: median {statistics.median(warm) * 1000:.0f} ms CPU")
    out["warm_queries"] = count
    out["warm_query_cpu_s"] = round(statistics.median(warm), 6)
    out["warm_query_over_floor"] = round(out["warm_query_cpu_s"] / floor_cpu, 4)

    ids = sorted(x.id for x in project.expectations)
    point = Standpoint(end, end)
    if ids:
        ident = ids[len(ids) // 2]
        cpu = cpu_seconds(lambda: render_text(explain_at(prepared, point, ident)))
        out["explain_cpu_s"] = round(cpu, 6)
        out["explain_over_floor"] = round(cpu / floor_cpu, 4)
        log(f"explain {ident}: {cpu * 1000:.0f} ms CPU")
        # The command a user runs: a fresh interpreter that prepares only the item's group.
        wall, cpu, rss = command_cpu(["explain", ident, *spec["paths"]], end, [])
        out["explain_command_rss_mb"] = round(rss, 1)
        out["explain_command_cpu_s"] = round(cpu, 4)
        out["explain_command_over_floor"] = round(cpu / floor_cpu, 3)
        log(f"openloop explain {ident}: {wall:.2f} s wall, {cpu:.2f} s CPU")
    cpu = cpu_seconds(lambda: check_document(prepared, point, None, None))
    out["check_cpu_s"] = round(cpu, 6)
    out["check_over_floor"] = round(cpu / floor_cpu, 4)
    log(f"check: {cpu:.2f} s CPU")

    out["store"] = store_rows.measure(spec, end, instants, floor_cpu, log)

    if spec.get("compare"):
        from lab.bench import sqlite_compare

        out.update(sqlite_compare.measure(project, instants[:20], floor_cpu))
        log(f"sqlite state-tier query: {out['sqlite_query_cpu_s'] * 1000:.1f} ms CPU")
        # The least a long-lived solver with the standpoint as externals could cost, on the
        # same standpoints as the warm row (lab/bench/longlived_floor.py).
        from lab.bench import longlived_floor

        out.update(longlived_floor.measure(prepared, instants, floor_cpu))
        log(
            f"long-lived floor: {out['longlived_query_cpu_s'] * 1000:.1f} ms CPU per query "
            f"({out['longlived_ground_rules']:,} ground rules, grounded once in "
            f"{out['longlived_ground_cpu_s']:.2f} s)"
        )
    return out


def verdicts(result: dict) -> dict[str, bool | None]:
    """PASS (True), MISS (False) or not applicable / not measured (None) per target."""
    rows = result.get("rows") or {}
    events = result["events"]
    out: dict[str, bool | None] = {}
    for key, field, limit, start, end, _ in TARGETS:
        applies = events >= start and (end is None or events <= end)
        value = rows.get(field)
        out[key] = None if not applies or value is None else value <= limit
    for size, limit, _ in RSS_TARGETS:
        for key, rss in (
            (f"rss_{size}", result.get("peak_rss_mb")),
            (f"status_rss_{size}", rows.get("status_json_rss_mb")),
        ):
            out[key] = None if events != size or rss is None else rss <= limit
    return out


def _rss(rows: dict) -> str:
    """The peak RSS of the two ``status`` commands, as a user's machine sees it."""
    if "status_json_rss_mb" not in rows:
        return "-"
    return f"{rows['status_json_rss_mb']:.0f} ({rows.get('status_json_jobs1_rss_mb', 0):.0f})"


def _mark(value: bool | None) -> str:
    return "-" if value is None else "PASS" if value else "MISS"


def table(results: list[dict]) -> str:
    """The user-facing rows, one line per size, for humans."""
    head = "events  status json CPU s (x floor)  jobs 1 (x)  warm ms (x)  explain ms (x)  "
    head += "explain command s (x)  check s (x)  sqlite ms (x)  long-lived floor ms (x)  "
    head += "status RSS MB (jobs 1)  targets"
    lines = [head]
    for r in results:
        rows = r.get("rows")
        if not rows:
            continue
        marks = verdicts(r)
        sqlite = (
            f"{rows['sqlite_query_cpu_s'] * 1000:.1f} ({rows['sqlite_query_over_floor']:.3f})"
            if "sqlite_query_cpu_s" in rows
            else "-"
        )
        longlived = (
            f"{rows['longlived_query_cpu_s'] * 1000:.1f} ({rows['longlived_query_over_floor']:.2f})"
            if "longlived_query_cpu_s" in rows
            else "-"
        )
        explain = (
            f"{rows['explain_cpu_s'] * 1000:.0f} ({rows['explain_over_floor']:.2f})"
            if "explain_cpu_s" in rows
            else "-"
        )
        command = (
            f"{rows['explain_command_cpu_s']:.2f} ({rows['explain_command_over_floor']:.1f})"
            if "explain_command_cpu_s" in rows
            else "-"
        )
        lines.append(
            f"{r['events']:,}  {rows['status_json_cpu_s']:.2f} "
            f"({rows['status_json_over_floor']:.1f})"
            f"  {rows['status_json_jobs1_cpu_s']:.2f} ({rows['status_json_jobs1_over_floor']:.1f})"
            f"  {rows['warm_query_cpu_s'] * 1000:.0f} ({rows['warm_query_over_floor']:.2f})"
            f"  {explain}  {command}"
            f"  {rows['check_cpu_s']:.2f} ({rows['check_over_floor']:.1f})  {sqlite}  {longlived}"
            f"  {_rss(rows)}"
            f"  " + ", ".join(f"{k} {_mark(v)}" for k, v in marks.items() if v is not None)
        )
    lines.append(
        "targets: "
        + "; ".join(t[-1] for t in TARGETS)
        + "; "
        + "; ".join(t[-1] for t in RSS_TARGETS)
        + " (rss: the measuring process; status_rss: the status --format json command)"
        + f"; warm = median of the given queries (default {WARM_QUERIES}), CPU seconds"
    )
    if any("longlived_query_cpu_s" in (r.get("rows") or {}) for r in results):
        lines.append(
            "long-lived floor: the same standpoints on one Control grounded once, the standpoint "
            "as two externals, nine rules (the visibility of every event judged, and closing): "
            "the least a long-lived solver could cost per query"
        )
    return "\n".join(lines) + "\n"
