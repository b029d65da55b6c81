"""The real-history row (issue 26): what a user waits for on a repository nobody here wrote.

For each git bundle (``python -m lab bench --real BUNDLE...``): clone it, ``openloop ingest git
--todos`` it (the real command), declare the TODO-debt policy of SPEC §6.1 (one instance per
TODO comment added) and one task for the hook, then, with an empty cache folder, time each
command in a fresh interpreter: ``status`` twice (from the files, then on the store),
``explain`` of one expectation, ``report`` (the HTML page) and the hook judging a task claim,
first on an empty cache and then as the next claims of a session (the median of three, each after
the previous call's background warm-up).
CPU seconds and each command's own peak RSS; the floor is reading the ingested log with the
``json`` module.
"""

from __future__ import annotations

import json
import subprocess
import tempfile
import time
from pathlib import Path

from lab.bench.children import settle
from lab.bench.measure import read_floor
from lab.bench.store_rows import HOOK_DECLARATIONS, HOOK_PAYLOAD, HOOK_TASK, cache_folder
from lab.bench.store_rows import command as timed

#: The TODO-debt policy of SPEC §6.1, as the accuracy study declares it.
POLICY = """\
policy todo-debt {
  title "Resolve the TODO in $1"
  when set todo.* = "open"
  want $key = "removed"
  superseded_when $key = "file_deleted"
}
"""


def measure(bundle: str | Path, log) -> dict:
    """Every command's CPU seconds and peak RSS on one bundle's history."""
    name = Path(bundle).stem
    out: dict = {"kind": "real", "history": name}
    with tempfile.TemporaryDirectory(prefix="openloop-real-") as scratch:
        history = ingested(bundle, Path(scratch), out, log)
        with cache_folder(Path(scratch) / "cache"):
            page = Path(scratch) / "status.json"
            steps = [
                ("status_first", ["status", str(history), "--format", "json", "-o", str(page)]),
                ("status_unchanged", ["status", str(history), "--format", "json"]),
            ]
            for key, argv in steps:
                _step(out, key, argv, log, name)
            document = json.loads(page.read_text(encoding="utf-8"))
            ids = sorted(x["id"] for x in document["expectations"])
            if ids:
                _step(out, "explain", ["explain", ids[len(ids) // 2], str(history)], log, name)
            report = Path(scratch) / "report.html"
            _step(out, "report", ["report", str(history), "-o", str(report)], log, name)
            hook = ["hook", "claude-code", "--task", HOOK_TASK, str(history)]
            payload = json.dumps(HOOK_PAYLOAD).encode()
            _step(out, "hook_first", hook, log, name, payload)
            # The next claims, as an agent's session makes them: each after the previous
            # call's background warm-up has ended, minus the start-up.
            startup = timed(["hook", "claude-code", "--help"]).cpu_s
            again = []
            for _ in range(3):
                settle(history)
                again.append(timed(hook, payload).cpu_s)
            settle(history)  # the last warm-up writes into the scratch folder: let it end
            out["hook_again_cpu_s"] = round(sorted(again)[1], 3)
            out["hook_startup_cpu_s"] = round(startup, 3)
            out["hook_again_after_startup_cpu_s"] = round(max(0.0, sorted(again)[1] - startup), 3)
            log(f"{name}: hook again {out['hook_again_cpu_s']:.2f} s CPU ({startup:.2f} start-up)")
    return out


def ingested(bundle: str | Path, scratch: Path, out: dict, log) -> Path:
    """The history a user of ``bundle`` would have: the clone ``ingest git --todos``-ed into
    ``scratch/history`` beside the TODO-debt policy and the bench's task; ``out`` gets the
    ingest's CPU, the commits and the floor."""
    name = Path(bundle).stem
    repo, history = scratch / "repo", scratch / "history"
    subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True)
    history.mkdir()
    events = history / "commits.jsonl"
    done = timed(["ingest", "git", str(repo), "--todos", "-o", str(events)])
    out["ingest_cpu_s"] = round(done.cpu_s, 3)
    (history / "todo-debt.ol").write_text(POLICY, encoding="utf-8")
    (history / "bench-task.ol").write_text(HOOK_DECLARATIONS, encoding="utf-8")
    with events.open(encoding="utf-8") as stream:
        out["commits"] = sum(1 for _ in stream)
    started = time.process_time()
    read_floor(str(events))
    out["floor_cpu_s"] = round(time.process_time() - started, 4)
    log(f"{name}: {out['commits']:,} commits ingested in {done.cpu_s:.1f} s CPU")
    return history


def _step(out: dict, key: str, argv: list[str], log, name: str, stdin: bytes | None = None):
    done = timed(argv, stdin)
    out[f"{key}_cpu_s"] = round(done.cpu_s, 3)
    out[f"{key}_rss_mb"] = round(done.peak_mb, 1)
    log(f"{name}: {key} {done.cpu_s:.2f} s CPU, {done.peak_mb:.0f} MB")


def table(results: list[dict]) -> str:
    """One line per real history."""
    head = (
        "history  commits  floor ms  ingest s  status s (MB)  status on the store s  "
        "explain s (MB)  report s (MB)  hook s  hook again s (after start-up)"
    )
    lines = [head]
    for r in results:
        lines.append(
            f"{r['history']}  {r['commits']:,}  {r['floor_cpu_s'] * 1000:.0f}"
            f"  {r['ingest_cpu_s']:.2f}"
            f"  {r['status_first_cpu_s']:.2f} ({r['status_first_rss_mb']:.0f})"
            f"  {r['status_unchanged_cpu_s']:.2f}"
            f"  {r.get('explain_cpu_s', 0):.2f} ({r.get('explain_rss_mb', 0):.0f})"
            f"  {r['report_cpu_s']:.2f} ({r['report_rss_mb']:.0f})"
            f"  {r['hook_first_cpu_s']:.2f}"
            f"  {r.get('hook_again_cpu_s', 0):.2f}"
            f" ({r.get('hook_again_after_startup_cpu_s', 0):.2f})"
        )
    lines.append("CPU seconds of each command in a fresh interpreter, empty cache at the start")
    return "\n".join(lines) + "\n"
