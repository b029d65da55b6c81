"""The rows of ``openloop bench PATH...``: each command a user runs, timed on their history.

Each command runs as a user runs it, in a fresh interpreter (start-up included), and is measured
in CPU seconds (the steady figure on a shared machine, where wall time moves with other jobs)
and its own peak RSS (:mod:`.own_peak`: not the size of this process). Every command sees a
cache folder of the bench's own, so the first ``status`` finds the store empty, and the user's
cache is neither read nor filled:

* ``startup``: ``openloop status --help``: the interpreter and the imports every command pays;
* ``status_cold``: ``status --format json`` with an empty cache: load, prepare, solve, print,
  and fill the store;
* ``status_store``: the same again: the store's prepared history and its stored answer;
* ``warm``: in this process, through :mod:`resolver.api`: ``status`` at other standpoints on the
  history prepared once (what the MCP server pays per question), the median of ``standpoints``
  instants spread over the history's span;
* ``explain``: ``explain ID`` of one expectation (the one asked for, else the middle one by id);
* ``check``: the gate over every expectation.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from resolver import __version__, api
from resolver.benchmark import own_peak

#: Standpoints timed warm by default.
STANDPOINTS = 5


@dataclass(frozen=True)
class Row:
    """One measured row: what ran, its CPU seconds, its own peak RSS (None when it ran in this
    process) and its exit code (None in this process)."""

    row: str
    label: str
    command: str
    cpu_s: float
    rss_mb: float | None = None
    exit: int | None = None


class CommandFailed(Exception):
    """A timed command ended with an exit code it never gives on a good history: ``code`` 2 is
    bad input (the paths, the standpoint, the id), whose message ``stderr`` holds."""

    def __init__(self, argv: Sequence[str], code: int, stderr: str) -> None:
        super().__init__(f"openloop {' '.join(argv)} exited with {code}")
        self.code = code
        self.stderr = stderr


def measure(
    paths: Sequence[str],
    at: str | None = None,
    known: str | None = None,
    explain: str | None = None,
    standpoints: int = STANDPOINTS,
    log: Callable[[str], None] = lambda message: None,
) -> dict:
    """Every row on the history in ``paths``, as the JSON document ``bench --json`` prints."""
    stamp = [*(["--at", at] if at else []), *(["--known", known] if known else [])]
    shown = " ".join([*(paths if len(paths) <= 3 else ["PATH..."]), *stamp])
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix="openloop-bench-") as scratch, _cache(scratch):
        rows.append(_command("startup", "start-up", ["status", "--help"], "status --help"))
        cold = ["status", *paths, *stamp, "--format", "json", "-o", os.devnull]
        said = f"status {shown} --format json"
        rows.append(_command("status_cold", "status, empty cache", cold, said))
        log(f"status with an empty cache: {rows[-1].cpu_s:.2f} s CPU")
        rows.append(_command("status_store", "status on the store", cold, said + " (again)"))
        prepared = api.prepare(paths, store=True)
        project = prepared.project
        warm = _warm(prepared, standpoints)
        if warm is not None:
            label = f"warm standpoint (median of {standpoints})"
            said = "status at other standpoints, the history prepared once, in one process"
            rows.append(Row("warm", label, said, round(warm, 4)))
        ids = sorted(x.id for x in project.expectations)
        ident = explain or (ids[len(ids) // 2] if ids else None)
        if ident is not None:
            argv = ["explain", ident, *paths, *stamp]
            rows.append(_command("explain", "explain", argv, f"explain {ident} {shown}"))
        rows.append(_command("check", "check", ["check", *paths, *stamp], f"check {shown}"))
    return {
        "schema_version": 1,
        "kind": "bench_history",
        "openloop": __version__,
        "paths": [str(p) for p in paths],
        "at": at,
        "known": known,
        "events": len(project.events),
        "expectations": len(project.expectations),
        "tasks": len(project.tasks),
        "rows": [vars(r) for r in rows],
    }


def _command(row: str, label: str, argv: list[str], said: str) -> Row:
    """``openloop ARGV`` in a fresh interpreter, measured; its output thrown away."""
    with tempfile.TemporaryFile() as errors:
        done = own_peak.run(argv, stdout=subprocess.DEVNULL, stderr=errors)
        if done.returncode not in _EXPECTED.get(argv[0], (0,)):
            errors.seek(0)
            raise CommandFailed(argv, done.returncode, errors.read().decode(errors="replace"))
    cpu, rss = round(done.cpu_s, 4), round(done.peak_mb, 1)
    return Row(row, label, f"openloop {said}", cpu, rss, done.returncode)


#: The exit codes each command gives on a good history (``check``: 1 outstanding, 3 unknown).
_EXPECTED = {"status": (0,), "explain": (0,), "check": (0, 1, 3)}


def _warm(prepared: api.Prepared, count: int) -> float | None:
    """The median CPU seconds of ``status`` (key reasons, as the command asks) at ``count``
    instants spread evenly over the history's span; None for a history without events."""
    instants = [event.at for event in prepared.project.events]
    if not instants or count < 1:
        return None
    first, last = min(instants), max(instants)
    spent = []
    for k in range(count):
        instant = first + (last - first) * (k + 1) // (count + 1)
        started = time.process_time()
        api.status(prepared, at=instant, known=instant, every_reason=False)
        spent.append(time.process_time() - started)
    return statistics.median(spent)


@contextmanager
def cache_folder(folder: str | Path) -> Iterator[None]:
    """Point this process and the commands it starts at ``folder`` as the cache."""
    before = os.environ.get("OPENLOOP_CACHE_DIR")
    os.environ["OPENLOOP_CACHE_DIR"] = str(folder)
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("OPENLOOP_CACHE_DIR", None)
        else:
            os.environ["OPENLOOP_CACHE_DIR"] = before


def _cache(scratch: str):
    """A cache folder inside ``scratch`` (see :func:`cache_folder`)."""
    return cache_folder(Path(scratch) / "cache")


def table(document: dict) -> str:
    """The rows for a person: CPU seconds, peak RSS and what ran."""
    paths = ", ".join(document["paths"])
    counts = ", ".join(_many(document[k], k) for k in ("events", "expectations", "tasks"))
    head = f"openloop bench: {counts} ({paths})"
    width = max(len(r["label"]) for r in document["rows"])
    lines = [head, f"{'row':<{width}}  {'CPU s':>7}  {'peak RSS MB':>11}  what ran"]
    for r in document["rows"]:
        rss = "-" if r["rss_mb"] is None else f"{r['rss_mb']:.0f}"
        code = f" (exit {r['exit']})" if r["exit"] else ""
        lines.append(f"{r['label']:<{width}}  {r['cpu_s']:>7.3f}  {rss:>11}  {r['command']}{code}")
    lines.append("CPU seconds and own peak RSS of each command in a fresh interpreter, start-up")
    lines.append("included, with a cache folder of the bench's own (yours is neither read nor")
    lines.append("filled); the warm standpoint in one process, on the history prepared once.")
    return "\n".join(lines) + "\n"


def _many(count: int, plural: str) -> str:
    return f"{count:,} {plural if count != 1 else plural.removesuffix('s')}"
