"""Measuring sequence gaps: a history whose numbers step by 2 against its gap-free twin.

A shared tracker numbers items across many projects, so one project's channel sees every
other number: ``seq`` steps by 2 and every second number is a gap. The gaps history has
``events`` events on one channel ``tracker`` (seq 1, 3, 5, ...) and ``expectations``
expectations, each searching that channel and satisfied by one event setting its key; the twin
is the same history with seq 1, 2, 3, ... Both are resolved at the end of the history by
``openloop status`` in table and in JSON form, each in a fresh process under an address-space
cap, with its CPU seconds (user + system, from ``wait4``), its wall time and its own peak RSS
(:mod:`resolver.benchmark.own_peak`). The ratios use CPU seconds: on a shared machine the wall
time of one run depends on what else runs, its CPU time much less.

The target (issue 17, item 10): the gaps history within 3x its twin, in time and in memory.
Gaps must be summarised once per channel, never multiplied per expectation.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import subprocess
import tempfile
import threading
import time
from pathlib import Path

from resolver.benchmark import own_peak

EVENTS = 20_000
EXPECTATIONS = 200
LIMIT = 3.0
FORMATS = ("table", "json")
_START = 1_704_067_200  # 2024-01-01T00:00:00Z
_STEP = 600  # one event every ten minutes
_AT = "2030-01-01"


def _stamp(unix: int) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(unix))


def write(folder: Path, events: int, expectations: int, step: int, spread: int = 0) -> Path:
    """One history (``step`` 2: the gaps history, 1: its twin); returns the folder. With
    ``spread`` seconds, expectation i opens ``i * spread`` after the first (else all at once)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["channel tracker work", "actor alice principal"]
    lines += [
        f'expectation x{i} {{ title "Ship part {i}" opened {_stamp(_START + i * spread)} '
        f'want part{i}.state = "done" search tracker verify state }}'
        for i in range(expectations)
    ]
    (folder / "history.ol").write_text("\n".join(lines) + "\n", encoding="utf-8")
    spacing = max(events // max(expectations, 1), 1)
    with open(folder / "events.jsonl", "w", encoding="utf-8") as stream:
        for n in range(events):
            event = {
                "id": f"t{n}",
                "channel": "tracker",
                "seq": 1 + n * step,
                "at": _stamp(_START + _STEP * (n + 1)),
                "text": f"routine update {n}",
            }
            part, offset = divmod(n, spacing)
            if offset == spacing - 1 and part < expectations:
                event["set"] = {f"part{part}.state": "done"}
            stream.write(json.dumps(event) + "\n")
    return folder


def _run(folder: Path, form: str, memory_limit_mb: int | None, timeout: float | None) -> dict:
    """CPU seconds, wall time and peak RSS of one ``openloop status`` in a fresh process."""

    def cap() -> None:
        if memory_limit_mb:
            limit = memory_limit_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

    argv = ["status", str(folder), "--at", _AT, "--format", form, "-o", os.devnull]
    expired = threading.Event()
    timers: list[threading.Timer] = []

    def arm(child: subprocess.Popen) -> None:
        def stop() -> None:  # the whole group: status may solve in worker processes
            expired.set()
            with contextlib.suppress(ProcessLookupError):
                os.killpg(child.pid, signal.SIGKILL)

        if timeout:
            timers.append(threading.Timer(timeout, stop))
            timers[0].start()

    with tempfile.TemporaryFile() as err:
        done = own_peak.run(
            argv,
            arm,
            stdout=subprocess.DEVNULL,
            stderr=err,
            preexec_fn=cap,
            start_new_session=True,
        )
        for timer in timers:
            timer.cancel()
        err.seek(0)
        message = err.read().decode("utf-8", "replace").strip()
    if expired.is_set():
        return {"error": f"timed out after {timeout:g} s"}
    if done.returncode != 0:
        return {"error": f"exit {done.returncode}: {message[-200:]}"}
    return {
        "seconds": round(done.cpu_s, 3),
        "wall_seconds": round(done.wall_s, 3),
        "peak_rss_mb": round(done.peak_mb, 1),
    }


def measure(
    base: Path,
    events: int = EVENTS,
    expectations: int = EXPECTATIONS,
    memory_limit_mb: int | None = 8192,
    timeout: float | None = None,
) -> dict:
    """Both histories in both formats; ratios of gaps to twin and the verdict on the target."""
    result: dict = {"kind": "gaps", "events": events, "expectations": expectations}
    gaps = write(base / f"gaps-{events}-x-{expectations}", events, expectations, 2)
    twin = write(base / f"twin-{events}-x-{expectations}", events, expectations, 1)
    for form in FORMATS:
        row = {"twin": _run(twin, form, memory_limit_mb, timeout)}
        row["gaps"] = _run(gaps, form, memory_limit_mb, timeout)
        if "error" not in row["gaps"] and "error" not in row["twin"]:
            for key in ("seconds", "peak_rss_mb"):
                row[f"{key}_ratio"] = round(row["gaps"][key] / max(row["twin"][key], 1e-9), 2)
            row["within_3x"] = all(row[f"{k}_ratio"] <= LIMIT for k in ("seconds", "peak_rss_mb"))
        else:
            row["within_3x"] = False
        result[form] = row
    return result


def table(result: dict) -> str:
    """The measurement as a small table, one line per format."""
    head = (
        f"sequence gaps: {result['events']:,} events (seq steps by 2) x "
        f"{result['expectations']} expectations, against the gap-free twin\n"
        "format  gaps s   twin s   ratio  gaps MB  twin MB  ratio  target <= 3x  (CPU seconds)\n"
    )
    lines = []
    for form in FORMATS:
        row = result[form]
        gaps, twin = row["gaps"], row["twin"]
        if "error" in gaps or "error" in twin:
            lines.append(f"{form:<7} error: {gaps.get('error') or twin.get('error')}")
            continue
        lines.append(
            f"{form:<7} {gaps['seconds']:>6.2f} {twin['seconds']:>8.2f} "
            f"{row['seconds_ratio']:>7.1f} {gaps['peak_rss_mb']:>8.0f} "
            f"{twin['peak_rss_mb']:>8.0f} {row['peak_rss_mb_ratio']:>6.1f}  "
            f"{'PASS' if row['within_3x'] else 'MISS'}"
        )
    return head + "\n".join(lines) + "\n"
