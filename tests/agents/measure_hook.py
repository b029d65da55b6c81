"""Measure what `openloop hook claude-code` costs on a 10k-event history, in CPU seconds.

Not a test (nothing here asserts a time): run it by hand,

    .venv/bin/python tests/agents/measure_hook.py DIR [--events 10000] [--runs 3]

It generates the synthetic bench history into DIR (reused on later runs), adds the release-7
task of ``conftest.py`` (its channels renamed so they do not collide with the bench's), then
feeds ``payloads/task_completed.json`` to the real command in a fresh process and reports the
CPU seconds (user + system, ``RUSAGE_CHILDREN``) of each call: cold (``--no-cache``), the call
that fills an empty cache, and warm (the cache current, after the previous claim's background
re-preparation finished). The background re-preparation is a detached process whose CPU is not
counted: the host waits only for the hook.
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
from pathlib import Path

from agent_helpers import EVENTS, HISTORY

from lab.bench.generate import ensure
from resolver.agents.identity import prepare_as

PAYLOAD = Path(__file__).parent / "payloads" / "task_completed.json"
RENAMES = {"deploys": "release-deploys", "docs": "release-docs"}


def build(folder: Path, events: int, allowed: bool = False) -> Path:
    """The bench history plus the release-7 task, in ``folder/history`` (written afresh);
    ``allowed`` adds the deploy's confirmation, so that the task is complete."""
    bench = ensure(folder / "bench", events)
    history = folder / "history"
    shutil.rmtree(history, ignore_errors=True)
    history.mkdir(parents=True)
    shutil.copyfile(bench.ol, history / "project.ol")
    text = HISTORY
    for old, new in RENAMES.items():
        text = text.replace(f"channel {old} ", f"channel {new} ")
        text = text.replace(f"search {old}\n", f"search {new}\n")
    # The bench declares its own principals; keep only the release task's channels and task.
    text = text.replace("actor alice principal\n", "")
    (history / "release.ol").write_text(text, encoding="utf-8")
    lines = bench.jsonl.read_text(encoding="utf-8")
    for event in EVENTS:
        lines += json.dumps({**event, "channel": RENAMES[event["channel"]]}) + "\n"
    if allowed:
        confirmed = {**EVENTS[1], "id": "deploy-2", "seq": 2, "outcome": "confirmed"}
        lines += json.dumps({**confirmed, "channel": "release-deploys"}) + "\n"
    (history / "events.jsonl").write_text(lines, encoding="utf-8")
    return history


def hook(history: Path, env: dict[str, str], *options: str, refused: bool = True) -> float:
    """CPU seconds of one hook call in a fresh process (checking that it refused, or not)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    command = [sys.executable, "-m", "resolver", "hook", "claude-code", "--task", "release-7"]
    done = subprocess.run(
        [*command, str(history), "--max-refusals", "1000", *options],
        input=PAYLOAD.read_text(encoding="utf-8"),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    expected = (2, True) if refused else (0, False)
    if (done.returncode, "release-7/deploy" in done.stderr) != expected:
        raise SystemExit(f"unexpected answer (exit {done.returncode}): {done.stderr}")
    return cpu


def wait_for_cache(history: Path, env: dict[str, str]) -> None:
    """Make the store's entry current for the files as they are now (what the hook's
    background child does after a claim), in this process, so the next call is a warm one."""
    os.environ["OPENLOOP_CACHE_DIR"] = env["OPENLOOP_CACHE_DIR"]
    prepare_as([history], "agent", True, "release-7")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--allowed", action="store_true", help="confirm the deploy first")
    args = parser.parse_args()
    history = build(args.folder, args.events, args.allowed)
    refused = not args.allowed
    env = dict(os.environ, OPENLOOP_CACHE_DIR=str(args.folder / "cache"))
    shutil.rmtree(env["OPENLOOP_CACHE_DIR"], ignore_errors=True)
    cold = [hook(history, env, "--no-cache", refused=refused) for _ in range(args.runs)]
    filling = hook(history, env, refused=refused)
    warm_runs = []
    for _ in range(args.runs):
        wait_for_cache(history, env)
        warm_runs.append(hook(history, env, refused=refused))
    what = "refused" if refused else "allowed"
    print(f"history: {args.events} events + the release-7 task; {what} TaskCompleted claims")
    print(f"cold (--no-cache)   median {statistics.median(cold):.2f} s CPU  {cold}")
    print(f"filling the cache          {filling:.2f} s CPU")
    print(f"warm (cache)        median {statistics.median(warm_runs):.2f} s CPU  {warm_runs}")


if __name__ == "__main__":
    main()
