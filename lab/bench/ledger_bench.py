"""Measuring the maintained ledger: ``ledger list`` costs the open set, not the history.

For each case (a synthetic history of some size with a fixed number of expectations) a fresh
interpreter (``python -m lab.bench.ledger_bench SPEC``) refreshes a new ledger at the end of
the history, then times ``ledger.open_list`` (a new connection, one read transaction, the
log-growth check on every source file): the least CPU time of ``LIST_RUNS`` runs, the median
wall time beside it. The cases are the benchmark's sizes of 10k events and more with the same
expectations (the open set about the same, the history ten times longer: the ratio of list
times should be about 1), and the smallest of them again with five times the expectations (the
open set about five times larger: the list time should grow with it). Each case also times
the list again after ``REFRESHES`` refreshes (a check history fifty times longer: the list
should not notice). The refresh time is reported beside it: that one is O(history).
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from lab.bench.generate import ensure

LEDGER_FROM = 10_000  # measure the ledger for benchmark sizes of at least this many events
EXPECTATIONS = 200
OPEN_SET_FACTOR = 5
LIST_RUNS = 21
REFRESHES = 50  # the list is timed again after this many refreshes (a long check history)


def cases(sizes: Sequence[int], seed: int = 0) -> list[tuple[int, int, int]]:
    """``(events, expectations, seed)`` to measure: the sizes, then the smallest with more open."""
    chosen = sorted(s for s in sizes if s >= LEDGER_FROM)
    if not chosen:
        return []
    out = [(events, EXPECTATIONS, seed) for events in chosen]
    out.append((chosen[0], EXPECTATIONS * OPEN_SET_FACTOR, seed))
    return out


def run(
    sizes: Sequence[int], base: Path, seed: int = 0, env: dict[str, str] | None = None
) -> dict | None:
    """Measure every case, each in a fresh process; None when no size is large enough."""
    rows = []
    for events, expectations, case_seed in cases(sizes, seed):
        folder = base / f"events-{events}-x-{expectations}-seed-{case_seed}"
        history = ensure(folder, events, expectations, case_seed)
        spec = {
            "paths": [str(p) for p in history.paths],
            "db": str(folder / "ledger-bench.db"),
            "at": history.last_at,
            "events": events,
            "expectations": expectations,
        }
        print(f"[bench ledger] {events} events, {expectations} expectations", file=sys.stderr)
        child = subprocess.run(
            [sys.executable, "-m", "lab.bench.ledger_bench", json.dumps(spec)],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            check=False,
        )
        lines = child.stdout.strip().splitlines()
        if child.returncode != 0 or not lines:
            rows.append({**spec, "error": f"measuring process exited with {child.returncode}"})
            continue
        rows.append(json.loads(lines[-1]))
    if not rows:
        return None
    return {"kind": "ledger", "rows": rows, **_ratios(rows)}


def _ratios(rows: list[dict]) -> dict:
    """List time of the longest history over the shortest (same expectations), and of the
    larger open set over the smaller (same history length)."""
    good = [r for r in rows if "error" not in r]
    base = good[0]["expectations"] if good else None
    same = [r for r in good if r["expectations"] == base]
    more = [r for r in good if r["expectations"] != base]
    out: dict = {"history_ratio": None, "open_set_ratio": None}
    if len(same) >= 2:
        out["history_ratio"] = round(same[-1]["list_ms"] / max(same[0]["list_ms"], 1e-6), 2)
        out["history_growth"] = round(same[-1]["events"] / same[0]["events"], 1)
    if more and same:
        out["open_set_ratio"] = round(more[0]["list_ms"] / max(same[0]["list_ms"], 1e-6), 2)
        out["open_set_growth"] = round(more[0]["open"] / max(same[0]["open"], 1), 1)
    return out


def measure(spec: dict) -> dict:
    """Refresh once, time the open list; record ``REFRESHES - 1`` more refreshes of the same
    verdicts and time it again (inside the measuring process)."""
    from resolver import api, ledger
    from resolver.ledger import update

    db = Path(spec["db"])
    for suffix in ("", "-wal", "-shm"):
        Path(f"{db}{suffix}").unlink(missing_ok=True)
    started = time.perf_counter()
    history = ledger.read(spec["paths"])
    point = api.standpoint(spec["at"], spec["at"])
    checked = update.verdicts(history.prepared, point)
    summary = update.record(db, "refresh", point, checked, history.sources, None, history.paths)
    refresh_s = time.perf_counter() - started
    first_bytes = db.stat().st_size
    cpu, wall, entries = _time_list(db)
    bare, _, _ = _time_list(db, check_log=False)
    for _ in range(spec.get("refreshes", REFRESHES) - 1):
        update.record(db, "refresh", point, checked, history.sources, None, history.paths)
    later, _, _ = _time_list(db)
    list_ms = cpu * 1000
    return {
        "events": spec["events"],
        "expectations": summary.expectations,
        "open": entries,
        "refresh_s": round(refresh_s, 3),
        "list_ms": round(list_ms, 3),
        "list_wall_ms": round(wall * 1000, 3),
        "list_no_log_check_ms": round(bare * 1000, 3),
        "list_after_refreshes_ms": round(later * 1000, 3),
        "list_us_per_open": round(list_ms * 1000 / max(entries, 1), 1),
        "db_bytes": first_bytes,
        "db_bytes_after_refreshes": db.stat().st_size,
    }


def _time_list(db: Path, check_log: bool = True) -> tuple[float, float, int]:
    """Least CPU and median wall seconds of ``LIST_RUNS`` open lists, and the open count.

    The least CPU time is the cost with the least interference from other work on the machine
    (as ``timeit`` advises); the median wall time is what a user waits.
    """
    from resolver import ledger

    ledger.open_list(db, check_log=check_log)  # warm: the first read pays for the file cache
    cpu, wall, count = [], [], 0
    for _ in range(LIST_RUNS):
        started, spent = time.perf_counter(), time.process_time()
        count = len(ledger.open_list(db, check_log=check_log))
        wall.append(time.perf_counter() - started)
        cpu.append(time.process_time() - spent)
    return min(cpu), statistics.median(wall), count


def table(result: dict) -> str:
    """The ledger rows under the benchmark's table."""
    head = (
        "events",
        "expect.",
        "open",
        "refresh s",
        "list ms",
        "wall ms",
        "no-log ms",
        f"after {REFRESHES}",
        "us/open",
    )
    rows = []
    for r in result["rows"]:
        if "error" in r:
            rows.append((f"{r['events']:,}", str(r["expectations"]), r["error"], *[""] * 6))
            continue
        rows.append(
            (
                f"{r['events']:,}",
                str(r["expectations"]),
                str(r["open"]),
                f"{r['refresh_s']:.2f}",
                f"{r['list_ms']:.2f}",
                f"{r['list_wall_ms']:.2f}",
                f"{r['list_no_log_check_ms']:.2f}",
                f"{r['list_after_refreshes_ms']:.2f}",
                f"{r['list_us_per_open']:.0f}",
            )
        )
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    lines = [
        "",
        f"ledger list: CPU ms, least of {LIST_RUNS} (median wall beside it); refreshed at the end",
    ]
    lines.append("  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
    lines += ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    if result.get("history_ratio") is not None:
        lines.append(
            f"list time, {result['history_growth']:g}x the history, same expectations: "
            f"{result['history_ratio']:.2f}x"
        )
    if result.get("open_set_ratio") is not None:
        lines.append(
            f"list time, {result['open_set_growth']:g}x the open set, same history length: "
            f"{result['open_set_ratio']:.2f}x"
        )
    good = [r for r in result["rows"] if "error" not in r]
    if good:
        worst = max(r["list_after_refreshes_ms"] / max(r["list_ms"], 1e-6) for r in good)
        lines.append(
            f"list time after {REFRESHES} refreshes (a longer check history): <= {worst:.2f}x"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(json.dumps(measure(json.loads(sys.argv[1]))))
