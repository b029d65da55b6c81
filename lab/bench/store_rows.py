"""The rows of the maintained store (issue 26): what a question costs once its inputs were seen.

Measured inside the size's own process after the user-facing rows (:mod:`lab.bench.rows`),
on the same history, in CPU seconds and as ratios to the floor:

* ``first_status``: ``status --format json`` from the files with an empty cache folder (the
  user-facing row's default run, which also fills the store);
* ``startup``: ``openloop status --help``: the interpreter and the imports of ``status``;
* ``status_unchanged``: the same command again, inputs unchanged: the store's prepared history
  and the plateau's stored answer;
* ``warm_at`` / ``warm_latest``: a standpoint of each default family (``known`` = ``at``,
  ``known latest``) on a plateau already answered, read back from the store's SQLite file (not
  from the process's memory), median over the warm queries' instants; ``warm_miss``: the first
  query of a plateau (a solve), for comparison;
* ``append10``: a ``status`` answered, 10 events (commits linking nothing) appended to a copy
  of the log, then the history loaded through the store and ``status`` at the same standpoint
  answered again, the second only measured (the log is read as an increment and, the events
  touching no item, the entry carried over and the answer composed from the first:
  docs/design/increments.md);
* ``hook``: ``openloop hook claude-code`` judging a task claim on a warm store, and
  ``mcp_call``: the MCP ``status`` tool's work on the server's kept history, per call.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from lab.bench.children import settle
from lab.bench.cpu import cpu_seconds
from resolver.benchmark import own_peak
from resolver.benchmark.timing import cache_folder

#: (key, field, limit, from events, description). ``status_unchanged`` is judged against
#: 2 x floor plus the start-up measured in the same run (see :func:`verdicts`).
TARGETS = (
    ("first_status_le_15x", "first_status_over_floor", 15.0, 100_000, "first status <= 15x"),
    ("first_status_10k_le_0.5s", "first_status_cpu_s", 0.5, 0, "first status <= 0.5 s (10k)"),
    ("warm_at_le_0.05x", "warm_at_over_floor", 0.05, 0, "warm known=at <= 0.05x"),
    ("warm_latest_le_0.05x", "warm_latest_over_floor", 0.05, 0, "warm known latest <= 0.05x"),
    ("append10_le_0.2s", "append10_cpu_s", 0.2, 100_000, "10 appended events <= 0.2 s (100k)"),
    ("hook_le_0.1s", "hook_after_startup_cpu_s", 0.1, 0, "hook <= 0.1 s after start-up"),
    ("mcp_le_0.1s", "mcp_call_cpu_s", 0.1, 0, "MCP call <= 0.1 s"),
)
#: The task the hook row claims: declared beside the bench's history in a file of its own.
HOOK_TASK = "bench-release"
HOOK_DECLARATIONS = f"""\
task {HOOK_TASK} {{
  title "Release the bench history"
  opened 2000-01-02
  obligation {HOOK_TASK}/notes {{ title "Publish the notes" want notes.state = "published" }}
}}
"""
HOOK_PAYLOAD = {
    "session_id": "bench",
    "transcript_path": "transcript.jsonl",
    "cwd": ".",
    "permission_mode": "default",
    "hook_event_name": "TaskCompleted",
    "task_id": "1",
    "task_subject": "Release the bench history",
}


def command(argv: list[str], stdin: bytes | None = None) -> own_peak.Finished:
    """``openloop ARGV`` in a fresh interpreter (the environment's cache folder), measured."""
    with tempfile.TemporaryFile() as feed:
        if stdin is not None:
            feed.write(stdin)
            feed.seek(0)
        quiet = subprocess.DEVNULL
        done = own_peak.run(argv, stdin=feed, stdout=quiet, stderr=quiet)
    if done.returncode not in (0, 1, 2, 3):
        raise subprocess.CalledProcessError(done.returncode, ["openloop", *argv])
    return done


def measure(
    spec: dict, end: int, instants: list[int], floor_cpu: float, log: Callable[[str], None]
) -> dict:
    """Every store row of one history (``spec["paths"]``); ``end`` is its last instant."""
    from resolver import times

    out: dict = {}
    stamp = ["--at", times.format_time(end)]
    scratch = tempfile.TemporaryDirectory(prefix="openloop-store-bench-")
    with scratch, cache_folder(Path(scratch.name) / "cache"):
        first = command(["status", *spec["paths"], *stamp, "--format", "json"])
        again = command(["status", *spec["paths"], *stamp, "--format", "json"])
        startup = command(["status", "--help"])
        for name, done in (("first_status", first), ("status_unchanged", again)):
            out[f"{name}_cpu_s"] = round(done.cpu_s, 4)
            out[f"{name}_over_floor"] = round(done.cpu_s / floor_cpu, 3)
            out[f"{name}_rss_mb"] = round(done.peak_mb, 1)
        out["startup_cpu_s"] = round(startup.cpu_s, 4)
        log(
            f"store: first status {first.cpu_s:.2f} s CPU, unchanged {again.cpu_s:.2f} s, "
            f"start-up {startup.cpu_s:.2f} s"
        )
        out.update(_warm(spec["paths"], instants, floor_cpu, log))
        out.update(_append(spec["paths"], Path(scratch.name), end, log))
        out.update(_hook(spec["paths"], Path(scratch.name), log))
    return out


def _warm(paths: list[str], instants: list[int], floor_cpu: float, log) -> dict:
    """Each family's lookup on an answered plateau, read from the SQLite file."""
    from resolver import times
    from resolver.engine.plateau import Memo
    from resolver.engine.prepared import Standpoint
    from resolver.engine.query import Query
    from resolver.store import load_prepared
    from resolver.verdicts.resolution import resolve

    prepared = load_prepared(paths)
    asked = Query(every_reason=False)  # what `status` asks
    backing = prepared.memo.backing if prepared.memo is not None else None
    out: dict = {}
    misses = []
    for family in ("at", "latest"):
        lookups = []
        for instant in instants[:20]:
            point = Standpoint(instant, instant if family == "at" else None)
            misses.append(cpu_seconds(lambda p=point: resolve(prepared, p, asked)))
            nearby = instant + 1
            bounds = prepared.thresholds
            if bounds.plateau(times.encode(nearby)) != bounds.plateau(times.encode(instant)):
                nearby = instant
            other = Standpoint(nearby, nearby if family == "at" else None)
            prepared.memo = Memo(backing)  # nothing in memory: the answer comes from the file
            lookups.append(cpu_seconds(lambda p=other: resolve(prepared, p, asked)))
        median = statistics.median(lookups)
        out[f"warm_{family}_cpu_s"] = round(median, 6)
        out[f"warm_{family}_over_floor"] = round(median / floor_cpu, 5)
        log(f"store: warm lookup ({family}) {median * 1000:.1f} ms CPU")
    out["warm_miss_cpu_s"] = round(statistics.median(misses), 6)
    return out


def _append(paths: list[str], scratch: Path, end: int, log) -> dict:
    """10 events appended to a copy of the log: the store's cost to answer again."""
    from resolver import times
    from resolver.engine.prepared import Standpoint
    from resolver.engine.query import Query
    from resolver.store import appends, load_prepared
    from resolver.verdicts.resolution import resolve

    copy = scratch / "appended"
    copy.mkdir()
    for name in paths:
        shutil.copyfile(name, copy / Path(name).name)
    point = Standpoint(end + 3600, end + 3600)
    # The store holds the history as it was, and the answer a `status` at the same standpoint
    # gave before the append (a user asks, the log grows, the user asks again).
    resolve(load_prepared([copy]), point, Query(every_reason=False))
    log_file = next(copy.glob("*.jsonl"))
    with log_file.open("a", encoding="utf-8") as stream:
        for n in range(10):
            at = times.format_time(end + 60 * (n + 1))
            line = {"id": f"zz-appended-{n}", "channel": "commits", "at": at, "text": "more"}
            stream.write(json.dumps(line) + "\n")

    def again() -> None:
        resolve(load_prepared([copy]), point, Query(every_reason=False))

    cpu = cpu_seconds(again)
    read = appends.last
    how = (
        "the log read whole" if read is None else f"{read.added_events} events read as an increment"
    )
    log(f"store: 10 appended events, then status: {cpu:.2f} s CPU ({how})")
    return {"append10_cpu_s": round(cpu, 4), "append10_increment": read is not None}


def _hook(paths: list[str], scratch: Path, log) -> dict:
    """A task claim judged by the hook on a warm store, and an MCP ``status`` call."""
    from resolver.agents.identity import DEFAULT_IDENTITY, prepare_as
    from resolver.agents.mcp_server import History
    from resolver.faces.json_format import to_dict

    folder = scratch / "hooked"
    folder.mkdir()
    for name in paths:
        shutil.copyfile(name, folder / Path(name).name)
    (folder / "bench-task.ol").write_text(HOOK_DECLARATIONS, encoding="utf-8")
    argv = ["hook", "claude-code", "--task", HOOK_TASK, str(folder)]
    payload = json.dumps(HOOK_PAYLOAD).encode()
    prepare_as([folder], DEFAULT_IDENTITY, True, scope=HOOK_TASK)  # the store, warm
    done = command(argv, payload)
    settle(folder)  # the claim's warm-up writes into the scratch folder: let it end
    startup = command(["hook", "claude-code", "--help"])
    out = {
        "hook_cpu_s": round(done.cpu_s, 4),
        "hook_startup_cpu_s": round(startup.cpu_s, 4),
        "hook_after_startup_cpu_s": round(max(0.0, done.cpu_s - startup.cpu_s), 4),
    }
    log(f"store: hook {done.cpu_s:.2f} s CPU ({startup.cpu_s:.2f} s of it start-up)")

    from resolver import api

    history = History([folder], None, DEFAULT_IDENTITY)
    history.current()  # the server's first call prepares (or reads the store)

    def call() -> None:
        prepared = history.current()
        to_dict(api.status(prepared), prepared.project)

    call()
    spent = statistics.median(cpu_seconds(call) for _ in range(5))
    out["mcp_call_cpu_s"] = round(spent, 4)
    log(f"store: MCP status call {spent * 1000:.0f} ms CPU")
    return out


def verdicts(result: dict) -> dict[str, bool | None]:
    """PASS (True), MISS (False), or None where a target does not apply or was not measured."""
    rows = (result.get("rows") or {}).get("store") or {}
    events = result["events"]
    out: dict[str, bool | None] = {}
    for key, field, limit, start, _ in TARGETS:
        value = rows.get(field)
        applies = events >= start and (not key.startswith("first_status_10k") or events <= 10_000)
        out[key] = None if value is None or not applies else value <= limit
    floor = (result.get("phases") or {}).get("floor_cpu_s")
    unchanged, startup = rows.get("status_unchanged_cpu_s"), rows.get("startup_cpu_s")
    if None not in (floor, unchanged, startup):
        out["unchanged_le_2x_plus_startup"] = unchanged <= 2 * floor + startup
    return out


def table(results: list[dict]) -> str:
    """The store's rows, one line per size."""
    head = (
        "events  first status s (x floor)  unchanged s (start-up s)  warm at ms (x)  "
        "warm latest ms (x)  warm miss ms  append 10 s  hook s (after start-up)  MCP call ms  "
        "targets"
    )
    lines = [head]
    for r in results:
        rows = (r.get("rows") or {}).get("store")
        if not rows:
            continue
        marks = verdicts(r)
        lines.append(
            f"{r['events']:,}  {rows['first_status_cpu_s']:.2f} "
            f"({rows['first_status_over_floor']:.1f})"
            f"  {rows['status_unchanged_cpu_s']:.2f} ({rows['startup_cpu_s']:.2f})"
            f"  {rows['warm_at_cpu_s'] * 1000:.1f} ({rows['warm_at_over_floor']:.3f})"
            f"  {rows['warm_latest_cpu_s'] * 1000:.1f} ({rows['warm_latest_over_floor']:.3f})"
            f"  {rows['warm_miss_cpu_s'] * 1000:.0f}  {rows['append10_cpu_s']:.2f}"
            f"  {rows['hook_cpu_s']:.2f} ({rows['hook_after_startup_cpu_s']:.2f})"
            f"  {rows['mcp_call_cpu_s'] * 1000:.0f}  "
            + ", ".join(f"{k} {'PASS' if v else 'MISS'}" for k, v in marks.items() if v is not None)
        )
    lines.append(
        "store targets: "
        + "; ".join(t[-1] for t in TARGETS)
        + "; unchanged status <= 2x floor + start-up (CPU seconds)"
    )
    return "\n".join(lines) + "\n"
