"""The hook's first claim of a session on a real history (issue 28), re-runnable by hand.

    python -m lab.bench.hook_first_claim BUNDLE [--runs 5]

The history is set up as the real-history row does (:mod:`lab.bench.real_rows`): the bundle
cloned, ``openloop ingest git --todos`` run on it, the TODO-debt policy and the bench's task
declared beside the log; then ``openloop status`` runs once, which fills the store. That state
("after status": the cache folder and the log) is copied aside. Each run restores it and runs
``status`` again untimed (a lookup on the restored store; a refill if the code the store's key
covers changed meanwhile, as it does in a checkout being edited), then times, each in a fresh
``python -m resolver`` process fed a TaskCompleted payload on stdin:

* the first claim of a session (the store as ``status`` left it);
* a next claim (after the first claim's background warm-up has ended);
* the first claim after a stop that claims nothing (a reply that asks a question: the session's
  earlier replies), once that stop's background warm-up has ended;
* the first claim after a session's start (``SessionStart``), once its warm-up has ended;
* ``hook claude-code --help``: the start-up (the interpreter and the hook's imports).

Bytecode is written and read as an installed package's is; a first run, which compiles it, is
not counted.

CPU seconds are user + system of the waited-for child (``RUSAGE_CHILDREN``); the detached
warm-up child is not counted, as the host does not wait for it. Medians over the runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from lab.bench.children import settle
from lab.bench.real_rows import POLICY
from lab.bench.store_rows import HOOK_DECLARATIONS, HOOK_PAYLOAD, HOOK_TASK
from lab.bench.store_rows import command as timed
from resolver.benchmark.timing import cache_folder

#: The last message of a reply that claims nothing (a stop the hook allows and only warms on).
ASKS = "The notes are drafted. Should I publish them now, or wait for a review?"


#: The commands' environment: bytecode is written and read, as an installed package's is (with
#: ``PYTHONDONTWRITEBYTECODE`` every module would be compiled from source in every process).
ENVIRONMENT = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def cpu_of(argv: list[str], stdin: bytes = b"") -> tuple[float, int]:
    """CPU seconds and exit code of ``python -m resolver ARGV`` in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(
        [sys.executable, "-m", "resolver", *argv],
        input=stdin,
        capture_output=True,
        check=False,
        env={**ENVIRONMENT, "OPENLOOP_CACHE_DIR": os.environ["OPENLOOP_CACHE_DIR"]},
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode not in (0, 2):
        raise SystemExit(f"{argv}: exit {done.returncode}: {done.stderr.decode()}")
    return cpu, done.returncode


def restore(saved: Path, target: Path) -> None:
    """Put ``target`` back as ``saved`` holds it."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(saved, target)


def setup(bundle: Path, scratch: Path) -> Path:
    """Clone, ingest, declare; return the history folder."""
    repo, history = scratch / "repo", scratch / "history"
    subprocess.run(["git", "clone", "-q", str(bundle), str(repo)], check=True)
    history.mkdir()
    timed(["ingest", "git", str(repo), "--todos", "-o", str(history / "commits.jsonl")])
    (history / "todo-debt.ol").write_text(POLICY, encoding="utf-8")
    (history / "bench-task.ol").write_text(HOOK_DECLARATIONS, encoding="utf-8")
    return history


def measure(bundle: Path, runs: int) -> dict[str, list[float]]:
    """Every run's CPU seconds: first claim, next claim, start-up."""
    payload = json.dumps(HOOK_PAYLOAD).encode()
    asks = json.dumps({**HOOK_PAYLOAD, "hook_event_name": "Stop", "last_assistant_message": ASKS})
    started = json.dumps({**HOOK_PAYLOAD, "hook_event_name": "SessionStart", "source": "startup"})
    out: dict[str, list[float]] = {
        "first": [],
        "next": [],
        "after stop": [],
        "after start": [],
        "startup": [],
    }
    with tempfile.TemporaryDirectory(prefix="openloop-hook-first-") as name:
        scratch = Path(name)
        history = setup(bundle, scratch)
        cache = scratch / "cache"
        with cache_folder(cache):
            status = ["status", str(history), "--format", "json"]
            cpu_of(status)
            shutil.copytree(cache, scratch / "saved-cache")
            shutil.copytree(history, scratch / "saved-history")
            hook = ["hook", "claude-code", "--task", HOOK_TASK, str(history)]

            def claims_after(before: bytes | None, count: int) -> list[float]:
                """From the state after ``status``: the call ``before`` (if any) and its
                warm-up, then ``count`` claims, each refused and its warm-up let end."""
                restore(scratch / "saved-cache", cache)
                restore(scratch / "saved-history", history)
                cpu_of(status)
                if before is not None:
                    cpu_of(hook, before)
                    settle(history)
                spent = []
                for _ in range(count):
                    cpu, code = cpu_of(hook, payload)
                    settle(history)
                    if code != 2:
                        raise SystemExit(f"a claim was not refused (exit {code})")
                    spent.append(cpu)
                return spent

            for n in range(runs + 1):  # the first run writes the bytecode: not counted
                first, again = claims_after(None, 2)
                (stopped,) = claims_after(asks.encode(), 1)
                (begun,) = claims_after(started.encode(), 1)
                startup, _ = cpu_of(["hook", "claude-code", "--help"])
                if n == 0:
                    continue
                out["first"].append(first)
                out["next"].append(again)
                out["after stop"].append(stopped)
                out["after start"].append(begun)
                out["startup"].append(startup)
                print(
                    f"run: first {first:.3f} s, next {again:.3f} s, first after a stop "
                    f"{stopped:.3f} s, first after a session's start {begun:.3f} s, "
                    f"start-up {startup:.3f} s"
                )
    return out


def table(figures: dict[str, list[float]]) -> str:
    """Whole process, start-up and after start-up, for the first and a next claim."""
    startup = statistics.median(figures["startup"])
    lines = ["claim        whole s  start-up s  after start-up s", "-" * 49]
    for key in ("first", "next", "after stop", "after start"):
        whole = statistics.median(figures[key])
        lines.append(f"{key:<11}  {whole:7.3f}  {startup:10.3f}  {whole - startup:16.3f}")
    lines.append(f"medians of {len(figures['first'])} runs, CPU seconds (user + system)")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("bundle", type=Path, help="a git bundle (or a clone) of the history")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(table(measure(args.bundle.resolve(), args.runs)))


if __name__ == "__main__":
    main()
